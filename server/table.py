"""The table of a room: who sits where, who watches, and the messages that tell them.

:class:`~server.room.Room` adds the rules of play on top: actions, agreements and timers.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Iterable
from typing import Any, Literal

from server.players import Peer, Player, SeatState
from server.store import RoomRecord, Store
from shared.match import Match
from shared.protocol import ChatLine, Notice, RoomOptions, SeatInfo, State
from shared.protocol import Room as RoomMessage
from shared.protocol.client import MessageId

RoomStatus = Literal["waiting", "playing", "over"]
BotFactory = Callable[[Any, int, str], Peer]
"""Makes the computer's peer for (room, seat, level)."""


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
    ) -> None:
        self.code = code
        self.options = options
        self.store = store
        self.grace = grace
        self.make_bot = make_bot
        self.clock = clock
        self.on_action = on_action
        self.created = created if created is not None else time.time()
        self.seats = (SeatState(0), SeatState(1))
        self.spectators: set[Peer] = set()
        self.match: Match | None = None
        self.match_number = 0
        self.seq_base = 0
        self.lock = asyncio.Lock()
        self.restart_by: int | None = None
        self.rematch = [False, False]
        self.last_activity = clock()
        self.closed = False
        self._turn_timer: asyncio.TimerHandle | None = None
        self.turn_limit: float | None = options.turn_timer
        """Seconds per move before the server moves for the player (from the options)."""

    # --- facts ---------------------------------------------------------------------------------

    @property
    def seq(self) -> int:
        return self.seq_base + self.match_number + (len(self.match.log) if self.match else 0)

    @property
    def status(self) -> RoomStatus:
        if self.match is None:
            return "waiting"
        return "over" if self.match.over else "playing"

    def names(self) -> tuple[str, str]:
        """The seats' names for sentences; two players of one name become "Ann" and "Ann (2)"."""
        first, second = (s.name or f"Seat {s.index + 1}" for s in self.seats)
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

    def claimable_in(self, seat: SeatState) -> float | None:
        if seat.kind != "human" or seat.gone_since is None:
            return None
        return max(0.0, round(seat.gone_since + self.grace - self.clock(), 1))

    def present(self) -> bool:
        """Whether any person is connected here (seated or watching)."""
        return bool(self.spectators) or any(
            s.kind == "human" and s.peer is not None for s in self.seats
        )

    def room_message(self, you: int | None, *, id: MessageId = None) -> RoomMessage:
        infos = tuple(
            SeatInfo(
                seat=s.index,
                name=s.name,
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
        )

    def state_for(self, seat: int | None, *, id: MessageId = None) -> State | None:
        if self.match is None:
            return None
        return State(id=id, seq=self.seq, view=self.match.view(seat))

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
        for seat, peer in self.receivers():
            peer.send(self.room_message(seat, id=id if peer is origin else None))

    def notice(self, code: str, text: str, *, skip: Peer | None = None) -> None:
        message = Notice(code=code, text=text)
        for _, peer in self.receivers():
            if peer is not skip:
                peer.send(message)

    def say(self, line: ChatLine, *, origin: Peer | None, id: MessageId = None) -> None:
        """A chat line to everyone in the room; ``origin``'s copy answers its message ``id``."""
        for _, peer in self.receivers():
            peer.send(line.model_copy(update={"id": id}) if peer is origin else line)

    def welcome_back(self, peer: Peer, seat: int | None, *, id: MessageId = None) -> None:
        """Everything a newcomer or returning player needs: the room, then the state."""
        peer.send(self.room_message(seat, id=id))
        state = self.state_for(seat)
        if state is not None:
            peer.send(state)
