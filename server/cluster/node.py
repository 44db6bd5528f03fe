"""A server node of a cluster: the ordinary server with the Redis store and the cluster lobby."""

from __future__ import annotations

import asyncio
import logging
import time

from server.app import Server
from server.cluster.coordination import ClusterStore
from server.cluster.lobby import ClusterLobby
from server.config import ServerConfig
from server.store import Store, StoreError

log = logging.getLogger("muggins.cluster")

STARTUP_WAIT = 30.0
"""Seconds a starting node waits for Redis (say, while the containers come up) before failing."""


class ClusterServer(Server):
    """``muggins serve --redis URL``: every game lives in Redis; this node is a gateway."""

    def __init__(self, config: ServerConfig, *, store: Store | None = None) -> None:
        assert config.redis is not None, "a cluster node needs a Redis URL"
        redis = store if isinstance(store, ClusterStore) else ClusterStore(config.redis)
        super().__init__(config, store=redis)
        self.lobby: ClusterLobby = ClusterLobby(redis, config, self.metrics)

    async def start(self) -> None:
        deadline = time.monotonic() + STARTUP_WAIT
        while True:
            try:
                await self.store.open()
                break
            except StoreError as error:
                if time.monotonic() > deadline:
                    raise
                log.warning("waiting for Redis: %s", error)
                await asyncio.sleep(1.0)
        await super().start()

    async def stop(self) -> None:
        await self.lobby.stop()
        await super().stop()
