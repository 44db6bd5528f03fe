"""The SQLite store's group commit: the moves of many rooms that arrive together share one
transaction, and each still gets its own answer (the store's other behaviour is in
test_store_contract.py, shared with the memory and Redis stores)."""

from __future__ import annotations

import asyncio
import secrets
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from muggins.server.store.games import (
    MatchRecord,
    RoomRecord,
    SeatRecord,
    StoreConflict,
    StoreError,
)
from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.actions import Discard, GameOptions
from muggins.shared.cards import parse_card
from muggins.shared.protocol import RoomOptions

ROOMS = 40


@pytest.fixture
async def store(tmp_path: Path) -> AsyncIterator[SqliteStore]:
    made = SqliteStore(tmp_path / "muggins.db")
    await made.open()
    try:
        yield made
    finally:
        await made.close()


async def rooms(store: SqliteStore, n: int) -> list[str]:
    codes = [f"R{i:05d}" for i in range(n)]
    seats = (SeatRecord(0, "human", "Alice", "p1"), SeatRecord(1, "human", "Bob", "p2"))
    for code in codes:
        await store.create_room(
            RoomRecord(code=code, options=RoomOptions(), created=1.0, seats=seats)
        )
        await store.start_match(
            MatchRecord(
                room=code,
                number=1,
                seed=secrets.token_bytes(32),
                options=GameOptions(target=61),
                names=("Alice", "Bob"),
                started=1.0,
            )
        )
    return codes


def statements(store: SqliteStore) -> list[str]:
    """Every statement the moves' connection runs from now on."""
    said: list[str] = []
    assert store._moves_db is not None
    store._moves_db.set_trace_callback(said.append)
    return said


DISCARD = Discard(cards=(parse_card("5H"), parse_card("JD")))


async def test_moves_made_together_share_commits_and_keep_their_own_answers(
    store: SqliteStore,
) -> None:
    """40 rooms' moves at once, among them two at a taken index and one for a match that was
    never started: those three are refused alone, the other 40 are stored, in far fewer
    transactions than moves."""
    codes = await rooms(store, ROOMS)
    said = statements(store)
    writes = [store.append_action(code, 1, 0, 0, DISCARD, seq=1, key=f"{code}:1") for code in codes]
    writes.append(store.append_action(codes[0], 1, 0, 1, DISCARD, seq=1, key="other"))
    writes.append(store.append_action(codes[1], 1, 5, 1, DISCARD, seq=1, key="far"))
    writes.append(store.append_action("NOROOM", 1, 0, 0, DISCARD, seq=1, key="none"))
    answers = await asyncio.gather(*writes, return_exceptions=True)
    assert answers[:ROOMS] == [None] * ROOMS
    taken, far, unknown = answers[ROOMS:]
    assert isinstance(taken, StoreConflict) and isinstance(far, StoreConflict)
    assert far.length == 1
    assert isinstance(unknown, StoreError) and not isinstance(unknown, StoreConflict)
    commits = sum(1 for s in said if s == "COMMIT")
    assert 1 <= commits <= ROOMS // 4, said
    for code in codes:
        loaded = await store.load_match(code, 1)
        assert loaded is not None and loaded.actions == ((0, DISCARD),)
        assert await store.confirm_action(code, 1, 0, f"{code}:1")


async def test_a_group_that_fails_is_rolled_back_and_every_move_in_it_hears_so(
    store: SqliteStore,
) -> None:
    """A statement failing for another reason than a conflict (here a write to a table that is
    not there, as a full disk or an I/O error would) fails its whole group: nothing of the group
    is stored, each move is told StoreError (may or may not be stored: its caller confirms,
    and confirm_action says no), and the next group commits as usual."""
    [code, other] = await rooms(store, 2)

    def broken(db: sqlite3.Connection) -> None:
        db.execute("INSERT INTO nowhere VALUES (1)")

    answers = await asyncio.gather(
        store.append_action(code, 1, 0, 0, DISCARD, seq=1, key="a"),
        store._move(broken),
        store.append_action(other, 1, 0, 0, DISCARD, seq=1, key="b"),
        return_exceptions=True,
    )
    assert [type(a) for a in answers] == [StoreError] * 3, answers
    assert "nowhere" in str(answers[1])
    assert not await store.confirm_action(code, 1, 0, "a")
    assert not await store.confirm_action(other, 1, 0, "b")
    await store.append_action(code, 1, 0, 0, DISCARD, seq=1, key="a")
    assert await store.confirm_action(code, 1, 0, "a")


async def test_the_store_thread_checkpoints_what_the_moves_connection_commits(
    store: SqliteStore, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The moves' connection (on the event loop) never checkpoints by itself: after every
    CHECKPOINT_EVERY group commits the store's thread copies the log into the database, so the
    log does not grow without bound and the loop never waits for the disk's flush."""
    monkeypatch.setattr("muggins.server.store.sqlite_moves.CHECKPOINT_EVERY", 4)
    assert store._moves_db is not None
    assert store._moves_db.execute("PRAGMA wal_autocheckpoint").fetchone() == (0,)
    [code] = await rooms(store, 1)
    assert store._db is not None
    checkpoints: list[str] = []
    store._db.set_trace_callback(lambda s: checkpoints.append(s) if "checkpoint" in s else None)
    for index in range(9):  # one group each: nine commits, two checkpoints
        await store.append_action(code, 1, index, index % 2, DISCARD, seq=index + 1, key=str(index))
    await store._run(lambda db: None)  # the thread has run what was submitted before
    assert checkpoints == ["PRAGMA wal_checkpoint(PASSIVE)"] * 2
    loaded = await store.load_match(code, 1)
    assert loaded is not None and len(loaded.actions) == 9


async def test_moves_and_the_store_threads_writes_at_once_all_succeed(store: SqliteStore) -> None:
    """The two connections write the one file: moves on the loop's, seats and matches on the
    thread's. Neither may fail the other's write (SQLite's busy lock is waited for, and a move's
    transaction takes the write lock before it reads)."""
    codes = await rooms(store, ROOMS)
    seats = (SeatRecord(0, "human", "Alice", "p1"), SeatRecord(1, "human", "Bob", "p2"))
    for index in range(6):
        writes = [
            store.append_action(code, 1, index, index % 2, DISCARD, seq=index, key=f"{index}")
            for code in codes
        ]
        writes += [store.save_seats(code, seats) for code in codes]
        answers = await asyncio.gather(*writes, return_exceptions=True)
        assert answers == [None] * len(writes), [a for a in answers if a is not None][:3]
    for code in codes:
        loaded = await store.load_match(code, 1)
        assert loaded is not None and len(loaded.actions) == 6
