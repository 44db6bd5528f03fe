"""The referee's desk of a room: each move checked, stored, then sent; a match started and ended.

Every change goes through one lock per room, is written to the store, and only then reaches
anyone, each receiver getting the engine's view for its own seat (see
:mod:`server.rooms.step_states`). It knows nothing of sockets: it sends to
:class:`~server.rooms.players.Peer` objects. The jobs built on it (seats, presence, agreements,
the turn timer) are classes of their own, put together by :class:`~server.rooms.room.Room`.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from muggins.server.results.settle import settle_match
from muggins.server.rooms.addresses import one_public_address
from muggins.server.rooms.moves import anonymous_key, store_action
from muggins.server.rooms.players import Peer, Refusal, SeatState
from muggins.server.rooms.seating import Table, dismiss_bot
from muggins.server.rooms.step_states import StepStates
from muggins.server.store.games import MatchRecord, Store, StoreError, move_key
from muggins.server.wire.send_cache import encoded_once
from muggins.shared.actions import Action, Event, IllegalAction, Resign
from muggins.shared.handover import HandOver
from muggins.shared.match import Match
from muggins.shared.protocol import GAME_MOVES, GameMove, to_action
from muggins.shared.protocol.client import MessageId

log = logging.getLogger("muggins.room")


class Referee(Table):
    """A room's match and the moves made in it: checked, persisted, then sent (see module doc)."""

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

    def arm_turn_timer(self) -> None:
        """Arm the turn timer for the state just sent (see
        :class:`~server.rooms.turn_timer.TurnTimer`, which every room has)."""
        raise NotImplementedError

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
            dismiss_bot(seat)
