"""A cluster node's sweeps: abandoned rooms closed (by one node per round), unsettled matches
settled, finished ones archived, and cached rooms nobody here uses forgotten."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Coroutine
from typing import Any, Protocol

from muggins.server.cluster.archive import archive_finished
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.presence import Presence
from muggins.server.cluster.room_loading import RoomLoader
from muggins.server.cluster.settling import settle_unsettled
from muggins.server.lobby.lobby import Lobby
from muggins.server.store.games import StoreError

log = logging.getLogger("muggins.cluster")

EVICT_AFTER = 300.0
"""Seconds a cached room with nobody connected here stays cached."""
VACANT_RECHECK = 0.5
"""Seconds after a vacant waiting room's grace period runs out that it is checked again."""


class Node(Protocol):
    """What this module needs of its cluster node (server.cluster.lobby.ClusterNode)."""

    name: str
    lobby: Lobby
    redis: ClusterStore
    loader: RoomLoader
    presence: Presence

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None: ...


class Sweeps:
    """A node's clean-up rounds (see the module doc)."""

    def __init__(self, node: Node) -> None:
        self.node = node

    async def sweep(self) -> bool:
        """Close abandoned rooms (one node per round), and forget cached rooms nobody here uses."""
        node = self.node
        try:
            await self._close_abandoned()
        except StoreError as error:
            log.info("clean-up skipped: %s", error)
        now = node.lobby.clock()
        rooms = node.lobby.rooms
        for code, room in list(rooms.items()):
            if room.closed or (not room.present() and now - room.last_activity > EVICT_AFTER):
                room.close()
                for seat in room.seats:
                    if seat.player is not None and seat.player.room is room:
                        seat.player.room = None
                del rooms[code]
                node._spawn(self._unwatch(code))
                node.loader.forget(code)
                node.presence.forget(code)
        node.lobby.metrics.rooms.set(len(rooms))
        return True

    async def _unwatch(self, code: str) -> None:
        try:
            await self.node.redis.unwatch(code)
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
        node = self.node
        redis, config = node.redis, node.lobby.config
        interval = config.sweep_interval
        round = int(time.time() // interval)
        if not await redis.claim(f"sweep:{round}", owner=node.name, ttl=interval):
            return
        abandon_after = config.abandon_after
        idle, vacant = await redis.sweep_rooms(since=time.time() - abandon_after)
        for code in idle:
            if not await redis.claim(f"close:{code}", owner=node.name, ttl=60.0):
                continue
            snapshot = await redis.load_room(code)
            match = snapshot.match if snapshot is not None else None
            if match is not None and match.finished is None:
                await redis.finish_match(
                    code, match.number, finished=time.time(), result="abandoned", winner=None
                )
            await redis.close_room(code)
            log.info("room %s closed after %.0f s without anyone", code, abandon_after)
            self._closed_elsewhere(code)
        for code, since in vacant:
            if code in idle:
                continue
            left = float(since) + config.grace - time.time()
            if left <= 0:
                await self._close_vacant(code, since)
            elif left < interval:
                node._spawn(self._close_vacant_later(code, since, left + VACANT_RECHECK))
        await settle_unsettled(redis, quiet_for=interval, pair_max=config.rated_pair_per_day)
        if redis.archive is not None:
            await archive_finished(redis, redis.archive)

    async def _close_vacant_later(self, code: str, since: str, delay: float) -> None:
        await asyncio.sleep(delay)
        try:
            await self._close_vacant(code, since)
        except StoreError as error:
            log.info("room %s: vacancy not checked (%s); the next sweep does", code, error)

    async def _close_vacant(self, code: str, since: str) -> None:
        grace = self.node.lobby.config.grace
        if await self.node.redis.close_vacant(code, since=since, grace=grace) == 1:
            log.info("room %s closed: nobody came back to a room without a match", code)
            self._closed_elsewhere(code)

    def _closed_elsewhere(self, code: str) -> None:
        """A room this node closed in Redis: close its cached copy too (the sweep forgets it)."""
        room = self.node.lobby.rooms.get(code)
        if room is not None:
            room.close()
