"""Sign-in limits for a whole cluster, kept in Redis: failed sign-ins per name and per address
count on every node, so an attacker spreading guesses over the nodes gains nothing.

Keys, under the store's prefix: ``signin:name:{key}`` and ``signin:address:{address}``, sorted
sets of attempts scored by Redis's own clock (one clock for every node), trimmed to the window
and expiring with it. One script checks both limits and, if the attempt may go ahead, counts it
at once, before the password is checked: attempts sent at the same moment to several nodes are
counted one by one and cannot pass the limit together. A success removes the name's set and
the attempt from the address's.
"""

from __future__ import annotations

import secrets

from muggins.server.cluster.redis_store import RedisStore

_ATTEMPT = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local window = tonumber(ARGV[1])
local limits = {tonumber(ARGV[2]), tonumber(ARGV[3])}
local wait = 0
for i = 1, 2 do
    redis.call('ZREMRANGEBYSCORE', KEYS[i], '-inf', now - window)
    if redis.call('ZCARD', KEYS[i]) >= limits[i] then
        local oldest = redis.call('ZRANGE', KEYS[i], 0, 0, 'WITHSCORES')
        local w = tonumber(oldest[2]) + window - now
        if w > wait then wait = w end
    end
end
if wait > 0 then return tostring(wait) end
for i = 1, 2 do
    redis.call('ZADD', KEYS[i], now, ARGV[4])
    redis.call('EXPIRE', KEYS[i], math.ceil(window))
end
return '0'
"""
_SUCCEEDED = """
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
return 1
"""


class RedisSignInLimits:
    """:class:`~server.accounts.credentials.SignInLimits` shared by every node of a cluster."""

    def __init__(
        self,
        store: RedisStore,
        *,
        per_name: int = 5,
        per_address: int = 20,
        window: float = 300.0,
    ) -> None:
        self.store = store
        self.per_name, self.per_address, self.window = per_name, per_address, window

    def _keys(self, name_key: str, address: str) -> list[str]:
        prefix = f"{self.store.prefix}signin:"
        return [f"{prefix}name:{name_key}", f"{prefix}address:{address}"]

    async def attempt(self, name_key: str, address: str) -> tuple[float, str]:
        ticket = secrets.token_hex(8)
        keys = self._keys(name_key, address)
        args = (self.window, self.per_name, self.per_address, ticket)
        redis = self.store.redis
        wait = await self.store._call(
            "sign-in", lambda: redis.eval(_ATTEMPT, len(keys), *keys, *args)
        )
        return float(wait), ticket

    async def succeeded(self, name_key: str, address: str, ticket: str) -> None:
        keys = self._keys(name_key, address)
        redis = self.store.redis
        await self.store._call("sign-in", lambda: redis.eval(_SUCCEEDED, len(keys), *keys, ticket))
