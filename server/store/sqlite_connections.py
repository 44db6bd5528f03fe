"""The SQLite store's file and its two connections: one on a dedicated worker thread for
everything but the moves, one on the event loop's thread for the moves' group commits
(:mod:`server.store.sqlite_moves`); opening, closing, and the checkpoints that empty the log.

Every SQLite call but the moves (rooms, seats, matches, accounts, every read) runs on the one
dedicated worker thread, with the store's own connection. ``synchronous=NORMAL`` in WAL mode
keeps every committed action through a crash or kill of the process; only a power loss can drop
the last few.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TypeVar

from muggins.server.store.games import StoreConflict, StoreError
from muggins.server.store.sqlite_accounts import VERSION, migrate
from muggins.server.store.sqlite_file import census, check_known, create_private, upgrade_copy

T = TypeVar("T")

log = logging.getLogger("muggins.store")

QUIET = 5.0
"""Seconds without a write after which the log is emptied into the database file
(``wal_checkpoint(TRUNCATE)``), so that a plain copy of a quiet server's file holds every game."""

SCHEMA = """
CREATE TABLE IF NOT EXISTS rooms (
    code TEXT PRIMARY KEY,
    options TEXT NOT NULL,
    created REAL NOT NULL,
    seats TEXT NOT NULL,
    closed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS matches (
    room TEXT NOT NULL REFERENCES rooms(code),
    number INTEGER NOT NULL,
    seed BLOB NOT NULL,
    options TEXT NOT NULL,
    names TEXT NOT NULL,
    started REAL NOT NULL,
    finished REAL,
    result TEXT,
    winner INTEGER,
    PRIMARY KEY (room, number)
);
CREATE TABLE IF NOT EXISTS actions (
    room TEXT NOT NULL,
    number INTEGER NOT NULL,
    idx INTEGER NOT NULL,
    seat INTEGER NOT NULL,
    action TEXT NOT NULL,
    PRIMARY KEY (room, number, idx)
);
CREATE INDEX IF NOT EXISTS matches_finished ON matches(finished);
"""


class SqliteConnections:
    """The store's thread and connection, the moves' connection, and the quiet checkpoint."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="muggins-sqlite")
        self._db: sqlite3.Connection | None = None
        """The store thread's connection: everything but the moves."""
        self._moves_db: sqlite3.Connection | None = None
        """The moves' connection, used on the event loop's thread only."""
        self.quiet = QUIET
        self._written = 0.0
        """The loop's time of the last write; a quiet spell after it empties the log."""
        self._quiet_timer: asyncio.TimerHandle | None = None

    async def _run(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        self._wrote()
        return await self._read(fn)

    async def ping(self) -> float | None:
        """Answer once the store's thread has read from the file (readiness asks every second;
        it does not count as a write for the quiet checkpoint)."""
        await self._read(lambda db: db.execute("SELECT 1").fetchone())
        return None

    async def census(self) -> dict[str, int]:
        """Rooms open and matches waiting for their review (for ``/metrics``)."""
        return await self._read(census)

    async def _read(self, fn: Callable[[sqlite3.Connection], T]) -> T:
        """``fn`` on the store's thread, not counted as a write (see :meth:`_wrote`)."""

        def call() -> T:
            if self._db is None:
                raise StoreError("the store is not open")
            try:
                return fn(self._db)
            except sqlite3.Error as error:
                raise store_error(error) from error

        return await asyncio.get_running_loop().run_in_executor(self._executor, call)

    def _wrote(self) -> None:
        """Note a write (or a read: the cost is the same); arm the quiet checkpoint."""
        loop = asyncio.get_running_loop()
        self._written = loop.time()
        if self._quiet_timer is None:
            self._quiet_timer = loop.call_later(self.quiet, self._quiet_check)

    def _quiet_check(self) -> None:
        """Empty the log if nothing was written for ``quiet`` seconds; else look again then."""
        loop = asyncio.get_running_loop()
        wait = self._written + self.quiet - loop.time()
        if wait > 0:
            self._quiet_timer = loop.call_later(wait, self._quiet_check)
            return
        self._quiet_timer = None
        if self._db is not None:
            self._executor.submit(self._checkpoint, "TRUNCATE")

    def _checkpoint(self, mode: str = "PASSIVE") -> None:
        """On the store's thread: copy the log's committed pages into the database, without
        waiting for readers or holding up writers (``PASSIVE``); when quiet, all of them and
        the log emptied (``TRUNCATE``)."""
        try:
            if self._db is not None:
                self._db.execute(f"PRAGMA wal_checkpoint({mode})")
        except sqlite3.Error:
            log.exception("checkpoint of %s failed (the next one tries again)", self.path)

    async def open(self) -> None:
        def connect() -> None:
            create_private(self.path)
            db = _connect(self.path, check_same_thread=False)
            try:
                check_known(db, self.path)
                db.execute("PRAGMA journal_mode=WAL")
                copy = upgrade_copy(db, self.path)
                db.executescript(SCHEMA)
                start = migrate(db)
            except BaseException:
                db.close()
                raise
            if copy is not None:
                log.warning(
                    "database upgraded from %d to %d",
                    start,
                    VERSION,
                    extra={"file": str(self.path), "copy_before": str(copy)},
                )
            self._db = db

        try:
            await asyncio.get_running_loop().run_in_executor(self._executor, connect)
            # Opened here, on the loop's thread, once the file and its schema exist.
            moves = _connect(self.path, check_same_thread=True)
            moves.execute("PRAGMA wal_autocheckpoint=0")
            self._moves_db = moves
        except sqlite3.Error as error:
            raise StoreError(f"cannot open {self.path}: {error}") from error

    async def close(self) -> None:
        if self._quiet_timer is not None:
            self._quiet_timer.cancel()
            self._quiet_timer = None
        if self._moves_db is not None:
            self._moves_db.close()
            self._moves_db = None

        def disconnect() -> None:
            if self._db is not None:
                self._checkpoint("TRUNCATE")  # the file alone holds everything once stopped
                self._db.close()
                self._db = None

        await asyncio.get_running_loop().run_in_executor(self._executor, disconnect)
        self._executor.shutdown(wait=True)


def _connect(path: Path, *, check_same_thread: bool) -> sqlite3.Connection:
    """A connection to the store's file as both of the store's connections need it: in
    autocommit (transactions begun explicitly), each commit durable through a crash of the
    process (``synchronous=NORMAL`` in WAL mode), and the other connection's write lock waited
    for."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=check_same_thread)
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA busy_timeout=5000")
    return db


def store_error(error: sqlite3.Error) -> StoreError:
    """What a failed statement means to the store's callers: a broken constraint is a lost race
    (StoreConflict), anything else a failure."""
    if isinstance(error, sqlite3.IntegrityError):
        return StoreConflict(str(error))
    return StoreError(f"SQLite: {error}")
