"""The server: the WebSocket listener, HTTP health, metrics and the browser client's pages.

>>> # in-process, e.g. for ``muggins play`` or tests:
>>> # async with running_server(ServerConfig(port=0, memory=True)) as server:
>>> #     url = server.url
"""

from __future__ import annotations

import asyncio
import contextlib
import http
import ipaddress
import logging
import socket
import time
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

from prometheus_client import CONTENT_TYPE_LATEST
from websockets.asyncio.server import Server as WsServer
from websockets.asyncio.server import ServerConnection
from websockets.frames import CloseCode
from websockets.http11 import Request, Response

from muggins.server.accounts.roles import grant
from muggins.server.config import ServerConfig
from muggins.server.lobby.lobby import Lobby
from muggins.server.net.census import Census, publish
from muggins.server.net.connection import Connection
from muggins.server.net.keepalive import Keepalive
from muggins.server.net.listeners import listen
from muggins.server.net.readiness import Pingable, Readiness
from muggins.server.net.static import StaticSite, connect_sources, same_origin
from muggins.server.net.tls import Certificates
from muggins.server.results.reviews import Reviewer
from muggins.server.runtime.metrics import Metrics
from muggins.server.store.datafiles import default_db
from muggins.server.store.games import Store, StoreError
from muggins.server.store.memory_games import MemoryStore
from muggins.server.store.sqlite_games import SqliteStore
from muggins.server.wire.get_only import GetOnlyConnection
from muggins.shared.build import build
from muggins.shared.protocol.routing import MOVED, follows, room_of

log = logging.getLogger("muggins.server")

STARTUP_WAIT = 30.0
"""Seconds a starting cluster node waits for Redis (say, while the containers come up)."""


def make_store(config: ServerConfig) -> Store:
    if config.memory:
        return MemoryStore()
    return SqliteStore(config.db or default_db())


class Server:
    """A running Muggins server. Use :func:`running_server` rather than this class directly.

    With ``config.redis`` it is a cluster node: every game lives in Redis (the cluster store) and
    the cluster lobby loads rooms from it; this node is a gateway.
    """

    def __init__(self, config: ServerConfig, *, store: Store | None = None) -> None:
        self.config = config
        self.metrics = Metrics()
        self.lobby: Lobby
        if config.redis is not None:
            from muggins.server.cluster.coordination import ClusterStore
            from muggins.server.cluster.lobby import cluster_lobby

            if isinstance(store, ClusterStore):
                redis = store
            else:
                archive = accounts = None
                if config.postgres is not None:
                    from muggins.server.store.postgres import PostgresArchive
                    from muggins.server.store.postgres_accounts import PostgresAccounts

                    size = config.postgres_pool
                    archive = PostgresArchive(config.postgres, pool_size=size)
                    accounts = PostgresAccounts(config.postgres, pool_size=size)
                redis = ClusterStore(
                    config.redis,
                    archive=archive,
                    accounts=accounts,
                    batch=config.redis_batch_ms / 1000,
                )
            self.store: Store = redis
            self.lobby = cluster_lobby(redis, config, self.metrics)
        else:
            self.store = store or make_store(config)
            self.lobby = Lobby(self.store, config, self.metrics)
        self.connections: set[ServerConnection] = set()
        self.per_address: Counter[str] = Counter()
        """Open connections by client address (see :func:`client_address`)."""
        self._proxies = [ipaddress.ip_network(p, strict=False) for p in config.trusted_proxies]
        self._ws: WsServer | None = None
        self._metrics_ws: WsServer | None = None
        self._own_ws: WsServer | None = None
        self._certificates: Certificates | None = None
        self._sweeper: asyncio.Task[None] | None = None
        self.keepalive = Keepalive()
        """Pings every connection every 20 s, in one batch a second (not websockets' task per
        connection, whose pings each woke the server on its own)."""
        self.reviewer = Reviewer(self.store, config.review_workers)
        self.site = StaticSite(connect=connect_sources(config.allowed_origins, config.node_url))
        probe = self.store.ping if isinstance(self.store, Pingable) else None
        self.readiness = Readiness(
            probe, what="Redis" if config.redis else "the store", observe=self._observe_store
        )
        self.census = Census(self.store)
        publish(self.metrics, self.lobby, self.census, lambda: self.readiness.answer()[0])

    def _observe_store(self, seconds: float | None) -> None:
        if seconds is None:
            self.metrics.store_errors.inc()
        else:
            self.metrics.store_seconds.observe(seconds)

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
        if self.config.certfile is not None:  # first: a pair that does not load opens nothing
            self._certificates = Certificates(self.config.certfile, self.config.keyfile)
        await self._open_store()
        try:
            for name in self.config.admins:
                account = await grant(self.store, name, "admin")
                log.info("admin granted", extra={"account": account.id})
        except BaseException:
            await self.store.close()
            raise
        await self.lobby.restore()
        tls = self._certificates.context if self._certificates is not None else None
        game: dict[str, Any] = {
            "process_request": self._http,
            "max_size": self.config.max_message,
            "ssl": tls,
            "compression": None,
            "open_timeout": 10,
            "ping_interval": None,  # self.keepalive pings instead (same interval and timeout)
            "create_connection": GetOnlyConnection,  # 405 for other methods, not a silent close
            "max_queue": 16,
        }
        try:
            self._ws = await listen(
                "--port", self._handle, self.config.host, self.config.port,
                reuse_port=self.config.reuse_port, **game,
            )  # fmt: skip
            if self.config.own_port is not None:  # one of --procs: this process's own port too
                self._own_ws = await listen(
                    "--first-proc-port", self._handle, self.config.host, self.config.own_port,
                    **game,
                )  # fmt: skip
            if self.config.metrics_port is not None:
                self._metrics_ws = await listen(
                    "--metrics-port", self._refuse, self.config.host, self.config.metrics_port,
                    process_request=self._internal, create_connection=GetOnlyConnection,
                )  # fmt: skip
        except BaseException:
            for opened in (self._ws, self._own_ws):
                if opened is not None:
                    opened.close()
            await self.lobby.stop()
            await self.store.close()
            raise
        for sock in (*self._ws.sockets, *(self._own_ws.sockets if self._own_ws else ())):
            # Accepted sockets inherit it: the kernel keeps at most this much for a reader that
            # does not read (its automatic tuning would let it grow to megabytes).
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.config.socket_buffer)
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep())
        self.keepalive.start()
        await self.readiness.start()
        self.lobby.matchmaker.start()
        self.reviewer.start()
        log.info(
            "listening",
            extra={
                "url": self.url,
                "host": self.config.host,  # 0.0.0.0: every address, not only 127.0.0.1
                "public_url": self.config.public_url,
                "store": type(self.store).__name__,
                "rooms": len(self.lobby.rooms),
                "build": build(),
            },
        )

    def reload_tls(self) -> bool:
        """Read the TLS certificate and key again (``muggins serve`` does on SIGHUP)."""
        if self._certificates is None:
            log.warning("SIGHUP: no TLS certificate to reload (no --certfile)")
            return False
        return self._certificates.reload()

    async def _open_store(self) -> None:
        """Open the store; a cluster node waits up to STARTUP_WAIT for Redis to come up."""
        deadline = time.monotonic() + STARTUP_WAIT
        while True:
            try:
                await self.store.open()
                return
            except StoreError as error:
                if self.config.redis is None or time.monotonic() > deadline:
                    raise
                log.warning("waiting for Redis: %s", error)
                await asyncio.sleep(1.0)

    async def stop(self) -> None:
        """Stop accepting at once, then close every client with 1012 (restart: come back) and
        the store, within ``config.stop_deadline`` seconds whatever hangs; always returns."""
        self.readiness.stopping = True  # /readyz: 503 from now on
        if self._ws is not None:
            self._ws.server.close()  # the listener first: no new connection from here on
            self._ws.close(close_connections=False)
        if self._own_ws is not None:
            self._own_ws.server.close()
            self._own_ws.close(close_connections=False)
        if self._metrics_ws is not None:
            self._metrics_ws.close()
        if self._sweeper is not None:
            self._sweeper.cancel()
        try:
            async with asyncio.timeout(self.config.stop_deadline):
                await self._wind_down()
        except TimeoutError:
            log.warning(
                "shutdown took longer than %.0f s; stopping anyway", self.config.stop_deadline
            )
        log.info("stopped")

    async def _wind_down(self) -> None:
        await self.readiness.stop()
        await self.census.stop()
        await self.keepalive.stop()
        await self.reviewer.stop()
        await self.lobby.matchmaker.stop()
        if self._ws is not None:
            for room in self.lobby.rooms.values():
                room.notice("shutdown", "The server is restarting; your game is saved")
            closing = [
                ws.close(CloseCode.SERVICE_RESTART, "server restart") for ws in self.connections
            ]
            await asyncio.gather(*closing, return_exceptions=True)
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(5):
                    await self._ws.wait_closed()
        await self.lobby.stop()
        for room in self.lobby.rooms.values():
            room.close()
        await self.store.close()

    @property
    def metrics_port(self) -> int | None:
        """Where the metrics port listens (None: no metrics port)."""
        if self._metrics_ws is None:
            return None
        port: int = next(iter(self._metrics_ws.sockets)).getsockname()[1]
        return port

    async def _refuse(self, ws: ServerConnection) -> None:
        """No game on the metrics port (its requests are all answered before an upgrade)."""
        await ws.close(CloseCode.POLICY_VIOLATION, "no game here")

    async def _handle(self, ws: ServerConnection) -> None:
        address = self.client_address(ws, ws.request)
        self.connections.add(ws)
        self.per_address[address] += 1
        self.keepalive.add(ws)
        try:
            target = await self._owner_elsewhere(ws)
            if target is not None:
                await ws.close(MOVED, target)  # another node owns the room: go there
                return
            await Connection(ws, self.lobby, address=address).run()
        finally:
            self.keepalive.discard(ws)
            self.connections.discard(ws)
            self.per_address[address] -= 1
            if not self.per_address[address]:
                del self.per_address[address]

    async def _owner_elsewhere(self, ws: ServerConnection) -> str | None:
        """The address of the node that owns the room this connection names, when another node
        does and the client can go there (a browser only when its page says it follows, with
        ``follow=1``; not a client back from failing to reach it). None: serve it here."""
        request = ws.request
        if request is None or ("Origin" in request.headers and not follows(request.path)):
            return None
        room, stay = room_of(request.path)
        if room is None or stay:
            return None
        return await self.lobby.cluster.route(room)

    def client_address(self, ws: ServerConnection, request: Request | None) -> str:
        """The client's IP address: the peer's, or the last X-Forwarded-For hop if the peer is a
        trusted proxy (the hop that proxy added itself, so a client cannot forge it)."""
        peer = ws.remote_address[0] if ws.remote_address else "?"
        if not self._proxies or request is None:
            return str(peer)
        try:
            trusted = any(ipaddress.ip_address(peer) in net for net in self._proxies)
        except ValueError:
            return str(peer)
        forwarded = request.headers.get("X-Forwarded-For") if trusted else None
        hop = forwarded.rsplit(",", 1)[-1].strip() if forwarded else ""
        return hop or str(peer)

    def _http(self, connection: ServerConnection, request: Request) -> Response | None:
        path = request.path.split("?", 1)[0]
        if path == "/healthz":
            response = connection.respond(http.HTTPStatus.OK, "ok\n")
            response.headers["X-Content-Type-Options"] = "nosniff"
            return response
        if path == "/readyz":
            ready, said = self.readiness.answer()
            status = http.HTTPStatus.OK if ready else http.HTTPStatus.SERVICE_UNAVAILABLE
            response = connection.respond(status, said)
            response.headers["X-Content-Type-Options"] = "nosniff"
            return response
        if path == "/metrics":
            if not local_request(connection, request):
                return connection.respond(http.HTTPStatus.NOT_FOUND, "not found\n")
            return self._metrics_response(connection)
        if request.headers.get("Upgrade", "").lower() != "websocket":
            return self.site.respond(request)
        if not self.readiness.answer()[0]:
            # A balancer (docker/nginx.conf: proxy_next_upstream http_503) tries another node.
            self.metrics.refused.labels("not_ready").inc()
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "not ready\n")
        origin = request.headers.get("Origin")
        if (
            origin is not None
            and self.config.allowed_origins
            and origin not in self.config.allowed_origins
            and not same_origin(origin, request.headers.get("Host"))
        ):
            self.metrics.refused.labels("origin").inc()
            return connection.respond(http.HTTPStatus.FORBIDDEN, "origin not allowed\n")
        if len(self.connections) >= self.config.max_connections:
            self.metrics.refused.labels("full").inc()
            return connection.respond(http.HTTPStatus.SERVICE_UNAVAILABLE, "server full\n")
        address = self.client_address(connection, request)
        if self.per_address[address] >= self.config.max_per_address:
            log.info("refused a connection over the per-address cap", extra={"peer": address})
            self.metrics.refused.labels("per_address").inc()
            return connection.respond(
                http.HTTPStatus.TOO_MANY_REQUESTS, "too many connections from your address\n"
            )
        return None

    def _metrics_response(self, connection: ServerConnection) -> Response:
        response = connection.respond(http.HTTPStatus.OK, self.metrics.text().decode())
        del response.headers["Content-Type"]
        response.headers["Content-Type"] = CONTENT_TYPE_LATEST
        response.headers["X-Content-Type-Options"] = "nosniff"
        return response

    def _internal(self, connection: ServerConnection, request: Request) -> Response:
        """The metrics port: /metrics, /healthz and /readyz, nothing else (no game)."""
        path = request.path.split("?", 1)[0]
        if path == "/metrics":
            return self._metrics_response(connection)
        if path in ("/healthz", "/readyz"):
            answer = self._http(connection, request)
            assert answer is not None
            return answer
        return connection.respond(http.HTTPStatus.NOT_FOUND, "not found\n")

    async def _sweep(self) -> None:
        while True:
            await asyncio.sleep(self.config.sweep_interval)
            try:
                await self.lobby.sweep()
            except Exception:
                log.exception("sweep failed")


def local_request(connection: ServerConnection, request: Request) -> bool:
    """Whether a request comes from this machine itself and not through a proxy (a proxy on
    this machine adds X-Forwarded-For): what may read /metrics on the public port."""
    peer = connection.remote_address[0] if connection.remote_address else ""
    try:
        loopback = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        return False
    return (
        loopback
        and "X-Forwarded-For" not in request.headers
        and "Forwarded" not in (request.headers)
    )


@contextlib.asynccontextmanager
async def running_server(
    config: ServerConfig, *, store: Store | None = None
) -> AsyncIterator[Server]:
    """Start a server in this event loop; ``server.port`` / ``server.url`` tell where."""
    server = Server(config, store=store)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()


async def serve(config: ServerConfig, *, shutdown: asyncio.Event | None = None) -> None:
    """Run until ``shutdown`` is set (or forever)."""
    async with running_server(config):
        await (shutdown or asyncio.Event()).wait()
