"""A room on one node of a cluster: a cache of the room whose truth is in Redis.

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
import json
import logging
from collections.abc import Callable
from typing import Any, Protocol

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.redis_store import entry_action, entry_tag
from muggins.server.rooms.players import Peer, Player, Refusal
from muggins.server.rooms.room import Room
from muggins.server.store.games import MatchRecord, SeatRecord, StoreConflict, StoreError
from muggins.shared.actions import Action, Event, Seat
from muggins.shared.match import Match
from muggins.shared.protocol import ChatLine, GameMove
from muggins.shared.protocol.client import MessageId

log = logging.getLogger("muggins.cluster")

RETRIES = 3
"""Versioned writes lost to another node before the move is refused."""
CLAIM_TTL = 3.0
"""Seconds a node holds a timer or computer-move claim; a dead node's claim lapses after it."""
DERIVED_NOTICES = frozenset({"disconnected", "returned"})
"""Notices every node derives for itself (from presence), so they are not relayed."""
LAPSE_CONFIRM = 6.0
"""Seconds a presence whose node's heartbeat lapsed (the node may only be stalled: starved, or
collecting garbage) must stay lapsed before the player counts as disconnected."""
END_CONFIRM = 1.5
"""Seconds a presence whose node has ended (its subscription to its wake-ups is gone: the process
died and its connections were closed) must stay so before the player counts as disconnected:
long enough for a node whose subscription merely dropped to make it again."""
PRESENCE_LAG = 2.0
"""Seconds a newly seen player counts as connected before their presence must show in Redis."""


class Node(Protocol):
    """What a room needs of its node's lobby (server.cluster.lobby.ClusterLobby)."""

    node: str
    """This node's name in Redis claims."""

    def relay(self, room: ClusterRoom, payload: dict[str, Any]) -> None:
        """Send a notice or chat line to the room's people on the other nodes."""

    def announce(self, room: ClusterRoom, seat: int, *, here: bool) -> None:
        """Tell the cluster whether ``seat``'s player is connected to this node."""

    def ghost(self, saved: SeatRecord) -> Player[Room]:
        """The Player for a seat record."""

    def holders_changed(self) -> None:
        """A room learnt that its seats are held by other nodes than before."""


class GuardedStore:
    """The room's view of the Redis store: seat writes are compare-and-set, conflicts are noted."""

    def __init__(self, room: ClusterRoom, store: ClusterStore) -> None:
        self.room = room
        self.store = store

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    async def save_seats(self, code: str, seats: tuple[SeatRecord, SeatRecord]) -> None:
        try:
            await self.store.save_seats(code, seats, expected=self.room.stored_seats)
        except StoreConflict:
            self.room.conflicted = True
            raise
        self.room.stored_seats = seats

    async def start_match(self, match: MatchRecord) -> None:
        try:
            await self.store.start_match(match)
        except StoreConflict:
            self.room.conflicted = True
            raise

    async def append_action(
        self,
        code: str,
        number: int,
        index: int,
        seat: Seat,
        action: Action,
        *,
        seq: int | None = None,
        key: str | None = None,
    ) -> None:
        try:
            await self.store.append_action(code, number, index, seat, action, seq=seq, key=key)
        except StoreConflict as conflict:
            self.room.conflicted = True
            if conflict.length is not None and conflict.length < index:
                # Redis holds fewer actions than this node has applied: it lost some.
                self.room.ahead = True
            raise


class ClusterRoom(Room):
    def __init__(self, *args: Any, lobby: Node, redis: ClusterStore, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lobby = lobby
        self.redis = redis
        self.store = GuardedStore(self, redis)
        self.stored_seats: tuple[SeatRecord, SeatRecord] = self.record().seats
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

    # --- catching up ---------------------------------------------------------------------------

    async def sync(self) -> None:
        """Catch up with Redis and tell this node's connections what changed."""
        async with self.lock:
            await self._sync()

    async def _sync(self) -> None:
        """Catch up (the caller holds the lock): seats, a newer match, then new actions by index."""
        self.stale = False
        try:
            await self._catch_up()
        except BaseException:
            self.stale = True
            raise

    async def _catch_up(self) -> None:
        state = await self.redis.room_state(self.code)
        if state is None:
            self.close()
            return
        if state.holders != self.holders:
            self.holders = state.holders
            self.lobby.holders_changed()
        seats, number = state.seats, state.match
        self._take_seats(seats)
        self._take_presence(state.present, state.left, state.ended)
        self._take_agreement(state.agreement)
        if number != self.match_number:
            snapshot = await self.redis.load_room(self.code)
            if snapshot is not None and snapshot.match is not None:
                self._take_match(snapshot.match, snapshot.previous_actions)
                if self.match is not None and self.match.over:
                    await self.settle()  # the node that finished it may have died first
            return
        match = self.match
        if match is None:
            return
        fresh = await self.redis.moves_since(self.code, number, len(match.log))
        if self.ahead:
            # Redis answered a write with a log shorter than this cache's: it lost writes it
            # had acknowledged. (A lost race is no such thing: Redis then has more, not less.)
            # Redis is the truth: reload from it.
            self.ahead = False
            snapshot = await self.redis.load_room(self.code)
            if snapshot is not None and snapshot.match is not None:
                log.warning("room %s: cache ahead of Redis; reloaded from Redis", self.code)
                self._take_match(snapshot.match, snapshot.previous_actions)
            return
        events: list[Event] = []
        for seat, action, tag in fresh:
            events.extend(match.apply(seat, action))
            self.move_tags.append(tag)
        if fresh:
            self.last_activity = self.clock()
            self._broadcast(events, origin=None, id=None)
            if match.over:
                self.send_room()
                await self.settle()  # once per match, whichever node gets here (see ratings)

    def take_action(
        self, number: int, index: int, entry: dict[str, Any], *, held: bool = False
    ) -> bool | None:
        """An action another node appended, from its wake-up: applied here and told to this
        node's connections, without reading Redis. False when it cannot be applied in place (the
        room is busy, unless the caller ``held`` its lock, or behind): then a catch-up is
        wanted. None when applied and the match is over (the match is settled by a catch-up)."""
        match = self.match
        busy = self.lock.locked() and not held
        if self.closed or busy or match is None or number != self.match_number:
            return False
        if index < len(match.log):
            return True  # already here (caught up meanwhile)
        if index > len(match.log):
            return False  # an earlier wake-up is missing
        try:
            seat, action = entry_action(entry)
            events = match.apply(seat, action)
        except Exception:
            log.exception("room %s: action %d from a wake-up not applied", self.code, index)
            return False
        self.move_tags.append(entry_tag(entry))
        self.last_activity = self.clock()
        self._broadcast(events, origin=None, id=None)
        if match.over:
            self.send_room()
            return None
        return True

    async def settle(self) -> None:
        """As on one server, after recording the finish if the node that applied the last move
        could not (it died between storing the move and recording the finish): every node that
        sees the match over records it, and the first record stands."""
        match = self.match
        if match is not None and match.over:
            await self._record_finish(self.redis, match)
        await super().settle()

    async def settle_later(self) -> None:
        """Settle a match that a wake-up finished (once per match, whichever node gets here)."""
        async with self.lock:
            await self.settle()

    def _take_match(self, record: MatchRecord, previous_actions: int) -> None:
        self.match = Match.replay(record.options, record.seed, record.actions, keep_events=False)
        self.move_tags = [*record.tags, *[(None, None)] * (len(record.actions) - len(record.tags))]
        self.match_number = record.number
        self.seq_base = previous_actions
        self.restart_by, self.rematch = None, [False, False]
        self.last_activity = self.clock()
        self.send_room()
        if record.actions:
            for seat, peer in self.receivers():
                state = self.state_for(seat)
                if state is not None:
                    peer.send(state)
            self._arm_turn_timer()
        else:
            # A match another node just started: its opening events, as that node sent them.
            self._broadcast(list(self.match.events), origin=None, id=None)

    def _take_presence(
        self,
        present: tuple[bool, bool],
        left: tuple[bool, bool],
        ended: tuple[bool, bool] = (False, False),
    ) -> None:
        """Connected or not, for the players connected to other nodes (or to none).

        A clean disconnect (``left``) is told at once. A presence whose node has ended (its
        process died: ``ended``) is told once it has stayed so for ``END_CONFIRM`` seconds. A
        presence that merely lapsed may be a renewal that came late (a node or Redis stalled
        under load) rather than a drop: it is told only once it has stayed lapsed for
        ``LAPSE_CONFIRM`` seconds (a vanished machine's players are told then, unless they are
        back on another node by that time).
        """
        changed = False
        for seat, here, gone, dead in zip(self.seats, present, left, ended, strict=True):
            player = seat.player
            if seat.kind != "human" or player is None or player.peer is not None:
                self.lapsed_since[seat.index] = None
                continue
            if here:
                self.seen[seat.index] = True
                self.lapsed_since[seat.index] = None
            elif not gone and seat.gone_since is None:
                first = self.lapsed_since[seat.index]
                if first is None:
                    self.lapsed_since[seat.index] = self.clock()
                    continue
                if self.clock() - first < (END_CONFIRM if dead else LAPSE_CONFIRM):
                    continue
            if here and seat.gone_since is not None:
                seat.gone_since, changed = None, True
                self.notice("returned", f"{player.name} is back")
            elif not here and seat.gone_since is None:
                lagging = self.clock() - self.seated_at[seat.index] < PRESENCE_LAG
                if lagging and not self.seen[seat.index]:
                    continue  # just seated on another node: its presence is on its way
                seat.gone_since, changed = self.clock(), True
                if self.status == "playing":
                    self.notice(
                        "disconnected",
                        f"{player.name} lost the connection; you may claim the game in "
                        f"{self.grace:.0f} s if they do not return",
                    )
        if changed:
            self.send_room()

    def _take_agreement(self, text: str | None) -> None:
        """A restart proposal or rematch wish made through another node."""
        if text is None:
            return
        self.agreement_text = text
        data = json.loads(text)
        if data.get("match") != self.match_number:
            return  # about an earlier match
        restart_by, rematch = data.get("restart_by"), [bool(w) for w in data.get("rematch", ())]
        if len(rematch) != 2:
            return
        if (restart_by, rematch) != (self.restart_by, self.rematch):
            self.restart_by, self.rematch = restart_by, rematch
            self.send_room()

    async def _save_agreement(self) -> None:
        async with self.agreement_lock:
            text = json.dumps(
                {"match": self.match_number, "restart_by": self.restart_by, "rematch": self.rematch}
            )
            if text == self.agreement_text:
                return  # Redis has it already
            try:
                await self.redis.save_agreement(self.code, text, expected=self.agreement_text)
            except StoreConflict as error:
                # Another node wrote meanwhile (both players asked for a rematch at once): catch
                # up, which reads its wish, and try again (see _versioned).
                self.conflicted = True
                raise Refusal("storage", "The room changed meanwhile; try again") from error
            except StoreError as error:
                raise Refusal("storage", "The game store is unreachable; try again") from error
            self.agreement_text = text

    async def propose_restart(
        self, seat: int, *, origin: Peer | None, id: MessageId, seq: int | None = None
    ) -> None:
        async def change() -> None:
            await Room.propose_restart(self, seat, origin=origin, id=id, seq=seq)
            await self._save_agreement()

        await self._versioned("the proposal", change)

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
            await Room.answer_restart(self, seat, accept, origin=origin, id=id, seq=seq)
            await self._save_agreement()

        await self._versioned("the answer", change)

    async def ask_rematch(
        self, seat: int, *, origin: Peer | None, id: MessageId, seq: int | None = None
    ) -> None:
        number = self.match_number

        async def change() -> None:
            if self.match_number != number and self.match is not None and not self.match.over:
                # Tried again after a lost race, and the rematch has begun meanwhile.
                self.send_room(origin=origin, id=id)
                return
            await Room.ask_rematch(self, seat, origin=origin, id=id, seq=seq)
            await self._save_agreement()

        await self._versioned("the rematch", change)

    # --- passing messages to other nodes -------------------------------------------------------

    def notice(self, code: str, text: str, *, skip: Peer | None = None) -> None:
        super().notice(code, text, skip=skip)
        if code not in DERIVED_NOTICES:
            self.lobby.relay(self, {"what": "notice", "code": code, "text": text})

    def say(self, line: ChatLine, *, origin: Peer | None, id: MessageId = None) -> None:
        super().say(line, origin=origin, id=id)
        self.lobby.relay(self, {"what": "chat", "line": line.model_dump(mode="json")})

    def deliver(self, payload: dict[str, Any]) -> None:
        """A notice or chat line relayed from another node: to this node's people only."""
        if payload.get("what") == "notice":
            Room.notice(self, str(payload["code"]), str(payload["text"]))
        elif payload.get("what") == "chat":
            Room.say(self, ChatLine.model_validate(payload["line"]), origin=None)

    def here(self) -> list[int]:
        """The seats whose players are connected to this node."""
        return [
            s.index
            for s in self.seats
            if s.kind == "human"
            and s.player is not None
            and s.player.peer is not None
            and s.player.room is self
        ]

    def attach(self, player: Player, *, id: MessageId = None) -> None:
        super().attach(player, id=id)
        index = self.seat_of(player)
        if index is not None and player.peer is not None:
            self.lobby.announce(self, index, here=True)

    def detach(self, player: Player) -> None:
        super().detach(player)
        index = self.seat_of(player)
        if index is not None:
            self.lobby.announce(self, index, here=False)

    def _take_seats(self, seats: tuple[SeatRecord, SeatRecord]) -> None:
        if seats == self.stored_seats:
            return
        self.stored_seats = seats
        for seat, saved in zip(self.seats, seats, strict=True):
            if saved.kind == "human" and saved.player:
                player = self.lobby.ghost(saved)
                player.room = self
                if saved.token_hash and player.token_hash != saved.token_hash:
                    player.token_hash = saved.token_hash  # rotated by a resume on another node
                seat.account = saved.account
                if seat.kind != "human" or seat.player is not player:
                    self.seated_at[seat.index] = self.clock()
                    self.seen[seat.index] = False
                    seat.kind, seat.player, seat.level, seat.gone_since = (
                        "human",
                        player,
                        None,
                        None,
                    )
            elif saved.kind == "bot":
                if seat.kind != "bot" or seat.level != saved.level:
                    self._put_bot(seat, saved.level or "easy")
            else:
                if seat.player is not None and seat.player.room is self:
                    seat.player.room = None
                seat.kind, seat.player, seat.level, seat.gone_since = "empty", None, None, None
        self.send_room()
        self.kick_bots()

    # --- versioned changes ---------------------------------------------------------------------

    async def _versioned(self, what: str, change: Any, *, cached: bool = False) -> Any:
        """Run ``change`` after catching up; on a lost race catch up and run it again.

        ``cached``: the first try skips the catch-up if the cache is current (a move: the
        write itself is refused if the log or the match moved on, and then it catches up).
        """
        for attempt in range(RETRIES):
            if not (cached and attempt == 0 and not self.stale):
                try:
                    async with self.lock:
                        await self._sync()
                except StoreError as error:
                    raise Refusal(
                        "storage", f"The game store is unreachable; {what} was not saved"
                    ) from error
            self.conflicted = False
            try:
                return await change()
            except Refusal as refusal:
                if not self.conflicted:
                    if refusal.code in ("storage", "unconfirmed"):
                        self.stale = True
                    raise
                log.info("room %s: lost a race for %s; catching up", self.code, what)
            except BaseException:
                self.stale = True
                raise
        raise Refusal("storage", f"The room kept changing; {what} was not saved, try again")

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
        async def change() -> None:
            await Room.act(
                self, seat, move, origin=origin, id=id, seq=seq, key=key, applied=applied
            )

        await self._versioned("the move", change, cached=True)

    def _store_first(self, match: Match, seat: int, action: Action) -> bool:
        """A move both players may make at once (the discards) is stored before it is applied
        here, when it is one of the legal moves as they are listed (exactly legal, so applying it
        after the write cannot fail): if the other node stored the other player's discard first,
        the write is refused and there is nothing to undo. (Undoing an applied move replays the
        match from its start: about 10 ms at 80 moves, paid at every such lost race.)"""
        return len(match.waiting_for()) > 1 and action in match.legal_actions(seat)

    async def sit(self, player: Player, *, id: MessageId = None) -> int:
        async def change() -> int:
            try:
                return await Room.sit(self, player, id=id)
            except Refusal:
                self._restore_seats()
                raise

        index: int = await self._versioned("the seat", change)
        if player.peer is not None:
            self.lobby.announce(self, index, here=True)
        return index

    async def seat_bot(self, level: str, *, by: Player, id: MessageId = None) -> None:
        async def change() -> None:
            try:
                await Room.seat_bot(self, level, by=by, id=id)
            except Refusal:
                self._restore_seats()
                raise

        await self._versioned("the seat", change)

    async def claim(
        self, seat: int, take: str, *, origin: Peer | None, id: MessageId, seq: int | None = None
    ) -> None:
        async def change() -> None:
            try:
                await Room.claim(self, seat, take, origin=origin, id=id, seq=seq)
            except Refusal:
                self._restore_seats()
                raise

        await self._versioned("the claim", change)

    async def rotate_token(self, player: Player, token: str, new_hash: str) -> None:
        """Checked against the seats in Redis and saved compare-and-set: of two nodes resuming
        with one token at once, one wins and the other's retry finds the token spent."""

        async def change() -> None:
            try:
                await Room.rotate_token(self, player, token, new_hash)
            except Refusal:
                self._restore_seats()
                raise

        await self._versioned("the resume", change)

    async def leave(self, player: Player) -> None:
        index = self.seat_of(player)

        async def change() -> None:
            try:
                await Room.leave(self, player)
            except Refusal:
                self._restore_seats()
                raise

        await self._versioned("leaving", change)
        if index is not None:
            self.lobby.announce(self, index, here=False)

    def _restore_seats(self) -> None:
        """Undo local seat changes a refused write made (the next catch-up reloads them)."""
        saved, self.stored_seats = self.stored_seats, self.record().seats
        if saved != self.stored_seats:
            self._take_seats(saved)

    async def _time_out(self, seq: int) -> None:
        """A turn timer ran out: one node in the cluster moves for the player."""
        try:
            won = await self.redis.claim(
                f"timer:{self.code}:{seq}", owner=self.lobby.node, ttl=CLAIM_TTL
            )
        except StoreError:
            won = False
        if won:
            await super()._time_out(seq)
        elif not self.closed and self.seq == seq:
            # Another node moves for the player; if it died meanwhile, try again later.
            asyncio.get_running_loop().call_later(
                CLAIM_TTL, lambda: asyncio.ensure_future(self._time_out(seq))
            )
