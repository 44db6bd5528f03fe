"""Moderation records and lists in PostgreSQL: bans, mutes, reports, blocks, the moderation log
and rooms' kept chat, for a cluster node started with ``--postgres`` (see
:mod:`server.cluster.durable`). The tables are migration 4 of
:data:`server.store.postgres.MIGRATIONS`; the meaning is in :mod:`server.accounts.sanctions`.

A list's entries are numbered by one sequence (``seq``), so they read back in the order they
were appended whichever node appended them; trimming and dropping delete by that number, each in
one statement.
"""

from __future__ import annotations

from typing import Any

import psycopg

from muggins.server.store.postgres import PostgresLink

Connection = psycopg.AsyncConnection[Any]


class PostgresModeration(PostgresLink):
    """The :class:`~server.store.moderation.ModerationStore` methods on PostgreSQL."""

    async def _rows(self, what: str, sql: str, values: tuple[Any, ...]) -> list[Any]:
        async def work(connection: Connection) -> list[Any]:
            cursor = await connection.execute(sql, values)
            return await cursor.fetchall() if cursor.description else []

        found: list[Any] = await self._run(what, work)
        return found

    async def record_put(self, kind: str, key: str, value: str | None) -> None:
        if value is None:
            sql = "DELETE FROM moderation_records WHERE kind = %s AND key = %s"
            await self._rows("moderation", sql, (kind, key))
            return
        await self._rows(
            "moderation",
            "INSERT INTO moderation_records (kind, key, value) VALUES (%s, %s, %s)"
            " ON CONFLICT (kind, key) DO UPDATE SET value = excluded.value",
            (kind, key, value),
        )

    async def record_get(self, kind: str, key: str) -> str | None:
        rows = await self._rows(
            "moderation",
            "SELECT value FROM moderation_records WHERE kind = %s AND key = %s",
            (kind, key),
        )
        return str(rows[0][0]) if rows else None

    async def records(self, kind: str) -> dict[str, str]:
        rows = await self._rows(
            "moderation", "SELECT key, value FROM moderation_records WHERE kind = %s", (kind,)
        )
        return {str(k): str(v) for k, v in rows}

    async def list_append(self, name: str, value: str, *, keep: int | None = None) -> None:
        async def work(connection: Connection) -> None:
            async with connection.transaction():
                await connection.execute(
                    "INSERT INTO moderation_lists (name, value) VALUES (%s, %s)", (name, value)
                )
                if keep is not None:
                    await connection.execute(
                        "DELETE FROM moderation_lists WHERE name = %s AND seq <= ("
                        " SELECT seq FROM moderation_lists WHERE name = %s"
                        " ORDER BY seq DESC OFFSET %s LIMIT 1)",
                        (name, name, keep),
                    )

        await self._run("moderation", work)

    async def list_read(self, name: str, *, limit: int) -> list[str]:
        if limit <= 0:
            return []
        rows = await self._rows(
            "moderation",
            "SELECT value FROM moderation_lists WHERE name = %s ORDER BY seq DESC LIMIT %s",
            (name, limit),
        )
        return [str(row[0]) for row in reversed(rows)]

    async def list_names(self, prefix: str) -> list[str]:
        rows = await self._rows(
            "moderation",
            "SELECT DISTINCT name FROM moderation_lists WHERE left(name, %s) = %s ORDER BY name",
            (len(prefix), prefix),
        )
        return [str(row[0]) for row in rows]

    async def list_drop_through(self, name: str, value: str) -> int:
        async def work(connection: Connection) -> int:
            cursor = await connection.execute(
                "DELETE FROM moderation_lists WHERE name = %s AND seq <= ("
                " SELECT min(seq) FROM moderation_lists WHERE name = %s AND value = %s)",
                (name, name, value),
            )
            return cursor.rowcount

        dropped: int = await self._run("moderation", work)
        return dropped
