"""Lean connections to Redis for a node's hot paths: its Lua scripts and catch-up reads on one
connection, pipelined, and its subscription to its wake-ups; replies parsed by hiredis.

A node makes one script call per move (``server.cluster.scripts``), and redis-py spends more CPU
on a call than the round trip itself costs (a pool checkout, a task and a timer per write, its
reply handling, retries and observability hooks; ``bench/redis_client.py`` compares the two).
Here a call is an ``EVALSHA`` on the node's one script connection and a future; the calls made
in one turn of the event loop go out in one write, and replies are read by a protocol callback
and handed to the futures in order (Redis answers in order).

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
from typing import Any

import hiredis
from redis.asyncio.connection import parse_url
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

log = logging.getLogger("muggins.cluster")

RETRY_AFTER = 0.05
"""Seconds before a failed call is tried again (redis-py's first back-off, as the pool had)."""
MOST_WAITING = 10_000
"""Calls in flight on the connection at most: beyond this Redis is taken for stuck and the
connection is dropped (every call on it fails, the next one connects again)."""


def pack(*args: str | bytes | int | float) -> bytes:
    """A command in Redis's protocol."""
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        kind = type(arg)
        if kind is str:
            data = arg.encode()  # type: ignore[union-attr]
        elif kind is bytes:
            data = arg
        elif isinstance(arg, float):
            data = repr(arg).encode()
        elif isinstance(arg, bytes):
            data = arg
        elif isinstance(arg, str):
            data = arg.encode()
        else:
            data = b"%d" % arg
        out += (b"$%d\r\n" % len(data), data, b"\r\n")
    return b"".join(out)


def _expire(future: asyncio.Future[Any]) -> None:
    if not future.done():
        future.set_exception(RedisTimeoutError("Timeout reading from Redis"))


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.reader = hiredis.Reader(encoding="utf-8")
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.closed = False
        self.outgoing: list[bytes] = []

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def send(self, command: bytes) -> asyncio.Future[Any]:
        if self.closed or self.transport is None:
            raise RedisConnectionError("the connection to Redis is closed")
        if len(self.waiting) >= MOST_WAITING:
            self.transport.abort()
            raise RedisConnectionError(f"{MOST_WAITING} calls waiting on Redis; connection dropped")
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self.waiting.append(future)
        if not self.outgoing:
            loop.call_soon(self._flush)
        self.outgoing.append(command)
        return future

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
            future = self.waiting.popleft()
            if not future.done():  # a call that gave up (timed out, cancelled) drops its answer
                future.set_result(reply)

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(RedisConnectionError(f"connection to Redis lost: {exc}"))


class ScriptLine:
    """One pipelined connection for a node's script calls (see the module's docstring)."""

    def __init__(self, url: str, *, timeout: float) -> None:
        options = parse_url(url)
        self.host = str(options.get("host", "localhost"))
        self.port = int(options.get("port", 6379))
        self.db = int(options.get("db", 0))
        self.username: str | None = options.get("username")
        self.password: str | None = options.get("password")
        self.timeout = timeout
        self._protocol: _Protocol | None = None
        self._connecting = asyncio.Lock()

    async def evalsha(self, sha: str, script: str, keys: list[str], args: list[Any]) -> Any:
        """Run the script whose SHA1 is ``sha`` (its text is ``script``): its reply."""
        try:
            return await self._evalsha(sha, script, keys, args)
        except (RedisConnectionError, RedisTimeoutError):
            await asyncio.sleep(RETRY_AFTER)
            return await self._evalsha(sha, script, keys, args)

    async def read(self, *command: str | int) -> Any:
        """The reply to a command that only reads (so it is safe to send twice)."""
        try:
            return await self._read(command)
        except (RedisConnectionError, RedisTimeoutError):
            await asyncio.sleep(RETRY_AFTER)
            return await self._read(command)

    async def _read(self, command: tuple[str | int, ...]) -> Any:
        reply = await self._ask(await self._connected(), pack(*command))
        if isinstance(reply, hiredis.ReplyError):
            raise ResponseError(str(reply))
        return reply

    async def _evalsha(self, sha: str, script: str, keys: list[str], args: list[Any]) -> Any:
        protocol = await self._connected()
        reply = await self._ask(protocol, pack("EVALSHA", sha, len(keys), *keys, *args))
        if isinstance(reply, hiredis.ReplyError) and str(reply).startswith("NOSCRIPT"):
            reply = await self._ask(protocol, pack("EVAL", script, len(keys), *keys, *args))
        if isinstance(reply, hiredis.ReplyError):
            raise ResponseError(str(reply))
        return reply

    async def _ask(self, protocol: _Protocol, command: bytes) -> Any:
        future = protocol.send(command)
        # A timer that fails the future, rather than asyncio.timeout (a context manager, a
        # cancellation and its bookkeeping for every call): the reply, once it comes, finds the
        # future done and is dropped (see _Protocol.data_received).
        loop = future.get_loop()
        timer = loop.call_at(loop.time() + self.timeout, _expire, future)
        try:
            return await future
        finally:
            timer.cancel()

    async def _connected(self) -> _Protocol:
        protocol = self._protocol
        if protocol is not None and not protocol.closed:
            return protocol
        async with self._connecting:
            protocol = self._protocol
            if protocol is not None and not protocol.closed:
                return protocol
            loop = asyncio.get_running_loop()
            try:
                async with asyncio.timeout(self.timeout):
                    _, protocol = await loop.create_connection(_Protocol, self.host, self.port)
                    if self.password is not None:
                        who = [self.username] if self.username else []
                        await self._check(protocol, pack("AUTH", *who, self.password))
                    if self.db:
                        await self._check(protocol, pack("SELECT", self.db))
            except (OSError, TimeoutError) as error:
                raise RedisConnectionError(f"Error connecting to Redis: {error!r}") from error
            self._protocol = protocol
            return protocol

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
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(line.timeout):
                _, protocol = await loop.create_connection(
                    lambda: _Subscriber(channel, heard), line.host, line.port
                )
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
