"""Moving a Redis-only cluster's accounts and moderation into PostgreSQL (``muggins to-postgres``).

For a cluster that kept its accounts in Redis (nodes without ``--postgres``): each account, with
its sessions and history, is copied in one PostgreSQL transaction (``ON CONFLICT DO NOTHING``:
what PostgreSQL has already is kept as it is), then deleted from Redis; then the settled
matches' keys, the review queue and moderation's records move the same way, and each
moderation list (the log, a room's kept chat) is appended whole unless PostgreSQL holds it
already. A copy done twice changes nothing, so a
move interrupted anywhere is finished by running it again. An account whose name key another
account holds in PostgreSQL stays in Redis and is reported by name.

Run it with the nodes stopped, then start them with ``--postgres``: a node without it would
not find the moved accounts, and one with it would not find those not moved yet.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from redis.exceptions import RedisError

from muggins.server.cluster.redis_store import RedisStore
from muggins.server.store.accounts import AccountRecord, HistoryEntry, account_from_json
from muggins.server.store.accounts import entry_from_json as history_entry
from muggins.server.store.games import StoreError
from muggins.server.store.postgres import PostgresLink
from muggins.server.store.postgres_accounts import COLUMNS, values

BATCH = 500
"""Keys read from Redis at a time."""


@dataclass(slots=True)
class Moved:
    """What a run moved."""

    accounts: int = 0
    sessions: int = 0
    history: int = 0
    settled: int = 0
    reviews: int = 0
    records: int = 0
    """Moderation records: bans, mutes, reports, blocks."""
    lines: int = 0
    """Entries of moderation lists: the moderation log, rooms' kept chat."""
    clashes: list[str] = field(default_factory=list)
    """Names left in Redis: another account holds their key in PostgreSQL."""


class AccountsImport(PostgresLink):
    """The PostgreSQL side: each copy one transaction, never overwriting."""

    async def account(
        self, account: AccountRecord, sessions: list[str], history: list[HistoryEntry]
    ) -> bool:
        """Copy an account with its sessions and history; False (nothing copied) when another
        account holds its key here."""

        async def work(connection: psycopg.AsyncConnection[Any]) -> bool:
            async with connection.transaction():
                placeholders = ", ".join(["%s"] * 12)
                await connection.execute(
                    f"INSERT INTO accounts ({COLUMNS}) VALUES ({placeholders})"
                    " ON CONFLICT DO NOTHING",
                    values(account),
                )
                owner = await (
                    await connection.execute(
                        "SELECT id FROM accounts WHERE key = %s", (account.key,)
                    )
                ).fetchone()
                if owner is None or owner[0] != account.id:
                    return False
                async with connection.cursor() as cursor:
                    await cursor.executemany(
                        "INSERT INTO sessions (token_hash, account, created) VALUES (%s, %s, %s)"
                        " ON CONFLICT DO NOTHING",
                        [(h, account.id, account.created) for h in sessions],
                    )
                    await cursor.executemany(
                        "INSERT INTO account_history (account, match, finished, entry)"
                        " VALUES (%s, %s, %s, %s) ON CONFLICT DO NOTHING",
                        [(account.id, e.match, e.finished, Jsonb(asdict(e))) for e in history],
                    )
                return True

        copied: bool = await self._run("copy account", work)
        return copied

    async def moderation_list(self, name: str, entries: list[str]) -> int:
        """Append a list's entries unless they are here already (a run cut short after the
        copy); how many were appended."""

        async def work(connection: psycopg.AsyncConnection[Any]) -> int:
            async with connection.transaction():
                await connection.execute("LOCK TABLE moderation_lists IN EXCLUSIVE MODE")
                cursor = await connection.execute(
                    "SELECT value FROM moderation_lists WHERE name = %s ORDER BY seq LIMIT %s",
                    (name, len(entries)),
                )
                if [row[0] for row in await cursor.fetchall()] == entries:
                    return 0
                async with connection.cursor() as rows:
                    await rows.executemany(
                        "INSERT INTO moderation_lists (name, value) VALUES (%s, %s)",
                        [(name, entry) for entry in entries],
                    )
                return len(entries)

        appended: int = await self._run("copy list", work)
        return appended

    async def rows(self, sql: str, rows: list[tuple[Any, ...]]) -> None:
        """Run ``sql`` once per row, in one transaction."""

        async def work(connection: psycopg.AsyncConnection[Any]) -> None:
            async with connection.transaction(), connection.cursor() as cursor:
                await cursor.executemany(sql, rows)

        await self._run("copy", work)


async def move_accounts(store: RedisStore, target: AccountsImport) -> Moved:
    """Move every account, session, history, settled match and queued review from ``store``'s
    Redis to ``target``. A failure of either raises StoreError: run it again."""
    try:
        return await _move(store, target)
    except RedisError as error:
        raise StoreError(f"Redis (move accounts): {error}") from error


async def _move(store: RedisStore, target: AccountsImport) -> Moved:
    redis, p = store.redis, store.prefix
    moved = Moved()
    async for key in redis.scan_iter(match=f"{p}account:*", count=BATCH):
        text = await redis.get(key)
        if not text:
            continue
        account = account_from_json(str(text))
        hashes = sorted(str(h) for h in await redis.smembers(f"{p}sessions:{account.id}"))
        sessions = [h for h in hashes if await redis.get(f"{p}session:{h}") == account.id]
        texts = await redis.zrange(f"{p}history:{account.id}", 0, -1)
        history = [history_entry(str(t)) for t in texts]
        if not await target.account(account, sessions, history):
            moved.clashes.append(account.name)
            continue
        async with redis.pipeline(transaction=True) as pipe:
            pipe.delete(key, f"{p}sessions:{account.id}", f"{p}history:{account.id}")
            if sessions:
                pipe.delete(*(f"{p}session:{h}" for h in sessions))
            pipe.zrem(f"{p}leaderboard", account.id)
            await pipe.execute()
        await redis.eval(  # the name's key, unless it was taken over meanwhile
            "if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end",
            1,
            f"{p}account-key:{account.key}",
            account.id,
        )
        moved.accounts += 1
        moved.sessions += len(sessions)
        moved.history += len(history)
    settled: list[str] = []
    async for key in redis.scan_iter(match=f"{p}settled:*", count=BATCH):
        settled.append(str(key))
        if len(settled) >= BATCH:
            moved.settled += await _move_settled(store, target, settled)
            settled = []
    moved.settled += await _move_settled(store, target, settled)
    queue = [str(m) for m in await redis.zrange(f"{p}review-queue", 0, -1)]  # oldest first
    for start in range(0, len(queue), BATCH):
        part = queue[start : start + BATCH]
        found = [await redis.get(f"{p}review:{m}") for m in part]
        rows = [(m, Jsonb(_json(t))) for m, t in zip(part, found, strict=True) if t]
        await target.rows(
            "INSERT INTO review_pending (match, accounts) VALUES (%s, %s) ON CONFLICT DO NOTHING",
            rows,
        )
        async with redis.pipeline(transaction=True) as pipe:
            pipe.delete(*(f"{p}review:{m}" for m in part))
            pipe.zrem(f"{p}review-queue", *part)
            await pipe.execute()
        moved.reviews += len(rows)
    await _move_moderation(store, target, moved)
    return moved


async def _move_moderation(store: RedisStore, target: AccountsImport, moved: Moved) -> None:
    """Moderation's records (what PostgreSQL has already wins), then its lists, each whole."""
    redis, p = store.redis, store.prefix
    async for key in redis.scan_iter(match=f"{p}mod:*", count=BATCH):
        kind = str(key).removeprefix(f"{p}mod:")
        found = await redis.hgetall(key)
        await target.rows(
            "INSERT INTO moderation_records (kind, key, value) VALUES (%s, %s, %s)"
            " ON CONFLICT DO NOTHING",
            [(kind, str(k), str(v)) for k, v in found.items()],
        )
        await redis.delete(key)
        moved.records += len(found)
    async for key in redis.scan_iter(match=f"{p}modlist:*", count=BATCH):
        name = str(key).removeprefix(f"{p}modlist:")
        entries = [str(e) for e in await redis.lrange(key, 0, -1)]
        moved.lines += await target.moderation_list(name, entries)
        await redis.delete(key)


async def _move_settled(store: RedisStore, target: AccountsImport, keys: list[str]) -> int:
    if not keys:
        return 0
    prefix = f"{store.prefix}settled:"
    await target.rows(
        "INSERT INTO settled (match) VALUES (%s) ON CONFLICT DO NOTHING",
        [(k.removeprefix(prefix),) for k in keys],
    )
    await store.redis.delete(*keys)
    return len(keys)


def _json(text: Any) -> Any:
    return json.loads(str(text))
