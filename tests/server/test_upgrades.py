"""Upgrading the SQLite file: a copy is taken beside it and the upgrade logged; a file a newer
Muggins wrote, or another program's, is refused with a sentence."""

from __future__ import annotations

import logging
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from muggins.server.store.games import StoreError
from muggins.server.store.sqlite_accounts import VERSION
from muggins.server.store.sqlite_games import SqliteStore

V3 = Path(__file__).parent / "data" / "v3.db"


def version_and_accounts(path: Path) -> tuple[int, int]:
    db = sqlite3.connect(path)
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        (accounts,) = db.execute("SELECT COUNT(*) FROM accounts").fetchone()
        return version, accounts
    finally:
        db.close()


async def test_an_upgrade_keeps_a_copy_of_the_file_and_says_so(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """Opening a version 3 file copies it to muggins.db.v3.bak first, then logs the upgrade."""
    path = tmp_path / "muggins.db"
    shutil.copy(V3, path)
    store = SqliteStore(path)
    with caplog.at_level(logging.INFO, logger="muggins.store"):
        await store.open()
    await store.close()
    copy = tmp_path / "muggins.db.v3.bak"
    assert version_and_accounts(copy) == (3, 2)
    assert version_and_accounts(path) == (VERSION, 2)
    [said] = [r for r in caplog.records if "upgraded" in r.getMessage()]
    assert said.getMessage() == f"database upgraded from 3 to {VERSION}"
    assert vars(said)["copy_before"] == str(copy)


async def test_a_current_file_is_neither_copied_nor_logged(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A new file, then the same file opened again: no copy, no upgrade line."""
    path = tmp_path / "muggins.db"
    with caplog.at_level(logging.INFO, logger="muggins.store"):
        for _ in range(2):
            store = SqliteStore(path)
            await store.open()
            await store.close()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["muggins.db"]
    assert not [r for r in caplog.records if "upgraded" in r.getMessage()]


def newer(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute(f"PRAGMA user_version = {VERSION + 1}")
    db.close()


async def test_a_file_from_a_newer_muggins_is_refused(tmp_path: Path) -> None:
    """A downgrade is refused with a sentence, and the file is left as it was."""
    path = tmp_path / "muggins.db"
    store = SqliteStore(path)
    await store.open()
    await store.close()
    newer(path)
    before = path.read_bytes()
    with pytest.raises(StoreError, match="written by a newer Muggins") as refused:
        await SqliteStore(path).open()
    assert isinstance(refused.value, ValueError)
    assert f"database version {VERSION + 1}" in str(refused.value)
    assert "restore a backup" in str(refused.value)  # no copy beside it to name
    (tmp_path / f"muggins.db.v{VERSION}.bak").write_bytes(before)
    with pytest.raises(
        StoreError, match=rf"restore the copy taken before the upgrade \(.*v{VERSION}\.bak\)"
    ):
        await SqliteStore(path).open()
    assert path.read_bytes() == before


def test_muggins_serve_refuses_a_newer_file_in_words(tmp_path: Path) -> None:
    """``muggins serve`` on a newer file prints why and exits 1 at once (no error every second)."""
    path = tmp_path / "muggins.db"
    sqlite3.connect(path).execute("CREATE TABLE rooms (code TEXT)").connection.close()
    newer(path)
    result = subprocess.run(
        [sys.executable, "-m", "muggins.client.cli", "serve", "--port", "0", "--db", str(path)],
        capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert result.returncode == 1
    assert "written by a newer Muggins" in result.stdout, result.stdout + result.stderr


async def test_another_program_s_database_is_refused(tmp_path: Path) -> None:
    """A SQLite file with tables but none of Muggins's is not taken over."""
    path = tmp_path / "other.db"
    sqlite3.connect(path).execute("CREATE TABLE invoices (n INTEGER)").connection.close()
    with pytest.raises(StoreError, match="not a Muggins database"):
        await SqliteStore(path).open()


async def test_an_older_client_is_told_the_command_that_updates_it() -> None:
    """A hello with an older protocol is refused with the exact update command (the host's
    --update-command); a newer client is told the server is the older one."""
    import json
    from dataclasses import replace

    from conftest import TEST_CONFIG
    from wire_client import WireClient

    from muggins.server.app import running_server
    from muggins.shared.protocol import PROTOCOL_VERSION

    config = replace(TEST_CONFIG, update_command="pipx upgrade muggins")
    async with running_server(config) as server:
        said = []
        for protocol in (PROTOCOL_VERSION - 1, PROTOCOL_VERSION + 1):
            client = await WireClient.open(server.url, hello=False)
            await client.send_raw(
                json.dumps({"type": "hello", "name": "Old", "protocol": protocol})
            )
            refusal = await client.expect("error")
            assert refusal["code"] == "unsupported_protocol"
            said.append(refusal["message"])
            await client.close()
    older, newer = said
    assert "update Muggins with: pipx upgrade muggins" in older
    assert "this server is older than your client" in newer and "pipx" not in newer
