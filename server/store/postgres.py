"""Finished matches in PostgreSQL: a cluster's archive (psycopg 3, async); the schema, with the
accounts' tables of :mod:`server.store.postgres_accounts`, and the connection both use.

A cluster keeps live play in Redis; a finished, settled match moves here (see
:mod:`server.cluster.archive`) and leaves Redis. Each match is written in one transaction, keyed
by its id (``ON CONFLICT DO NOTHING``), so copying it again after a crash between the copy and
the delete from Redis changes nothing.

The schema is plain SQL in :data:`MIGRATIONS`, with a Python step where SQL cannot say it (the
name keys' refold), applied in order, each in the transaction that records its number in
``schema_version``; an advisory lock makes the nodes that start together apply each once.
The archive connects on first use and again after a failure: a node starts, and its players'
moves are acknowledged, while PostgreSQL is down; the archive catches up when it is back. While
it is down, calls fail at once (see :meth:`PostgresLink._run`), so a player asking for something
that needs it is told so instead of waiting. A node
keeps a small pool of connections (``--postgres-pool``), so a slow call (a settlement) does not
hold up the sign-ins behind it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import psycopg
from psycopg.types.json import Jsonb
from psycopg_pool import AsyncConnectionPool

from muggins.server.store.games import MatchRecord, MoveTag, StoreError
from muggins.server.store.name_keys import fold_postgres
from muggins.shared.actions import ACTION, Action, GameOptions, Seat
from muggins.shared.handover import HandOver

Step = str | Callable[[psycopg.AsyncConnection[Any]], Awaitable[None]]
"""A migration: SQL, or a function run on the connection inside the migration's transaction."""

MIGRATIONS: tuple[Step, ...] = (
    """
    CREATE TABLE matches (
        id text PRIMARY KEY,
        room text NOT NULL,
        number integer NOT NULL,
        seed bytea NOT NULL,
        options jsonb NOT NULL,
        names jsonb NOT NULL,
        started double precision NOT NULL,
        finished double precision,
        result text,
        winner smallint,
        archived timestamptz NOT NULL DEFAULT now()
    );
    CREATE INDEX matches_by_finish ON matches (finished DESC);
    CREATE TABLE actions (
        match_id text NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        index integer NOT NULL,
        seat smallint NOT NULL,
        action jsonb NOT NULL,
        seq integer,
        key text,
        PRIMARY KEY (match_id, index)
    );
    """,
    """
    ALTER TABLE matches ADD COLUMN hand_overs jsonb NOT NULL DEFAULT '[]';
    """,
    # 3: accounts, sessions, settled matches, each account's history, the review queue
    # (server.store.postgres_accounts)
    """
    CREATE TABLE accounts (
        id text PRIMARY KEY,
        key text NOT NULL UNIQUE,
        name text NOT NULL,
        password_hash text NOT NULL,
        created double precision NOT NULL,
        rating double precision NOT NULL,
        deviation double precision NOT NULL,
        volatility double precision NOT NULL,
        rated_games integer NOT NULL,
        stats jsonb NOT NULL DEFAULT '{}',
        role text,
        bot boolean NOT NULL DEFAULT false
    );
    CREATE INDEX accounts_by_rating ON accounts (rating DESC) WHERE rated_games > 0;
    CREATE TABLE sessions (
        token_hash text PRIMARY KEY,
        account text NOT NULL,
        created double precision NOT NULL
    );
    CREATE INDEX sessions_by_account ON sessions (account);
    CREATE TABLE settled (
        match text PRIMARY KEY,
        settled timestamptz NOT NULL DEFAULT now()
    );
    CREATE TABLE account_history (
        account text NOT NULL,
        match text NOT NULL,
        finished double precision NOT NULL,
        entry jsonb NOT NULL,
        PRIMARY KEY (account, match)
    );
    CREATE INDEX account_history_by_finish ON account_history (account, finished DESC);
    CREATE TABLE review_pending (
        match text PRIMARY KEY,
        accounts jsonb NOT NULL,
        queued bigserial NOT NULL,
        until double precision NOT NULL DEFAULT 0
    );
    CREATE INDEX review_pending_by_queue ON review_pending (queued);
    """,
    # 4: moderation: records by kind and key, and lists (server.store.postgres_moderation)
    """
    CREATE TABLE moderation_records (
        kind text NOT NULL,
        key text NOT NULL,
        value text NOT NULL,
        PRIMARY KEY (kind, key)
    );
    CREATE TABLE moderation_lists (
        seq bigserial PRIMARY KEY,
        name text NOT NULL,
        value text NOT NULL
    );
    CREATE INDEX moderation_lists_by_name ON moderation_lists (name, seq);
    """,
    # 5: accounts' name keys folded as today (accents, ı, İ); see server.store.name_keys
    fold_postgres,
)
"""The schema, one migration per entry: never edit one that has shipped; add another."""

LOCK = 7_353_541
"""The advisory lock the migrations run under (any number, the same on every node)."""


POOL_SIZE = 4
"""How many connections a node keeps to PostgreSQL at most (``--postgres-pool``)."""

RETRY_AFTER = 1.0
"""Seconds that calls fail at once after one found PostgreSQL unreachable (a player's request
is refused then, instead of waiting for the pool's timeout), before one tries again."""

UNREACHABLE = (psycopg.OperationalError, OSError, TimeoutError)
"""What a call fails with when PostgreSQL is gone (a lost or refused connection, the pool's
timeout): not a refused statement."""


class PostgresLink:
    """A few connections to PostgreSQL (a psycopg_pool pool of at most ``pool_size``), each
    made when a call finds none free and made again after a failure, with the schema brought
    up to date on connecting; calls run side by side, one per connection."""

    def __init__(self, url: str, *, timeout: float = 5.0, pool_size: int = POOL_SIZE) -> None:
        if pool_size < 1:
            raise ValueError("the PostgreSQL pool needs at least one connection")
        self.url = url
        self.timeout = timeout
        self.pool_size = pool_size
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] | None = None
        self._opening = asyncio.Lock()
        self._unreachable = False
        """Whether the last call that ended found PostgreSQL unreachable."""
        self._retry_at = 0.0
        self._probing = False

    async def _open(self) -> AsyncConnectionPool[psycopg.AsyncConnection[Any]]:
        async with self._opening:
            if self._pool is None:
                # min_size 0: nothing is made before a call needs it (a node starts while
                # PostgreSQL is down); reconnect_timeout: a failed connecting gives up with
                # the call that asked for it, and the next call tries again.
                pool: AsyncConnectionPool[psycopg.AsyncConnection[Any]] = AsyncConnectionPool(
                    self.url,
                    min_size=0,
                    max_size=self.pool_size,
                    kwargs={"connect_timeout": max(1, int(self.timeout)), "autocommit": True},
                    configure=_configure,
                    timeout=self.timeout,
                    reconnect_timeout=self.timeout,
                    open=False,
                    name="muggins",
                )
                await pool.open()
                self._pool = pool
            return self._pool

    async def _run(self, what: str, work: Any) -> Any:
        """Run ``work(connection)`` on a connection of the pool; any failure is a StoreError.

        Once a call has found PostgreSQL unreachable, the calls after it fail at once, without
        waiting for the pool's connection, for :data:`RETRY_AFTER`; then one call at a time
        tries again (the others still fail at once) until one gets through."""
        loop = asyncio.get_running_loop()
        probe = False
        if self._unreachable:
            if self._probing or loop.time() < self._retry_at:
                raise StoreError(f"PostgreSQL ({what}): unreachable; trying again shortly")
            self._probing = probe = True
        try:
            result = await self._attempt(what, work)
        except StoreError as error:
            if isinstance(error.__cause__, UNREACHABLE):
                self._unreachable, self._retry_at = True, loop.time() + RETRY_AFTER
            raise
        finally:
            if probe:
                self._probing = False
        self._unreachable = False
        return result

    async def _attempt(self, what: str, work: Any) -> Any:
        """``work(connection)`` on a connection of the pool (on a failure, the connection is
        closed and the pool's idle ones checked, so the next call connects again if PostgreSQL
        went away)."""
        pool = await self._open()
        try:
            async with asyncio.timeout(self.timeout * 2), pool.connection() as connection:
                try:
                    return await work(connection)
                except (psycopg.Error, OSError, TimeoutError, asyncio.CancelledError):
                    await connection.close()  # the pool drops a closed connection
                    raise
        except (psycopg.Error, OSError, TimeoutError) as error:
            with contextlib.suppress(psycopg.Error, OSError, TimeoutError):
                async with asyncio.timeout(self.timeout):
                    await pool.check()
            raise StoreError(f"PostgreSQL ({what}): {error}") from error

    async def close(self) -> None:
        async with self._opening:
            if self._pool is not None:
                await self._pool.close()
                self._pool = None


async def _configure(connection: psycopg.AsyncConnection[Any]) -> None:
    await migrate(connection)


class PostgresArchive(PostgresLink):
    """Finished matches and their logs in PostgreSQL."""

    async def save_match(self, match: MatchRecord) -> bool:
        """Archive a finished match with its log; False if it was archived before."""

        async def work(connection: psycopg.AsyncConnection[Any]) -> bool:
            async with connection.transaction():
                cursor = await connection.execute(
                    "INSERT INTO matches (id, room, number, seed, options, names, started,"
                    " finished, result, winner, hand_overs)"
                    " VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
                    " ON CONFLICT (id) DO NOTHING",
                    (
                        match.id,
                        match.room,
                        match.number,
                        match.seed,
                        Jsonb(match.options.model_dump(mode="json")),
                        Jsonb(list(match.names)),
                        match.started,
                        match.finished,
                        match.result,
                        match.winner,
                        Jsonb([h.model_dump(mode="json") for h in match.hand_overs]),
                    ),
                )
                if cursor.rowcount == 0:
                    return False
                tags: Sequence[MoveTag] = match.tags or [(None, None)] * len(match.actions)
                async with connection.cursor() as rows:
                    await rows.executemany(
                        "INSERT INTO actions (match_id, index, seat, action, seq, key)"
                        " VALUES (%s, %s, %s, %s, %s, %s)",
                        [
                            (match.id, i, seat, Jsonb(action.model_dump(mode="json")), *tag)
                            for i, ((seat, action), tag) in enumerate(
                                zip(match.actions, tags, strict=True)
                            )
                        ],
                    )
                return True

        return bool(await self._run("archive", work))

    async def load_match(self, code: str, number: int) -> MatchRecord | None:
        """An archived match with its actions, or None."""

        async def work(connection: psycopg.AsyncConnection[Any]) -> MatchRecord | None:
            row = await (
                await connection.execute(
                    f"SELECT {COLUMNS} FROM matches WHERE room = %s AND number = %s",
                    (code, number),
                )
            ).fetchone()
            if row is None:
                return None
            actions = await (
                await connection.execute(
                    "SELECT seat, action, seq, key FROM actions WHERE match_id = %s ORDER BY index",
                    (row[0],),
                )
            ).fetchall()
            return _record(row, actions)

        found: MatchRecord | None = await self._run("match", work)
        return found

    async def finished_matches(self, *, limit: int) -> list[MatchRecord]:
        """The latest ``limit`` archived matches, newest first, without their actions."""

        async def work(connection: psycopg.AsyncConnection[Any]) -> list[MatchRecord]:
            rows = await (
                await connection.execute(
                    f"SELECT {COLUMNS} FROM matches ORDER BY finished DESC NULLS LAST LIMIT %s",
                    (limit,),
                )
            ).fetchall()
            return [_record(row, []) for row in rows]

        found: list[MatchRecord] = await self._run("history", work)
        return found

    async def count(self) -> int:
        """How many matches are archived."""

        async def work(connection: psycopg.AsyncConnection[Any]) -> int:
            row = await (await connection.execute("SELECT count(*) FROM matches")).fetchone()
            return int(row[0]) if row else 0

        found: int = await self._run("count", work)
        return found


COLUMNS = "id, room, number, seed, options, names, started, finished, result, winner, hand_overs"


def _record(row: Sequence[Any], actions: Sequence[Sequence[Any]]) -> MatchRecord:
    _, room, number, seed, options, names, started, finished, result, winner, hand_overs = row
    moves: list[tuple[Seat, Action]] = [
        (int(seat), ACTION.validate_python(action)) for seat, action, _, _ in actions
    ]
    return MatchRecord(
        room=room,
        number=int(number),
        seed=bytes(seed),
        options=GameOptions.model_validate(options),
        names=(names[0], names[1]),
        started=float(started),
        actions=tuple(moves),
        tags=tuple((seq, key) for _, _, seq, key in actions),
        finished=float(finished) if finished is not None else None,
        result=result,
        winner=int(winner) if winner is not None else None,
        hand_overs=tuple(HandOver.model_validate(h) for h in hand_overs),
    )


async def migrate(connection: psycopg.AsyncConnection[Any]) -> int:
    """Apply the migrations not applied yet; returns the schema's version."""
    async with connection.transaction():
        await connection.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK,))
        await connection.execute(
            "CREATE TABLE IF NOT EXISTS schema_version (version integer PRIMARY KEY,"
            " applied timestamptz NOT NULL DEFAULT now())"
        )
        row = await (
            await connection.execute("SELECT coalesce(max(version), 0) FROM schema_version")
        ).fetchone()
        version = int(row[0]) if row else 0
        for number, step in enumerate(MIGRATIONS[version:], start=version + 1):
            if callable(step):
                await step(connection)
            else:
                await connection.execute(step.encode())
            await connection.execute("INSERT INTO schema_version (version) VALUES (%s)", (number,))
    return len(MIGRATIONS)
