"""The SQLite file's migrations: a database written before accounts existed is upgraded on
start without losing a game (tests/server/data/v0.db was written by the code of that time:
one finished match and one in progress, nine moves in), and so is one written before the review
queue (tests/server/data/v3.db, by the code of version 3: Ann and Bob registered, one rated
match to 61 finished and settled, one in the play)."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path

from muggins.server.results.settle import rate
from muggins.server.store.accounts import AccountRecord, MatchResult
from muggins.server.store.games import parse_match_id
from muggins.server.store.sqlite_accounts import VERSION
from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.match import Match

V0 = Path(__file__).parent / "data" / "v0.db"
V3 = Path(__file__).parent / "data" / "v3.db"


def counts(path: Path) -> tuple[int, int, int, int]:
    db = sqlite3.connect(path)
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        rooms, matches, actions = (
            db.execute(f"SELECT COUNT(*) FROM {t}").fetchone()[0]
            for t in ("rooms", "matches", "actions")
        )
        return version, rooms, matches, actions
    finally:
        db.close()


async def test_an_old_database_is_migrated_without_losing_a_game(tmp_path: Path) -> None:
    """Version 0 -> current: rooms, matches and every action survive; accounts work after."""
    path = tmp_path / "muggins.db"
    shutil.copy(V0, path)
    version, rooms, matches, actions = counts(path)
    assert version == 0 and (rooms, matches) == (2, 2) and actions == 64
    store = SqliteStore(path)
    await store.open()
    try:
        [snapshot] = await store.open_rooms()
        assert snapshot.room.code == "PLAYBB" and snapshot.match is not None
        assert len(snapshot.match.actions) == 9
        Match.replay(snapshot.match.options, snapshot.match.seed, snapshot.match.actions)
        finished = await store.load_match("DONEAA", 1)
        assert finished is not None and finished.result == "won" and len(finished.actions) == 55
        replayed = Match.replay(finished.options, finished.seed, finished.actions)
        assert replayed.over and replayed.winner == finished.winner
        await store.create_account(
            AccountRecord(id="a1", name="Ann", key="ann", password_hash="x", created=1.0)
        )
        assert (await store.find_account(key="ann")) is not None
    finally:
        await store.close()
    assert counts(path) == (VERSION, 2, 2, 64)


async def test_migrating_twice_changes_nothing(tmp_path: Path) -> None:
    """Opening an up-to-date file runs no migration and keeps its accounts."""
    path = tmp_path / "muggins.db"
    for _ in range(2):
        store = SqliteStore(path)
        await store.open()
        if await store.find_account(key="ann") is None:
            await store.create_account(
                AccountRecord(id="a1", name="Ann", key="ann", password_hash="x", created=1.0)
            )
        await store.close()
    assert counts(path)[0] == VERSION


async def test_a_version_3_database_gets_the_review_queue_without_losing_a_game(
    tmp_path: Path,
) -> None:
    """Version 3 -> current: the accounts, their ratings and history, the settled match and
    the match in progress survive; matches settled from then on are queued for review."""
    path = tmp_path / "muggins.db"
    shutil.copy(V3, path)
    version, rooms, matches, actions = counts(path)
    assert version == 3 and (rooms, matches) == (2, 2)
    store = SqliteStore(path)
    await store.open()
    try:
        ann = await store.find_account(key="ann")
        assert ann is not None and ann.rated_games == 1 and ann.stats["matches"] == 1
        [entry] = await store.account_history(ann.id, limit=5)
        code, number = parse_match_id(entry.match)
        finished = await store.load_match(code, number)
        assert finished is not None and finished.finished is not None
        assert Match.replay(finished.options, finished.seed, finished.actions).over
        [snapshot] = await store.open_rooms()
        assert snapshot.match is not None and snapshot.match.finished is None
        played = Match.replay(snapshot.match.options, snapshot.match.seed, snapshot.match.actions)
        assert played.game.phase == "play"
        assert await store.claim_reviews(limit=5, now=1e12) == []  # settled before: not queued
        bob = await store.find_account(key="bob")
        assert bob is not None
        settled = await store.record_result(
            MatchResult(
                match="NEWONE-1", finished=2.0, accounts=(ann.id, bob.id), names=("Ann", "Bob"),
                rated=False, score=1.0, match_points=(1, 0), stats=({}, {}),
            ),
            rate,
        )  # fmt: skip
        assert settled
        [pending] = await store.claim_reviews(limit=5, now=1e12)
        assert pending.match == "NEWONE-1"
        assert await store.record_review("NEWONE-1", ({"reviewed_deals": 3}, {}))
        ann = await store.find_account(key="ann")
        assert ann is not None and ann.stats["reviewed_deals"] == 3
    finally:
        await store.close()
    assert counts(path) == (VERSION, rooms, matches, actions)
