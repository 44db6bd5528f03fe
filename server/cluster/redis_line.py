"""Lean connections to Redis for a node's hot paths: its Lua scripts and catch-up reads on one
connection, pipelined, and its subscription to its wake-ups; replies parsed by hiredis.

A node makes one script call per move (``server.cluster.scripts``), and redis-py spends more CPU
on a call than the round trip itself costs (a pool checkout, a task and a timer per write, its
reply handling, retries and observability hooks; ``bench/redis_client.py`` compares the two).
Here a call is an ``EVALSHA`` on the node's one script connection and a future; the calls made
in one turn of the event loop go out in one write, and replies are read by a protocol callback
and handed to the futures in order (Redis answers in order). With a ``batch`` time, a call waits
up to that long for others to go with it: at human pace most moves come alone, and each costs
Redis and the node a wake-up of their own, so holding them a few milliseconds saves CPU at the
cost of answering each move that much later.

Failures behave as redis-py's did for the store (which turns them into ``StoreError``): a call
that gets no answer in ``timeout`` seconds, or whose connection is lost, is tried once more (on a
new connection if the old one is gone; every script is safe to run twice: the append is
idempotent by its key, the others compare-and-set or set); then it fails with redis-py's
``TimeoutError`` or ``ConnectionError``. A reply that comes after its call gave up is dropped in
turn, so the connection stays usable. A script Redis does not know (it restarted) is sent whole
with ``EVAL`` once, which loads it again.

A node's wake-ups come on a connection of their own (:class:`Subscription`): each message is
handed to the node as it is parsed, in the callback that reads the socket (redis-py's pub/sub
client costs a call with a timer and a parse loop per message).
"""

from __future__ import annotations

import asyncio
import collections
import logging
import socket
from collections.abc import Callable
from typing import Any, TypeVar

import hiredis
from redis.asyncio.connection import parse_url
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger("muggins.cluster")
P = TypeVar("P", bound=asyncio.Protocol)

RETRY_AFTER = 0.05
"""Seconds before a failed call is tried again (redis-py's first back-off, as the pool had)."""
MOST_WAITING = 10_000
"""Calls in flight on the connection at most: beyond this Redis is taken for stuck and the
connection is dropped (every call on it fails, the next one connects again)."""


def pack(*args: str | bytes | int | float) -> bytes:
    """A command in Redis's protocol."""
    data = [arg.encode() if type(arg) is str else _bytes(arg) for arg in args]
    return b"*%d\r\n" % len(data) + b"".join([b"$%d\r\n%b\r\n" % (len(d), d) for d in data])


def _bytes(arg: str | bytes | int | float) -> bytes:
    """An argument that is not a plain ``str``, as Redis reads it."""
    if isinstance(arg, bytes):
        return arg
    if isinstance(arg, str):
        return arg.encode()
    if isinstance(arg, float):
        return repr(arg).encode()
    return b"%d" % arg


class _Protocol(asyncio.Protocol):
    def __init__(self, timeout: float, batch: float = 0.0) -> None:
        self.reader = hiredis.Reader(encoding="utf-8")
        self.timeout = timeout
        self.batch = batch
        """Seconds the first call of a write waits for others (0: to the end of the turn)."""
        self.waiting: collections.deque[tuple[asyncio.Future[Any], float]] = collections.deque()
        """Each call waiting for its reply, with the time (the loop's clock) it gives up at."""
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.outgoing: list[bytes] = []
        self.watchdog: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def send(self, command: bytes) -> asyncio.Future[Any]:
        """The future of the command's reply; it fails with a timeout after ``timeout`` s."""
        if self.closed or self.transport is None:
            raise RedisConnectionError("the connection to Redis is closed")
        if len(self.waiting) >= MOST_WAITING:
            self.transport.abort()
            raise RedisConnectionError(f"{MOST_WAITING} calls waiting on Redis; connection dropped")
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        deadline = loop.time() + self.timeout
        self.waiting.append((future, deadline))
        if self.watchdog is None:
            self.watchdog = loop.call_at(deadline, self._expire)
        if not self.outgoing:
            if self.batch:
                loop.call_later(self.batch, self._flush)
            else:
                loop.call_soon(self._flush)
        self.outgoing.append(command)
        return future

    def _expire(self) -> None:
        """Fail the calls whose time is up: the oldest come first (one timer for all the calls
        rather than one each; a reply that comes later finds its future done and is dropped)."""
        self.watchdog = None
        loop = asyncio.get_running_loop()
        now = loop.time()
        for future, deadline in self.waiting:
            if deadline > now:
                self.watchdog = loop.call_at(deadline, self._expire)
                return
            if not future.done():
                future.set_exception(RedisTimeoutError("Timeout reading from Redis"))

    def _flush(self) -> None:
        if self.transport is not None and not self.closed and self.outgoing:
            self.transport.write(b"".join(self.outgoing))
        self.outgoing.clear()

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            if not self.waiting:
                assert self.transport is not None
                self.transport.abort()  # an answer to nothing: the stream is out of step
                return
            future, _ = self.waiting.popleft()
            if not future.done():  # a call that gave up (timed out, cancelled) drops its answer
                future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        if self.watchdog is not None:
            self.watchdog.cancel()
            self.watchdog = None
        while self.waiting:
            future, _ = self.waiting.popleft()
            if not future.done():
                future.set_exception(RedisConnectionError(f"connection to Redis lost: {exc}"))


class ScriptLine:
    """One pipelined connection for a node's script calls (see the module's docstring)."""

    def __init__(self, url: str, *, timeout: float, batch: float = 0.0) -> None:
        options = parse_url(url)
        self.path: str | None = options.get("path")
        """A ``unix://`` URL's socket file (then host and port are unused)."""
        self.host = str(options.get("host", "localhost"))
        self.port = int(options.get("port", 6379))
        self.db = int(options.get("db", 0))
        self.username: str | None = options.get("username")
        self.password: str | None = options.get("password")
        self.timeout = timeout
        self.batch = batch
        self._protocol: _Protocol | None = None
        self._connecting = asyncio.Lock()

    async def evalsha(self, sha: str, script: str, keys: list[str], args: list[Any]) -> Any:
        """Run the script whose SHA1 is ``sha`` (its text is ``script``): its reply."""
        command = pack("EVALSHA", sha, len(keys), *keys, *args)
        try:
            return await self._evalsha(command, script, keys, args)
        except (RedisConnectionError, RedisTimeoutError):
            await asyncio.sleep(RETRY_AFTER)
            return await self._evalsha(command, script, keys, args)

    async def read(self, *command: str | int) -> Any:
        """The reply to a command that only reads (so it is safe to send twice)."""
        try:
            return await self._read(command)
        except (RedisConnectionError, RedisTimeoutError):
            await asyncio.sleep(RETRY_AFTER)
            return await self._read(command)

    async def _read(self, command: tuple[str | int, ...]) -> Any:
        protocol = self._protocol
        if protocol is None or protocol.closed:
            protocol = await self._connected()
        reply = await protocol.send(pack(*command))
        if isinstance(reply, hiredis.ReplyError):
            raise ResponseError(str(reply))
        return reply

    async def _evalsha(self, command: bytes, script: str, keys: list[str], args: list[Any]) -> Any:
        protocol = self._protocol
        if protocol is None or protocol.closed:
            protocol = await self._connected()
        reply = await protocol.send(command)
        if isinstance(reply, hiredis.ReplyError) and str(reply).startswith("NOSCRIPT"):
            reply = await protocol.send(pack("EVAL", script, len(keys), *keys, *args))
        if isinstance(reply, hiredis.ReplyError):
            raise ResponseError(str(reply))
        return reply

    async def _connected(self) -> _Protocol:
        protocol = self._protocol
        if protocol is not None and not protocol.closed:
            return protocol
        async with self._connecting:
            protocol = self._protocol
            if protocol is not None and not protocol.closed:
                return protocol
            try:
                async with asyncio.timeout(self.timeout):
                    _, protocol = await self.connect(lambda: _Protocol(self.timeout, self.batch))
                    if self.password is not None:
                        who = [self.username] if self.username else []
                        await self._check(protocol, pack("AUTH", *who, self.password))
                    if self.db:
                        await self._check(protocol, pack("SELECT", self.db))
            except (OSError, TimeoutError) as error:
                raise RedisConnectionError(f"Error connecting to Redis: {error!r}") from error
            self._protocol = protocol
            return protocol

    async def connect(self, factory: Callable[[], P]) -> tuple[asyncio.BaseTransport, P]:
        """A new connection to this line's Redis: its Unix socket or its TCP host and port."""
        loop = asyncio.get_running_loop()
        if self.path is not None:
            return await loop.create_unix_connection(factory, self.path)
        return await loop.create_connection(factory, self.host, self.port)

    async def _check(self, protocol: _Protocol, command: bytes) -> None:
        reply = await protocol.send(command)
        if isinstance(reply, hiredis.ReplyError):
            protocol.closed = True
            assert protocol.transport is not None
            protocol.transport.abort()
            raise ResponseError(str(reply))

    async def close(self) -> None:
        protocol, self._protocol = self._protocol, None
        if protocol is not None and protocol.transport is not None:
            protocol.closed = True
            protocol.transport.close()


class _Subscriber(asyncio.Protocol):
    def __init__(self, channel: str, heard: Callable[[str], None]) -> None:
        self.channel = channel
        self.heard = heard
        self.reader = hiredis.Reader(encoding="utf-8")
        self.transport: asyncio.Transport | None = None
        self.subscribed: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.lost: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport
        sock = transport.get_extra_info("socket")
        if sock is not None:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        while (reply := self.reader.gets()) is not False:
            if isinstance(reply, list) and len(reply) == 3 and reply[0] == "message":
                try:
                    self.heard(reply[2])
                except Exception:
                    log.exception("a wake-up was not handled: %.80s", reply[2])
            elif isinstance(reply, list) and reply and reply[0] == "subscribe":
                if not self.subscribed.done():
                    self.subscribed.set_result(None)
            elif isinstance(reply, hiredis.ReplyError) and not self.subscribed.done():
                self.subscribed.set_exception(ResponseError(str(reply)))

    def connection_lost(self, exc: Exception | None) -> None:
        error = RedisConnectionError(f"subscription to Redis lost: {exc}")
        if not self.subscribed.done():
            self.subscribed.set_exception(error)
        if not self.lost.done():
            self.lost.set_result(None)


class Subscription:
    """This node's subscription to its wake-up channel: ``heard(message)`` for each message,
    called as it is read. :meth:`open` subscribes; :attr:`lost` completes when the connection
    is gone (the node subscribes again and catches up)."""

    def __init__(self, protocol: _Subscriber) -> None:
        self._protocol = protocol

    @property
    def lost(self) -> asyncio.Future[None]:
        return self._protocol.lost

    @classmethod
    async def open(
        cls, line: ScriptLine, channel: str, heard: Callable[[str], None]
    ) -> Subscription:
        try:
            async with asyncio.timeout(line.timeout):
                _, protocol = await line.connect(lambda: _Subscriber(channel, heard))
                assert protocol.transport is not None
                if line.password is not None:
                    who = [line.username] if line.username else []
                    protocol.transport.write(pack("AUTH", *who, line.password))
                protocol.transport.write(pack("SUBSCRIBE", channel))
                await protocol.subscribed
        except (OSError, TimeoutError) as error:
            raise RedisConnectionError(f"Error subscribing to Redis: {error!r}") from error
        return cls(protocol)

    def close(self) -> None:
        transport = self._protocol.transport
        if transport is not None:
            transport.close()
