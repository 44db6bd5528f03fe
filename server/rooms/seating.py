"""The table of a room: who sits where, who watches, and the messages that tell them.

:class:`~server.rooms.room.Room` adds the rules of play on top: moves, seats taken, presence,
agreements and the turn timer.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections.abc import Callable, Iterable
from typing import Any, Literal, NoReturn

from muggins.server.results.settle import PAIR_RATED_MAX
from muggins.server.rooms.cluster_seam import NO_CLUSTER, RoomCluster, RoomWrites
from muggins.server.rooms.players import Peer, Player, Refusal, SeatState
from muggins.server.rooms.story import chat_memory, match_story
from muggins.server.rooms.turn_clock import TurnClock, bank_seconds
from muggins.server.store.games import RoomRecord, Store
from muggins.shared.actions import Action, Discard
from muggins.shared.match import Match
from muggins.shared.protocol import ChatLine, Notice, RoomOptions, SeatClock, SeatInfo, State, Story
from muggins.shared.protocol import Room as RoomMessage
from muggins.shared.protocol.client import MessageId

RoomStatus = Literal["waiting", "playing", "over"]
BotFactory = Callable[[Any, int, str], Peer]
"""Makes the computer's peer for (room, seat, level)."""


def random_seed() -> bytes:
    """A fresh match seed: 32 bytes from the operating system's secure source."""
    return secrets.token_bytes(32)


def dismiss_bot(seat: SeatState) -> None:
    """Stop the computer player in ``seat``, if any (a remote or delayed bot has a ``close``)."""
    close = getattr(seat.bot, "close", None)
    if close is not None:
        close()


class Table:
    """A room's seats, spectators and match, and how its facts reach the people in it."""

    def __init__(
        self,
        code: str,
        options: RoomOptions,
        *,
        store: Store,
        grace: float,
        make_bot: BotFactory,
        created: float | None = None,
        clock: Callable[[], float] = time.monotonic,
        on_action: Callable[[float], None] | None = None,
        on_change: Callable[[Table], None] | None = None,
        new_seed: Callable[[], bytes] = random_seed,
    ) -> None:
        self.code = code
        self.options = options
        self.store = store
        self.writes: RoomWrites = store
        """Where the seats, a new match and each action are written (see :meth:`share`)."""
        self.cluster: RoomCluster = NO_CLUSTER
        """The cluster this room is one node's copy of (none on one server)."""
        self.grace = grace
        self.rated_pair_max = PAIR_RATED_MAX
        """Rated matches a day between two accounts that count (the server's option)."""
        self.make_bot = make_bot
        self.clock = clock
        self.new_seed = new_seed
        """Where each match's seed comes from (its deals follow from the seed)."""
        self.on_action = on_action
        self.on_change = on_change
        """Told whenever the room's public facts may have changed (the lobby's room index)."""
        self.created = created if created is not None else time.time()
        self.seats = (SeatState(0, table=self), SeatState(1, table=self))
        self.spectators: set[Peer] = set()
        self.match: Match | None = None
        self.match_number = 0
        self.holders: tuple[str, str] = ("", "")
        """Who holds each seat of the current match as stored: its names at the start, then
        each hand-over (see :meth:`Room.note_hand_over`)."""
        self.seq_base = 0
        self.move_tags: list[tuple[int | None, str | None]] = []
        """Each action of the current match: the seq it named and its key (see
        :func:`server.store.games.move_key`); None where not known (an action from before)."""
        self.lock = asyncio.Lock()
        self.restart_by: int | None = None
        self.rematch = [False, False]
        self.tournament: str | None = None
        """The tournament this room's match is a game of (no restart, rematch or computer)."""
        self.duplicate_table: Literal[1, 2] | None = None
        """Which table of a duplicate match this room is (see server.lobby.duplicate)."""
        self.last_activity = clock()
        self.closed = False
        self.chat = chat_memory()
        """The latest chat lines, told to newcomers with the match's story."""
        self._turn_timer: asyncio.TimerHandle | None = None
        self.turn_clock = (
            TurnClock(options.turn_timer, bank_seconds(options), clock=clock)
            if options.turn_timer is not None
            else None
        )
        """A timed room's clock: the per-move limit plus a bank per seat (none: no bank)."""

    @property
    def turn_limit(self) -> float | None:
        """Seconds per move before the bank is drawn on (from the options); None: no timer."""
        return self.turn_clock.move if self.turn_clock is not None else None

    @turn_limit.setter
    def turn_limit(self, seconds: float) -> None:
        assert self.turn_clock is not None
        self.turn_clock.move = seconds

    def clock_now(self) -> tuple[SeatClock | None, SeatClock | None] | None:
        """The turn clock as a state sent now shows it (each waited-for seat's time left), its
        waiting seats brought up to date first; None in a room without a timer."""
        if self.turn_clock is None or self.match is None or self.match.over:
            return None
        self.turn_clock.wait(self.match.waiting_for(), self.match.log)
        return self.turn_clock.left_now()

    def share(self, cluster: RoomCluster, writes: RoomWrites) -> None:
        """Make this room a cluster node's copy of a room: ``cluster`` keeps it agreeing with the
        other nodes' copies, and its writes go through ``writes`` (compare-and-set)."""
        self.cluster, self.writes = cluster, writes

    # --- facts ---------------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.seq_base + self.match_number + (len(self.match.log) if self.match else 0)

    @property
    def first_seq(self) -> int:
        """The seq of the current match's opening state (its action 0 answers it)."""
        return self.seq_base + self.match_number

    def applied(self, seq: int, key: str | None) -> bool:
        """Whether the move with ``key`` naming state ``seq`` is in the current match's log."""
        return key is not None and (seq, key) in self.move_tags

    def still_current(self, seat: int, seq: int, action: Action) -> bool:
        """Whether a move naming ``seq`` answers what ``seat`` still sees.

        True at the current seq. Also when the move is a discard and everything since ``seq``
        was the other seat laying away (the one phase where both move at once): that changes
        nothing the mover chose from, so two players discarding together are both applied.
        """
        if seq == self.seq:
            return True
        start = seq - self.first_seq
        if (
            self.match is None
            or not isinstance(action, Discard)
            or not 0 <= start < len(self.match.log)
        ):
            return False
        since = self.match.log[start:]
        return all(other != seat and isinstance(done, Discard) for other, done in since)

    def refuse_stale(self, seat: int | None, seq: int, *, origin: Peer | None) -> NoReturn:
        """Refuse a request that answers another state: send ``origin`` the state, then say so."""
        now = self.seq
        state = self.state_for(seat)
        if origin is not None and state is not None:
            origin.send(state)
        raise Refusal(
            "stale",
            f"That answered an earlier state of the game (seq {seq}); it is at seq {now} now. "
            "Look again and choose anew",
            seq=now,
        )

    @property
    def status(self) -> RoomStatus:
        if self.match is None:
            return "waiting"
        return "over" if self.match.over else "playing"

    def names(self) -> tuple[str, str]:
        """The seats' names for sentences; two players of one name become "Ann" and "Ann (2)"."""
        one, two = self.seats
        first, second = one.name or "Seat 1", two.name or "Seat 2"
        return (first, f"{second} (2)") if first == second else (first, second)

    def record(self) -> RoomRecord:
        return RoomRecord(
            code=self.code,
            options=self.options,
            created=self.created,
            seats=(self.seats[0].record(), self.seats[1].record()),
        )

    def seat_of(self, player: Player) -> int | None:
        for seat in self.seats:
            if seat.kind == "human" and seat.player is player:
                return seat.index
        return None

    def held_for(self, player: Player) -> SeatState | None:
        """A seat ``player``'s account holds through another connection (another tab or
        device), which ``player`` may take over; one whose holder is gone first."""
        if player.account is None or self.seat_of(player) is not None:
            return None
        held = [
            s
            for s in self.seats
            if s.kind == "human" and s.account == player.account and s.player is not player
        ]
        held.sort(key=lambda s: s.peer is not None)
        return held[0] if held else None

    def claimable_in(self, seat: SeatState) -> float | None:
        if seat.kind != "human" or seat.gone_since is None:
            return None
        return max(0.0, round(seat.gone_since + self.grace - self.clock(), 1))

    def put_bot(self, seat: SeatState, level: str) -> None:
        seat.kind, seat.player, seat.level, seat.gone_since = "bot", None, level, None
        seat.bot = self.make_bot(self, seat.index, level)

    def present(self) -> bool:
        """Whether any person is connected here (seated or watching)."""
        return bool(self.spectators) or any(
            s.kind == "human" and s.peer is not None for s in self.seats
        )

    def room_message(self, you: int | None, *, id: MessageId = None) -> RoomMessage:
        shown = self.names()  # two seats never show the same name
        infos = tuple(
            SeatInfo(
                seat=s.index,
                name=shown[s.index] if s.name is not None else None,
                player=s.player.id if s.kind == "human" and s.player else None,
                kind=s.kind,
                level=s.level,
                connected=s.kind == "bot" or s.peer is not None,
                claimable_in=self.claimable_in(s),
            )
            for s in self.seats
        )
        return RoomMessage(
            id=id,
            code=self.code,
            options=self.options,
            seats=(infos[0], infos[1]),
            spectators=len(self.spectators),
            you=you,
            status=self.status,
            match_number=self.match_number,
            restart_proposed_by=self.restart_by,
            rematch_wanted=(self.rematch[0], self.rematch[1]),
            bank=self.turn_clock.left() if self.turn_clock and self.turn_clock.bank else None,
            duplicate_table=self.duplicate_table,
        )

    def state_for(self, seat: int | None, *, id: MessageId = None) -> State | None:
        if self.match is None:
            return None
        return State(id=id, seq=self.seq, view=self.match.view(seat), clock=self.clock_now())

    # --- sending -------------------------------------------------------------------------------

    def receivers(self) -> Iterable[tuple[int | None, Peer]]:
        for seat in self.seats:
            peer = seat.peer
            if peer is not None:
                yield seat.index, peer
        for peer in list(self.spectators):
            yield None, peer

    def send_room(self, *, origin: Peer | None = None, id: MessageId = None) -> None:
        """The room's facts to everyone in it; ``origin``'s copy answers its message ``id``."""
        if self.on_change is not None:
            self.on_change(self)
        for seat, peer in self.receivers():
            peer.send(self.room_message(seat, id=id if peer is origin else None))

    def notice(self, code: str, text: str, *, skip: Peer | None = None) -> None:
        """A notice to everyone in the room, here and on the cluster's other nodes."""
        self.notice_here(code, text, skip=skip)
        self.cluster.relay_notice(code, text)

    def notice_here(self, code: str, text: str, *, skip: Peer | None = None) -> None:
        """A notice to the room's people connected to this server."""
        message = Notice(code=code, text=text)
        for _, peer in self.receivers():
            if peer is not skip:
                peer.send(message)

    def say(
        self,
        line: ChatLine,
        *,
        origin: Peer | None,
        id: MessageId = None,
        sender: str | None = None,
    ) -> None:
        """A chat line to everyone in the room; ``origin``'s copy answers its message ``id``.
        Those who hide the ``sender`` account's chat are not sent it."""
        self.say_here(line, origin=origin, id=id, sender=sender)
        self.cluster.relay_chat(line)

    def say_here(
        self,
        line: ChatLine,
        *,
        origin: Peer | None,
        id: MessageId = None,
        sender: str | None = None,
    ) -> None:
        """A chat line to the room's people connected to this server."""
        self.chat.append(line)
        for _, peer in self.receivers():
            if peer is origin:
                peer.send(line.model_copy(update={"id": id}))
                continue
            receiver = getattr(peer, "player", None)
            if sender is not None and sender in getattr(receiver, "hidden", ()):
                continue
            peer.send(line)

    def welcome_back(self, peer: Peer, seat: int | None, *, id: MessageId = None) -> None:
        """Everything a newcomer or returning player needs: the room, then the state."""
        peer.send(self.room_message(seat, id=id))
        state = self.state_for(seat)
        if state is not None:
            peer.send(state)
        self.tell_story(peer)

    def tell_story(self, peer: Peer) -> None:
        """The current match so far and the latest chat, to someone who just came in."""
        story = self.story()
        if story is not None:
            peer.send(story)

    def story(self) -> Story | None:
        if self.match is None:
            return None
        return match_story(
            self.match,
            code=self.code,
            number=self.match_number,
            names=self.names(),
            chat=self.chat,
        )
