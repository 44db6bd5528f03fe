"""Accounts registered before the name folding took off marks and read ``ı`` and ``İ`` as ``i``
get today's keys: on SQLite by the migration to version 7 (tests/server/data/v6.db was written
by the code of version 6, with each account's key of that time: ``Alice``, ``Alíce``, ``Zoë``,
``René``, ``Renė``, ``ALİCE`` and ``Işık``, registered in that order as a1 to a7), on
PostgreSQL by its migration 5, on Redis once when a node opens the store. Accounts that now read
as one name are both kept; the one that must move and cannot is reported for a rename and still
signs in by its exact name."""

from __future__ import annotations

import json
import secrets
import shutil
from pathlib import Path

import psycopg
import pytest
from pg_helpers import PostgresServer
from redis_helpers import RedisServer
from test_store_contract import redis_server  # noqa: F401  (the shared fixture)

from muggins.server.accounts.sanctions import Sanctions
from muggins.server.accounts.service import AccountService
from muggins.server.cluster.redis_store import RedisStore
from muggins.server.store.accounts import AccountRecord
from muggins.server.store.games import Store, StoreConflict
from muggins.server.store.name_keys import REPORTER
from muggins.server.store.postgres import MIGRATIONS
from muggins.server.store.postgres_accounts import COLUMNS, PostgresAccounts, values
from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.names import legacy_key, name_key

V6 = Path(__file__).parent / "data" / "v6.db"
NAMES = ["Alice", "Alíce", "Zoë", "René", "Renė", "ALİCE", "Işık"]


async def assert_folded(store: Store | PostgresAccounts) -> None:
    """Every account is kept; those that could move have today's key; the clashes are reported
    and still found by their exact names; a new look-alike cannot register."""
    accounts = {f"a{n}": await store.find_account(id=f"a{n}") for n in range(1, 8)}
    keys = {id: a.key for id, a in accounts.items() if a is not None}
    assert keys == {
        "a1": "allce",
        "a2": legacy_key("Alíce"),  # reads as Alice, who holds the key
        "a3": "zoe",
        "a4": "rene",  # registered before Renė
        "a5": legacy_key("Renė"),
        "a6": legacy_key("ALİCE"),
        "a7": name_key("Işık"),
    }
    reports = await Sanctions(store).reports()
    assert sorted((r.account, r.by) for r in reports) == [
        ("a2", REPORTER),
        ("a5", REPORTER),
        ("a6", REPORTER),
    ]
    service = AccountService(store, players=lambda: [])
    for n, name in enumerate(NAMES, 1):
        found = await service.find_named(name)
        assert found is not None and found.id == f"a{n}", name
    zoe = await service.find_named("Zoe")
    assert zoe is not None and zoe.id == "a3"
    with pytest.raises(StoreConflict):
        await store.create_account(
            AccountRecord(id="b1", name="Zoe", key=name_key("Zoe"), password_hash="x", created=9)
        )


async def test_a_version_6_database_gets_todays_name_keys(tmp_path: Path) -> None:
    path = tmp_path / "muggins.db"
    shutil.copy(V6, path)
    store = SqliteStore(path)
    await store.open()
    try:
        await assert_folded(store)
    finally:
        await store.close()
    again = SqliteStore(path)  # migrated once: a second start reports nothing more
    await again.open()
    try:
        assert len(await Sanctions(again).reports()) == 3
    finally:
        await again.close()


async def test_redis_keys_are_folded_once_when_a_node_opens_the_store(
    redis_server: RedisServer,  # noqa: F811
) -> None:
    prefix = f"t{secrets.token_hex(4)}:"
    old = RedisStore(redis_server.url, prefix=prefix)
    for account in legacy_accounts():
        await old.create_account(account)
    await old.close()
    store = RedisStore(redis_server.url, prefix=prefix)
    await store.open()
    try:
        await assert_folded(store)
        assert await store.fold_name_keys() is None
        stored = await store.redis.hgetall(f"{prefix}mod:report")
        assert len(stored) == 3
        assert all("rename" in json.loads(v)["reason"] for v in stored.values())
    finally:
        await store.close()


def legacy_accounts() -> list[AccountRecord]:
    """The accounts as registered before the folding grew, with their keys of that time."""
    return [
        AccountRecord(id=f"a{n}", name=name, key=legacy_key(name), password_hash="x", created=n)
        for n, name in enumerate(NAMES, 1)
    ]


async def test_postgres_keys_are_folded_once_by_the_migration_to_version_5(
    postgres: PostgresServer,
) -> None:
    connecting = psycopg.AsyncConnection.connect(postgres.url, autocommit=True)
    async with await connecting as db, db.transaction():  # version 4's schema and accounts
        await db.execute("CREATE TABLE schema_version (version integer PRIMARY KEY)")
        for number, sql in enumerate(MIGRATIONS[:4], start=1):
            assert isinstance(sql, str)
            await db.execute(sql.encode())
            await db.execute("INSERT INTO schema_version VALUES (%s)", (number,))
        for old in legacy_accounts():
            await db.execute(
                f"INSERT INTO accounts ({COLUMNS}) VALUES ({', '.join(['%s'] * 12)})",
                values(old),
            )
    store = PostgresAccounts(postgres.url)
    try:
        await assert_folded(store)
        reports = await store.records("report")
        assert all("rename" in json.loads(v)["reason"] for v in reports.values())
    finally:
        await store.close()
    again = PostgresAccounts(postgres.url)  # migrated once: a second start changes nothing
    try:
        assert await again.records("report") == reports
        assert (await again.find_account(id="a1")) is not None
    finally:
        await again.close()
    async with await psycopg.AsyncConnection.connect(postgres.url) as db:
        versions = await (await db.execute("SELECT version FROM schema_version")).fetchall()
    assert sorted(v for (v,) in versions) == list(range(1, len(MIGRATIONS) + 1))
