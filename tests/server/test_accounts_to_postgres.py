"""``muggins to-postgres`` moves a Redis-only cluster's accounts and moderation into PostgreSQL,
once: real redis-server, real PostgreSQL, the real command."""

from __future__ import annotations

import subprocess
import sys

import pytest
import redis.asyncio as aioredis
from pg_helpers import PostgresServer
from redis_helpers import RedisServer
from test_account_store_contract import account, result

from muggins.server.cluster.durable import AccountsInRedis
from muggins.server.cluster.redis_store import RedisStore
from muggins.server.results.settle import rate
from muggins.server.store.postgres_accounts import PostgresAccounts


async def test_a_redis_only_clusters_accounts_move_once(
    redis_server: RedisServer, postgres: PostgresServer
) -> None:
    """Accounts, sessions, history, a settled match and its queued review, a ban, the
    moderation log and kept chat move; the match is not settled again; a name another account
    holds in PostgreSQL stays behind, reported; a second run moves nothing, not even a list a
    run cut short left in Redis after copying it."""
    old = RedisStore(redis_server.url)
    await old.open()
    try:
        for made in (account("a1", "Ann"), account("a2", "Bob"), account("c1", "Cleo")):
            await old.create_account(made)
        await old.set_role("a1", "moderator")
        await old.add_session("a1", "h1", 5.0)
        assert await old.record_result(result("ABCDEF-1"), rate)
        before = await old.find_account(id="a1")
        await old.record_put("ban", "a2", '{"reason": "abuse"}')
        for line in ("e1", "e2"):
            await old.list_append("log", line)
        await old.list_append("chat:ROOM", "hello", keep=100)
    finally:
        await old.close()
    early = PostgresAccounts(postgres.url)
    try:
        await early.create_account(account("c9", "Cleo"))
    finally:
        await early.close()

    refused = RedisStore(redis_server.url, accounts=PostgresAccounts(postgres.url))
    with pytest.raises(AccountsInRedis, match="muggins to-postgres"):
        await refused.open()  # a node with --postgres does not start before the move
    await refused.close()

    command = [sys.executable, "-m", "muggins.client.cli", "to-postgres",
               "--redis", redis_server.url, "--postgres", postgres.url]  # fmt: skip
    first = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "moved 2 accounts (1 sessions, 2 history entries), 1 settled matches, 1 queued" in (
        first.stdout
    ), first.stdout
    assert "1 moderation records, 3 moderation log and chat lines" in first.stdout
    assert "left in Redis: Cleo" in first.stdout
    client = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        keys = [k.removeprefix("muggins:") async for k in client.scan_iter("muggins:*")]
        assert sorted(keys) == ["account-key:cleo", "account:c1", "name-keys"]
        refused = RedisStore(redis_server.url, accounts=PostgresAccounts(postgres.url))
        with pytest.raises(AccountsInRedis, match="account:c1"):
            await refused.open()  # nor while an account is left behind
        await refused.close()
        await client.delete("muggins:account:c1", "muggins:account-key:cleo")  # as documented
    finally:
        await client.aclose()

    new = RedisStore(redis_server.url, accounts=PostgresAccounts(postgres.url))
    await new.open()
    try:
        ann = await new.find_account(key="ann")
        assert ann == before and ann is not None and ann.role == "moderator"
        assert await new.session_account("h1") == "a1"
        [entry] = await new.account_history("a2", limit=5)
        assert (entry.match, entry.result) == ("ABCDEF-1", "lost")
        assert not await new.record_result(result("ABCDEF-1"), rate)  # settled before the move
        [pending] = await new.claim_reviews(limit=5, now=200.0)
        assert pending.match == "ABCDEF-1"
        cleo = await new.find_account(key="cleo")
        assert cleo is not None and cleo.id == "c9"
        assert await new.record_get("ban", "a2") == '{"reason": "abuse"}'
        assert await new.list_read("log", limit=10) == ["e1", "e2"]
        assert await new.list_names("chat:") == ["chat:ROOM"]
    finally:
        await new.close()

    cut_short = RedisStore(redis_server.url)  # as if a run had copied the log, not deleted it
    try:
        for line in ("e1", "e2"):
            await cut_short.list_append("log", line)
    finally:
        await cut_short.close()
    again = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "moved 0 accounts (0 sessions, 0 history entries), 0 settled matches, 0" in (
        again.stdout
    ), again.stdout
    assert "0 moderation records, 0 moderation log and chat lines" in again.stdout
    grant = [sys.executable, "-m", "muggins.client.cli", "admin", "grant", "Bob",
             "--redis", redis_server.url, "--postgres", postgres.url]  # fmt: skip
    subprocess.run(grant, capture_output=True, text=True, check=True)
    check = PostgresAccounts(postgres.url)
    try:
        assert await check.find_account(id="a1") == before
        assert await check.list_read("log", limit=10) == ["e1", "e2"]
        bob = await check.find_account(key="bob")
        assert bob is not None and bob.role == "admin"  # muggins admin reaches PostgreSQL
    finally:
        await check.close()
