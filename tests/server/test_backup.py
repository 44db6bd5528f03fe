"""Backups of the SQLite file: ``muggins backup`` while games are played, ``muggins restore``
once the server is stopped, the log emptied into the file when quiet, and the file private."""

from __future__ import annotations

import asyncio
import random
import shutil
import sqlite3
import stat
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

from conftest import TEST_CONFIG
from wire_client import WireClient, play_randomly

from muggins.server.app import running_server
from muggins.server.store.games import RoomRecord, SeatRecord
from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.protocol import RoomOptions


def room(code: str) -> RoomRecord:
    return RoomRecord(code, RoomOptions(), 1.0, (SeatRecord(0), SeatRecord(1)))


def muggins(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "muggins.client.cli", *args],
        capture_output=True, text=True, check=False,
    )  # fmt: skip


def finished(path: Path) -> set[tuple[str, int]]:
    db = sqlite3.connect(path)
    try:
        rows = db.execute("SELECT room, number FROM matches WHERE finished IS NOT NULL")
        return {(room, number) for room, number in rows}
    finally:
        db.close()


def started(path: Path) -> set[tuple[str, int]]:
    db = sqlite3.connect(path)
    try:
        return {(room, number) for room, number in db.execute("SELECT room, number FROM matches")}
    finally:
        db.close()


async def empty_database(path: Path) -> Path:
    """A Muggins database at ``path`` with nothing in it yet."""
    store = SqliteStore(path)
    await store.open()
    await store.close()
    return path


async def play_matches(url: str, stop: asyncio.Event, done: list[set[tuple[str, int]]]) -> None:
    """Ann and Bob (registered) play matches to 61 until ``stop`` is set."""
    ann = await WireClient.open(url, name="Ann")
    assert (await ann.request(type="register", name="Ann", password="long enough"))[
        "type"
    ] != "error"
    bob = await WireClient.open(url, name="Bob")
    assert (await bob.request(type="register", name="Bob", password="long enough"))[
        "type"
    ] != "error"
    n = 0
    while not stop.is_set():
        room = await ann.request(type="create_room", options={"game": {"target": 61}})
        await bob.request(type="join_room", code=room["code"])
        rng = random.Random(n)
        # A match can end while a move is on its way (a random resign), and when Ann leaves
        # for the next room, Bob is told the old room's end again: only this room's states count.
        code = room["code"]
        await asyncio.gather(play_randomly(ann, rng, code=code), play_randomly(bob, rng, code=code))
        n += 1
        done.append({(room["code"], 1)})
    await ann.close()
    await bob.close()


async def test_a_backup_taken_while_games_are_played_restores_every_match_and_account(
    tmp_path: Path,
) -> None:
    """Serve, play, back up mid-play, stop, restore into a new place, serve: all is there."""
    db, copy = tmp_path / "live" / "muggins.db", tmp_path / "backup.db"
    config = replace(TEST_CONFIG, memory=False, db=db)
    stop, done = asyncio.Event(), list[set[tuple[str, int]]]()
    async with running_server(config) as server:
        playing = asyncio.create_task(play_matches(server.url, stop, done))
        while len(done) < 2:
            await asyncio.sleep(0.01)
        before = set().union(*done)
        made = await asyncio.to_thread(muggins, "backup", str(copy), "--db", str(db))
        after = set().union(*done)
        refused = await asyncio.to_thread(muggins, "restore", str(copy), "--db", str(db))
        stop.set()
        await playing
    assert made.returncode == 0, made.stdout + made.stderr
    assert "Backed up" in made.stdout and "2 accounts" in made.stdout, made.stdout
    assert refused.returncode == 1 and "in use" in refused.stdout, refused.stdout
    kept = finished(copy)
    in_play = started(copy) - kept
    assert before <= kept <= after, (before, kept, after)
    db.unlink()  # the disk is lost
    restored = await asyncio.to_thread(muggins, "restore", str(copy), "--db", str(db))
    assert restored.returncode == 0, restored.stdout
    assert f"{len(kept)} finished matches, 2 accounts" in restored.stdout, restored.stdout
    assert len(kept) >= 2  # (so "matches": one match would be "1 finished match")
    assert stat.S_IMODE(db.stat().st_mode) == 0o600
    async with running_server(config) as server:
        ann = await WireClient.open(server.url, name="Ann")
        signed = await ann.request(type="sign_in", name="Ann", password="long enough")
        assert signed["type"] != "error", signed
        bob = await WireClient.open(server.url, name="Bob")
        assert (await bob.request(type="sign_in", name="Bob", password="long enough"))[
            "type"
        ] != "error"
        served = {(m.room, m.number) for m in await server.store.finished_matches(limit=100)}
        # A match whose last move was stored but not yet its end is ended on restart.
        assert kept <= served <= kept | in_play, (served, kept, in_play)
    check = sqlite3.connect(db)
    assert check.execute("PRAGMA integrity_check").fetchone() == ("ok",)
    check.close()


async def test_a_restore_keeps_the_file_it_replaces(tmp_path: Path) -> None:
    """Restoring over an existing file keeps that file beside it, whole."""
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    for path, code in ((one, "ONEAAA"), (two, "TWOAAA")):
        store = SqliteStore(path)
        await store.open()
        await store.create_room(room(code))
        await store.close()
    result = await asyncio.to_thread(muggins, "restore", str(one), "--db", str(two))
    assert result.returncode == 0, result.stdout
    kept = tmp_path / "two.db.before-restore"
    for path, code in ((two, "ONEAAA"), (kept, "TWOAAA")):
        db = sqlite3.connect(path)
        assert db.execute("SELECT code FROM rooms").fetchall() == [(code,)]
        db.close()


async def test_a_damaged_backup_is_not_restored(tmp_path: Path) -> None:
    """A file that is not a sound Muggins database is refused, and the target left alone."""
    bad, target = tmp_path / "bad.db", tmp_path / "muggins.db"
    bad.write_bytes(b"not a database at all" * 100)
    result = await asyncio.to_thread(muggins, "restore", str(bad), "--db", str(target))
    assert result.returncode == 1 and "muggins restore:" in result.stdout
    assert not target.exists()


async def test_a_quiet_server_s_file_alone_holds_its_games(tmp_path: Path) -> None:
    """After a quiet spell the log is emptied into the file: a plain copy of it has every room."""
    path = tmp_path / "muggins.db"
    store = SqliteStore(path)
    store.quiet = 0.05
    await store.open()
    try:
        await store.create_room(room("QUIETA"))
        wal = path.with_name(path.name + "-wal")
        async with asyncio.timeout(30):  # a guard: the log is emptied after 0.05 s quiet
            while not wal.exists() or wal.stat().st_size:
                await asyncio.sleep(0.01)
        copy = tmp_path / "copy" / "muggins.db"
        copy.parent.mkdir()
        shutil.copy(path, copy)  # the file alone: no -wal beside it
    finally:
        await store.close()
    db = sqlite3.connect(copy)
    assert db.execute("SELECT code FROM rooms").fetchall() == [("QUIETA",)]
    db.close()


async def test_a_stopped_server_s_file_alone_holds_its_games(tmp_path: Path) -> None:
    """On close the log is emptied into the file (a reader kept open cannot leave it behind)."""
    path = tmp_path / "muggins.db"
    reader = sqlite3.connect(path)  # another process's reader would keep the log on close
    store = SqliteStore(path)
    await store.open()
    await store.create_room(room("STOPPD"))
    reader.execute("SELECT * FROM rooms").fetchall()
    await store.close()
    copy = tmp_path / "copy.db"
    shutil.copy(path, copy)
    reader.close()
    db = sqlite3.connect(copy)
    assert db.execute("SELECT code FROM rooms").fetchall() == [("STOPPD",)]
    db.close()


async def test_the_database_and_its_folder_are_private(tmp_path: Path) -> None:
    """A new file is 0600 in a new 0700 folder; an old world-readable file is made private."""
    path = tmp_path / "data" / "muggins" / "muggins.db"
    store = SqliteStore(path)
    await store.open()
    await store.create_room(room("SECRET"))
    for name in ("muggins.db", "muggins.db-wal"):
        assert stat.S_IMODE((path.parent / name).stat().st_mode) == 0o600, name
    await store.close()
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    path.chmod(0o644)
    store = SqliteStore(path)
    await store.open()
    await store.close()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600


async def test_a_backup_to_a_missing_folder_or_a_folder_is_refused_in_a_sentence(
    tmp_path: Path,
) -> None:
    """An operator's slip in DEST (a folder not made yet, or a folder itself) is one sentence."""
    db = await empty_database(tmp_path / "muggins.db")
    missing = tmp_path / "no-such-folder" / "copy.db"
    result = await asyncio.to_thread(muggins, "backup", str(missing), "--db", str(db))
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout == (
        f"muggins backup: cannot write {missing}: the folder {missing.parent} does not exist\n"
    )
    folder = tmp_path / "backups"
    folder.mkdir()
    result = await asyncio.to_thread(muggins, "backup", str(folder), "--db", str(db))
    assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
    assert result.stdout.startswith(f"muggins backup: {folder} is a folder: name the file")
    assert list(folder.iterdir()) == [] and not list(tmp_path.glob("*.partial"))


async def test_a_restore_from_or_onto_a_folder_is_refused_and_leaves_it_alone(
    tmp_path: Path,
) -> None:
    """A folder given as SRC or as --db is refused in a sentence, the folder's mode unchanged."""
    db = await empty_database(tmp_path / "muggins.db")
    folder = tmp_path / "folder"
    folder.mkdir(mode=0o755)
    folder.chmod(0o755)
    for args in (
        ("restore", str(folder), "--db", str(db)),
        ("restore", str(db), "--db", str(folder)),
    ):
        result = await asyncio.to_thread(muggins, *args)
        assert result.returncode == 1 and "Traceback" not in result.stderr, result.stderr
        assert result.stdout.startswith(f"muggins restore: {folder} is a folder: name the")
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755 and list(folder.iterdir()) == []
