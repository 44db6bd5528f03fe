"""Sign-in limits for a whole cluster, kept in Redis: failed sign-ins per name and per address
count on every node, so an attacker spreading guesses over the nodes gains nothing.

Keys, under the store's prefix: ``signin:pair:{key}@{address}``, ``signin:address:{address}``
and ``signin:name:{key}``, sorted sets of attempts scored by Redis's own clock (one clock for
every node), trimmed to the window and expiring with it. One script checks the pair's and the
address's limits (which lock) and the name's (which slows) and, if the attempt may go ahead,
counts it at once, before the password is checked: attempts sent at the same moment to several
nodes are counted one by one and cannot pass the limit together. A success removes the name's
sets and the attempt from the address's; a name with no account has its sets removed.
"""

from __future__ import annotations

import secrets

from muggins.server.accounts.credentials import SLOW_DELAY
from muggins.server.cluster.redis_store import RedisStore

_ATTEMPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local window = tonumber(ARGV[1])
local limits = {tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])}
local wait = 0
for i = 1, 3 do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
end
for i = 1, 2 do
    if redis.call('ZCARD', KEYS[i]) >= limits[i] then
        local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
        local w = tonumber(oldest[2]) + window - now
        if w > wait then wait = w end
    end
end
if wait > 0 then return {tostring(wait), '0'} end
local slow = '0'
if redis.call('ZCARD', KEYS[3]) >= limits[3] then slow = ARGV[6] end
for i = 1, 3 do
    redis.call('ZADD', KEYS[i], now, ARGV[5])
    redis.call('EXPIRE', KEYS[i], math.ceil(window))
end
return {'0', slow}
"""
_SUCCEEDED = """
redis.call('DEL', KEYS[1], KEYS[3])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
"""
_UNKNOWN = """
redis.call('DEL', KEYS[1], KEYS[3])
return 1
"""


class RedisSignInLimits:
    """:class:`~server.accounts.credentials.SignInLimits` shared by every node of a cluster."""

    def __init__(
        self,
        store: RedisStore,
        *,
        per_pair: int = 5,
        per_address: int = 20,
        per_name: int = 20,
        window: float = 300.0,
    ) -> None:
        self.store = store
        self.limits = (per_pair, per_address, per_name)
        self.window = window

    def _keys(self, name_key: str, address: str) -> list[str]:
        prefix = f"{self.store.prefix}signin:"
        return [
            f"{prefix}pair:{name_key}@{address}",
            f"{prefix}address:{address}",
            f"{prefix}name:{name_key}",
        ]

    async def attempt(self, name_key: str, address: str) -> tuple[float, float, str]:
        ticket = secrets.token_hex(8)
        keys = self._keys(name_key, address)
        args = (self.window, *self.limits, ticket, SLOW_DELAY)
        redis = self.store.redis
        wait, slow = await self.store._call(
            "sign-in", lambda: redis.eval(_ATTEMPT, len(keys), *keys, *args)
        )
        return float(wait), float(slow), ticket

    async def unknown(self, name_key: str, address: str) -> None:
        keys = self._keys(name_key, address)
        redis = self.store.redis
        await self.store._call("sign-in", lambda: redis.eval(_UNKNOWN, len(keys), *keys))

    async def succeeded(self, name_key: str, address: str, ticket: str) -> None:
        keys = self._keys(name_key, address)
        redis = self.store.redis
        await self.store._call("sign-in", lambda: redis.eval(_SUCCEEDED, len(keys), *keys, ticket))
