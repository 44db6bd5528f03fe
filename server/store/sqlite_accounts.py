"""Accounts, sessions, ratings and history in the SQLite file, and the file's migrations.

A file written before accounts existed has ``user_version`` 0; :func:`migrate` brings it to
:data:`VERSION` on start, one numbered step at a time, each in one transaction, so an
interrupted upgrade leaves the file at a version it can resume from. Rooms and games are left
as they were; step 3 only adds two columns to the actions (their ``seq`` and move key), step 4
the review queue, step 5 the hand-overs of seats during a match, step 6 moderation, step 7
recomputes the accounts' name keys (:mod:`server.store.name_keys`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from dataclasses import replace
from typing import Final, TypeVar

from muggins.server.store.accounts import (
    PENDING_REVIEWS_KEPT,
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
from muggins.server.store.name_keys import fold_sqlite
from muggins.server.store.sqlite_moderation import MIGRATION as MODERATION
from muggins.shared.glicko2 import PROVISIONAL_DEVIATION, Rating

T = TypeVar("T")

Step = str | Callable[[sqlite3.Connection], None]
"""A migration: SQL statements, or a function run in the step's transaction."""

MIGRATIONS: Final[tuple[Step, ...]] = (
    # 1: accounts, their sessions, settled matches and each account's history
    """
    CREATE TABLE accounts (
        id TEXT PRIMARY KEY,
        key TEXT NOT NULL UNIQUE,
        rating REAL NOT NULL,
        deviation REAL NOT NULL,
        rated_games INTEGER NOT NULL,
        record TEXT NOT NULL
    );
    CREATE INDEX accounts_rating ON accounts(rating);
    CREATE TABLE sessions (
        token_hash TEXT PRIMARY KEY,
        account TEXT NOT NULL,
        created REAL NOT NULL
    );
    CREATE INDEX sessions_account ON sessions(account);
    CREATE TABLE settled (match TEXT PRIMARY KEY);
    CREATE TABLE account_history (
        account TEXT NOT NULL,
        match TEXT NOT NULL,
        finished REAL NOT NULL,
        entry TEXT NOT NULL,
        PRIMARY KEY (account, match)
    );
    CREATE INDEX account_history_finished ON account_history(account, finished);
    """,
    # 2: the rated queue and its pairings
    """
    CREATE TABLE queue (account TEXT PRIMARY KEY, entry TEXT NOT NULL);
    CREATE TABLE paired (account TEXT PRIMARY KEY, room TEXT NOT NULL);
    """,
    # 3: each action keeps the seq its move named and the move's key (NULL for older actions)
    """
    ALTER TABLE actions ADD COLUMN seq INTEGER;
    ALTER TABLE actions ADD COLUMN key TEXT;
    """,
    # 4: settled matches waiting for the reviewer (what each seat gave away goes to its record)
    """
    CREATE TABLE review_pending (
        match TEXT PRIMARY KEY,
        accounts TEXT NOT NULL,
        queued INTEGER NOT NULL,
        until REAL NOT NULL
    );
    CREATE INDEX review_pending_queued ON review_pending(queued);
    """,
    # 5: a seat changing hands during a match (the computer taking over), for true records
    """
    CREATE TABLE handovers (
        room TEXT NOT NULL,
        number INTEGER NOT NULL,
        seat INTEGER NOT NULL,
        at INTEGER NOT NULL,
        before TEXT NOT NULL,
        after TEXT NOT NULL,
        PRIMARY KEY (room, number, seat, at)
    );
    """,
    # 6: moderation: bans, mutes, reports and blocks by key; the moderation log and rooms' chat
    MODERATION,
    # 7: accounts' name keys folded as today (accents, ı, İ); see server.store.name_keys
    fold_sqlite,
)
VERSION: Final = len(MIGRATIONS)


def migrate(db: sqlite3.Connection) -> int:
    """Apply the migrations this file lacks; returns the version it started at."""
    (start,) = db.execute("PRAGMA user_version").fetchone()
    for version in range(start, VERSION):
        db.execute("BEGIN IMMEDIATE")
        try:
            step = MIGRATIONS[version]
            if callable(step):
                step(db)
            else:
                for statement in step.split(";"):
                    if statement.strip():
                        db.execute(statement)
            db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
    return int(start)


def _account(db: sqlite3.Connection, where: str, value: str) -> AccountRecord | None:
    row = db.execute(f"SELECT record FROM accounts WHERE {where} = ?", (value,)).fetchone()
    return account_from_json(row[0]) if row else None


def _save(db: sqlite3.Connection, account: AccountRecord) -> None:
    db.execute(
        "INSERT OR REPLACE INTO accounts (id, key, rating, deviation, rated_games, record) "
        "VALUES (?, ?, ?, ?, ?, ?)",
        (
            account.id,
            account.key,
            account.rating.rating,
            account.rating.deviation,
            account.rated_games,
            account_json(account),
        ),
    )


class SqliteAccounts:
    """The account half of :class:`~server.store.sqlite_games.SqliteStore` (which provides
    ``_run``)."""

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def create_account(self, account: AccountRecord) -> None:
        def create(db: sqlite3.Connection) -> None:
            db.execute(
                "INSERT INTO accounts (id, key, rating, deviation, rated_games, record) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    account.id,
                    account.key,
                    account.rating.rating,
                    account.rating.deviation,
                    account.rated_games,
                    account_json(account),
                ),
            )

        await self._run(create)

    async def find_account(
        self, *, id: str | None = None, key: str | None = None
    ) -> AccountRecord | None:
        if key is not None:
            return await self._run(lambda db: _account(db, "key", key))
        if id is not None:
            return await self._run(lambda db: _account(db, "id", id))
        return None

    async def set_password(self, id: str, password_hash: str) -> None:
        def change(db: sqlite3.Connection) -> None:
            account = _account(db, "id", id)
            if account is not None:
                _save(db, _with_password(account, password_hash))

        await self._run(change)

    async def set_role(self, id: str, role: Role | None) -> None:
        def change(db: sqlite3.Connection) -> None:
            account = _account(db, "id", id)
            if account is not None:
                _save(db, replace(account, role=role))

        await self._run(change)

    async def restore_rating(self, id: str, rating: Rating, rated_games: int) -> None:
        def change(db: sqlite3.Connection) -> None:
            account = _account(db, "id", id)
            if account is not None:
                _save(db, replace(account, rating=rating, rated_games=rated_games))

        await self._run(change)

    async def rename_account(self, id: str, name: str, key: str) -> None:
        def change(db: sqlite3.Connection) -> None:
            account = _account(db, "id", id)
            if account is not None:
                renamed = replace(account, name=name, key=key)
                db.execute(
                    "UPDATE accounts SET key = ?, record = ? WHERE id = ?",
                    (key, account_json(renamed), id),
                )

        await self._run(change)  # a taken key is a StoreConflict, as for create_account

    async def set_bot(self, id: str) -> None:
        def change(db: sqlite3.Connection) -> None:
            account = _account(db, "id", id)
            if account is not None:
                _save(db, replace(account, bot=True))

        await self._run(change)

    async def delete_account(self, id: str) -> None:
        def delete(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM accounts WHERE id = ?", (id,))
            db.execute("DELETE FROM sessions WHERE account = ?", (id,))
            db.execute("DELETE FROM account_history WHERE account = ?", (id,))
            db.execute("COMMIT")

        await self._run(_transaction(delete))

    async def add_session(self, account: str, token_hash: str, created: float) -> None:
        await self._run(
            lambda db: db.execute(
                "INSERT INTO sessions (token_hash, account, created) VALUES (?, ?, ?)",
                (token_hash, account, created),
            )
        )

    async def session_account(self, token_hash: str) -> str | None:
        def find(db: sqlite3.Connection) -> str | None:
            row = db.execute(
                "SELECT account FROM sessions WHERE token_hash = ?", (token_hash,)
            ).fetchone()
            return str(row[0]) if row else None

        return await self._run(find)

    async def drop_sessions(self, account: str) -> int:
        return await self._run(
            lambda db: db.execute("DELETE FROM sessions WHERE account = ?", (account,)).rowcount
        )

    async def drop_session(self, token_hash: str) -> None:
        await self._run(
            lambda db: db.execute("DELETE FROM sessions WHERE token_hash = ?", (token_hash,))
        )

    async def record_result(self, result: MatchResult, rate: RateFn) -> bool:
        def record(db: sqlite3.Connection) -> bool:
            db.execute("BEGIN IMMEDIATE")
            if db.execute("SELECT 1 FROM settled WHERE match = ?", (result.match,)).fetchone():
                db.execute("ROLLBACK")
                return False
            db.execute("INSERT INTO settled (match) VALUES (?)", (result.match,))
            found = tuple(_account(db, "id", a) if a else None for a in result.accounts)
            updated, entries = settle(result, (found[0], found[1]), rate)
            for account in updated:
                _save(db, account)
            for account_id, entry in entries:
                db.execute(
                    "INSERT OR REPLACE INTO account_history (account, match, finished, entry) "
                    "VALUES (?, ?, ?, ?)",
                    (account_id, entry.match, entry.finished, entry_json(entry)),
                )
            if any(result.accounts):
                db.execute(
                    "INSERT OR REPLACE INTO review_pending (match, accounts, queued, until) "
                    "VALUES (?, ?, (SELECT COALESCE(MAX(queued), 0) + 1 FROM review_pending), 0)",
                    (result.match, pending_json(result.accounts)),
                )
                db.execute(
                    "DELETE FROM review_pending WHERE queued <= "
                    "(SELECT MAX(queued) FROM review_pending) - ?",
                    (PENDING_REVIEWS_KEPT,),
                )
            db.execute("COMMIT")
            return True

        return await self._run(_transaction(record))

    async def claim_reviews(self, *, limit: int, now: float) -> list[PendingReview]:
        def claim(db: sqlite3.Connection) -> list[PendingReview]:
            db.execute("BEGIN IMMEDIATE")
            rows = db.execute(
                "SELECT match, accounts FROM review_pending WHERE until <= ? "
                "ORDER BY queued LIMIT ?",
                (now, limit),
            ).fetchall()
            for match, _ in rows:
                db.execute(
                    "UPDATE review_pending SET until = ? WHERE match = ?",
                    (now + REVIEW_LEASE, match),
                )
            db.execute("COMMIT")
            return [pending_from_json(match, accounts) for match, accounts in rows]

        return await self._run(_transaction(claim))

    async def record_review(self, match: str, stats: tuple[Stats, Stats]) -> bool:
        def record(db: sqlite3.Connection) -> bool:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute(
                "SELECT accounts FROM review_pending WHERE match = ?", (match,)
            ).fetchone()
            if row is None:
                db.execute("ROLLBACK")
                return False
            db.execute("DELETE FROM review_pending WHERE match = ?", (match,))
            pending = pending_from_json(match, row[0])
            for account_id, seat_stats in zip(pending.accounts, stats, strict=True):
                account = _account(db, "id", account_id) if account_id else None
                if account is not None and seat_stats:
                    _save(db, reviewed(account, seat_stats))
            db.execute("COMMIT")
            return True

        return await self._run(_transaction(record))

    async def leaderboard(self, *, limit: int) -> list[AccountRecord]:
        def load(db: sqlite3.Connection) -> list[AccountRecord]:
            rows = db.execute(
                "SELECT record FROM accounts WHERE rated_games > 0 AND deviation <= ? "
                "ORDER BY rating DESC LIMIT ?",
                (PROVISIONAL_DEVIATION, limit),
            ).fetchall()
            return [account_from_json(row[0]) for row in rows]

        return await self._run(load)

    async def account_history(self, account: str, *, limit: int) -> list[HistoryEntry]:
        def load(db: sqlite3.Connection) -> list[HistoryEntry]:
            rows = db.execute(
                "SELECT entry FROM account_history WHERE account = ? "
                "ORDER BY finished DESC LIMIT ?",
                (account, limit),
            ).fetchall()
            return [entry_from_json(row[0]) for row in rows]

        return await self._run(load)

    async def queue_put(self, entry: QueueEntry) -> None:
        def put(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            db.execute("DELETE FROM paired WHERE account = ?", (entry.account,))
            db.execute(
                "INSERT OR REPLACE INTO queue (account, entry) VALUES (?, ?)",
                (entry.account, queue_json(entry)),
            )
            db.execute("COMMIT")

        await self._run(_transaction(put))

    async def queue_touch(self, account: str, seen: float) -> bool:
        def touch(db: sqlite3.Connection) -> bool:
            row = db.execute("SELECT entry FROM queue WHERE account = ?", (account,)).fetchone()
            if row is None:
                return False
            entry = replace(queue_from_json(row[0]), seen=seen)
            db.execute("UPDATE queue SET entry = ? WHERE account = ?", (queue_json(entry), account))
            return True

        return await self._run(touch)

    async def queue_remove(self, account: str) -> bool:
        return await self._run(
            lambda db: db.execute("DELETE FROM queue WHERE account = ?", (account,)).rowcount > 0
        )

    async def queue_entries(self) -> list[QueueEntry]:
        return await self._run(
            lambda db: [queue_from_json(r[0]) for r in db.execute("SELECT entry FROM queue")]
        )

    async def queue_take(self, first: str, second: str, room: str) -> bool:
        def take(db: sqlite3.Connection) -> bool:
            db.execute("BEGIN IMMEDIATE")
            found = db.execute(
                "SELECT COUNT(*) FROM queue WHERE account IN (?, ?)", (first, second)
            ).fetchone()[0]
            if first == second or found != 2:
                db.execute("ROLLBACK")
                return False
            for account in (first, second):
                db.execute("DELETE FROM queue WHERE account = ?", (account,))
                db.execute(
                    "INSERT OR REPLACE INTO paired (account, room) VALUES (?, ?)", (account, room)
                )
            db.execute("COMMIT")
            return True

        return await self._run(_transaction(take))

    async def queue_paired(self, account: str) -> str | None:
        def pop(db: sqlite3.Connection) -> str | None:
            row = db.execute("SELECT room FROM paired WHERE account = ?", (account,)).fetchone()
            if row is None:
                return None
            db.execute("DELETE FROM paired WHERE account = ?", (account,))
            return str(row[0])

        return await self._run(pop)


def _with_password(account: AccountRecord, password_hash: str) -> AccountRecord:
    return replace(account, password_hash=password_hash)


def _transaction(fn: Callable[[sqlite3.Connection], T]) -> Callable[[sqlite3.Connection], T]:
    """Roll back an explicit transaction that ``fn`` left open by raising."""

    def run(db: sqlite3.Connection) -> T:
        try:
            return fn(db)
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    return run
