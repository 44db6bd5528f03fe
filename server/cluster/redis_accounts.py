"""Accounts, sessions, ratings and history in Redis (the account half of
:class:`~server.cluster.redis_store.RedisStore`), shared by every node. A node started with
``--postgres`` keeps all of it but the rated queue in PostgreSQL instead
(:mod:`server.cluster.durable`).

Keys, under the store's prefix:

- ``account:{id}``: the account as JSON; ``account-key:{key}``: the id owning a name key;
  ``name-keys``: the version of the folding the keys follow (``name-keys-lock`` while a node
  brings them up to it, see :meth:`RedisAccounts.fold_name_keys`).
- ``session:{hash}``: the account of a session (only the token's SHA-256 is kept);
  ``sessions:{id}``: the set of an account's session hashes.
- ``settled:{match}``: written in the same transaction that applies a match to ratings and
  records, so each match counts once whichever node settles it, however often.
- ``history:{id}`` sorted set: history entries (JSON) by finish time, the latest 1,000.
- ``leaderboard`` sorted set: established accounts by rating.
- ``queue`` hash: account -> queue entry (JSON), the rated queue every node matches from;
  ``paired`` hash: account -> the room a pairing put them in, until their node seats them.
- ``review:{match}``: the accounts a settled match's review goes to (JSON), until it is
  recorded; ``review-queue`` sorted set: those matches by the time they may be claimed (their
  finish time, then the end of a claim's lease), so any node's reviewer takes the oldest.

A settlement is an optimistic transaction: WATCH the settled key and both accounts, read,
compute the new ratings, then MULTI/EXEC; a concurrent change makes it start again.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError, WatchError

from muggins.server.store.accounts import (
    REVIEW_LEASE,
    AccountRecord,
    HistoryEntry,
    MatchResult,
    PendingReview,
    QueueEntry,
    RateFn,
    Role,
    Stats,
    account_from_json,
    account_json,
    entry_from_json,
    entry_json,
    pending_from_json,
    pending_json,
    queue_from_json,
    queue_json,
    reviewed,
    settle,
)
from muggins.server.store.games import StoreConflict, StoreError
from muggins.server.store.memory_accounts import HISTORY_KEPT
from muggins.server.store.name_keys import FOLDING, Rekeying, clash_report, folded, plan
from muggins.shared.glicko2 import Rating

_CREATE = """
if redis.call('SET', KEYS[1], ARGV[1], 'NX') then
    redis.call('SET', KEYS[2], ARGV[2])
    return 1
end
return 0
"""
_DELETE = """
local key = ARGV[1]
redis.call('DEL', KEYS[1], KEYS[3])
if key ~= '' and redis.call('GET', KEYS[2]) == ARGV[2] then redis.call('DEL', KEYS[2]) end
for _, h in ipairs(redis.call('SMEMBERS', KEYS[4])) do redis.call('DEL', ARGV[3] .. h) end
redis.call('DEL', KEYS[4])
redis.call('ZREM', KEYS[5], ARGV[2])
return 1
"""
_RENAME = """
local owner = redis.call('GET', KEYS[1])
if owner and owner ~= ARGV[1] then return 0 end
if KEYS[3] ~= KEYS[1] then redis.call('DEL', KEYS[3]) end
redis.call('SET', KEYS[1], ARGV[1])
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""
_DROP_SESSIONS = """
local hashes = redis.call('SMEMBERS', KEYS[1])
for _, h in ipairs(hashes) do redis.call('DEL', ARGV[1] .. h) end
redis.call('DEL', KEYS[1])
return #hashes
"""


_TAKE = """
if ARGV[1] == ARGV[2] then return 0 end
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 or redis.call('HEXISTS', KEYS[1], ARGV[2]) == 0 then
    return 0
end
redis.call('HDEL', KEYS[1], ARGV[1], ARGV[2])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[3], ARGV[2], ARGV[3])
return 1
"""
_TOUCH = """
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
_PUT = """
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""
_CLAIM = """
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, tonumber(ARGV[3]))
local out = {}
for _, m in ipairs(due) do
    redis.call('ZADD', KEYS[1], ARGV[2], m)
    table.insert(out, m)
    table.insert(out, redis.call('GET', ARGV[4] .. m) or '')
end
return out
"""
_POP = """
local room = redis.call('HGET', KEYS[1], ARGV[1])
if room then redis.call('HDEL', KEYS[1], ARGV[1]) return room end
return ''
"""


class RedisAccounts:
    redis: aioredis.Redis
    prefix: str

    async def _call(self, what: str, make: Callable[[], Awaitable[Any]]) -> Any:
        raise NotImplementedError

    def _k(self, kind: str, name: str = "") -> str:
        return f"{self.prefix}{kind}:{name}" if name else f"{self.prefix}{kind}"

    async def _eval(self, script: str, keys: list[str], args: list[Any]) -> int:
        return int(
            await self._call("accounts", lambda: self.redis.eval(script, len(keys), *keys, *args))
        )

    async def create_account(self, account: AccountRecord) -> None:
        created = await self._eval(
            _CREATE,
            [self._k("account-key", account.key), self._k("account", account.id)],
            [account.id, account_json(account)],
        )
        if not created:
            raise StoreConflict(f"the name {account.name!r} is taken")

    async def find_account(
        self, *, id: str | None = None, key: str | None = None
    ) -> AccountRecord | None:
        if key is not None:
            id = await self._call("account", lambda: self.redis.get(self._k("account-key", key)))
        if id is None:
            return None
        text = await self._call("account", lambda: self.redis.get(self._k("account", id)))
        return account_from_json(text) if text else None

    async def set_password(self, id: str, password_hash: str) -> None:
        async def change(pipe: Any) -> None:
            text = await pipe.get(self._k("account", id))
            if text:
                account = replace(account_from_json(text), password_hash=password_hash)
                pipe.multi()
                pipe.set(self._k("account", id), account_json(account))

        await self._call("password", lambda: self.redis.transaction(change, self._k("account", id)))

    async def set_role(self, id: str, role: Role | None) -> None:
        async def change(pipe: Any) -> None:
            text = await pipe.get(self._k("account", id))
            if text:
                account = replace(account_from_json(text), role=role)
                pipe.multi()
                pipe.set(self._k("account", id), account_json(account))

        await self._call("role", lambda: self.redis.transaction(change, self._k("account", id)))

    async def restore_rating(self, id: str, rating: Rating, rated_games: int) -> None:
        async def change(pipe: Any) -> None:
            text = await pipe.get(self._k("account", id))
            if text:
                account = replace(account_from_json(text), rating=rating, rated_games=rated_games)
                pipe.multi()
                pipe.set(self._k("account", id), account_json(account))
                if account.rated_games and not account.rating.provisional:
                    pipe.zadd(self._k("leaderboard"), {id: account.rating.rating})
                else:
                    pipe.zrem(self._k("leaderboard"), id)

        await self._call("rating", lambda: self.redis.transaction(change, self._k("account", id)))

    async def rename_account(self, id: str, name: str, key: str) -> None:
        account = await self.find_account(id=id)
        if account is None:
            return
        renamed = replace(account, name=name, key=key)
        done = await self._eval(
            _RENAME,
            [
                self._k("account-key", key),
                self._k("account", id),
                self._k("account-key", account.key),
            ],
            [id, account_json(renamed)],
        )
        if not done:
            raise StoreConflict(f"the name {name!r} is taken")

    async def fold_name_keys(self) -> Rekeying | None:
        """Bring every account's name key up to today's folding, once per store (see
        :mod:`server.store.name_keys`); None when done already or under way on another node.
        Meanwhile sign-ins still find an account by its old key."""
        done, lock = self._k("name-keys"), self._k("name-keys-lock")
        if _text(await self._call("name keys", lambda: self.redis.get(done)) or b"") == FOLDING:
            return None
        if not await self._call("name keys", lambda: self.redis.set(lock, "1", nx=True, ex=300)):
            return None

        async def scan() -> list[AccountRecord]:
            found = []
            async for key in self.redis.scan_iter(match=_glob(self._k("account") + ":") + "*"):
                text = await self.redis.get(key)
                if text:
                    found.append(account_from_json(_text(text)))
            return found

        rekeying = plan(await self._call("name keys", scan))
        for account, key in list(rekeying.moved):
            try:
                await self.rename_account(account.id, account.name, key)
            except StoreConflict:  # registered meanwhile under the new key
                rekeying.moved.remove((account, key))
                holder = await self.find_account(key=key)
                rekeying.clashes.append((account, holder or account))
        reports = [clash_report(a, holder, at=time.time()) for a, holder in rekeying.clashes]
        if reports:
            found: dict[Any, Any] = {report.id: report.json() for report in reports}
            await self._call(
                "name keys", lambda: self.redis.hset(self._k("mod", "report"), mapping=found)
            )
        await self._call("name keys", lambda: self.redis.set(done, FOLDING))
        await self._call("name keys", lambda: self.redis.delete(lock))
        folded(rekeying)
        return rekeying

    async def set_bot(self, id: str) -> None:
        async def change(pipe: Any) -> None:
            text = await pipe.get(self._k("account", id))
            if text:
                account = replace(account_from_json(text), bot=True)
                pipe.multi()
                pipe.set(self._k("account", id), account_json(account))

        await self._call("bot", lambda: self.redis.transaction(change, self._k("account", id)))

    async def delete_account(self, id: str) -> None:
        account = await self.find_account(id=id)
        key = account.key if account else ""
        await self._eval(
            _DELETE,
            [
                self._k("account", id),
                self._k("account-key", key or "-"),
                self._k("history", id),
                self._k("sessions", id),
                self._k("leaderboard"),
            ],
            [key, id, f"{self.prefix}session:"],
        )

    async def add_session(self, account: str, token_hash: str, created: float) -> None:
        async def add() -> None:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.set(self._k("session", token_hash), account)
                pipe.sadd(self._k("sessions", account), token_hash)
                await pipe.execute()

        await self._call("session", add)

    async def session_account(self, token_hash: str) -> str | None:
        found = await self._call("session", lambda: self.redis.get(self._k("session", token_hash)))
        return str(found) if found else None

    async def drop_sessions(self, account: str) -> int:
        return await self._eval(
            _DROP_SESSIONS, [self._k("sessions", account)], [f"{self.prefix}session:"]
        )

    async def drop_session(self, token_hash: str) -> None:
        async def drop() -> None:
            account = await self.redis.get(self._k("session", token_hash))
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.delete(self._k("session", token_hash))
                if account:
                    pipe.srem(self._k("sessions", str(account)), token_hash)
                await pipe.execute()

        await self._call("session", drop)

    async def record_result(self, result: MatchResult, rate: RateFn) -> bool:
        settled = self._k("settled", result.match)
        keys = [self._k("account", a) for a in result.accounts if a]
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        await pipe.watch(settled, *keys)
                        if await pipe.exists(settled):
                            return False
                        found: list[AccountRecord | None] = []
                        for seat_account in result.accounts:
                            text = (
                                await pipe.get(self._k("account", seat_account))
                                if seat_account
                                else None
                            )
                            found.append(account_from_json(str(text)) if text else None)
                        updated, entries = settle(result, (found[0], found[1]), rate)
                        pipe.multi()  # type: ignore[no-untyped-call]
                        pipe.set(settled, "1")
                        pipe.zrem(self._k("unsettled"), result.match)
                        board = self._k("leaderboard")
                        for account in updated:
                            pipe.set(self._k("account", account.id), account_json(account))
                            if account.rated_games and not account.rating.provisional:
                                pipe.zadd(board, {account.id: account.rating.rating})
                            else:
                                pipe.zrem(board, account.id)
                        for account_id, entry in entries:
                            history = self._k("history", account_id)
                            pipe.zadd(history, {entry_json(entry): entry.finished})
                            pipe.zremrangebyrank(history, 0, -HISTORY_KEPT - 1)
                        if any(result.accounts):
                            pipe.set(self._k("review", result.match), pending_json(result.accounts))
                            pipe.zadd(self._k("review-queue"), {result.match: result.finished})
                        await pipe.execute()
                        return True
                    except WatchError:
                        continue
        except RedisError as error:
            raise StoreError(f"Redis (settle): {error}") from error

    async def claim_reviews(self, *, limit: int, now: float) -> list[PendingReview]:
        found = await self._call(
            "review",
            lambda: self.redis.eval(
                _CLAIM,
                1,
                self._k("review-queue"),
                now,
                now + REVIEW_LEASE,
                limit,
                f"{self.prefix}review:",
            ),
        )
        pairs = zip(found[::2], found[1::2], strict=True)
        return [pending_from_json(str(m), str(text)) for m, text in pairs if text]

    async def record_review(self, match: str, stats: tuple[Stats, Stats]) -> bool:
        key = self._k("review", match)
        try:
            async with self.redis.pipeline(transaction=True) as pipe:
                while True:
                    try:
                        await pipe.watch(key)
                        text = await pipe.get(key)
                        if not text:
                            return False
                        pending = pending_from_json(match, str(text))
                        ids = [a for a in pending.accounts if a]
                        await pipe.watch(key, *(self._k("account", a) for a in ids))
                        updated: list[AccountRecord] = []
                        for account_id, seat_stats in zip(pending.accounts, stats, strict=True):
                            found = await pipe.get(self._k("account", account_id or "-"))
                            if account_id and found and seat_stats:
                                updated.append(reviewed(account_from_json(str(found)), seat_stats))
                        pipe.multi()  # type: ignore[no-untyped-call]
                        pipe.delete(key)
                        pipe.zrem(self._k("review-queue"), match)
                        for account in updated:
                            pipe.set(self._k("account", account.id), account_json(account))
                        await pipe.execute()
                        return True
                    except WatchError:
                        continue
        except RedisError as error:
            raise StoreError(f"Redis (review): {error}") from error

    async def leaderboard(self, *, limit: int) -> list[AccountRecord]:
        ids = await self._call(
            "leaderboard", lambda: self.redis.zrevrange(self._k("leaderboard"), 0, limit - 1)
        )
        accounts = [await self.find_account(id=i) for i in ids]
        return [a for a in accounts if a is not None]

    async def account_history(self, account: str, *, limit: int) -> list[HistoryEntry]:
        texts = await self._call(
            "history", lambda: self.redis.zrevrange(self._k("history", account), 0, limit - 1)
        )
        return [entry_from_json(t) for t in texts]

    async def queue_put(self, entry: QueueEntry) -> None:
        await self._eval(
            _PUT, [self._k("queue"), self._k("paired")], [entry.account, queue_json(entry)]
        )

    async def queue_touch(self, account: str, seen: float) -> bool:
        text = await self._call("queue", lambda: self.redis.hget(self._k("queue"), account))
        if not text:
            return False
        entry = replace(queue_from_json(str(text)), seen=seen)
        return bool(await self._eval(_TOUCH, [self._k("queue")], [account, queue_json(entry)]))

    async def queue_remove(self, account: str) -> bool:
        removed = await self._call("queue", lambda: self.redis.hdel(self._k("queue"), account))
        return bool(removed)

    async def queue_entries(self) -> list[QueueEntry]:
        texts = await self._call("queue", lambda: self.redis.hvals(self._k("queue")))
        return [queue_from_json(t) for t in texts]

    async def queue_take(self, first: str, second: str, room: str) -> bool:
        keys = [self._k("queue"), self._k("paired")]
        return bool(await self._eval(_TAKE, keys, [first, second, room]))

    async def queue_paired(self, account: str) -> str | None:
        room = await self._call(
            "queue", lambda: self.redis.eval(_POP, 1, self._k("paired"), account)
        )
        return str(room) if room else None


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value


def _glob(text: str) -> str:
    """``text`` matched literally in a SCAN pattern."""
    return "".join("\\" + c if c in "*?[]\\" else c for c in text)
