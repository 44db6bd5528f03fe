"""A cluster started with --postgres keeps its accounts in PostgreSQL: two real nodes on one
redis-server and one real PostgreSQL, over real sockets. Register on one node, sign in on the
other, play a rated match to the end: the rating is settled once, in PostgreSQL, and Redis
holds no account, session, rating, history or review."""

from __future__ import annotations

import asyncio
import random

import psycopg
import pytest
import redis.asyncio as aioredis
from cluster_nodes import nodes, rated_room
from pg_helpers import PostgresServer
from redis_helpers import RedisServer
from test_account_store_contract import account, result
from test_rated_cluster import play_until_the_end
from wire_client import WireClient

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.results.settle import rate
from muggins.server.store.postgres_accounts import PostgresAccounts

DURABLE = ("account:", "account-key:", "session:", "sessions:", "settled:", "history:",
           "leaderboard", "review")  # fmt: skip
"""The Redis keys (after the prefix) of what a node with --postgres keeps in PostgreSQL."""


async def test_accounts_and_ratings_live_in_postgres(
    redis_server: RedisServer, postgres: PostgresServer
) -> None:
    """Registered on A, signed in on B, a rated match across both nodes is rated once, and
    only PostgreSQL knows it."""
    async with nodes(redis_server, 2, postgres=postgres.url) as (a, b):
        ann = await WireClient.open(a.url, name="Ann")
        made = await ann.request(type="register", name="Ann", password="correct horse")
        assert made["type"] == "account", made
        bob = await WireClient.open(a.url, name="Bob")
        made = await bob.request(type="register", name="Bob", password="correct horse")
        assert made["type"] == "account", made
        await ann.close()
        ann = await WireClient.open(b.url, name="Ann")
        signed = await ann.request(type="sign_in", name="ann", password="correct horse")
        assert signed["type"] == "account" and signed["name"] == "Ann", signed
        room = await rated_room(ann, bob)
        over = await play_until_the_end([ann, bob], random.Random(5))
        winner = over["outcome"]["winner"]
        watcher = await WireClient.open(b.url, name="watcher")
        for _ in range(200):  # the settlement follows the last move: wait for it, bounded
            profile = await watcher.request(type="profile", name="Bob")
            if profile["rating"]["games"] == 1:
                break
            await asyncio.sleep(0.05)
        ratings = [
            (await watcher.request(type="profile", name=n))["rating"] for n in ("Ann", "Bob")
        ]
        assert [r["games"] for r in ratings] == [1, 1]
        assert ratings[winner]["rating"] > 1500 > ratings[1 - winner]["rating"]
        for client in (ann, bob, watcher):
            await client.close()

    with psycopg.connect(postgres.url) as connection:
        rows = connection.execute(
            "SELECT name, rated_games, rating FROM accounts ORDER BY name"
        ).fetchall()
        assert [(name, games) for name, games, _ in rows] == [("Ann", 1), ("Bob", 1)]
        assert [r for _, _, r in rows] == pytest.approx([r["rating"] for r in ratings], abs=0.05)
        settled = connection.execute("SELECT match FROM settled").fetchall()
        assert settled == [(f"{room['code']}-1",)]
        (history,) = connection.execute("SELECT count(*) FROM account_history").fetchone() or (0,)
        assert history == 2
        (sessions,) = connection.execute("SELECT count(*) FROM sessions").fetchone() or (0,)
        assert sessions >= 2
    redis = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        keys = [key.removeprefix("muggins:") async for key in redis.scan_iter("muggins:*")]
        unsettled = await redis.zrange("muggins:unsettled", 0, -1)
    finally:
        await redis.aclose()
    assert keys, "the live rooms' keys are in Redis"
    assert [k for k in keys if k.startswith(DURABLE)] == []
    assert unsettled == []  # the settlement took the match off the sweep's list


async def test_the_sweep_and_the_metrics_read_settlements_from_postgres(
    redis_server: RedisServer, postgres: PostgresServer
) -> None:
    """With accounts in PostgreSQL a node's sweep asks PostgreSQL whether a match is settled,
    and /metrics' review backlog counts PostgreSQL's queue."""
    store = ClusterStore(redis_server.url, accounts=PostgresAccounts(postgres.url))
    await store.open()
    try:
        for made in (account("a1", "Ann"), account("a2", "Bob")):
            await store.create_account(made)
        assert not await store.is_settled("ABCDEF-1")
        assert (await store.census())["review_backlog"] == 0
        assert await store.record_result(result("ABCDEF-1"), rate)
        assert await store.is_settled("ABCDEF-1")
        assert (await store.census())["review_backlog"] == 1
    finally:
        await store.close()
