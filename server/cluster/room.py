"""A room on one node of a cluster: a cache of the room whose truth is in Redis.

The room is the ordinary :class:`~server.rooms.room.Room`; a node gives it a :class:`RoomCopy`
(its :attr:`~server.rooms.seating.Table.cluster`, see :mod:`server.rooms.cluster_seam`), which
keeps the copy agreeing with Redis, and a :class:`~server.cluster.room_writes.GuardedStore` for
its compare-and-set writes (see :mod:`server.cluster.room_writes`). What the copy reads of its
players' connections is judged in :mod:`server.cluster.seat_presence`, and the restart and
rematch wishes are kept in :mod:`server.cluster.room_agreement`.

Any node can serve any room. A node that keeps the room cached is woken by Redis after every
change another node makes: an action's wake-up carries the action, which the node applies to
its cached match and tells its own connections; any other wake-up makes it catch up from Redis
by index (new seats, a new match, actions appended). A move is a versioned write made straight
from the cache while the cache is current (one round trip to Redis): if another node got there
first the write is refused, the node catches up and tries the move again against the new state,
so a move that has become illegal gets the ordinary clean error. Other changes catch up first.
Timers and computer moves are claimed in Redis (``SET NX PX``) so they fire on one node only.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol, TypeVar

from muggins.server.cluster.addresses import note_address, seat_addresses
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.log_entries import entry_action, entry_tag
from muggins.server.cluster.room_agreement import take_agreement
from muggins.server.cluster.room_writes import GuardedStore, versioned_change
from muggins.server.cluster.seat_presence import END_CONFIRM, take_presence
from muggins.server.rooms.players import Player
from muggins.server.rooms.room import Room
from muggins.server.store.games import MatchRecord, SeatRecord, StoreError
from muggins.shared.actions import Action, Event
from muggins.shared.match import Match
from muggins.shared.protocol import ChatLine

__all__ = ["CLAIM_TTL", "END_CONFIRM", "Node", "RoomCopy", "copy_of"]

T = TypeVar("T")

log = logging.getLogger("muggins.cluster")

CLAIM_TTL = 3.0
"""Seconds a node holds a timer or computer-move claim; a dead node's claim lapses after it."""
DERIVED_NOTICES = frozenset({"disconnected", "returned", "claimable"})
"""Notices every node derives for itself (from presence), so they are not relayed."""


class Node(Protocol):
    """What a room's copy needs of its node (server.cluster.lobby.ClusterNode)."""

    name: str
    """This node's name in Redis claims."""

    def relay(self, copy: RoomCopy, payload: dict[str, Any]) -> None:
        """Send a notice or chat line to the room's people on the other nodes."""

    def announce(self, copy: RoomCopy, seat: int, *, here: bool) -> None:
        """Tell the cluster whether ``seat``'s player is connected to this node."""

    def ghost(self, saved: SeatRecord) -> Player[Room]:
        """The Player for a seat record."""

    def holders_changed(self) -> None:
        """A room learnt that its seats are held by other nodes than before."""

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        """Run ``job`` in the background (until the node stops)."""


class RoomCopy:
    """One node's copy of a room: the room's cluster seam (see the module doc)."""

    def __init__(self, room: Room, *, node: Node, redis: ClusterStore) -> None:
        self.room = room
        self.node = node
        self.redis = redis
        self.stored_seats: tuple[SeatRecord, SeatRecord] = room.record().seats
        """The seats as last read from or written to Redis (a seat write's expected value)."""
        self.conflicted = False
        """Whether the last write lost a race (the change is tried again after a catch-up)."""
        self.ahead = False
        """Whether Redis answered a write with a log shorter than this cache's (lost writes)."""
        self.seated_at = [float("-inf"), float("-inf")]
        """When each seat's player was first seen here (their presence may lag a moment)."""
        self.lapsed_since: list[float | None] = [None, None]
        """Since when each seat's presence has been missing (not cleared) in Redis."""
        self.seen = [False, False]
        """Whether each seat's presence has shown in Redis since it was taken."""
        self.holders: tuple[str | None, str | None] = (None, None)
        """The node holding each seat's connection, as of the last catch-up."""
        self.stale = False
        """Whether this cache may have missed a change (a move then catches up before writing)."""
        self.catching_up = False
        """Whether a catch-up is running or queued for this room (at most one at a time)."""
        self.again = False
        """Whether another catch-up is wanted after the running one (a wake-up came meanwhile)."""
        self.agreement_text = ""
        """The agreement as last read from or written to Redis ('' for none): the expected value
        of the next compare-and-set write."""
        self.agreement_lock = asyncio.Lock()
        """Serialises this node's agreement writes (two on one node must not refuse each other)."""
        room.share(self, GuardedStore(self, redis))

    # --- catching up ---------------------------------------------------------------------------

    async def sync(self) -> None:
        """Catch up with Redis and tell this node's connections what changed."""
        async with self.room.lock:
            await self.sync_held()

    async def sync_held(self) -> None:
        """Catch up (the caller holds the room's lock): seats, a newer match, then new actions
        by index."""
        self.stale = False
        try:
            await self._catch_up()
        except BaseException:
            self.stale = True
            raise

    async def _catch_up(self) -> None:
        room = self.room
        state = await self.redis.room_state(room.code)
        if state is None:
            room.close()
            return
        if state.holders != self.holders:
            self.holders = state.holders
            self.node.holders_changed()
        seats, number = state.seats, state.match
        self.take_seats(seats)
        take_presence(self, state.present, state.left, state.ended)
        take_agreement(self, state.agreement)
        if number != room.match_number:
            snapshot = await self.redis.load_room(room.code)
            if snapshot is not None and snapshot.match is not None:
                self._take_match(snapshot.match, snapshot.previous_actions)
                if room.match is not None and room.match.over:
                    await room.settle()  # the node that finished it may have died first
            return
        match = room.match
        if match is None:
            return
        fresh = await self.redis.moves_since(room.code, number, len(match.log))
        if self.ahead:
            # Redis answered a write with a log shorter than this cache's: it lost writes it
            # had acknowledged. (A lost race is no such thing: Redis then has more, not less.)
            # Redis is the truth: reload from it.
            self.ahead = False
            snapshot = await self.redis.load_room(room.code)
            if snapshot is not None and snapshot.match is not None:
                log.warning("room %s: cache ahead of Redis; reloaded from Redis", room.code)
                self._take_match(snapshot.match, snapshot.previous_actions)
            return
        events: list[Event] = []
        for seat, action, tag in fresh:
            events.extend(match.apply(seat, action))
            room.move_tags.append(tag)
        if fresh:
            room.last_activity = room.clock()
            room.broadcast(events, origin=None, id=None)
            if match.over:
                room.send_room()
                await room.settle()  # once per match, whichever node gets here (see ratings)

    def take_action(
        self, number: int, index: int, entry: dict[str, Any], *, held: bool = False
    ) -> bool | None:
        """An action another node appended, from its wake-up: applied here and told to this
        node's connections, without reading Redis. False when it cannot be applied in place (the
        room is busy, unless the caller ``held`` its lock, or behind): then a catch-up is
        wanted. None when applied and the match is over (the match is settled by a catch-up)."""
        room = self.room
        match = room.match
        busy = room.lock.locked() and not held
        if room.closed or busy or match is None or number != room.match_number:
            return False
        if index < len(match.log):
            return True  # already here (caught up meanwhile)
        if index > len(match.log):
            return False  # an earlier wake-up is missing
        try:
            seat, action = entry_action(entry)
            events = match.apply(seat, action)
        except Exception:
            log.exception("room %s: action %d from a wake-up not applied", room.code, index)
            return False
        room.move_tags.append(entry_tag(entry))
        room.last_activity = room.clock()
        room.broadcast(events, origin=None, id=None)
        if match.over:
            room.send_room()
            return None
        return True

    async def settling(self, match: Match) -> None:
        """Record the finish if the node that applied the last move could not (it died between
        storing the move and recording the finish): every node that sees the match over records
        it, and the first record stands."""
        await self.room.record_finish(self.redis, match)

    async def settle_later(self) -> None:
        """Settle a match that a wake-up finished (once per match, whichever node gets here)."""
        async with self.room.lock:
            await self.room.settle()

    def _take_match(self, record: MatchRecord, previous_actions: int) -> None:
        room = self.room
        room.match = Match.replay(record.options, record.seed, record.actions, keep_events=False)
        room.move_tags = [*record.tags, *[(None, None)] * (len(record.actions) - len(record.tags))]
        room.match_number = record.number
        room.seq_base = previous_actions
        room.restart_by, room.rematch = None, [False, False]
        room.last_activity = room.clock()
        room.send_room()
        if record.actions:
            for seat, peer in room.receivers():
                state = room.state_for(seat)
                if state is not None:
                    peer.send(state)
            room.arm_turn_timer()
        else:
            # A match another node just started: its opening events, as that node sent them.
            room.broadcast(list(room.match.events), origin=None, id=None)

    # --- passing messages to other nodes -------------------------------------------------------

    def relay_notice(self, code: str, text: str) -> None:
        if code not in DERIVED_NOTICES:
            self.node.relay(self, {"what": "notice", "code": code, "text": text})

    def relay_chat(self, line: ChatLine) -> None:
        self.node.relay(self, {"what": "chat", "line": line.model_dump(mode="json")})

    def deliver(self, payload: dict[str, Any]) -> None:
        """A notice or chat line relayed from another node: to this node's people only."""
        if payload.get("what") == "notice":
            self.room.notice_here(str(payload["code"]), str(payload["text"]))
        elif payload.get("what") == "chat":
            self.room.say_here(ChatLine.model_validate(payload["line"]), origin=None)

    def here(self) -> list[int]:
        """The seats whose players are connected to this node."""
        room = self.room
        return [
            s.index
            for s in room.seats
            if s.kind == "human"
            and s.player is not None
            and s.player.peer is not None
            and s.player.room is room
        ]

    def present(self, seat: int, *, here: bool) -> None:
        self.node.announce(self, seat, here=here)
        player = self.room.seats[seat].player
        if here and self.room.options.rated and player is not None and player.address:
            self.node._spawn(self._note_address(seat, player.address))

    async def _note_address(self, seat: int, address: str) -> None:
        try:
            await note_address(self.redis, self.room.code, seat, address)
        except StoreError as error:
            log.info("room %s: address not noted (%s)", self.room.code, error)

    async def addresses(
        self, known: tuple[str | None, str | None]
    ) -> tuple[str | None, str | None]:
        try:
            return await seat_addresses(self.redis, self.room.code, known)
        except StoreError as error:
            log.info("room %s: addresses not read (%s)", self.room.code, error)
            return known

    def take_seats(self, seats: tuple[SeatRecord, SeatRecord]) -> None:
        """The seats as Redis has them."""
        if seats == self.stored_seats:
            return
        room = self.room
        self.stored_seats = seats
        newly: list[int] = []
        for seat, saved in zip(room.seats, seats, strict=True):
            if saved.kind == "human" and saved.player:
                player = self.node.ghost(saved)
                player.room = room
                if saved.token_hash and player.token_hash != saved.token_hash:
                    player.token_hash = saved.token_hash  # rotated by a resume on another node
                seat.account = saved.account
                if seat.kind != "human" or seat.player is not player:
                    newly.append(seat.index)
                    self.seated_at[seat.index] = room.clock()
                    self.seen[seat.index] = False
                    seat.kind, seat.player, seat.level, seat.gone_since = (
                        "human",
                        player,
                        None,
                        None,
                    )
            elif saved.kind == "bot":
                if seat.kind != "bot" or seat.level != saved.level:
                    room.put_bot(seat, saved.level or "easy")
            else:
                if seat.player is not None and seat.player.room is room:
                    seat.player.room = None
                seat.kind, seat.player, seat.level, seat.gone_since = "empty", None, None, None
        room.send_room()
        for index in newly:
            self.tell_whole(index)
        room.kick_bots()

    def tell_whole(self, index: int) -> None:
        """Seat ``index``'s player, connected here and seated through another node (a duplicate
        match's second table, a tournament's table), hears the match whole before any brief
        state of it."""
        room = self.room
        peer = room.seats[index].peer
        state = room.state_for(index) if peer is not None else None
        if peer is not None and state is not None:
            peer.send(state)
            room.tell_story(peer)

    # --- versioned changes ---------------------------------------------------------------------

    async def change(
        self,
        what: str,
        run: Callable[[], Awaitable[T]],
        *,
        seats: bool = False,
        agreement: bool = False,
        cached: bool = False,
    ) -> T:
        """Run ``run`` after catching up; on a lost race catch up and run it again (see
        :func:`server.cluster.room_writes.versioned_change`)."""
        return await versioned_change(
            self, what, run, seats=seats, agreement=agreement, cached=cached
        )

    def store_first(self, match: Match, seat: int, action: Action) -> bool:
        """A move both players may make at once (the discards) is stored before it is applied
        here, when it is one of the legal moves as they are listed (exactly legal, so applying it
        after the write cannot fail): if the other node stored the other player's discard first,
        the write is refused and there is nothing to undo. (Undoing an applied move replays the
        match from its start: about 10 ms at 80 moves, paid at every such lost race.)"""
        return len(match.waiting_for()) > 1 and action in match.legal_actions(seat)

    def restore_seats(self) -> None:
        """Undo local seat changes a refused write made (the next catch-up reloads them)."""
        saved, self.stored_seats = self.stored_seats, self.room.record().seats
        if saved != self.stored_seats:
            self.take_seats(saved)

    async def connected(self, seat: int) -> bool:
        """Whether ``seat``'s player is connected to a live node (asked before the opponent is
        offered the claim: a player whose old connection here closed late may be playing on
        elsewhere). If so, the room catches up, which tells this node's people they are back."""
        try:
            state = await self.redis.room_state(self.room.code)
        except StoreError:
            return False  # the claim itself is checked against the store again
        if state is None or not state.present[seat]:
            return False
        try:
            await self.sync()
        except StoreError as error:
            log.info("room %s: catch-up failed (%s)", self.room.code, error)
        return True

    async def take_timer(self, seq: int) -> bool:
        """A turn timer ran out: one node in the cluster moves for the player."""
        room = self.room
        try:
            won = await self.redis.claim(
                f"timer:{room.code}:{seq}", owner=self.node.name, ttl=CLAIM_TTL
            )
        except StoreError:
            won = False
        if not won and not room.closed and room.seq == seq:
            # Another node moves for the player; if it died meanwhile, try again later.
            asyncio.get_running_loop().call_later(
                CLAIM_TTL, lambda: asyncio.ensure_future(room.time_out(seq))
            )
        return won


def copy_of(room: Room) -> RoomCopy | None:
    """The node's copy seam of ``room`` (None for a room that is not a cluster's)."""
    copy = room.cluster
    return copy if isinstance(copy, RoomCopy) else None
