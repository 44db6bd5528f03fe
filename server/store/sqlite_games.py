"""A :class:`~server.store.games.Store` in one SQLite file (WAL), for a single server node.

Every write is committed before the coroutine returns. The moves
(:meth:`SqliteStore.append_action`, the one write per action) are committed on the event loop's
own thread, through a connection of their own, in groups: the moves of every room that arrive in
one turn of the loop share the next transaction and its one commit, made at the start of the
next turn. In WAL mode with ``synchronous=NORMAL`` a commit appends to the log file and does not
wait for the disk, so this costs the loop tens of microseconds, against a hop to a thread and
back (two thread switches and a wake-up of the loop) for every group. Each move keeps its own
answer: a conflict refuses that move alone. The moves' connection never checkpoints; the store's
thread does, every few hundred groups, so the loop never waits on the disk's flush. A group's
transaction takes the write lock first (``BEGIN IMMEDIATE``): while the store's thread holds it
(its writes are short: one statement, or an account change of a few) the loop waits for it.

All the other SQLite calls (rooms, seats, matches, accounts, every read) run on one dedicated
worker thread, with the store's other connection. ``synchronous=NORMAL`` in WAL mode keeps every
committed action through a crash or kill of the process; only a power loss can drop the last
few.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any, TypeVar, cast

from muggins.server.store.games import (
    MatchRecord,
    MatchResult,
    MoveTag,
    RoomRecord,
    RoomSnapshot,
    SeatKind,
    SeatRecord,
    StoreConflict,
    StoreError,
)
from muggins.server.store.sqlite_accounts import VERSION, SqliteAccounts, migrate
from muggins.server.store.sqlite_file import census, check_known, create_private, upgrade_copy
from muggins.server.store.sqlite_moderation import SqliteModeration
from muggins.shared.actions import ACTION, Action, GameOptions, Seat
from muggins.shared.handover import HandOver
from muggins.shared.protocol import RoomOptions

T = TypeVar("T")

log = logging.getLogger("muggins.store")

CHECKPOINT_EVERY = 256
"""Group commits of moves between two checkpoints of the log into the database (on the store's
thread; the moves' own connection never checkpoints, so the event loop never waits on a flush)."""

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


APPEND_CHECKS = """
SELECT EXISTS (SELECT 1 FROM matches WHERE room = :room AND number = :number),
    (SELECT COUNT(*) FROM actions WHERE room = :room AND number = :number),
    EXISTS (SELECT 1 FROM actions WHERE room = :room AND number = :number AND idx = :idx
        AND seat = :seat AND action = :action AND seq IS :seq AND key = :key)
"""
"""An append's three checks in one statement: the match is started; how many actions its log
holds; whether this very move (with its key: a retry) is stored already."""

APPEND = """
INSERT INTO actions (room, number, idx, seat, action, seq, key)
SELECT :room, :number, :idx, :seat, :action, :seq, :key
WHERE EXISTS (SELECT 1 FROM matches WHERE room = :room AND number = :number)
    AND (:idx = 0 OR EXISTS (
        SELECT 1 FROM actions WHERE room = :room AND number = :number AND idx = :idx - 1))
"""
"""An append in one statement, for the common case: stored only if the match is started and the
move goes right after the log's last (the log is never cut, so it then holds exactly ``idx``
actions; the primary key refuses a second move at one index). Each test is a seek in a primary
key, where counting the log (:data:`APPEND_CHECKS`) reads every action of the match so far.
When nothing is stored, :data:`APPEND_CHECKS` says why."""


class SqliteStore(SqliteAccounts, SqliteModeration):
    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self._executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="muggins-sqlite")
        self._db: sqlite3.Connection | None = None
        """The store thread's connection: everything but the moves."""
        self._moves_db: sqlite3.Connection | None = None
        """The moves' connection, used on the event loop's thread only."""
        self._moves: list[tuple[Callable[[sqlite3.Connection], None], asyncio.Future[None]]] = []
        """Moves waiting for the next group commit (at the loop's next turn)."""
        self._groups = 0
        """Group commits since the last checkpoint was asked for."""
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
                raise _store_error(error) from error

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

    async def _move(self, write: Callable[[sqlite3.Connection], None]) -> None:
        """Run ``write`` in the next group commit; return once that is committed.

        ``write`` must change nothing before it raises (its checks come first and its one
        changing statement last): a failed statement undoes only itself, so the group's other
        moves are committed all the same.
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        self._moves.append((write, future))
        if len(self._moves) == 1:
            loop.call_soon(self._commit_group)
        await future

    def _commit_group(self) -> None:
        """On the loop's thread: every move queued in the last turn, in one transaction."""
        group, self._moves = self._moves, []
        outcomes: list[BaseException | None] = []
        db = self._moves_db
        try:
            if db is None:
                raise StoreError("the store is not open")
            db.execute("BEGIN IMMEDIATE")  # the write lock first: a read cannot go stale
            for write, _ in group:
                try:
                    write(db)
                    outcomes.append(None)
                except sqlite3.IntegrityError as error:
                    outcomes.append(_store_error(error))
                except StoreError as error:  # the write's own check: nothing changed
                    outcomes.append(error)
            db.execute("COMMIT")
        except Exception as error:  # every move of the group hears of it
            # Anything else (a full disk, an I/O error: SQLite may have rolled the transaction
            # back already) fails the whole group as "may or may not be stored": each move's
            # caller asks confirm_action, which reads what is stored.
            if db is not None and db.in_transaction:
                with contextlib.suppress(sqlite3.Error):
                    db.execute("ROLLBACK")
            said = str(error) if isinstance(error, StoreError) else f"SQLite: {error}"
            outcomes = [StoreError(said) for _ in group]  # one each: each gets its traceback
        _settle(group, outcomes)
        self._wrote()
        self._groups += 1
        if self._groups >= CHECKPOINT_EVERY:
            self._groups = 0
            self._executor.submit(self._checkpoint)

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

    async def create_room(self, room: RoomRecord) -> None:
        await self._run(
            lambda db: db.execute(
                "INSERT INTO rooms (code, options, created, seats) VALUES (?, ?, ?, ?)",
                (room.code, room.options.model_dump_json(), room.created, seats_json(room.seats)),
            )
        )

    async def save_seats(self, code: str, seats: tuple[SeatRecord, SeatRecord]) -> None:
        await self._run(
            lambda db: db.execute(
                "UPDATE rooms SET seats = ? WHERE code = ?", (seats_json(seats), code)
            )
        )

    async def start_match(self, match: MatchRecord) -> None:
        await self._run(
            lambda db: db.execute(
                "INSERT INTO matches (room, number, seed, options, names, started) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    match.room,
                    match.number,
                    match.seed,
                    match.options.model_dump_json(),
                    json.dumps(match.names),
                    match.started,
                ),
            )
        )

    async def append_action(
        self,
        code: str,
        number: int,
        index: int,
        seat: Seat,
        action: Action,
        *,
        seq: int | None = None,
        key: str | None = None,
    ) -> None:
        text = ACTION.dump_json(action).decode()

        row = {
            "room": code,
            "number": number,
            "idx": index,
            "seat": seat,
            "action": text,
            "seq": seq,
            "key": key,
        }

        def append(db: sqlite3.Connection) -> None:
            try:
                if db.execute(APPEND, row).rowcount == 1:
                    return
            except sqlite3.IntegrityError:
                pass  # a move at this index already: the same one (a retry), or a conflict
            started, count, same = db.execute(APPEND_CHECKS, row).fetchone()
            if not started:
                raise StoreError(f"no match {code}-{number}")
            if same:
                return  # the same move again (its key too): stored once
            if count != index:
                raise StoreConflict(
                    f"action {index} of {code}-{number}: the log has {count}", length=count
                )
            # Not reached while logs are only appended to (then APPEND stored the move); kept
            # so that the checks alone decide whatever the file holds.
            db.execute(
                "INSERT INTO actions (room, number, idx, seat, action, seq, key)"
                " VALUES (:room, :number, :idx, :seat, :action, :seq, :key)",
                row,
            )

        await self._move(append)

    async def confirm_action(self, code: str, number: int, index: int, key: str) -> bool:
        # A move's group commit has ended (committed or rolled back) before its caller hears of
        # a failure, and nothing of it is left to run, so what is stored now is final.
        return await self._run(lambda db: _stored_key(db, code, number, index) == key)

    async def finish_match(
        self, code: str, number: int, *, finished: float, result: MatchResult, winner: Seat | None
    ) -> None:
        await self._run(
            lambda db: db.execute(
                "UPDATE matches SET finished = ?, result = ?, winner = ? "
                "WHERE room = ? AND number = ?",
                (finished, result, winner, code, number),
            )
        )

    async def record_hand_over(self, code: str, number: int, hand_over: HandOver) -> None:
        h = hand_over

        def keep(db: sqlite3.Connection) -> bool:
            found = db.execute(
                "SELECT 1 FROM matches WHERE room = ? AND number = ?", (code, number)
            ).fetchone()
            if found is not None:
                db.execute(
                    "INSERT OR IGNORE INTO handovers (room, number, seat, at, before, after) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (code, number, h.seat, h.at, h.before, h.after),
                )
            return found is not None

        if not await self._run(keep):
            raise StoreError(f"no match {code}-{number}")

    async def close_room(self, code: str) -> None:
        await self._run(
            lambda db: db.execute("UPDATE rooms SET closed = 1 WHERE code = ?", (code,))
        )

    async def open_rooms(self) -> list[RoomSnapshot]:
        def load(db: sqlite3.Connection) -> list[RoomSnapshot]:
            snapshots = []
            rows = db.execute("SELECT code, options, created, seats FROM rooms WHERE closed = 0")
            for code, options, created, seats in rows.fetchall():
                room = RoomRecord(
                    code=code,
                    options=RoomOptions.model_validate_json(options),
                    created=created,
                    seats=seats_from_json(seats),
                )
                last = db.execute(
                    "SELECT MAX(number) FROM matches WHERE room = ?", (code,)
                ).fetchone()[0]
                match = _load_match(db, code, last) if last is not None else None
                (earlier,) = db.execute(
                    "SELECT COUNT(*) FROM actions WHERE room = ? AND number < ?",
                    (code, last or 0),
                ).fetchone()
                snapshots.append(RoomSnapshot(room=room, match=match, previous_actions=earlier))
            return snapshots

        return await self._run(load)

    async def finished_matches(self, *, limit: int = 50) -> list[MatchRecord]:
        def load(db: sqlite3.Connection) -> list[MatchRecord]:
            rows = db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE finished IS NOT NULL "
                "ORDER BY finished DESC LIMIT ?",
                (limit,),
            ).fetchall()
            return [
                replace(m, hand_overs=_hand_overs(db, m.room, m.number))
                for m in map(_match_row, rows)
            ]

        return await self._run(load)

    async def load_match(self, code: str, number: int) -> MatchRecord | None:
        return await self._run(lambda db: _load_match(db, code, number))


MATCH_COLUMNS = "room, number, seed, options, names, started, finished, result, winner"


def _connect(path: Path, *, check_same_thread: bool) -> sqlite3.Connection:
    """A connection to the store's file as both of the store's connections need it: in
    autocommit (transactions begun explicitly), each commit durable through a crash of the
    process (``synchronous=NORMAL`` in WAL mode), and the other connection's write lock waited
    for."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=check_same_thread)
    db.execute("PRAGMA synchronous=NORMAL")
    db.execute("PRAGMA busy_timeout=5000")
    return db


def _store_error(error: sqlite3.Error) -> StoreError:
    """What a failed statement means to the store's callers: a broken constraint is a lost race
    (StoreConflict), anything else a failure."""
    if isinstance(error, sqlite3.IntegrityError):
        return StoreConflict(str(error))
    return StoreError(f"SQLite: {error}")


def _settle(
    group: list[tuple[Callable[[sqlite3.Connection], None], asyncio.Future[None]]],
    outcomes: list[BaseException | None],
) -> None:
    """On the event loop: each move of a group commit hears its own outcome."""
    for (_, future), outcome in zip(group, outcomes, strict=True):
        if future.done():  # its caller was cancelled meanwhile
            continue
        if outcome is None:
            future.set_result(None)
        else:
            future.set_exception(outcome)


def _stored_key(db: sqlite3.Connection, code: str, number: int, index: int) -> str | None:
    row = db.execute(
        "SELECT key FROM actions WHERE room = ? AND number = ? AND idx = ?", (code, number, index)
    ).fetchone()
    return None if row is None else cast(str | None, row[0])


def _match(
    row: Any, actions: tuple[tuple[Seat, Action], ...], tags: tuple[MoveTag, ...] = ()
) -> MatchRecord:
    room, number, seed, options, names, started, finished, result, winner = row
    first, second = json.loads(names)
    return MatchRecord(
        room=room,
        number=number,
        seed=bytes(seed),
        options=GameOptions.model_validate_json(options),
        names=(first, second),
        started=started,
        actions=actions,
        tags=tags,
        finished=finished,
        result=result,
        winner=winner,
    )


def _load_match(db: sqlite3.Connection, code: str, number: int) -> MatchRecord | None:
    row = db.execute(
        f"SELECT {MATCH_COLUMNS} FROM matches WHERE room = ? AND number = ?", (code, number)
    ).fetchone()
    if row is None:
        return None
    rows = db.execute(
        "SELECT seat, action, seq, key FROM actions WHERE room = ? AND number = ? ORDER BY idx",
        (code, number),
    ).fetchall()
    actions = tuple((seat, ACTION.validate_json(text)) for seat, text, _, _ in rows)
    match = _match(row, actions, tuple((seq, key) for _, _, seq, key in rows))
    return replace(match, hand_overs=_hand_overs(db, code, number))


def _match_row(row: Any) -> MatchRecord:
    return _match(row, ())


def _hand_overs(db: sqlite3.Connection, code: str, number: int) -> tuple[HandOver, ...]:
    rows = db.execute(
        "SELECT seat, at, before, after FROM handovers WHERE room = ? AND number = ? "
        "ORDER BY at, seat",
        (code, number),
    ).fetchall()
    return tuple(HandOver(seat=s, at=at, before=b, after=a) for s, at, b, a in rows)


def seats_json(seats: tuple[SeatRecord, SeatRecord]) -> str:
    return json.dumps(
        [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "player": s.player,
                "token_hash": s.token_hash,
                "level": s.level,
                "account": s.account,
            }
            for s in seats
        ]
    )


def seats_from_json(text: str) -> tuple[SeatRecord, SeatRecord]:
    first, second = (
        SeatRecord(
            seat=int(s["seat"]),
            kind=cast(SeatKind, s["kind"]),
            name=s["name"],
            player=s["player"],
            token_hash=s["token_hash"],
            level=s["level"],
            account=s.get("account"),
        )
        for s in json.loads(text)
    )
    return first, second
