"""The server: the WebSocket listener, HTTP health and metrics, start-up and shutdown.

>>> # in-process, e.g. for ``muggins play`` or tests:
>>> # async with running_server(ServerConfig(port=0, memory=True)) as server:
>>> #     url = server.url
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import http
import logging
import ssl
from collections.abc import AsyncIterator
from pathlib import Path

from prometheus_client import CONTENT_TYPE_LATEST
from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection
from websockets.asyncio.server import serve as ws_serve
from websockets.frames import CloseCode
from websockets.http11 import Request, Response

from server.config import ServerConfig
from server.connection import Connection
from server.lobby import Lobby
from server.memory_store import MemoryStore
from server.metrics import Metrics
from server.sqlite_store import SqliteStore
from server.store import Store

log = logging.getLogger("muggins.server")

GC_YOUNG_THRESHOLD = 20_000
"""Allocations between young garbage collections (CPython's default is 700)."""


def tune_garbage_collector() -> None:
    """Collect the young generation less often, for a server holding thousands of rooms.

    Each move builds and drops thousands of short-lived objects (views, messages). With the
    default threshold many are caught alive by a young collection, promoted, and soon trigger a
    full collection, which walks every room and connection: pauses of 0.5 s at 1,000 rooms and
    of seconds beyond, with every game waiting. At 20,000 the short-lived objects die before
    they are looked at; in bench/load.py (1,000 rooms at human pace) p99 went from 1.6-2.9 s
    to 0.1-0.8 s and CPU per move fell by about 12 % (docs/BENCHMARKS.md).
    """
    gc.set_threshold(GC_YOUNG_THRESHOLD, *gc.get_threshold()[1:])


def default_db() -> Path:
    import platformdirs

    return Path(platformdirs.user_data_dir("muggins")) / "muggins.db"


def make_store(config: ServerConfig) -> Store:
    if config.memory:
        return MemoryStore()
    return SqliteStore(config.db or default_db())


class Server:
    """A running Muggins server. Use :func:`running_server` rather than this class directly."""

    def __init__(self, config: ServerConfig, *, store: Store | None = None) -> None:
        self.config = config
        self.store = store or make_store(config)
        self.metrics = Metrics()
        self.lobby = Lobby(self.store, config, self.metrics)
        self.connections: set[ServerConnection] = set()
        self._ws: WsServer | None = None
        self._sweeper: asyncio.Task[None] | None = None

    @property
    def port(self) -> int:
        assert self._ws is not None, "the server is not started"
        port: int = next(iter(self._ws.sockets)).getsockname()[1]
        return port

    @property
    def url(self) -> str:
        host = self.config.host if self.config.host not in ("0.0.0.0", "::", "") else "127.0.0.1"
        scheme = "wss" if self.config.tls else "ws"
        return f"{scheme}://{host}:{self.port}"

    async def start(self) -> None:
        await self.store.open()
        await self.lobby.restore()
        tls = None
        if self.config.certfile is not None:
            tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
            tls.load_cert_chain(self.config.certfile, self.config.keyfile)
        origins = None
        if self.config.allowed_origins:
            origins = [*self.config.allowed_origins, None]
        self._ws = await ws_serve(
            self._handle,
            self.config.host,
            self.config.port,
            process_request=self._http,
            max_size=self.config.max_message,
            origins=origins,  # type: ignore[arg-type]
            ssl=tls,
            compression=None,
            open_timeout=10,
            ping_interval=20,
            ping_timeout=20,
            max_queue=16,
        )
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        log.info(
            "listening",
            extra={
                "url": self.url,
                "store": type(self.store).__name__,
                "rooms": len(self.lobby.rooms),
            },
        )

    async def stop(self) -> None:
        """Stop accepting, close every client with 1012 (restart: come back), close the store."""
        if self._sweeper is not None:
            self._sweeper.cancel()
        if self._ws is not None:
            self._ws.close(close_connections=False)
            for room in self.lobby.rooms.values():
                room.notice("shutdown", "The server is restarting; your game is saved")
            closing = [
                ws.close(CloseCode.SERVICE_RESTART, "server restart") for ws in self.connections
            ]
            await asyncio.gather(*closing, return_exceptions=True)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5):
                    await self._ws.wait_closed()
        for room in self.lobby.rooms.values():
            room.close()
        await self.store.close()
        log.info("stopped")

    async def _handle(self, ws: ServerConnection) -> None:
        self.connections.add(ws)
        try:
            await Connection(ws, self.lobby).run()
        finally:
            self.connections.discard(ws)

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            return connection.respond(http.HTTPStatus.OK, "ok\n")
        if path == "/metrics":
            response = connection.respond(http.HTTPStatus.OK, self.metrics.text().decode())
            del response.headers["Content-Type"]
            response.headers["Content-Type"] = CONTENT_TYPE_LATEST
            return response
        if len(self.connections) >= self.config.max_connections:
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "server full\n")
        return None

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_interval)
            try:
                await self.lobby.sweep()
            except Exception:
                log.exception("sweep failed")


def make_server(config: ServerConfig, *, store: Store | None = None) -> Server:
    """A single server, or a cluster node when ``config.redis`` is set."""
    if config.redis is not None:
        from server.cluster.node import ClusterServer

        return ClusterServer(config, store=store)
    return Server(config, store=store)


@contextlib.asynccontextmanager
async def running_server(
    config: ServerConfig, *, store: Store | None = None
) -> AsyncIterator[Server]:
    """Start a server in this event loop; ``server.port`` / ``server.url`` tell where."""
    server = make_server(config, store=store)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def serve(config: ServerConfig, *, shutdown: asyncio.Event | None = None) -> None:
    """Run until ``shutdown`` is set (or forever)."""
    async with running_server(config):
        await (shutdown or asyncio.Event()).wait()
