"""Moderation records and lists in Redis (the :class:`ModerationStore` of
:class:`~server.cluster.redis_store.RedisStore`), shared by every node; a node started with
``--postgres`` keeps them in PostgreSQL instead (:mod:`server.cluster.durable`).

Keys, under the store's prefix: ``mod:{kind}`` hash of key -> JSON; ``modlist:{name}`` list of
JSON, newest last (trimmed to ``keep`` when one is given, its oldest dropped by
:data:`DROP_THROUGH`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Final

import redis.asyncio as aioredis

DROP_THROUGH: Final = """
local at = redis.call('LPOS', KEYS[1], ARGV[1])
if not at then return 0 end
redis.call('LTRIM', KEYS[1], at + 1, -1)
return at + 1
"""
"""Drop a list's entries from the oldest through the first equal to ARGV[1] (one step, so an
append or trim meanwhile cannot shift what goes)."""


class RedisModeration:
    redis: aioredis.Redis
    prefix: str

    async def _call(self, what: str, make: Callable[[], Awaitable[Any]]) -> Any:
        raise NotImplementedError

    async def record_put(self, kind: str, key: str, value: str | None) -> None:
        name = f"{self.prefix}mod:{kind}"
        if value is None:
            await self._call("moderation", lambda: self.redis.hdel(name, key))
        else:
            await self._call("moderation", lambda: self.redis.hset(name, key, value))

    async def record_get(self, kind: str, key: str) -> str | None:
        found = await self._call(
            "moderation", lambda: self.redis.hget(f"{self.prefix}mod:{kind}", key)
        )
        return None if found is None else _text(found)

    async def records(self, kind: str) -> dict[str, str]:
        found = await self._call(
            "moderation", lambda: self.redis.hgetall(f"{self.prefix}mod:{kind}")
        )
        return {_text(k): _text(v) for k, v in found.items()}

    async def list_append(self, name: str, value: str, *, keep: int | None = None) -> None:
        key = f"{self.prefix}modlist:{name}"

        async def append() -> None:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.rpush(key, value)
                if keep is not None:
                    pipe.ltrim(key, -keep, -1)
                await pipe.execute()

        await self._call("moderation", append)

    async def list_read(self, name: str, *, limit: int) -> list[str]:
        if limit <= 0:
            return []
        found = await self._call(
            "moderation", lambda: self.redis.lrange(f"{self.prefix}modlist:{name}", -limit, -1)
        )
        return [_text(v) for v in found]

    async def list_names(self, prefix: str) -> list[str]:
        start = f"{self.prefix}modlist:"
        pattern = _glob_escape(start + prefix) + "*"

        async def scan() -> list[str]:
            return [_text(k)[len(start) :] async for k in self.redis.scan_iter(match=pattern)]

        return sorted(await self._call("moderation", scan))

    async def list_drop_through(self, name: str, value: str) -> int:
        key = f"{self.prefix}modlist:{name}"
        found = await self._call(
            "moderation",
            lambda: self.redis.eval(DROP_THROUGH, 1, key, value),
        )
        return int(found)


def _glob_escape(text: str) -> str:
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
