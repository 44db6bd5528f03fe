"""Roles are granted on the server's machine only: `muggins admin grant` and `serve --admin`."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest
from wire_client import WireClient

from muggins.client.cli import main
from muggins.server.accounts.credentials import AccountError, name_key
from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.server.store.sqlite_games import SqliteStore

CONFIG = ServerConfig(port=0, bot_delay=0.0, rate=10_000, burst=10_000)


async def register(db: Path, name: str) -> None:
    async with running_server(replace(CONFIG, db=db)) as server:
        client = await WireClient.open(server.url, name=name)
        reply = await client.request(type="register", name=name, password="correct horse")
        assert reply["type"] == "account", reply
        await client.close()


async def role_of(db: Path, name: str) -> str | None:
    store = SqliteStore(db)
    await store.open()
    try:
        account = await store.find_account(key=name_key(name))
    finally:
        await store.close()
    assert account is not None
    return account.role


def test_muggins_admin_grants_and_revokes_roles_in_the_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`muggins admin grant` makes an admin (or with --role a moderator) and `revoke` a
    player again; an unregistered name is refused with a sentence."""
    db = tmp_path / "server.db"
    asyncio.run(register(db, "Alice"))
    assert main(["admin", "grant", "alice", "--db", str(db)]) == 0
    assert "Alice is now an admin" in capsys.readouterr().out
    assert asyncio.run(role_of(db, "Alice")) == "admin"
    assert main(["admin", "grant", "Alice", "--role", "moderator", "--db", str(db)]) == 0
    assert asyncio.run(role_of(db, "Alice")) == "moderator"
    assert main(["admin", "revoke", "Alice", "--db", str(db)]) == 0
    assert asyncio.run(role_of(db, "Alice")) is None
    assert main(["admin", "grant", "Nobody", "--db", str(db)]) == 1
    assert "No account here is called 'Nobody'" in capsys.readouterr().out


async def test_serve_admin_flag_grants_on_start_and_refuses_an_unknown_name(
    tmp_path: Path,
) -> None:
    """`--admin NAME` makes a registered account an admin when the server starts; a name with
    no account stops the start rather than wait for whoever registers it first."""
    db = tmp_path / "server.db"
    await register(db, "Alice")
    async with running_server(replace(CONFIG, db=db, admins=("Alice",))):
        pass
    assert await role_of(db, "Alice") == "admin"
    with pytest.raises(AccountError, match="register it first"):
        async with running_server(replace(CONFIG, db=db, admins=("Mallory",))):
            pass
