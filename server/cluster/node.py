"""A server node of a cluster: the ordinary server with the Redis store and the cluster lobby."""

from __future__ import annotations

from server.app import Server
from server.cluster.coordination import ClusterStore
from server.cluster.lobby import ClusterLobby
from server.config import ServerConfig
from server.store import Store


class ClusterServer(Server):
    """``muggins serve --redis URL``: every game lives in Redis; this node is a gateway."""

    def __init__(self, config: ServerConfig, *, store: Store | None = None) -> None:
        assert config.redis is not None, "a cluster node needs a Redis URL"
        redis = store if isinstance(store, ClusterStore) else ClusterStore(config.redis)
        super().__init__(config, store=redis)
        self.lobby: ClusterLobby = ClusterLobby(redis, config, self.metrics)

    async def stop(self) -> None:
        await self.lobby.stop()
        await super().stop()
