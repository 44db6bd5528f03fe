"""A room: two seats, spectators, and the match between the seats.

The room is the referee's desk. Every change goes through one lock per room, is written to the
store, and only then reaches anyone, each receiver getting the engine's view for its own seat.
It knows nothing of sockets: it sends to :class:`~server.rooms.players.Peer` objects.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import secrets
import time
from collections.abc import Callable
from typing import Final

from muggins.server.results.settle import settle_match
from muggins.server.rooms.moves import anonymous_key, store_action
from muggins.server.rooms.players import Peer, Player, Refusal, SeatState
from muggins.server.rooms.rated import check_rated_seat
from muggins.server.rooms.seating import Table
from muggins.server.rooms.tokens import token_matches
from muggins.server.store.games import MatchRecord, Store, StoreError, move_key
from muggins.server.wire.send_cache import encoded_once
from muggins.shared.actions import Action, Event, GameOver, IllegalAction, Resign, described
from muggins.shared.handover import HandOver
from muggins.shared.match import Match
from muggins.shared.protocol import (
    GAME_MOVES,
    GameMove,
    Notice,
    SeatClock,
    State,
    to_action,
)
from muggins.shared.protocol import GameOver as GameOverMessage
from muggins.shared.protocol.client import MessageId
from muggins.shared.protocol.server import built_line, built_state
from muggins.shared.view import SeatView

log = logging.getLogger("muggins.room")


def _dismiss_bot(seat: SeatState) -> None:
    """Stop the computer player in ``seat``, if any (a remote or delayed bot has a ``close``)."""
    close = getattr(seat.bot, "close", None)
    if close is not None:
        close()


WHOLE_AFTER: Final = frozenset({"cut_for_deal", "deal_started", "deal_revealed", "game_over"})
"""Events after which a state's view is whole: the parts a brief view leaves out may change
only in a step holding one of them (a new match, a new deal, a deal's reveal, a game's end)."""


class StepStates:
    """The ``state`` each receiver gets after a step: its view, brief unless the step may have
    changed the parts a brief view leaves out, with the step's events and game end.

    Called with a seat (None: a spectator) and the ``id`` it answers, it makes that receiver's
    state from the match as it is now; :meth:`many` makes several at once.
    """

    def __init__(
        self,
        match: Match,
        seq: int,
        events: list[Event],
        names: tuple[str, str],
        clock: tuple[SeatClock | None, SeatClock | None] | None = None,
    ) -> None:
        # Built without validation: the engine made every part valid, and this runs for every
        # receiver of every move.
        self.match, self.seq, self.clock = match, seq, clock
        lines = []
        over = None
        target = match.options.target
        whole = match.winner is not None
        for e in events:
            text = described(e, names, target)
            lines.append(built_line(e, text))
            if not whole and e.type in WHOLE_AFTER:
                whole = True
            if isinstance(e, GameOver):
                over = GameOverMessage.model_construct(
                    outcome=e.outcome,
                    winner=names[e.outcome.winner],
                    match_points=e.match_points,
                    match_over=e.match_over,
                    text=text,
                )
        self.lines = tuple(lines)
        self.over = over
        self.short = not whole

    def __call__(self, seat: int | None, id: MessageId = None) -> State:
        return self._state(self.match.view(seat), id)

    def many(self, asked: list[tuple[int | None, MessageId]]) -> list[State]:
        """The states of several (seat, id) at once: their views are made together."""
        views = self.match.views([seat for seat, _ in asked])
        return [self._state(view, id) for view, (_, id) in zip(views, asked, strict=True)]

    def _state(self, view: SeatView, id: MessageId) -> State:
        # A brief state keeps the whole view object: encode() leaves the brief parts out of
        # the text, and receivers in this process (the computer) read it whole.
        return built_state(
            id=id,
            seq=self.seq,
            brief=self.short,
            view=view,
            events=self.lines,
            game_over=self.over,
            clock=self.clock,
        )


def public_address(address: str | None) -> bool:
    """Whether an address tells players apart: not unknown and not this machine's loopback (a
    proxy in front of a server without ``--trusted-proxy`` makes every player 127.0.0.1)."""
    try:
        return address is not None and not ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False


def one_public_address(first: str | None, second: str | None) -> bool:
    """Whether two players connected from one address that tells players apart (the rule of
    :func:`server.results.settle.unrated_because`)."""
    return first == second and public_address(first)


OFFERS: set[asyncio.Task[None]] = set()
"""Claim offers being checked (kept here so a running check is not collected)."""


class Room(Table):
    """A room of two seats: every change is checked, persisted, then sent (see module doc).

    Each change runs through :attr:`cluster` (see :mod:`server.rooms.cluster_seam`): on one
    server it just runs; on a cluster node it runs against the room as the cluster has it.
    """

    def broadcast(self, events: list[Event], *, origin: Peer | None, id: MessageId) -> None:
        """One ``state`` to everyone in the room, carrying the step's events (see
        :class:`StepStates`); ``origin``'s copy answers its message ``id``."""
        assert self.match is not None
        make = StepStates(self.match, self.seq, events, self.names(), self.clock_now())
        receivers = list(self.receivers())
        seated = [(seat, id if peer is origin else None) for seat, peer in receivers]
        watched = bool(seated) and seated[-1][0] is None  # spectators last: one state for all
        if watched:
            seated = [(seat, answers) for seat, answers in seated if seat is not None]
        states = make.many([*seated, (None, None)] if watched else seated)
        if not watched:
            for (_, peer), state in zip(receivers, states, strict=True):
                peer.send(state)
        else:
            spectator = states.pop()
            with encoded_once([spectator]):
                mine = iter(states)
                for seat, peer in receivers:
                    peer.send(spectator if seat is None else next(mine))
        self.arm_turn_timer()

    # --- seats ---------------------------------------------------------------------------------

    async def sit(self, player: Player, *, id: MessageId = None, seat: int | None = None) -> int:
        """Seat ``player`` (back in their own seat, or in an empty one: ``seat`` if given) and
        start when full."""

        async def change() -> int:
            return await self._sit(player, id=id, seat=seat)

        index: int = await self.cluster.change("the seat", change, seats=True)
        if player.peer is not None:
            self.cluster.present(index, here=True)
        return index

    async def _sit(self, player: Player, *, id: MessageId, seat: int | None = None) -> int:
        async with self.lock:
            index = self.seat_of(player)
            held = self.held_for(player) if index is None else None
            if held is not None:
                index = await self._take_over(held, player)
            elif index is None:
                empty = [s for s in self.seats if s.kind == "empty" and seat in (None, s.index)]
                if not empty:
                    raise Refusal("room_full", f"Room {self.code} has no empty seat")
                if self.options.rated:
                    check_rated_seat(self, player)
                taken = empty[0]
                taken.kind, taken.player, taken.account = "human", player, player.account
                try:
                    await self._save_seats()
                except Refusal:
                    taken.kind, taken.player = "empty", None
                    raise
                index = taken.index
                self.notice("joined", f"{player.name} sits down", skip=player.peer)
                await self.note_hand_over(taken)
            self.seats[index].gone_since = None
            player.room = self
            self.last_activity = self.clock()
            if self.match is None and all(s.kind != "empty" for s in self.seats):
                await self._start_match(origin=player.peer, id=id)
            else:
                self.send_room(origin=player.peer, id=id)
                state = self.state_for(index)
                if state is not None and player.peer is not None:
                    player.peer.send(state)
                    self.tell_story(player.peer)
            return index

    async def _take_over(self, seat: SeatState, player: Player) -> int:
        """The same account on another tab or device takes its seat back: the seat is
        ``player``'s from now on, and its older holder is told it was replaced."""
        old = seat.player
        seat.player = player
        try:
            await self._save_seats()
        except Refusal:
            seat.player = old
            raise
        if old is not None:
            if old.peer is not None and old.room is self:
                old.peer.send(
                    Notice(code="replaced", text="This seat was taken up in another tab or device")
                )
            old.room = None
        return seat.index

    async def seat_bot(self, level: str, *, by: Player, id: MessageId = None) -> None:
        async def change() -> None:
            await self._seat_bot(level, by=by, id=id)

        await self.cluster.change("the seat", change, seats=True)

    async def _seat_bot(self, level: str, *, by: Player, id: MessageId) -> None:
        async with self.lock:
            if self.seat_of(by) is None:
                raise Refusal("not_seated", "Only a player seated here can seat the computer")
            if self.options.rated or self.options.duplicate or self.tournament is not None:
                raise Refusal(
                    "illegal",
                    "Rated, duplicate and tournament tables are for two people",
                )
            empty = [s for s in self.seats if s.kind == "empty"]
            if not empty:
                raise Refusal("no_seat_free", "Both seats are taken")
            self.put_bot(empty[0], level)
            try:
                await self._save_seats()
            except Refusal:
                _dismiss_bot(empty[0])
                empty[0].kind, empty[0].level, empty[0].bot = "empty", None, None
                raise
            self.notice("bot_seated", f"{empty[0].name} takes seat {empty[0].index}")
            await self.note_hand_over(empty[0])
            if self.match is None:
                await self._start_match(origin=by.peer, id=id)
            else:
                self.send_room(origin=by.peer, id=id)
                self.kick_bots()

    async def rotate_token(self, player: Player, token: str, new_hash: str) -> None:
        """A seated player resumed with ``token``: keep ``new_hash`` instead, saved first. (In a
        cluster, of two nodes resuming with one token at once one wins, and the other's retry
        finds the token spent.)"""

        async def change() -> None:
            await self._rotate_token(player, token, new_hash)

        await self.cluster.change("the resume", change, seats=True)

    async def _rotate_token(self, player: Player, token: str, new_hash: str) -> None:
        async with self.lock:
            if not token_matches(token, player.token_hash):
                raise Refusal("bad_token", "That resume token was just replaced; hello without it")
            old, player.token_hash = player.token_hash, new_hash
            try:
                if self.seat_of(player) is not None:
                    await self._save_seats()
            except Refusal:
                player.token_hash = old
                raise

    def put_bot(self, seat: SeatState, level: str) -> None:
        seat.kind, seat.player, seat.level, seat.gone_since = "bot", None, level, None
        seat.bot = self.make_bot(self, seat.index, level)

    def attach(self, player: Player, *, id: MessageId = None) -> None:
        """A seated player's connection is back (resume). Atomic: no await."""
        index = self.seat_of(player)
        if index is None or player.peer is None:
            return
        seat = self.seats[index]
        was_gone = seat.gone_since is not None
        seat.gone_since = None
        self.last_activity = self.clock()
        self.welcome_back(player.peer, index, id=id)
        if was_gone:
            self.notice("returned", f"{player.name} is back", skip=player.peer)
        self.send_room()
        self.cluster.present(index, here=True)

    def detach(self, player: Player) -> None:
        """A seated player's connection dropped; the seat waits for the grace period."""
        index = self.seat_of(player)
        if index is None:
            return
        since = self.seats[index].gone_since = self.clock()
        self.last_activity = since
        if self.status == "playing":
            self.notice(
                "disconnected",
                f"{player.name} lost the connection; you may claim the game in "
                f"{self.grace:.0f} s if they do not return",
            )
            self.count_grace(index)
        self.send_room()
        self.cluster.present(index, here=False)

    def count_grace(self, index: int) -> None:
        """Seat ``index``'s player is gone (since ``gone_since``): after the grace period the
        opponent is offered the claim, unless they are back by then."""
        since = self.seats[index].gone_since
        if since is not None:
            asyncio.get_running_loop().call_later(self.grace, self._claimable, index, since)

    def _claimable(self, index: int, since: float) -> None:
        if self._still_gone(index, since):
            task = asyncio.get_running_loop().create_task(self._offer_claim(index, since))
            OFFERS.add(task)
            task.add_done_callback(OFFERS.discard)

    def _still_gone(self, index: int, since: float) -> bool:
        seat = self.seats[index]
        return not self.closed and seat.gone_since == since and self.status == "playing"

    async def _offer_claim(self, index: int, since: float) -> None:
        """The grace period is over: tell the opponent, if the seat is still empty-handed and
        its player is not connected anywhere (in a cluster: to no other node either)."""
        if await self.cluster.connected(index) or not self._still_gone(index, since):
            return
        seat = self.seats[index]
        offer = (
            "claim the game"
            if self.options.rated
            else ("claim the game, or give the seat to the computer")
        )
        self.notice("claimable", f"{seat.name} has not come back: {offer}")
        self.send_room()

    async def leave(self, player: Player) -> None:
        index = self.seat_of(player)

        async def change() -> None:
            await self._leave(player)

        await self.cluster.change("leaving", change, seats=True)
        if index is not None:
            self.cluster.present(index, here=False)

    async def _leave(self, player: Player) -> None:
        async with self.lock:
            index = self.seat_of(player)
            player.room = None
            if index is None:
                return
            seat = self.seats[index]
            if self.status == "playing":
                # The seat stays theirs (they may come back by code); the opponent may claim now.
                seat.gone_since = self.clock() - self.grace
                self.notice("left", f"{player.name} left the table; you may claim the game")
            else:
                seat.kind, seat.player, seat.gone_since = "empty", None, None
                seat.account = None
                await self._save_seats()
                self.notice("left", f"{player.name} left the room")
            self.rematch = [False, False]
            self.send_room()

    async def settle(self) -> None:
        """Record a finished match in its players' ratings and records (once; see ratings);
        in a rated room, tell the room how the ratings moved."""
        if self.match is None or not self.match.over or self.options.duplicate:
            return  # a duplicate match is settled once both its tables are over
        await self.cluster.settling(self.match)
        first, second = (s.account if s.kind == "human" else None for s in self.seats)
        accounts = (first, second)
        rated = self.options.rated
        shared = False
        if rated and first is not None and second is not None:  # (the rule's only case)
            known = [s.player.address if s.player else None for s in self.seats]
            shared = one_public_address(*await self.cluster.addresses((known[0], known[1])))
        moved = await settle_match(
            self.store,
            self.code,
            self.match_number,
            accounts,
            rated=rated,
            shared_address=shared,
            pair_max=self.rated_pair_max,
        )
        if moved and rated:
            self.notice("rating", moved)

    async def resave_seats(self) -> None:
        """Store the seats again (a player signed in) and tell the room."""
        async with self.lock:
            await self._save_seats()
        self.send_room()

    async def _save_seats(self) -> None:
        try:
            await self.writes.save_seats(self.code, self.record().seats)
        except StoreError as error:
            raise Refusal("storage", "The server could not save the seat; try again") from error

    # --- the match -----------------------------------------------------------------------------

    async def _start_match(self, *, origin: Peer | None, id: MessageId) -> None:
        seed = self.new_seed()
        number = self.match_number + 1
        record = MatchRecord(
            room=self.code,
            number=number,
            seed=seed,
            options=self.options.game,
            names=self.names(),
            started=time.time(),
        )
        try:
            await self.writes.start_match(record)
        except StoreError as error:
            raise Refusal("storage", "The server could not start the match; try again") from error
        if self.match is not None:
            self.seq_base += len(self.match.log)
        self.match = Match(seed=seed, options=self.options.game, keep_events=False)
        self.move_tags = []
        self.match_number = number
        self.holders = record.names
        log.info("match started", extra={"room": self.code, "match": number, "names": record.names})
        self.restart_by, self.rematch = None, [False, False]
        if self.turn_clock is not None:
            self.turn_clock.reset()
        self.send_room(origin=origin, id=id)
        self.broadcast(list(self.match.events), origin=None, id=None)

    async def note_hand_over(self, seat: SeatState) -> None:
        """``seat`` of a match under way changed hands (the computer took over, or someone sat
        in a seat left empty): keep who took it from whom and from which action, so records and
        replays name who held it. A store failure is logged: only the record is late."""
        if self.match is None or self.match.over or seat.kind == "empty":
            return
        before, after = self.holders[seat.index], self.names()[seat.index]
        if before == after:
            return
        held = list(self.holders)
        held[seat.index] = after
        self.holders = (held[0], held[1])
        hand_over = HandOver(seat=seat.index, at=len(self.match.log), before=before, after=after)
        try:
            await self.store.record_hand_over(self.code, self.match_number, hand_over)
        except StoreError as error:
            log.warning("room %s: could not keep a hand-over: %s", self.code, error)

    async def record_finish(self, store: Store, match: Match) -> None:
        """Record a match that is over as won in ``store``; a failure is logged, not raised (the
        last move is stored, so the game stands; only its history entry is late)."""
        try:
            await store.finish_match(
                self.code,
                self.match_number,
                finished=time.time(),
                result="won",
                winner=match.winner,
            )
        except StoreError as error:
            log.warning("room %s: could not mark the match finished: %s", self.code, error)

    def restore(
        self,
        match: Match,
        number: int,
        previous_actions: int,
        tags: tuple[tuple[int | None, str | None], ...] = (),
        holders: tuple[str, str] | None = None,
    ) -> None:
        """Take a match rebuilt from the store (start-up), with its actions' tags if known and
        who held each seat at the last hand-over (the seats' names if None)."""
        self.match, self.match_number = match, number
        self.holders = holders or self.names()
        self.seq_base = previous_actions
        self.move_tags = [*tags, *[(None, None)] * (len(match.log) - len(tags))]

    def resume(self) -> None:
        """After a rebuild: the computer moves if waited for, timers run, grace periods count."""
        self.kick_bots()
        self.arm_turn_timer()
        if self.status != "playing":
            return
        for seat in self.seats:
            if seat.kind == "human" and seat.gone_since is not None:
                self.count_grace(seat.index)

    async def act(
        self,
        seat: int,
        move: GameMove | Action,
        *,
        origin: Peer | None,
        id: MessageId = None,
        seq: int | None = None,
        key: str | None = None,
        applied: Callable[[], None] | None = None,
    ) -> None:
        """Apply one seat's move at state ``seq``: check it, persist it, then tell everyone.

        A move message names its own ``seq``; its key is its seat and ``id``. The server's own
        moves (the timer, the computer) pass ``seq`` and ``key``. ``seq`` None: at any state
        (a claimed game). ``applied`` runs once the move is stored, before anyone hears of it
        (the timer's notice).
        """

        async def change() -> None:
            await self._act(seat, move, origin, id, seq, key, applied)

        await self.cluster.change("the move", change, cached=True)

    async def _act(
        self,
        seat: int,
        move: GameMove | Action,
        origin: Peer | None,
        id: MessageId,
        seq: int | None,
        key: str | None,
        applied: Callable[[], None] | None,
    ) -> None:
        started = time.perf_counter()
        if isinstance(move, GAME_MOVES):
            seq = move.seq
            key = move_key(seat, id)
        async with self.lock:
            match = self.match
            if match is None:
                raise Refusal("illegal", "The match has not started: the room needs two players")
            try:
                action = to_action(move) if isinstance(move, GAME_MOVES) else move
            except ValueError as error:
                raise Refusal("illegal", str(error)) from None
            if seq is not None and not self.still_current(seat, seq, action):
                if self.applied(seq, key):
                    # A retry of a move already made: answer it as the first attempt was.
                    state = self.state_for(seat, id=id)
                    if origin is not None and state is not None:
                        origin.send(state)
                    return
                self.refuse_stale(seat, seq, origin=origin)
            if not isinstance(action, Resign) and seat not in match.waiting_for():
                if match.over:
                    raise Refusal("illegal", "The match is over; ask for a rematch")
                raise Refusal("not_your_turn", "It is not your turn")
            first = self.cluster.store_first(match, seat, action)
            events: list[Event] = []
            if not first:
                try:
                    events = match.apply(seat, action)
                except IllegalAction as error:
                    raise Refusal("illegal", str(error)) from None
            if self.turn_clock is not None and not isinstance(action, Resign):
                self.turn_clock.charge(seat)
            index = len(match.log) - (0 if first else 1)
            stored_key = key if key is not None else anonymous_key(seat)
            saved = False
            try:
                saved = await store_action(
                    self.writes,
                    self.code,
                    self.match_number,
                    index,
                    seat,
                    action,
                    seq=seq,
                    key=stored_key,
                )
            finally:
                if not saved and not first:
                    self.match = Match.replay(
                        match.options, match.seed, match.log[:-1], keep_events=False
                    )
            if not saved:
                raise Refusal("storage", "The server could not save that move; try again")
            if first:
                # Legal (one of the legal moves) and nothing changed meanwhile (the lock is held).
                events = match.apply(seat, action)
            self.move_tags.append((seq, stored_key))
            if applied is not None:
                applied()
            if match.over:
                await self.record_finish(self.store, match)
            self.last_activity = self.clock()
            self.broadcast(events, origin=origin, id=id)
            if match.over:
                log.info(
                    "match finished",
                    extra={"room": self.code, "match": self.match_number, "winner": match.winner},
                )
                self.send_room()
                await self.settle()  # after the players heard: ratings, records, history
        if self.on_action is not None:
            self.on_action(time.perf_counter() - started)

    async def finish_abandoned(self) -> None:
        """Record the running match as abandoned (the room is being closed)."""
        if self.match is not None and not self.match.over:
            await self.store.finish_match(
                self.code, self.match_number, finished=time.time(), result="abandoned", winner=None
            )
        self.close()

    def close(self) -> None:
        self.closed = True
        if self.on_change is not None:
            self.on_change(self)
        if self._turn_timer is not None:
            self._turn_timer.cancel()
        for seat in self.seats:
            _dismiss_bot(seat)

    # --- agreements: restart, rematch, claim ---------------------------------------------------

    def _other(self, seat: int) -> SeatState:
        return self.seats[1 - seat]

    async def propose_restart(
        self, seat: int, *, origin: Peer | None, id: MessageId, seq: int | None = None
    ) -> None:
        async def change() -> None:
            await self._propose_restart(seat, origin=origin, id=id, seq=seq)

        await self.cluster.change("the proposal", change, agreement=True)

    async def _propose_restart(
        self, seat: int, *, origin: Peer | None, id: MessageId, seq: int | None
    ) -> None:
        async with self.lock:
            if seq is not None and seq != self.seq:
                self.refuse_stale(seat, seq, origin=origin)
            if self.match is None:
                raise Refusal("illegal", "There is no match to restart yet")
            if self.options.rated or self.options.duplicate or self.tournament is not None:
                raise Refusal(
                    "illegal", "A rated or tournament match cannot be restarted; resign to concede"
                )
            other = self._other(seat)
            if other.kind == "bot" or self.restart_by == 1 - seat:
                await self._restart(origin=origin, id=id)
                return
            self.restart_by = seat
            self.notice(
                "restart_proposed",
                f"{self.seats[seat].name} proposes to restart the match; "
                f"{other.name or 'the other player'} must accept",
            )
            self.send_room(origin=origin, id=id)

    async def answer_restart(
        self,
        seat: int,
        accept: bool,
        *,
        origin: Peer | None,
        id: MessageId,
        seq: int | None = None,
    ) -> None:
        async def change() -> None:
            await self._answer_restart(seat, accept, origin=origin, id=id, seq=seq)

        await self.cluster.change("the answer", change, agreement=True)

    async def _answer_restart(
        self, seat: int, accept: bool, *, origin: Peer | None, id: MessageId, seq: int | None
    ) -> None:
        async with self.lock:
            if seq is not None and seq != self.seq:
                self.refuse_stale(seat, seq, origin=origin)
            if self.restart_by is None or self.restart_by == seat:
                raise Refusal("nothing_pending", "No restart is waiting for your answer")
            if accept:
                await self._restart(origin=origin, id=id)
                return
            self.restart_by = None
            self.notice("restart_declined", f"{self.seats[seat].name} declines the restart")
            self.send_room(origin=origin, id=id)

    async def _restart(self, *, origin: Peer | None, id: MessageId) -> None:
        assert self.match is not None
        if not self.match.over:
            try:
                await self.store.finish_match(
                    self.code,
                    self.match_number,
                    finished=time.time(),
                    result="restarted",
                    winner=None,
                )
            except StoreError as error:
                raise Refusal("storage", "The server could not restart; try again") from error
        self.notice("restarted", "The match starts again with a new deal")
        await self._start_match(origin=origin, id=id)

    async def ask_rematch(
        self, seat: int, *, origin: Peer | None, id: MessageId, seq: int | None = None
    ) -> None:
        number = self.match_number

        async def change() -> None:
            if self.match_number != number and self.match is not None and not self.match.over:
                # Tried again after a race lost to another node, and the rematch has begun.
                self.send_room(origin=origin, id=id)
                return
            await self._ask_rematch(seat, origin=origin, id=id, seq=seq)

        await self.cluster.change("the rematch", change, agreement=True)

    async def _ask_rematch(
        self, seat: int, *, origin: Peer | None, id: MessageId, seq: int | None
    ) -> None:
        async with self.lock:
            if seq is not None and seq != self.seq:
                self.refuse_stale(seat, seq, origin=origin)
            if self.match is None or not self.match.over:
                raise Refusal("not_over", "A rematch follows a finished match; this one goes on")
            if self.options.duplicate or self.tournament is not None:
                raise Refusal("illegal", "A duplicate or tournament table is played once")
            self.rematch[seat] = True
            if self._other(seat).kind == "bot" or all(self.rematch):
                self.notice("restarted", "Rematch: a new match begins")
                await self._start_match(origin=origin, id=id)
                return
            self.notice("rematch_wanted", f"{self.seats[seat].name} wants a rematch")
            self.send_room(origin=origin, id=id)

    async def claim(
        self, seat: int, take: str, *, origin: Peer | None, id: MessageId, seq: int | None = None
    ) -> None:
        async def change() -> None:
            await self._claim(seat, take, origin=origin, id=id, seq=seq)

        await self.cluster.change("the claim", change, seats=True)

    async def _claim(
        self, seat: int, take: str, *, origin: Peer | None, id: MessageId, seq: int | None
    ) -> None:
        async with self.lock:
            if seq is not None and seq != self.seq:
                self.refuse_stale(seat, seq, origin=origin)
            other = self._other(seat)
            wait = self.claimable_in(other)
            if wait is None:
                raise Refusal("illegal", "Your opponent is here; there is nothing to claim")
            if wait > 0:
                raise Refusal("too_early", f"Your opponent may still return: wait {wait:.0f} s")
            if self.options.rated and take == "bot":
                raise Refusal("illegal", "Rated rooms have no computer: claim the win instead")
            if take == "bot" or self.match is None or self.match.over:
                gone = other.name
                if other.player is not None and other.player.room is self:
                    other.player.room = None
                from muggins.shared.bots import LEVELS

                self.put_bot(other, list(LEVELS)[-1])
                await self._save_seats()
                await self.note_hand_over(other)
                self.notice("replaced", f"{other.name} takes over from {gone}")
                self.send_room(origin=origin, id=id)
                self.kick_bots()
                return
        self.notice("claimed", f"{self.seats[seat].name} claims the game")
        await self.act(other.index, Resign(), origin=origin, id=id)
        while self.options.rated and self.match is not None and not self.match.over:
            await self.act(other.index, Resign(), origin=None)  # the whole rated match

    def kick_bots(self) -> None:
        """Send each computer seat its view, so it moves if it is waited for."""
        for seat in self.seats:
            if seat.kind == "bot" and seat.bot is not None:
                state = self.state_for(seat.index)
                if state is not None:
                    seat.bot.send(state)

    def arm_turn_timer(self) -> None:
        if self._turn_timer is not None:
            self._turn_timer.cancel()
            self._turn_timer = None
        limit = self.turn_limit
        if limit is None or self.match is None or self.match.over or self.closed:
            return
        if self.turn_clock is not None:
            waiting = self.match.waiting_for()
            self.turn_clock.wait(waiting, self.match.log)
            people = [i for i in waiting if self.seats[i].kind == "human"]
            limit = self.turn_clock.limit(people or waiting)
        seq = self.seq
        self._turn_timer = asyncio.get_running_loop().call_later(
            limit, lambda: asyncio.ensure_future(self.time_out(seq))
        )

    async def time_out(self, seq: int) -> None:
        """The turn timer armed at state ``seq`` ran out: move for the player, at ``seq`` only
        (in a cluster, on the one node that claims the timer)."""
        from muggins.shared.bots.base import stand_in_move

        if not await self.cluster.take_timer(seq):
            return
        if self.match is None or self.seq != seq or self.closed:
            return
        for index in self.match.waiting_for():
            seat = self.seats[index]
            if seat.kind != "human" or self.seq != seq:
                continue
            if self.turn_clock is not None and not self.turn_clock.due(index):
                continue  # the other seat's time ran out; this one's runs on
            action = stand_in_move(self.match.view(index))
            sentence = f"Time is up for {seat.name}: the server moves for them"

            def timed_out(index: int = index, sentence: str = sentence) -> None:
                self.notice("timeout", sentence)
                if self.turn_clock is not None:
                    self.turn_clock.spent(index)

            try:
                key = f"timer:{secrets.token_hex(6)}"
                await self.act(index, action, origin=None, seq=seq, key=key, applied=timed_out)
            except Refusal:
                return
