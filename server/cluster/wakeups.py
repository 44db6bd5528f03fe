"""A cluster node's wake-ups: its channel in Redis, and the catch-ups they start.

A node keeps the rooms it caches in their ``watch`` sets and hears their wake-ups on its own
channel only (not every room's): an action is applied from its wake-up, anything else makes the
room catch up by index (one catch-up at a time per room). All rooms catch up when the
subscription is made again, so a wake-up lost (say while Redis restarts) only delays an update.
The channel also carries notices and chat relayed from other nodes, moderation and tournament
news.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections.abc import Coroutine
from typing import Any, Protocol

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.redis_line import Subscription
from muggins.server.cluster.room import RoomCopy, copy_of
from muggins.server.cluster.room_loading import RoomLoader
from muggins.server.cluster.tournaments import ClusterTournaments
from muggins.server.lobby.lobby import Lobby
from muggins.server.store.games import StoreError

log = logging.getLogger("muggins.cluster")


class Node(Protocol):
    """What this module needs of its cluster node (server.cluster.lobby.ClusterNode)."""

    name: str
    lobby: Lobby
    redis: ClusterStore
    tournaments: ClusterTournaments
    loader: RoomLoader
    stopping: bool
    """Whether the node is stopping (background loops then end on their own)."""

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None: ...

    def _heard(self, data: str) -> None:
        """A wake-up on the node's channel (looked up at each one, so it can be wrapped)."""


class Wakeups:
    """A node's wake-up listener and the catch-ups it starts (see the module doc)."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self._stopped: asyncio.Future[None] | None = None
        """Done once the node stops (what the subscription loop waits on besides its
        connection, so it wakes for nothing else)."""
        self.subscribed = asyncio.Event()
        """Set while this node is subscribed to its wake-ups."""

    def stop(self) -> None:
        """The node stops: the subscription loop ends."""
        if self._stopped is not None and not self._stopped.done():
            self._stopped.set_result(None)

    def wake(self, code: str) -> None:
        """Catch room ``code`` up with Redis: at once, or after the catch-up running now."""
        room = self.node.lobby.rooms.get(code)
        copy = copy_of(room) if room is not None else None
        if copy is None or copy.room.closed:
            return
        copy.stale = True
        if copy.catching_up:
            copy.again = True
            return
        copy.catching_up = True
        self.node._spawn(self._catch_up(copy))

    def relay(self, copy: RoomCopy, payload: dict[str, Any]) -> None:
        """Send a notice or chat line to the room's people on the other nodes (best effort)."""
        self.node._spawn(self._relay(copy.room.code, payload))

    async def _relay(self, code: str, payload: dict[str, Any]) -> None:
        try:
            await self.node.redis.relay(code, node=self.node.name, payload=payload)
        except StoreError as error:
            log.info("room %s: message not relayed: %s", code, error)

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
                if not copy.again or copy.room.closed or self.node.stopping:
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

        self.node._spawn(settle())

    async def tell_nodes(self, message: dict[str, str]) -> None:
        """Publish ``message`` (kind "moderation") on every other node's channel."""
        try:
            await self.wake_nodes({"kind": "moderation", **message})
        except StoreError as error:
            log.warning("moderation not told to the other nodes: %s", error)

    async def wake_nodes(self, payload: dict[str, str]) -> None:
        """Publish ``payload`` on every other node's channel (StoreError: not done)."""
        store = self.node.redis
        text = json.dumps({"room": "", **payload})
        pattern = store.node_prefix + "*"

        async def publish() -> None:
            channels = await store.redis.pubsub_channels(pattern)
            mine = store.node_channel(self.node.name)
            for channel in channels:
                name = channel.decode() if isinstance(channel, bytes) else str(channel)
                if name != mine:
                    await store.redis.publish(name, text)

        await store._call("wake nodes", publish)

    def heard(self, data: str) -> None:
        """A wake-up on this node's channel: apply the action it carries, or catch up."""
        node = self.node
        try:
            wake = json.loads(data)
            if wake.get("kind") == "moderation":
                node._spawn(node.lobby.moderation.heard(wake))
                return
            if wake.get("kind") == "tournament":
                node.tournaments.heard(str(wake["tournament"]))
                return
            code = str(wake["room"])
        except (ValueError, KeyError, TypeError):
            log.warning("a wake-up that names no room: %.80s", data)
            return
        room = node.lobby.rooms.get(code)
        copy = copy_of(room) if room is not None else None
        if copy is None:
            node.loader.heard(code)
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
                node._spawn(self._take_when_free(copy, number, index, entry))
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

    async def listen(self) -> None:
        """Stay subscribed to this node's channel until the node stops."""
        node = self.node
        channel = node.redis.node_channel(node.name)
        if self._stopped is None:
            self._stopped = asyncio.get_running_loop().create_future()
        while not node.stopping:
            subscription: Subscription | None = None
            try:
                # Each wake-up is handled as it is read (the node's _heard looked up each time).
                subscription = await Subscription.open(
                    node.redis.line, channel, lambda data: node._heard(data)
                )
                self.subscribed.set()
                node._spawn(node.tournaments.resync())
                # Whatever was missed while not subscribed (and watch sets Redis may have lost).
                await node.redis.watch(list(node.lobby.rooms))
                for code in list(node.lobby.rooms):
                    self.wake(code)
                await asyncio.wait(
                    [subscription.lost, self._stopped], return_when=asyncio.FIRST_COMPLETED
                )
                if not node.stopping:
                    raise RedisConnectionError("the subscription's connection closed")
            except (RedisError, OSError, StoreError) as error:
                self.subscribed.clear()
                log.warning("wake-ups from Redis lost (%s); reconnecting", error)
                await asyncio.sleep(0.5)
            finally:
                if subscription is not None:
                    subscription.close()
