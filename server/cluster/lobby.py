"""The lobby's part of one cluster node: rooms load from Redis on demand, and Redis wakes them up.

The lobby is the ordinary :class:`~server.lobby.lobby.Lobby`; its
:attr:`~server.lobby.lobby.Lobby.cluster` is a :class:`ClusterNode` (see
:mod:`server.lobby.cluster_seam`), and each room it holds has a
:class:`~server.cluster.room.RoomCopy`.

A node keeps only the rooms its own connections use, as caches. A room code, a resume token or a
room listing is looked up in Redis (:meth:`ClusterNode.prepare`, before the message is handled),
so any node can serve any room or player. A node keeps the rooms it caches in their ``watch``
sets and hears their wake-ups on its own channel only (not every room's): an action is applied
from its wake-up, anything else makes the room catch up by index (one catch-up at a time per
room). Every second the node renews its heartbeat and, in the same round trip, reads whether
the nodes holding its rooms' other players run (heartbeat alive and subscribed to their
wake-ups): a dead node's players are then told to their opponents, within a couple of seconds
when its process ended (its subscription goes with its connections), after the heartbeat's
life and a confirmation when it merely stopped answering (a stall is not a drop). Each room is
also caught up now and then (every ``SAFETY_POLL`` seconds, spread out), and all of them when
the subscription is made again, so a wake-up lost (say while Redis restarts) only delays an
update.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from muggins.server.cluster.archive import archive_finished
from muggins.server.cluster.bot import ClusterBot
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.duplicate import ClusterDuplicates
from muggins.server.cluster.ownership import RoomOwnership
from muggins.server.cluster.redis_line import Subscription
from muggins.server.cluster.room import RoomCopy
from muggins.server.cluster.settling import settle_unsettled
from muggins.server.cluster.signin import RedisSignInLimits
from muggins.server.cluster.tournaments import ClusterTournaments
from muggins.server.config import ServerConfig
from muggins.server.lobby.lobby import Lobby
from muggins.server.rooms.players import Peer, Player, Refusal
from muggins.server.rooms.room import Room
from muggins.server.rooms.tokens import (
    CODE_ALPHABET,
    CODE_LENGTH,
    normalise_code,
    token_player,
)
from muggins.server.runtime.metrics import Metrics
from muggins.server.runtime.ticks import tick
from muggins.server.store.games import SeatRecord, StoreError
from muggins.shared.match import Match
from muggins.shared.protocol import (
    ClientMessage,
    Hello,
    JoinRoom,
    Rooms,
    RoomSummary,
    Spectate,
)

log = logging.getLogger("muggins.cluster")

POLL = 1.0
"""Seconds between heartbeats of this node (and checks of the nodes holding its rooms' other
players: a node whose process ended is seen at the next check)."""
PRESENCE_TTL = 6.0
"""Seconds a node's heartbeat lasts in Redis unless renewed: a node that stalls (starved, or
collecting garbage) for less than this keeps its players (a dead machine's players lapse)."""
PASS_EVERY = 5
"""Heartbeats between this node's passes over all its rooms (see ``_poll``)."""
SUBSCRIBE_WAIT = 5.0
"""Seconds a starting node waits to be subscribed to its wake-ups before it serves (other nodes
count a node without its subscription as ended)."""
SAFETY_POLL = 300.0
"""Seconds between the catch-ups of each present room that are not woken by anything."""
STOP_WAIT = 2.0
"""Seconds a stopping node waits for its background tasks to end."""
EVICT_AFTER = 300.0
"""Seconds a cached room with nobody connected here stays cached."""


VACANT_RECHECK = 0.5
"""Seconds after a vacant waiting room's grace period runs out that it is checked again."""


def cluster_lobby(
    store: ClusterStore,
    config: ServerConfig,
    metrics: Metrics,
    *,
    clock: Callable[[], float] = time.monotonic,
) -> Lobby:
    """The lobby of a cluster node whose games live in ``store``."""
    lobby = Lobby(store, config, metrics, clock=clock)
    ClusterNode(lobby, store)
    return lobby


def copy_of(room: Room) -> RoomCopy | None:
    """The node's copy seam of ``room`` (None for a room that is not a cluster's)."""
    copy = room.cluster
    return copy if isinstance(copy, RoomCopy) else None


class ClusterNode:
    """A cluster node's part of its lobby (see the module doc)."""

    def __init__(self, lobby: Lobby, store: ClusterStore) -> None:
        self.lobby = lobby
        self.redis = store
        lobby.cluster = self
        lobby.accounts.limits = RedisSignInLimits(store)  # counted across the cluster
        self.name = secrets.token_hex(6)
        """This node's name in claims, heartbeats, watch sets and its wake-up channel."""
        store.node = self.name
        self._alive: dict[str, bool] = {}
        """Whether each node that holds a player of a room here lived at the last heartbeat."""
        self._round = 0
        self._others: set[str] = set()
        """The nodes that hold the other players of this node's rooms, checked every heartbeat."""
        self._holders_changed = False
        self._tasks: set[asyncio.Task[None]] = set()
        self._loading: dict[str, asyncio.Lock] = {}
        self._heard_loading: set[str] = set()
        """Rooms woken while being loaded here (before their copy could hear it)."""
        self._presence_locks: dict[tuple[str, int], asyncio.Lock] = {}
        self._stopping = False
        self._stopped: asyncio.Future[None] | None = None
        """Done once :meth:`stop` is called (what the subscription loop waits on besides its
        connection, so it wakes for nothing else)."""
        self._subscribed = asyncio.Event()
        """Set while this node is subscribed to its wake-ups."""
        self.ownership = RoomOwnership(store)
        """The rooms this node owns (see :mod:`server.cluster.ownership`)."""
        self.duplicates = ClusterDuplicates(self)
        """This node's part in duplicate matches (see :mod:`server.cluster.duplicate`)."""
        self.tournaments = ClusterTournaments(self)
        """This node's part in tournaments (see :mod:`server.cluster.tournaments`)."""
        lobby.tournaments = self.tournaments

    links_tables = True
    """A duplicate match's tables are linked in Redis (not by the lobby)."""

    # --- rooms as caches -----------------------------------------------------------------------

    def make_bot(self, room: Room, seat: int, level: str, *, delay: float) -> Peer:
        return ClusterBot(room, seat, level, delay=delay)

    def room_made(self, room: Room) -> None:
        """Every room here is this node's copy of a room in Redis. The room list is Redis's,
        so the lobby's own index is not kept."""
        room.on_change = None
        RoomCopy(room, node=self, redis=self.redis)
        if room.options.duplicate:
            self.duplicates.watch(room)
        self._spawn(self.ownership.take(room.code))

    async def route(self, code: str) -> str | None:
        """Where a connection naming room ``code`` goes instead of here (None: it stays)."""
        code = normalise_code(code)
        if len(code) != CODE_LENGTH or any(c not in CODE_ALPHABET for c in code):
            return None  # not a room code: the connection is served, and told so when it asks
        return await self.ownership.route(code)

    def ghost(self, saved: SeatRecord) -> Player[Room]:
        """The Player for a seat record: the local one if connected here, else a stand-in."""
        assert saved.player is not None
        player = self.lobby.players.get(saved.player)
        if player is None:
            player = Player(
                id=saved.player,
                name=saved.name or "Player",
                token_hash=saved.token_hash or "",
                account=saved.account,
            )
            self.lobby.players[player.id] = player
        return player

    async def load(self, code: str) -> Room | None:
        """The room ``code``, caught up with Redis (loaded and rebuilt from its log if new here)."""
        code = normalise_code(code)
        lock = self._loading.setdefault(code, asyncio.Lock())
        async with lock:
            room = self.lobby.rooms.get(code)
            copy = copy_of(room) if room is not None else None
            if room is not None and copy is not None and not room.closed:
                await copy.sync()
                return room
            # Watched before it is read, so no change made after the reading goes unheard:
            # a wake-up that comes before the copy is in place is caught up once it is.
            self._heard_loading.discard(code)
            await self.redis.watch([code])
            snapshot = await self.redis.load_room(code)
            if snapshot is None:
                return None
            record = snapshot.room
            fresh = self.lobby.make_room(code, record.options, created=record.created)
            copy = copy_of(fresh)
            assert copy is not None
            if record.options.duplicate:
                await self.duplicates.loaded(fresh)  # a second table pins its seed first
            if record.options.private:
                await self.tournaments.loaded(fresh)  # so does a Swiss table on duplicate deals
            copy.take_seats(record.seats)
            match = snapshot.match
            if match is not None:
                rebuilt = Match.replay(match.options, match.seed, match.actions, keep_events=False)
                fresh.restore(
                    rebuilt, match.number, snapshot.previous_actions, match.tags, match.final_names
                )
                for index in (0, 1):
                    copy.tell_whole(index)  # a player here seated through another node
            self.lobby.rooms[code] = fresh
            self.lobby.metrics.rooms.set(len(self.lobby.rooms))
            if code in self._heard_loading:
                self._heard_loading.discard(code)
                self.wake(code)
            fresh.kick_bots()
            if fresh.match is not None and fresh.match.over:
                await fresh.settle()  # once per match: the node that finished it may have died
            return fresh

    async def prepare(self, message: ClientMessage) -> None:
        """Fetch from Redis what handling ``message`` will look up: its room, player or list."""
        try:
            if isinstance(message, Hello) and message.token:
                player = token_player(message.token)
                code = await self.redis.player_room(player) if player else None
                if code is not None:
                    await self.load(code)
            elif isinstance(message, JoinRoom | Spectate):
                await self.load(message.code)
        except StoreError as error:
            raise Refusal(
                "storage", "The game store is unreachable for a moment; try again"
            ) from error

    async def listing(self, after: str | None = None, limit: int = 50) -> Rooms:
        """A page of every node's public rooms, read from the listing index in Redis (three
        commands, whatever the number of rooms); spectators are those watching on this node."""
        try:
            page = await self.redis.listing_page(after, limit)
        except StoreError as error:
            raise Refusal(
                "storage", "The game store is unreachable for a moment; try again"
            ) from error
        rooms = []
        for listed in page.rooms:
            local = self.lobby.rooms.get(listed.code)
            rooms.append(
                RoomSummary(
                    code=listed.code,
                    names=listed.names,
                    options=listed.options,
                    status=listed.status,
                    open_seat=listed.open_seat,
                    spectators=len(local.spectators) if local is not None else 0,
                )
            )
        return Rooms(rooms=tuple(rooms), next=page.next, total=page.total)

    async def catch_up(self, room: Room) -> bool:
        """Catch ``room`` up before the lobby releases it: a seat taken through another node
        meanwhile keeps the room open. False when Redis cannot be read now."""
        copy = copy_of(room)
        if copy is not None:
            try:
                await copy.sync()
            except StoreError:
                return False
        return True

    # --- wake-ups ------------------------------------------------------------------------------

    async def start(self) -> bool:
        """Nothing to rebuild up front (rooms load on demand); start listening for wake-ups.

        Rooms stored before the listing index existed are indexed once (by the first node).
        """
        try:
            # Its address too, so a room it owns sends players here from its first connection.
            await self.redis.heartbeat(
                ttl=PRESENCE_TTL, others=[], address=self.lobby.config.node_url
            )
        except StoreError as error:
            log.warning("no heartbeat yet (%s); the poll retries", error)
        indexed = await self.redis.index_rooms()
        if indexed:
            log.info("listing index built for %d open rooms", indexed)
        for job in (self._listen, self._poll, self.tournaments.run):
            self._spawn(job())
        # Other nodes count a node that is not subscribed as ended: serve once it is.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(SUBSCRIBE_WAIT):
                await self._subscribed.wait()
        return True

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        if self._stopping:
            job.close()
            return
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def wake(self, code: str) -> None:
        """Catch room ``code`` up with Redis: at once, or after the catch-up running now."""
        room = self.lobby.rooms.get(code)
        copy = copy_of(room) if room is not None else None
        if copy is None or copy.room.closed:
            return
        copy.stale = True
        if copy.catching_up:
            copy.again = True
            return
        copy.catching_up = True
        self._spawn(self._catch_up(copy))

    def relay(self, copy: RoomCopy, payload: dict[str, Any]) -> None:
        """Send a notice or chat line to the room's people on the other nodes (best effort)."""
        self._spawn(self._relay(copy.room.code, payload))

    async def _relay(self, code: str, payload: dict[str, Any]) -> None:
        try:
            await self.redis.relay(code, node=self.name, payload=payload)
        except StoreError as error:
            log.info("room %s: message not relayed: %s", code, error)

    def announce(self, copy: RoomCopy, seat: int, *, here: bool) -> None:
        """Tell the cluster that ``seat``'s player is connected here now, or no longer."""
        self._spawn(self._presence(copy.room.code, seat, here=here))

    async def _presence(self, code: str, seat: int, *, here: bool) -> None:
        # One seat's presence writes go out in the order they were made (a join, then a drop).
        lock = self._presence_locks.setdefault((code, seat), asyncio.Lock())
        async with lock:
            await self._write_presence(code, seat, here=here)

    async def _write_presence(self, code: str, seat: int, *, here: bool) -> None:
        try:
            if here:
                await self.redis.set_presence(code, seat)
            else:
                await self.redis.clear_presence(code, seat, ttl=PRESENCE_TTL)
        except StoreError as error:
            log.info("room %s: presence not written (%s); the poll retries", code, error)
            return
        room = self.lobby.rooms.get(code)
        copy = copy_of(room) if room is not None else None
        if copy is not None:
            holders = list(copy.holders)
            if here:
                holders[seat] = self.name
            elif holders[seat] == self.name:
                holders[seat] = None
            copy.holders = (holders[0], holders[1])

    async def _catch_up(self, copy: RoomCopy) -> None:
        code = copy.room.code
        try:
            while True:
                copy.again = False
                try:
                    await copy.sync()
                except StoreError as error:
                    log.info("room %s: catch-up failed (%s); a poll retries", code, error)
                except Exception:
                    log.exception("room %s: catch-up failed", code)
                if not copy.again or copy.room.closed or self._stopping:
                    return
        finally:
            copy.catching_up = False

    def _settle(self, copy: RoomCopy) -> None:
        async def settle() -> None:
            code = copy.room.code
            try:
                await copy.settle_later()
            except StoreError as error:
                log.info("room %s: not settled here (%s)", code, error)
            except Exception:
                log.exception("room %s: not settled here", code)

        self._spawn(settle())

    async def first_this_round(self, work: str, every: float) -> bool:
        round = int(time.time() // every)
        return await self.redis.claim(f"{work}:{round}", owner=self.name, ttl=every)

    async def tell_nodes(self, message: dict[str, str]) -> None:
        """Publish ``message`` (kind "moderation") on every other node's channel."""
        try:
            await self.wake_nodes({"kind": "moderation", **message})
        except StoreError as error:
            log.warning("moderation not told to the other nodes: %s", error)

    async def wake_nodes(self, payload: dict[str, str]) -> None:
        """Publish ``payload`` on every other node's channel (StoreError: not done)."""
        text = json.dumps({"room": "", **payload})
        pattern = self.redis.node_prefix + "*"

        async def publish() -> None:
            channels = await self.redis.redis.pubsub_channels(pattern)
            mine = self.redis.node_channel(self.name)
            for channel in channels:
                name = channel.decode() if isinstance(channel, bytes) else str(channel)
                if name != mine:
                    await self.redis.redis.publish(name, text)

        await self.redis._call("wake nodes", publish)

    def _heard(self, data: str) -> None:
        """A wake-up on this node's channel: apply the action it carries, or catch up."""
        try:
            wake = json.loads(data)
            if wake.get("kind") == "moderation":
                self._spawn(self.lobby.moderation.heard(wake))
                return
            if wake.get("kind") == "tournament":
                self.tournaments.heard(str(wake["tournament"]))
                return
            code = str(wake["room"])
        except (ValueError, KeyError, TypeError):
            log.warning("a wake-up that names no room: %.80s", data)
            return
        room = self.lobby.rooms.get(code)
        copy = copy_of(room) if room is not None else None
        if copy is None:
            loading = self._loading.get(code)
            if loading is not None and loading.locked():
                self._heard_loading.add(code)  # its copy catches up once it is in place
            return
        kind = wake.get("kind")
        if kind == "relay":
            copy.deliver(wake.get("payload") or {})
            return
        if kind == "action" and not copy.catching_up:
            try:
                number, index, entry = int(wake["number"]), int(wake["index"]), wake["entry"]
            except (KeyError, TypeError, ValueError):
                self.wake(code)
                return
            if copy.room.lock.locked():
                # Busy (most often this node's own move is on its way to Redis): applied once
                # the room is free, in the order heard, rather than by a catch-up (two reads).
                self._spawn(self._take_when_free(copy, number, index, entry))
                return
            self._took(copy, copy.take_action(number, index, entry))
            return
        self.wake(code)

    def _took(self, copy: RoomCopy, applied: bool | None) -> None:
        if applied is None:
            self._settle(copy)
        elif applied is False:
            self.wake(copy.room.code)

    async def _take_when_free(
        self, copy: RoomCopy, number: int, index: int, entry: dict[str, Any]
    ) -> None:
        """An action heard while its room was busy: applied when the room is free, if it is
        still the next one (one this node caught up with meanwhile is already there)."""
        async with copy.room.lock:
            self._took(copy, copy.take_action(number, index, entry, held=True))

    async def _listen(self) -> None:
        channel = self.redis.node_channel(self.name)
        if self._stopped is None:
            self._stopped = asyncio.get_running_loop().create_future()
        while not self._stopping:
            subscription: Subscription | None = None
            try:
                # Each wake-up is handled as it is read (_heard looked up each time).
                subscription = await Subscription.open(
                    self.redis.line, channel, lambda data: self._heard(data)
                )
                self._subscribed.set()
                self._spawn(self.tournaments.resync())
                # Whatever was missed while not subscribed (and watch sets Redis may have lost).
                await self.redis.watch(list(self.lobby.rooms))
                for code in list(self.lobby.rooms):
                    self.wake(code)
                await asyncio.wait(
                    [subscription.lost, self._stopped], return_when=asyncio.FIRST_COMPLETED
                )
                if not self._stopping:
                    raise RedisConnectionError("the subscription's connection closed")
            except (RedisError, OSError, StoreError) as error:
                self._subscribed.clear()
                log.warning("wake-ups from Redis lost (%s); reconnecting", error)
                await asyncio.sleep(0.5)
            finally:
                if subscription is not None:
                    subscription.close()

    async def _poll(self) -> None:
        """Every ``POLL`` seconds: this node's heartbeat and the liveness of the nodes that hold
        the other players of its rooms (one round trip). Every ``PASS_EVERY`` rounds, and every
        round while such a node is dead or has just come back, a pass over its rooms: the rooms
        whose players' node died or came back catch up, presence writes that failed are made
        again, and a slice of the safety catch-ups runs. (The pass costs per room, so an idle
        player costs little however often the nodes are checked.)"""
        while not self._stopping:
            await tick(POLL)  # on the grid the keepalive's pings share: one wake-up for both
            self._round += 1
            full = self._round % PASS_EVERY == 0
            rooms: list[RoomCopy] | None = None
            if full or self._holders_changed:
                self._holders_changed = False
                rooms = self._present_rooms()
                self._others = {
                    h for copy in rooms for h in copy.holders if h is not None and h != self.name
                }
            others = sorted(self._others)
            try:
                lives = await self.redis.heartbeat(
                    ttl=PRESENCE_TTL,
                    others=others,
                    owned=self.ownership.renewing(self.lobby.rooms),
                    address=self.lobby.config.node_url,
                )
            except StoreError as error:
                log.info("heartbeat not written (%s); the next poll retries", error)
                continue
            alive = dict(zip(others, lives, strict=True))
            before, self._alive = self._alive, alive
            troubled = any(not lives or before.get(node) is False for node, lives in alive.items())
            if not (full or troubled):
                continue
            if rooms is None:
                rooms = self._present_rooms()
            slices = max(1, round(SAFETY_POLL / (POLL * PASS_EVERY)))
            share = (self._round // PASS_EVERY) % slices
            for copy in rooms:
                if self._stopping:
                    return
                code = copy.room.code
                if self._suspect(copy, alive, before) or (full and hash(code) % slices == share):
                    self.wake(code)
                if full:
                    for seat in copy.here():
                        if copy.holders[seat] != self.name:
                            self.announce(copy, seat, here=True)  # a presence write that failed

    def _present_rooms(self) -> list[RoomCopy]:
        copies = []
        for room in list(self.lobby.rooms.values()):
            copy = copy_of(room)
            if copy is not None and not room.closed and room.present():
                copies.append(copy)
        return copies

    def holders_changed(self) -> None:
        """A room here learnt that its seats are held by other nodes than before: the next
        heartbeat checks the nodes anew."""
        self._holders_changed = True

    def _suspect(self, copy: RoomCopy, alive: dict[str, bool], before: dict[str, bool]) -> bool:
        """Whether a seat of the room is held by a node that died (and the room has not told
        it yet) or that came back to life since the last heartbeat."""
        for seat, holder in zip(copy.room.seats, copy.holders, strict=True):
            if holder is None or holder == self.name:
                continue
            lives = alive.get(holder, True)
            if not lives and seat.gone_since is None:
                return True
            if lives and before.get(holder) is False:
                return True
        return False

    async def sweep(self) -> bool:
        """Close abandoned rooms (one node per round), and forget cached rooms nobody here uses."""
        try:
            await self._close_abandoned()
        except StoreError as error:
            log.info("clean-up skipped: %s", error)
        now = self.lobby.clock()
        rooms = self.lobby.rooms
        for code, room in list(rooms.items()):
            if room.closed or (not room.present() and now - room.last_activity > EVICT_AFTER):
                room.close()
                for seat in room.seats:
                    if seat.player is not None and seat.player.room is room:
                        seat.player.room = None
                del rooms[code]
                self._spawn(self._unwatch(code))
                self._loading.pop(code, None)
                self._presence_locks.pop((code, 0), None)
                self._presence_locks.pop((code, 1), None)
        self.lobby.metrics.rooms.set(len(rooms))
        return True

    async def _unwatch(self, code: str) -> None:
        try:
            await self.redis.unwatch(code)
        except StoreError as error:
            log.info("room %s: still watched (%s)", code, error)

    async def _close_abandoned(self) -> None:
        """Rooms with no move and nobody connected for ``abandon_after`` seconds are closed, and
        waiting rooms (no match started) with nobody connected for the grace period; finished
        matches nobody settled are settled (see server.cluster.settling).

        One node per sweep round claims the round; each room's closing is claimed again (or
        checked in one script), so it happens exactly once even if rounds overlap. A vacant room
        whose grace period ends before the next round is checked again just after it ends.
        """
        interval = self.lobby.config.sweep_interval
        round = int(time.time() // interval)
        if not await self.redis.claim(f"sweep:{round}", owner=self.name, ttl=interval):
            return
        abandon_after = self.lobby.config.abandon_after
        idle, vacant = await self.redis.sweep_rooms(since=time.time() - abandon_after)
        for code in idle:
            if not await self.redis.claim(f"close:{code}", owner=self.name, ttl=60.0):
                continue
            snapshot = await self.redis.load_room(code)
            match = snapshot.match if snapshot is not None else None
            if match is not None and match.finished is None:
                await self.redis.finish_match(
                    code, match.number, finished=time.time(), result="abandoned", winner=None
                )
            await self.redis.close_room(code)
            log.info("room %s closed after %.0f s without anyone", code, abandon_after)
            self._closed_elsewhere(code)
        for code, since in vacant:
            if code in idle:
                continue
            left = float(since) + self.lobby.config.grace - time.time()
            if left <= 0:
                await self._close_vacant(code, since)
            elif left < interval:
                self._spawn(self._close_vacant_later(code, since, left + VACANT_RECHECK))
        await settle_unsettled(
            self.redis, quiet_for=interval, pair_max=self.lobby.config.rated_pair_per_day
        )
        if self.redis.archive is not None:
            await archive_finished(self.redis, self.redis.archive)

    async def _close_vacant_later(self, code: str, since: str, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self._close_vacant(code, since)
        except StoreError as error:
            log.info("room %s: vacancy not checked (%s); the next sweep does", code, error)

    async def _close_vacant(self, code: str, since: str) -> None:
        if await self.redis.close_vacant(code, since=since, grace=self.lobby.config.grace) == 1:
            log.info("room %s closed: nobody came back to a room without a match", code)
            self._closed_elsewhere(code)

    def _closed_elsewhere(self, code: str) -> None:
        """A room this node closed in Redis: close its cached copy too (the sweep forgets it)."""
        room = self.lobby.rooms.get(code)
        if room is not None:
            room.close()

    async def stop(self) -> None:
        """Hand over: give up the claims held here (so other nodes move at once), stop listening.

        Background loops also end on their own once ``_stopping`` is set: a cancellation can be
        lost inside the Redis client (seen under load), and shutdown must not wait on it.
        """
        self._stopping = True
        if self._stopped is not None and not self._stopped.done():
            self._stopped.set_result(None)
        with contextlib.suppress(StoreError, TimeoutError):
            async with asyncio.timeout(1.0):
                await self.ownership.release()
        with contextlib.suppress(StoreError, TimeoutError):
            async with asyncio.timeout(1.0):
                await self.tournaments.release()
        for room in self.lobby.rooms.values():
            for seat in room.seats:
                bot = seat.bot
                if isinstance(bot, ClusterBot) and bot.claimed is not None:
                    with contextlib.suppress(StoreError, TimeoutError):
                        async with asyncio.timeout(1.0):
                            await self.redis.release(bot.claimed, owner=self.name)
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if tasks:
            _, pending = await asyncio.wait(tasks, timeout=STOP_WAIT)
            if pending:
                log.warning("%d background tasks did not end; stopping without them", len(pending))
