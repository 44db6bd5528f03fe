"""A :class:`~server.store.games.Store` in Redis: the shared truth of a cluster of server nodes.

It is put together from a layer per job over this module's connection and plumbing:

- :mod:`server.cluster.redis_keys`: the keys and channels (each listed there), the wake-ups;
- :mod:`server.cluster.redis_matches`: matches and their action logs, whose entries
  :mod:`server.cluster.log_entries` writes and reads;
- :mod:`server.cluster.redis_rooms`: rooms and their seats, a room read with its match;
- :mod:`server.cluster.redis_accounts` and :mod:`server.cluster.redis_moderation`;
- :mod:`server.cluster.redis_connection`: the connections in redis-py's pool.

Every write is one Lua script (:mod:`server.cluster.scripts`), so it is atomic: an action is
appended only if the log is at the expected index (two nodes can never fork a game), and the
wake-up is published in the same step. Any Redis failure becomes
:class:`~server.store.games.StoreError`; nothing is half-written. What only a cluster
needs (presence, claims, agreements) is in :mod:`server.cluster.coordination`.
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.connection import parse_url
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import RedisError

from muggins.server.cluster.durable import check_moved, delegate_accounts
from muggins.server.cluster.redis_accounts import RedisAccounts
from muggins.server.cluster.redis_connection import Connection, UnixConnection
from muggins.server.cluster.redis_line import ScriptLine
from muggins.server.cluster.redis_moderation import RedisModeration
from muggins.server.cluster.redis_rooms import RedisRooms
from muggins.server.cluster.scripts import SCRIPTS
from muggins.server.store.games import StoreError
from muggins.server.store.postgres import PostgresArchive
from muggins.server.store.postgres_accounts import PostgresAccounts

POOL_SIZE = 50
"""Connections a node keeps to Redis at most (one of them carries the wake-ups)."""
POOL_WAIT = 10.0
"""Seconds a request waits for a free connection in a burst before it fails with ``storage``."""


class RedisStore(RedisRooms, RedisAccounts, RedisModeration):
    """Rooms and action logs in Redis, shared by every node of a cluster."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "muggins:",
        timeout: float = 2.0,
        connections: int = POOL_SIZE,
        wait: float = POOL_WAIT,
        archive: PostgresArchive | None = None,
        accounts: PostgresAccounts | None = None,
        batch: float = 0.0,
    ) -> None:
        self.url = url
        self.archive = archive
        """Where finished matches move once nothing live needs them (None: they stay here)."""
        self.accounts = accounts
        """Where accounts, sessions, ratings, history and reviews are kept (None: here, in
        Redis); see server.cluster.durable."""
        if accounts is not None:
            delegate_accounts(self, accounts, settled=self._settled_in_postgres)
        self.prefix = prefix
        # Fail fast while Redis is down (players get an error at once), and retry a command once
        # so a connection the pool kept from before a Redis restart is replaced transparently.
        # The pool blocks: a burst of requests beyond its size waits for a free connection
        # (up to ``wait`` seconds) instead of failing with "Too many connections".
        options = parse_url(url)  # rediss:// keeps redis-py's TLS connection
        options.setdefault("connection_class", Connection)
        if "path" in options:
            options["connection_class"] = UnixConnection
        pool = aioredis.BlockingConnectionPool(
            **options,
            max_connections=connections,
            timeout=wait,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.05), 1),
            health_check_interval=15,
            decode_responses=True,
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self.line = ScriptLine(url, timeout=timeout, batch=batch)
        """The node's script calls (every write, and the catch-up's read): one pipelined
        connection, leaner than redis-py's pool (see server.cluster.redis_line)."""
        self._scripts = {
            name: (hashlib.sha1(text.encode()).hexdigest(), text) for name, text in SCRIPTS.items()
        }
        self._attempts: dict[tuple[str, int, int, str | None], str] = {}
        self._attempt_prefix = secrets.token_hex(6) + "-"
        self._attempt_count = 0
        """Attempt ids: this store's random prefix and a count (unique without a random draw
        per move)."""
        """The attempt id of each append whose outcome is not known yet."""
        self.node = ""
        """The node this store writes for (its wake-ups skip it); set by the node's lobby."""

    # --- plumbing ------------------------------------------------------------------------------

    async def _call(self, what: str, make: Callable[[], Awaitable[Any]]) -> Any:
        try:
            return await make()
        except RedisError as error:
            raise StoreError(f"Redis ({what}): {error}") from error

    async def _settled_in_postgres(self, match: str) -> None:
        """Match ``{code}-{n}`` is settled (in PostgreSQL): not listed as unsettled any more."""
        await self._call("unsettled", lambda: self.redis.zrem(self.unsettled_key, match))

    async def _script(self, name: str, keys: list[str], args: list[Any]) -> int:
        return int(await self._script_raw(name, keys, args))

    async def _script_raw(self, name: str, keys: list[str], args: list[Any]) -> Any:
        sha, text = self._scripts[name]
        return await self._call(name, lambda: self.line.evalsha(sha, text, keys, args))

    # --- the Store protocol --------------------------------------------------------------------

    async def open(self) -> None:
        await self._call("ping", self.redis.ping)
        await self.fold_name_keys()
        if self.accounts is not None:  # they are kept in PostgreSQL: none may be left here
            await self._call("accounts", lambda: check_moved(self.redis, self.prefix))

    async def ping(self) -> float | None:
        """Answer once Redis has (readiness asks every second)."""
        await self._call("ping", self.redis.ping)
        return None

    async def close(self) -> None:
        if self.archive is not None:
            await self.archive.close()
        if self.accounts is not None:
            await self.accounts.close()
        await self.line.close()
        await self.redis.aclose(close_connection_pool=True)
