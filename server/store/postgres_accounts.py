"""Accounts, sessions, ratings, records, history and the review queue in PostgreSQL.

A cluster node started with ``--postgres`` keeps these here instead of in Redis (see
:mod:`server.cluster.durable`); the rated queue stays in Redis with the rest of live play.
The tables are migration 3 of :data:`server.store.postgres.MIGRATIONS`.

Races between nodes are settled by PostgreSQL's locks, each change in one transaction:

- :meth:`PostgresAccounts.record_result` inserts the match into ``settled`` first
  (``ON CONFLICT DO NOTHING``): a second node settling the same match waits on that row until
  the first commits, then inserts nothing and changes nothing. The accounts are then read
  ``FOR UPDATE`` (in id order, so two settlements never deadlock) and written with their
  history entries and the match's place in the review queue.
- :meth:`PostgresAccounts.record_review` deletes the match from the queue first: only the
  caller whose delete found it adds the review to the records.
- :meth:`PostgresAccounts.claim_reviews` takes the oldest unheld reviews ``FOR UPDATE SKIP
  LOCKED``, so reviewers on several nodes never claim the same one.
"""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import psycopg
from psycopg.types.json import Jsonb

from muggins.server.store.accounts import (
    PENDING_REVIEWS_KEPT,
    REVIEW_LEASE,
    AccountRecord,
    HistoryEntry,
    MatchResult,
    PendingReview,
    RateFn,
    Role,
    Stats,
    merge_stats,
    settle,
)
from muggins.server.store.games import StoreConflict
from muggins.server.store.postgres_moderation import PostgresModeration
from muggins.shared.glicko2 import PROVISIONAL_DEVIATION, Rating

Connection = psycopg.AsyncConnection[Any]

COLUMNS = (
    "id, name, key, password_hash, created, rating, deviation, volatility, rated_games, stats,"
    " role, bot"
)


def _account(row: Any) -> AccountRecord:
    (
        id,
        name,
        key,
        password_hash,
        created,
        rating,
        deviation,
        volatility,
        games,
        stats,
        role,
        bot,
    ) = row
    return AccountRecord(
        id=id,
        name=name,
        key=key,
        password_hash=password_hash,
        created=float(created),
        rating=Rating(float(rating), float(deviation), float(volatility)),
        rated_games=int(games),
        stats={str(k): int(v) for k, v in stats.items()},
        role=role,
        bot=bool(bot),
    )


def _entry(data: dict[str, Any]) -> HistoryEntry:
    return HistoryEntry(**{**data, "match_points": tuple(data["match_points"])})


def values(account: AccountRecord) -> tuple[Any, ...]:
    """The account's row, in the order of :data:`COLUMNS`."""
    return (
        account.id,
        account.name,
        account.key,
        account.password_hash,
        account.created,
        account.rating.rating,
        account.rating.deviation,
        account.rating.volatility,
        account.rated_games,
        Jsonb(account.stats),
        account.role,
        account.bot,
    )


async def _find(connection: Connection, where: str, value: Any, lock: str = "") -> list[Any]:
    cursor = await connection.execute(
        f"SELECT {COLUMNS} FROM accounts WHERE {where} ORDER BY id {lock}", value
    )
    return await cursor.fetchall()


class PostgresAccounts(PostgresModeration):
    """The :class:`~server.store.accounts.AccountStore` methods, but the rated queue's (live
    play: see :mod:`server.cluster.durable`), and the moderation store's, on PostgreSQL over
    the link's pool of connections."""

    async def _write(self, what: str, sql: str, values: tuple[Any, ...]) -> int:
        """Run one statement; how many rows it changed."""

        async def work(connection: Connection) -> int:
            return (await connection.execute(sql, values)).rowcount

        changed: int = await self._run(what, work)
        return changed

    async def create_account(self, account: AccountRecord) -> None:
        placeholders = ", ".join(["%s"] * 12)
        changed = await self._write(
            "account",
            f"INSERT INTO accounts ({COLUMNS}) VALUES ({placeholders}) ON CONFLICT DO NOTHING",
            values(account),
        )
        if changed == 0:
            raise StoreConflict(f"the name key {account.key!r} (or id) is taken")

    async def find_account(
        self, *, id: str | None = None, key: str | None = None
    ) -> AccountRecord | None:
        if key is None and id is None:
            return None

        async def work(connection: Connection) -> list[Any]:
            if key is not None:
                return await _find(connection, "key = %s", (key,))
            return await _find(connection, "id = %s", (id,))

        rows = await self._run("account", work)
        return _account(rows[0]) if rows else None

    async def set_password(self, id: str, password_hash: str) -> None:
        sql = "UPDATE accounts SET password_hash = %s WHERE id = %s"
        await self._write("account", sql, (password_hash, id))

    async def set_role(self, id: str, role: Role | None) -> None:
        await self._write("account", "UPDATE accounts SET role = %s WHERE id = %s", (role, id))

    async def restore_rating(self, id: str, rating: Rating, rated_games: int) -> None:
        await self._write(
            "account",
            "UPDATE accounts SET rating = %s, deviation = %s, volatility = %s, rated_games = %s"
            " WHERE id = %s",
            (rating.rating, rating.deviation, rating.volatility, rated_games, id),
        )

    async def rename_account(self, id: str, name: str, key: str) -> None:
        async def work(connection: Connection) -> None:
            try:
                await connection.execute(
                    "UPDATE accounts SET name = %s, key = %s WHERE id = %s", (name, key, id)
                )
            except psycopg.errors.UniqueViolation as error:
                raise StoreConflict(f"the name key {key!r} is taken") from error

        await self._run("rename", work)

    async def set_bot(self, id: str) -> None:
        await self._write("account", "UPDATE accounts SET bot = true WHERE id = %s", (id,))

    async def delete_account(self, id: str) -> None:
        async def work(connection: Connection) -> None:
            async with connection.transaction():
                await connection.execute("DELETE FROM accounts WHERE id = %s", (id,))
                await connection.execute("DELETE FROM sessions WHERE account = %s", (id,))
                await connection.execute("DELETE FROM account_history WHERE account = %s", (id,))

        await self._run("delete", work)

    async def add_session(self, account: str, token_hash: str, created: float) -> None:
        await self._write(
            "session",
            "INSERT INTO sessions (token_hash, account, created) VALUES (%s, %s, %s)"
            " ON CONFLICT (token_hash) DO UPDATE SET account = excluded.account,"
            " created = excluded.created",
            (token_hash, account, created),
        )

    async def session_account(self, token_hash: str) -> str | None:
        async def work(connection: Connection) -> Any:
            cursor = await connection.execute(
                "SELECT account FROM sessions WHERE token_hash = %s", (token_hash,)
            )
            return await cursor.fetchone()

        row = await self._run("session", work)
        return str(row[0]) if row else None

    async def drop_sessions(self, account: str) -> int:
        return await self._write("session", "DELETE FROM sessions WHERE account = %s", (account,))

    async def drop_session(self, token_hash: str) -> None:
        await self._write("session", "DELETE FROM sessions WHERE token_hash = %s", (token_hash,))

    async def record_result(self, result: MatchResult, rate: RateFn) -> bool:
        async def work(connection: Connection) -> bool:
            async with connection.transaction():
                first = await connection.execute(
                    "INSERT INTO settled (match) VALUES (%s) ON CONFLICT DO NOTHING",
                    (result.match,),
                )
                if first.rowcount == 0:
                    return False  # settled before (or by a node that just committed)
                ids = [a for a in result.accounts if a]
                rows = await _find(connection, "id = ANY(%s)", (ids,), "FOR UPDATE")
                found = {row[0]: _account(row) for row in rows}
                seats = tuple(found.get(a) if a else None for a in result.accounts)
                updated, entries = settle(result, (seats[0], seats[1]), rate)
                for account in updated:
                    await connection.execute(
                        "UPDATE accounts SET rating = %s, deviation = %s, volatility = %s,"
                        " rated_games = %s, stats = %s WHERE id = %s",
                        (
                            account.rating.rating,
                            account.rating.deviation,
                            account.rating.volatility,
                            account.rated_games,
                            Jsonb(account.stats),
                            account.id,
                        ),
                    )
                for account_id, entry in entries:
                    await connection.execute(
                        "INSERT INTO account_history (account, match, finished, entry)"
                        " VALUES (%s, %s, %s, %s) ON CONFLICT (account, match)"
                        " DO UPDATE SET finished = excluded.finished, entry = excluded.entry",
                        (account_id, entry.match, entry.finished, Jsonb(asdict(entry))),
                    )
                if ids:
                    await connection.execute(
                        "INSERT INTO review_pending (match, accounts) VALUES (%s, %s)"
                        " ON CONFLICT (match) DO NOTHING",
                        (result.match, Jsonb(list(result.accounts))),
                    )
                    await connection.execute(
                        "DELETE FROM review_pending WHERE queued <="
                        " (SELECT max(queued) FROM review_pending) - %s",
                        (PENDING_REVIEWS_KEPT,),
                    )
                return True

        settled: bool = await self._run("settle", work)
        return settled

    async def is_settled(self, match: str) -> bool:
        """Whether ``match`` has been settled (by any node)."""

        async def work(connection: Connection) -> Any:
            cursor = await connection.execute("SELECT 1 FROM settled WHERE match = %s", (match,))
            return await cursor.fetchone()

        return await self._run("settled", work) is not None

    async def claim_reviews(self, *, limit: int, now: float) -> list[PendingReview]:
        async def work(connection: Connection) -> list[Any]:
            cursor = await connection.execute(
                "UPDATE review_pending SET until = %s WHERE match IN ("
                " SELECT match FROM review_pending WHERE until <= %s ORDER BY queued LIMIT %s"
                " FOR UPDATE SKIP LOCKED) RETURNING queued, match, accounts",
                (now + REVIEW_LEASE, now, limit),
            )
            return await cursor.fetchall()

        rows = sorted(await self._run("review", work))
        return [PendingReview(match=m, accounts=(a[0], a[1])) for _, m, a in rows]

    async def record_review(self, match: str, stats: tuple[Stats, Stats]) -> bool:
        async def work(connection: Connection) -> bool:
            async with connection.transaction():
                cursor = await connection.execute(
                    "DELETE FROM review_pending WHERE match = %s RETURNING accounts", (match,)
                )
                row = await cursor.fetchone()
                if row is None:
                    return False  # recorded before
                for account_id, seat_stats in zip(row[0], stats, strict=True):
                    if not account_id or not seat_stats:
                        continue
                    found = await connection.execute(
                        "SELECT stats FROM accounts WHERE id = %s FOR UPDATE", (account_id,)
                    )
                    old = await found.fetchone()
                    if old is not None:
                        await connection.execute(
                            "UPDATE accounts SET stats = %s WHERE id = %s",
                            (Jsonb(merge_stats(old[0], seat_stats)), account_id),
                        )
                return True

        recorded: bool = await self._run("review", work)
        return recorded

    async def review_backlog(self) -> int:
        """Settled matches waiting for their review (``/metrics``)."""

        async def work(connection: Connection) -> Any:
            return await (
                await connection.execute("SELECT count(*) FROM review_pending")
            ).fetchone()

        row = await self._run("review", work)
        return int(row[0]) if row else 0

    async def leaderboard(self, *, limit: int) -> list[AccountRecord]:
        async def work(connection: Connection) -> list[Any]:
            cursor = await connection.execute(
                f"SELECT {COLUMNS} FROM accounts WHERE rated_games > 0 AND deviation <= %s"
                " ORDER BY rating DESC, id LIMIT %s",
                (PROVISIONAL_DEVIATION, limit),
            )
            return await cursor.fetchall()

        return [_account(row) for row in await self._run("leaderboard", work)]

    async def account_history(self, account: str, *, limit: int) -> list[HistoryEntry]:
        async def work(connection: Connection) -> list[Any]:
            cursor = await connection.execute(
                "SELECT entry FROM account_history WHERE account = %s"
                " ORDER BY finished DESC, match DESC LIMIT %s",
                (account, limit),
            )
            return await cursor.fetchall()

        return [_entry(row[0]) for row in await self._run("history", work)]
