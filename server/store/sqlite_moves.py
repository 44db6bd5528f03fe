"""The SQLite store's moves: :meth:`SqliteMoves.append_action`, the one write per action, and
:meth:`SqliteMoves.confirm_action`, which reads whether one whose answer was lost is stored.

Every move is committed before the coroutine returns: on the event loop's own thread, through
a connection of their own, in groups: the moves of every room that arrive in
one turn of the loop share the next transaction and its one commit, made at the start of the
next turn. In WAL mode with ``synchronous=NORMAL`` a commit appends to the log file and does not
wait for the disk, so this costs the loop tens of microseconds, against a hop to a thread and
back (two thread switches and a wake-up of the loop) for every group. Each move keeps its own
answer: a conflict refuses that move alone. The moves' connection never checkpoints; the store's
thread does, every few hundred groups, so the loop never waits on the disk's flush. A group's
transaction takes the write lock first (``BEGIN IMMEDIATE``): while the store's thread holds it
(its writes are short: one statement, or an account change of a few) the loop waits for it.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import cast

from muggins.server.store.games import StoreConflict, StoreError
from muggins.server.store.sqlite_connections import SqliteConnections, store_error
from muggins.shared.actions import ACTION, Action, Seat

CHECKPOINT_EVERY = 256
"""Group commits of moves between two checkpoints of the log into the database (on the store's
thread; the moves' own connection never checkpoints, so the event loop never waits on a flush)."""

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


class SqliteMoves(SqliteConnections):
    """Moves committed in groups on the event loop's thread, each with its own answer."""

    def __init__(self, path: str | Path) -> None:
        super().__init__(path)
        self._moves: list[tuple[Callable[[sqlite3.Connection], None], asyncio.Future[None]]] = []
        """Moves waiting for the next group commit (at the loop's next turn)."""
        self._groups = 0
        """Group commits since the last checkpoint was asked for."""

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
                    outcomes.append(store_error(error))
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
