"""A room on one node of a cluster: a cache of the room whose truth is in Redis.

Any node can serve any room. Before each change the node catches up from Redis by index (new
seats, a new match, actions other nodes appended), applying them to its cached match and telling
its own connections. The change itself is a versioned write: if another node got there first the
write is refused, the node catches up and tries the move again against the new state, so a move
that has become illegal gets the ordinary clean error. Timers and computer moves are claimed in
Redis (``SET NX PX``) so they fire on one node only.
"""

from __future__ import annotations

import asyncio
import json
import logging
from typing import TYPE_CHECKING, Any

from server.cluster.coordination import ClusterStore
from server.players import Peer, Player, Refusal
from server.room import Room
from server.store import MatchRecord, SeatRecord, StoreConflict, StoreError
from shared.actions import Action, Event, Seat
from shared.match import Match
from shared.protocol import ChatLine, GameMove
from shared.protocol.client import MessageId

if TYPE_CHECKING:
    from server.cluster.lobby import ClusterLobby

log = logging.getLogger("muggins.cluster")

RETRIES = 3
"""Versioned writes lost to another node before the move is refused."""
CLAIM_TTL = 3.0
"""Seconds a node holds a timer or computer-move claim; a dead node's claim lapses after it."""
DERIVED_NOTICES = frozenset({"disconnected", "returned"})
"""Notices every node derives for itself (from presence), so they are not relayed."""
PRESENCE_LAG = 2.0
"""Seconds a newly seen player counts as connected before their presence must show in Redis."""


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
        self, code: str, number: int, index: int, seat: Seat, action: Action
    ) -> None:
        try:
            await self.store.append_action(code, number, index, seat, action)
        except StoreConflict:
            self.room.conflicted = True
            raise


class ClusterRoom(Room):
    def __init__(self, *args: Any, lobby: ClusterLobby, redis: ClusterStore, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.lobby = lobby
        self.redis = redis
        self.store = GuardedStore(self, redis)
        self.stored_seats: tuple[SeatRecord, SeatRecord] = self.record().seats
        self.conflicted = False
        self.seated_at = [float("-inf"), float("-inf")]
        """When each seat's player was first seen here (their presence may lag a moment)."""
        self.seen = [False, False]
        """Whether each seat's presence has shown in Redis since it was taken."""

    # --- catching up ---------------------------------------------------------------------------

    async def sync(self) -> None:
        """Catch up with Redis and tell this node's connections what changed."""
        async with self.lock:
            await self._sync()

    async def _sync(self) -> None:
        """Catch up (the caller holds the lock): seats, a newer match, then new actions by index."""
        state = await self.redis.room_state(self.code)
        if state is None:
            self.close()
            return
        seats, number = state.seats, state.match
        self._take_seats(seats)
        self._take_presence(state.present)
        self._take_agreement(state.agreement)
        if number != self.match_number:
            snapshot = await self.redis.load_room(self.code)
            if snapshot is not None and snapshot.match is not None:
                self._take_match(snapshot.match, snapshot.previous_actions)
            return
        match = self.match
        if match is None:
            return
        fresh = await self.redis.actions_since(self.code, number, len(match.log))
        if self.conflicted and not fresh:
            # A write lost a race, yet Redis has nothing newer than this cache: the cache is
            # ahead (Redis lost writes it had acknowledged). Redis is the truth: reload from it.
            snapshot = await self.redis.load_room(self.code)
            if snapshot is not None and snapshot.match is not None:
                log.warning("room %s: cache ahead of Redis; reloaded from Redis", self.code)
                self._take_match(snapshot.match, snapshot.previous_actions)
            return
        events: list[Event] = []
        for seat, action in fresh:
            events.extend(match.apply(seat, action))
        if fresh:
            self.last_activity = self.clock()
            self._broadcast(events, origin=None, id=None)
            if match.over:
                self.send_room()

    def _take_match(self, record: MatchRecord, previous_actions: int) -> None:
        self.match = Match.replay(record.options, record.seed, record.actions, keep_events=False)
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

    def _take_presence(self, present: tuple[bool, bool]) -> None:
        """Connected or not, for the players connected to other nodes (or to none)."""
        changed = False
        for seat, here in zip(self.seats, present, strict=True):
            player = seat.player
            if seat.kind != "human" or player is None or player.peer is not None:
                continue
            if here:
                self.seen[seat.index] = True
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
        text = json.dumps(
            {"match": self.match_number, "restart_by": self.restart_by, "rematch": self.rematch}
        )
        try:
            await self.redis.save_agreement(self.code, text)
        except StoreError as error:
            raise Refusal("storage", "The game store is unreachable; try again") from error

    async def propose_restart(self, seat: int, *, origin: Peer | None, id: MessageId) -> None:
        async def change() -> None:
            await Room.propose_restart(self, seat, origin=origin, id=id)
            await self._save_agreement()

        await self._versioned("the proposal", change)

    async def answer_restart(
        self, seat: int, accept: bool, *, origin: Peer | None, id: MessageId
    ) -> None:
        async def change() -> None:
            await Room.answer_restart(self, seat, accept, origin=origin, id=id)
            await self._save_agreement()

        await self._versioned("the answer", change)

    async def ask_rematch(self, seat: int, *, origin: Peer | None, id: MessageId) -> None:
        async def change() -> None:
            await Room.ask_rematch(self, seat, origin=origin, id=id)
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

    async def _versioned(self, what: str, change: Any) -> Any:
        """Run ``change`` after catching up; on a lost race catch up and run it again."""
        for _ in range(RETRIES):
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
            except Refusal:
                if not self.conflicted:
                    raise
                log.info("room %s: lost a race for %s; catching up", self.code, what)
        raise Refusal("storage", f"The room kept changing; {what} was not saved, try again")

    async def act(
        self, seat: int, move: GameMove | Action, *, origin: Peer | None, id: MessageId = None
    ) -> None:
        async def change() -> None:
            await Room.act(self, seat, move, origin=origin, id=id)

        await self._versioned("the move", change)

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

    async def claim(self, seat: int, take: str, *, origin: Peer | None, id: MessageId) -> None:
        async def change() -> None:
            try:
                await Room.claim(self, seat, take, origin=origin, id=id)
            except Refusal:
                self._restore_seats()
                raise

        await self._versioned("the claim", change)

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
