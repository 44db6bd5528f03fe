"""Moderation records and lists in Redis (the :class:`ModerationStore` of
:class:`~server.cluster.redis_store.RedisStore`), shared by every node.

Keys, under the store's prefix: ``mod:{kind}`` hash of key -> JSON; ``modlist:{name}`` list of
JSON, newest last (trimmed to ``keep`` when one is given)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import redis.asyncio as aioredis


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


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
