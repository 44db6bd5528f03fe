"""Where each seat's player is connected: a cluster node's presence writes to Redis.

A node writes that a seat's player is connected to it (or no longer is), one seat's writes in
the order they were made, and notes itself as the seat's holder in the room's copy. The
heartbeat (see :mod:`server.cluster.lobby`) makes a write that failed again, and checks that the
nodes holding the other seats of its rooms still run.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.room import RoomCopy, copy_of
from muggins.server.lobby.lobby import Lobby
from muggins.server.store.games import StoreError

log = logging.getLogger("muggins.cluster")

PRESENCE_TTL = 6.0
"""Seconds a node's heartbeat lasts in Redis unless renewed: a node that stalls (starved, or
collecting garbage) for less than this keeps its players (a dead machine's players lapse)."""


class Node(Protocol):
    """What this module needs of its cluster node (server.cluster.lobby.ClusterNode)."""

    name: str
    lobby: Lobby
    redis: ClusterStore

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None: ...


class Presence:
    """A node's presence writes, and what it knows of the nodes holding its rooms' seats."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self._locks: dict[tuple[str, int], asyncio.Lock] = {}

    def announce(self, copy: RoomCopy, seat: int, *, here: bool) -> None:
        """Tell the cluster that ``seat``'s player is connected here now, or no longer."""
        self.node._spawn(self._presence(copy.room.code, seat, here=here))

    async def _presence(self, code: str, seat: int, *, here: bool) -> None:
        # One seat's presence writes go out in the order they were made (a join, then a drop).
        lock = self._locks.setdefault((code, seat), asyncio.Lock())
        async with lock:
            await self._write_presence(code, seat, here=here)

    async def _write_presence(self, code: str, seat: int, *, here: bool) -> None:
        node = self.node
        try:
            if here:
                await node.redis.set_presence(code, seat)
            else:
                await node.redis.clear_presence(code, seat, ttl=PRESENCE_TTL)
        except StoreError as error:
            log.info("room %s: presence not written (%s); the poll retries", code, error)
            return
        room = node.lobby.rooms.get(code)
        copy = copy_of(room) if room is not None else None
        if copy is not None:
            holders = list(copy.holders)
            if here:
                holders[seat] = node.name
            elif holders[seat] == node.name:
                holders[seat] = None
            copy.holders = (holders[0], holders[1])

    def forget(self, code: str) -> None:
        """Room ``code`` is no longer cached here."""
        self._locks.pop((code, 0), None)
        self._locks.pop((code, 1), None)

    def present_rooms(self) -> list[RoomCopy]:
        """The copies of the open rooms here with someone connected to this node."""
        copies = []
        for room in list(self.node.lobby.rooms.values()):
            copy = copy_of(room)
            if copy is not None and not room.closed and room.present():
                copies.append(copy)
        return copies

    def suspect(self, copy: RoomCopy, alive: dict[str, bool], before: dict[str, bool]) -> bool:
        """Whether a seat of the room is held by a node that died (and the room has not told
        it yet) or that came back to life since the last heartbeat."""
        for seat, holder in zip(copy.room.seats, copy.holders, strict=True):
            if holder is None or holder == self.node.name:
                continue
            lives = alive.get(holder, True)
            if not lives and seat.gone_since is None:
                return True
            if lives and before.get(holder) is False:
                return True
        return False
