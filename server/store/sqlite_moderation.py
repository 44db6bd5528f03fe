"""Moderation records and lists in the SQLite file (tables of migration ``moderation``)."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from typing import TypeVar

T = TypeVar("T")

MIGRATION = """
CREATE TABLE moderation_records (
    kind TEXT NOT NULL,
    key TEXT NOT NULL,
    value TEXT NOT NULL,
    PRIMARY KEY (kind, key)
);
CREATE TABLE moderation_lists (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    name TEXT NOT NULL,
    value TEXT NOT NULL
);
CREATE INDEX moderation_lists_name ON moderation_lists(name, seq);
"""


class SqliteModeration:
    """The moderation half of :class:`~server.store.sqlite_games.SqliteStore`."""

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        raise NotImplementedError

    async def record_put(self, kind: str, key: str, value: str | None) -> None:
        def put(db: sqlite3.Connection) -> None:
            if value is None:
                db.execute("DELETE FROM moderation_records WHERE kind = ? AND key = ?", (kind, key))
            else:
                db.execute(
                    "INSERT OR REPLACE INTO moderation_records (kind, key, value) VALUES (?, ?, ?)",
                    (kind, key, value),
                )

        await self._run(put)

    async def record_get(self, kind: str, key: str) -> str | None:
        def get(db: sqlite3.Connection) -> str | None:
            row = db.execute(
                "SELECT value FROM moderation_records WHERE kind = ? AND key = ?", (kind, key)
            ).fetchone()
            return str(row[0]) if row else None

        return await self._run(get)

    async def records(self, kind: str) -> dict[str, str]:
        def read(db: sqlite3.Connection) -> dict[str, str]:
            rows = db.execute("SELECT key, value FROM moderation_records WHERE kind = ?", (kind,))
            return {str(k): str(v) for k, v in rows}

        return await self._run(read)

    async def list_append(self, name: str, value: str, *, keep: int | None = None) -> None:
        def append(db: sqlite3.Connection) -> None:
            db.execute("BEGIN IMMEDIATE")
            db.execute("INSERT INTO moderation_lists (name, value) VALUES (?, ?)", (name, value))
            if keep is not None:
                db.execute(
                    "DELETE FROM moderation_lists WHERE name = ? AND seq NOT IN "
                    "(SELECT seq FROM moderation_lists WHERE name = ? ORDER BY seq DESC LIMIT ?)",
                    (name, name, keep),
                )
            db.execute("COMMIT")

        await self._run(append)

    async def list_read(self, name: str, *, limit: int) -> list[str]:
        def read(db: sqlite3.Connection) -> list[str]:
            rows = db.execute(
                "SELECT value FROM moderation_lists WHERE name = ? ORDER BY seq DESC LIMIT ?",
                (name, limit),
            ).fetchall()
            return [str(row[0]) for row in reversed(rows)]

        return await self._run(read)

    async def list_names(self, prefix: str) -> list[str]:
        def read(db: sqlite3.Connection) -> list[str]:
            rows = db.execute(
                "SELECT DISTINCT name FROM moderation_lists WHERE substr(name, 1, ?) = ? "
                "ORDER BY name",
                (len(prefix), prefix),
            )
            return [str(row[0]) for row in rows]

        return await self._run(read)

    async def list_drop_through(self, name: str, value: str) -> int:
        def drop(db: sqlite3.Connection) -> int:
            db.execute("BEGIN IMMEDIATE")
            row = db.execute(
                "SELECT min(seq) FROM moderation_lists WHERE name = ? AND value = ?", (name, value)
            ).fetchone()
            count = 0
            if row[0] is not None:
                count = db.execute(
                    "DELETE FROM moderation_lists WHERE name = ? AND seq <= ?", (name, row[0])
                ).rowcount
            db.execute("COMMIT")
            return int(count)

        return await self._run(drop)
