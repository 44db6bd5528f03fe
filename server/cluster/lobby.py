"""The lobby's part of one cluster node: rooms load from Redis on demand, and Redis wakes them up.

The lobby is the ordinary :class:`~server.lobby.lobby.Lobby`; its
:attr:`~server.lobby.lobby.Lobby.cluster` is a :class:`ClusterNode` (see
:mod:`server.lobby.cluster_seam`), and each room it holds has a
:class:`~server.cluster.room.RoomCopy`. The node is made of parts, one job each: rooms loaded
on demand (:mod:`server.cluster.room_loading`), its wake-ups (:mod:`server.cluster.wakeups`),
where its players are connected (:mod:`server.cluster.presence`) and its clean-up rounds
(:mod:`server.cluster.sweeps`); this module starts and stops them, and runs the heartbeat.

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
import logging
import secrets
import time
from collections.abc import Callable, Coroutine
from typing import Any

from muggins.server.cluster.bot import ClusterBot
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.duplicate import ClusterDuplicates
from muggins.server.cluster.ownership import RoomOwnership
from muggins.server.cluster.presence import PRESENCE_TTL, Presence
from muggins.server.cluster.room import RoomCopy, copy_of
from muggins.server.cluster.room_loading import RoomLoader
from muggins.server.cluster.signin import RedisSignInLimits
from muggins.server.cluster.sweeps import Sweeps
from muggins.server.cluster.tournaments import ClusterTournaments
from muggins.server.cluster.wakeups import Wakeups
from muggins.server.config import ServerConfig
from muggins.server.lobby.lobby import Lobby
from muggins.server.rooms.players import Peer, Player
from muggins.server.rooms.room import Room
from muggins.server.rooms.tokens import CODE_ALPHABET, CODE_LENGTH, normalise_code
from muggins.server.runtime.metrics import Metrics
from muggins.server.runtime.ticks import tick
from muggins.server.store.games import SeatRecord, StoreError
from muggins.shared.protocol import ClientMessage, Rooms

__all__ = ["PRESENCE_TTL", "ClusterNode", "cluster_lobby", "copy_of"]

log = logging.getLogger("muggins.cluster")

POLL = 1.0
"""Seconds between heartbeats of this node (and checks of the nodes holding its rooms' other
players: a node whose process ended is seen at the next check)."""
PASS_EVERY = 5
"""Heartbeats between this node's passes over all its rooms (see ``_poll``)."""
SUBSCRIBE_WAIT = 5.0
"""Seconds a starting node waits to be subscribed to its wake-ups before it serves (other nodes
count a node without its subscription as ended)."""
SAFETY_POLL = 300.0
"""Seconds between the catch-ups of each present room that are not woken by anything."""
STOP_WAIT = 2.0
"""Seconds a stopping node waits for its background tasks to end."""


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
        self.stopping = False
        """Whether :meth:`stop` was called (background loops end on their own then)."""
        self.loader = RoomLoader(self)
        """The rooms cached here, loaded on demand (see :mod:`server.cluster.room_loading`)."""
        self.wakeups = Wakeups(self)
        """This node's wake-ups (see :mod:`server.cluster.wakeups`)."""
        self.presence = Presence(self)
        """Where this node's players are connected (see :mod:`server.cluster.presence`)."""
        self.sweeps = Sweeps(self)
        """This node's clean-up rounds (see :mod:`server.cluster.sweeps`)."""
        self.ownership = RoomOwnership(store)
        """The rooms this node owns (see :mod:`server.cluster.ownership`)."""
        self.duplicates = ClusterDuplicates(self)
        """This node's part in duplicate matches (see :mod:`server.cluster.duplicate`)."""
        self.tournaments = ClusterTournaments(self)
        """This node's part in tournaments (see :mod:`server.cluster.tournaments`)."""
        lobby.tournaments = self.tournaments

    links_tables = True
    """A duplicate match's tables are linked in Redis (not by the lobby)."""

    # --- rooms as caches (see server.cluster.room_loading) -------------------------------------

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
        return self.loader.ghost(saved)

    async def load(self, code: str) -> Room | None:
        """The room ``code``, caught up with Redis (loaded and rebuilt from its log if new here)."""
        return await self.loader.load(code)

    async def prepare(self, message: ClientMessage) -> None:
        """Fetch from Redis what handling ``message`` will look up: its room, player or list."""
        await self.loader.prepare(message)

    async def listing(self, after: str | None = None, limit: int = 50) -> Rooms:
        """A page of every node's public rooms."""
        return await self.loader.listing(after, limit)

    async def catch_up(self, room: Room) -> bool:
        """Catch ``room`` up before the lobby releases it (False: Redis cannot be read now)."""
        return await self.loader.catch_up(room)

    # --- starting, and the background work -----------------------------------------------------

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
        for job in (self.wakeups.listen, self._poll, self.tournaments.run):
            self._spawn(job())
        # Other nodes count a node that is not subscribed as ended: serve once it is.
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(SUBSCRIBE_WAIT):
                await self.wakeups.subscribed.wait()
        return True

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None:
        if self.stopping:
            job.close()
            return
        task = asyncio.get_running_loop().create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # --- wake-ups (see server.cluster.wakeups) -------------------------------------------------

    def wake(self, code: str) -> None:
        """Catch room ``code`` up with Redis: at once, or after the catch-up running now."""
        self.wakeups.wake(code)

    def relay(self, copy: RoomCopy, payload: dict[str, Any]) -> None:
        """Send a notice or chat line to the room's people on the other nodes (best effort)."""
        self.wakeups.relay(copy, payload)

    async def tell_nodes(self, message: dict[str, str]) -> None:
        """Publish ``message`` (kind "moderation") on every other node's channel."""
        await self.wakeups.tell_nodes(message)

    async def wake_nodes(self, payload: dict[str, str]) -> None:
        """Publish ``payload`` on every other node's channel (StoreError: not done)."""
        await self.wakeups.wake_nodes(payload)

    def _heard(self, data: str) -> None:
        """A wake-up on this node's channel (looked up at each one, so it can be wrapped)."""
        self.wakeups.heard(data)

    # --- presence and the heartbeat (see server.cluster.presence) ------------------------------

    def announce(self, copy: RoomCopy, seat: int, *, here: bool) -> None:
        """Tell the cluster that ``seat``'s player is connected here now, or no longer."""
        self.presence.announce(copy, seat, here=here)

    async def _poll(self) -> None:
        """Every ``POLL`` seconds: this node's heartbeat and the liveness of the nodes that hold
        the other players of its rooms (one round trip). Every ``PASS_EVERY`` rounds, and every
        round while such a node is dead or has just come back, a pass over its rooms: the rooms
        whose players' node died or came back catch up, presence writes that failed are made
        again, and a slice of the safety catch-ups runs. (The pass costs per room, so an idle
        player costs little however often the nodes are checked.)"""
        while not self.stopping:
            await tick(POLL)  # on the grid the keepalive's pings share: one wake-up for both
            self._round += 1
            full = self._round % PASS_EVERY == 0
            rooms: list[RoomCopy] | None = None
            if full or self._holders_changed:
                self._holders_changed = False
                rooms = self.presence.present_rooms()
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
                rooms = self.presence.present_rooms()
            slices = max(1, round(SAFETY_POLL / (POLL * PASS_EVERY)))
            share = (self._round // PASS_EVERY) % slices
            for copy in rooms:
                if self.stopping:
                    return
                code = copy.room.code
                suspect = self.presence.suspect(copy, alive, before)
                if suspect or (full and hash(code) % slices == share):
                    self.wake(code)
                if full:
                    for seat in copy.here():
                        if copy.holders[seat] != self.name:
                            self.announce(copy, seat, here=True)  # a presence write that failed

    def holders_changed(self) -> None:
        """A room here learnt that its seats are held by other nodes than before: the next
        heartbeat checks the nodes anew."""
        self._holders_changed = True

    # --- clean-up (see server.cluster.sweeps) --------------------------------------------------

    async def sweep(self) -> bool:
        """Close abandoned rooms (one node per round), and forget cached rooms nobody here uses."""
        return await self.sweeps.sweep()

    async def first_this_round(self, work: str, every: float) -> bool:
        round = int(time.time() // every)
        return await self.redis.claim(f"{work}:{round}", owner=self.name, ttl=every)

    async def stop(self) -> None:
        """Hand over: give up the claims held here (so other nodes move at once), stop listening.

        Background loops also end on their own once ``stopping`` is set: a cancellation can be
        lost inside the Redis client (seen under load), and shutdown must not wait on it.
        """
        self.stopping = True
        self.wakeups.stop()
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
