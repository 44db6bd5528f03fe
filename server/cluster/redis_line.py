"""A lean connection to Redis for a node's Lua scripts: every script call of the node on one
connection, pipelined, its replies parsed by hiredis.

A node makes one script call per move (``server.cluster.scripts``), and redis-py spends more CPU
on a call than the round trip itself costs (a pool checkout, a task and a timer per write, its
reply handling, retries and observability hooks: about 150 µs a call against about 80 µs for
the bare round trip on the development machine). Here a call is one write of ``EVALSHA`` to the
node's one script connection and a future; replies are read by a protocol callback and handed to
the futures in order. Several calls in flight share the connection (Redis answers in order).

Failures behave as redis-py's did for the store (which turns them into ``StoreError``): a call
that gets no answer in ``timeout`` seconds, or whose connection is lost, is tried once more (on a
new connection if the old one is gone; every script is safe to run twice: the append is
idempotent by its key, the others compare-and-set or set); then it fails with redis-py's
``TimeoutError`` or ``ConnectionError``. A reply that comes after its call gave up is dropped in
turn, so the connection stays usable. A script Redis does not know (it restarted) is sent whole
with ``EVAL`` once, which loads it again.
"""

from __future__ import annotations

import asyncio
import collections
from typing import Any

import hiredis
from redis.asyncio.connection import parse_url
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

RETRY_AFTER = 0.05
"""Seconds before a failed call is tried again (redis-py's first back-off, as the pool had)."""
MOST_WAITING = 10_000
"""Calls in flight on the connection at most: beyond this Redis is taken for stuck and the
connection is dropped (every call on it fails, the next one connects again)."""


def pack(*args: str | bytes | int | float) -> bytes:
    """A command in Redis's protocol."""
    out = [b"*%d\r\n" % len(args)]
    for arg in args:
        if isinstance(arg, bytes):
            data = arg
        elif isinstance(arg, str):
            data = arg.encode()
        else:
            data = repr(arg).encode() if isinstance(arg, float) else b"%d" % arg
        out.append(b"$%d\r\n%s\r\n" % (len(data), data))
    return b"".join(out)


class _Protocol(asyncio.Protocol):
    def __init__(self) -> None:
        self.reader = hiredis.Reader(encoding="utf-8")
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.closed = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        assert isinstance(transport, asyncio.Transport)
        self.transport = transport

    def send(self, command: bytes) -> asyncio.Future[Any]:
        if self.closed or self.transport is None:
            raise RedisConnectionError("the connection to Redis is closed")
        if len(self.waiting) >= MOST_WAITING:
            self.transport.abort()
            raise RedisConnectionError(f"{MOST_WAITING} calls waiting on Redis; connection dropped")
        future = asyncio.get_running_loop().create_future()
        self.waiting.append(future)
        self.transport.write(command)
        return future

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
        try:
            async with asyncio.timeout(self.timeout):
                return await future
        except TimeoutError:
            raise RedisTimeoutError("Timeout reading from Redis") from None

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
