"""PostgreSQL killed under a cluster's accounts and ratings: two real nodes on one redis-server
and a real PostgreSQL, kill -9 of the postmaster in the middle of a rated match. The match is
played to its end (every move acknowledged, into Redis); what needs PostgreSQL (registering,
signing in) is refused with a readable error; once PostgreSQL is back the match is rated
exactly once and signing in works again."""

from __future__ import annotations

import asyncio
import contextlib
import random

import psycopg
import pytest
import redis.asyncio as aioredis
from cluster_nodes import nodes, rated_room, registered
from pg_helpers import PostgresServer
from redis_helpers import RedisServer
from test_rated_cluster import play_until_the_end
from wire_client import Frame, WireClient

from muggins.server.store.games import StoreError
from muggins.server.store.postgres_accounts import PostgresAccounts

PASSWORD = "long enough"
"""(as cluster_nodes.registered registers)"""


def settled_rows(postgres: PostgresServer) -> tuple[list[tuple[str, int]], int, int]:
    """Each account's rated games, the settled matches and the history entries."""
    with psycopg.connect(postgres.url) as db:
        games = db.execute("SELECT name, rated_games FROM accounts ORDER BY name").fetchall()
        (settled,) = db.execute("SELECT count(*) FROM settled").fetchone() or (0,)
        (history,) = db.execute("SELECT count(*) FROM account_history").fetchone() or (0,)
    return [(str(n), int(g)) for n, g in games], int(settled), int(history)


async def refused(client: WireClient, **message: str) -> Frame:
    """The answer to a request that needs PostgreSQL while it is down: an error, in time."""
    answer = await client.request(timeout=15.0, **message)
    assert answer["type"] == "error", answer
    return answer


async def test_a_rated_match_finished_while_postgres_is_down_is_rated_once_when_it_is_back(
    redis_server: RedisServer, postgres: PostgresServer
) -> None:
    async with nodes(redis_server, 2, postgres=postgres.url, sweep_interval=0.3) as (a, b):
        (ann, _), (bob, _) = await registered(a.url, "Ann"), await registered(b.url, "Bob")
        await rated_room(ann, bob)
        await ann.expect("state")
        postgres.kill()
        over = await play_until_the_end([ann, bob], random.Random(7))
        assert over["match_over"]
        for player in (ann, bob):  # every move acknowledged ("stale": the driver raced a view)
            errors = [f for f in player.frames if f["type"] == "error"]
            assert [f for f in errors if f["code"] != "stale"] == [], errors

        cara = await WireClient.open(b.url, name="Cara")
        for answer in (
            await refused(cara, type="register", name="Cara", password=PASSWORD),
            await refused(cara, type="sign_in", name="Ann", password=PASSWORD),
            await refused(bob, type="profile", name="Ann"),
            await refused(ann, type="chat", text="good game"),  # kept for moderation: refused
            await refused(bob, type="report", name="Ann", reason="gloats"),
        ):
            assert answer["code"] == "storage", answer
            assert "try again" in answer["message"].lower(), answer
        await ann.request(type="ping")  # the nodes still answer the players at the table

        postgres.start()
        redis = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
        try:
            for _ in range(600):  # settled by the sweep once PostgreSQL is back: bounded wait
                if settled_rows(postgres)[1] and not await redis.zrange("muggins:unsettled", 0, -1):
                    break
                await asyncio.sleep(0.05)
            rounds: set[str] = set()
            for _ in range(600):  # three more sweep rounds: none settles it again
                rounds |= set(await redis.keys("muggins:claim:sweep:*"))
                if len(rounds) > 3:
                    break
                await asyncio.sleep(0.05)
        finally:
            await redis.aclose()
        assert settled_rows(postgres) == ([("Ann", 1), ("Bob", 1)], 1, 2)

        signed = await cara.request(type="sign_in", name="Ann", password=PASSWORD)
        assert signed["type"] == "account" and signed["name"] == "Ann", signed
        profile = await cara.request(type="profile", name="Bob")
        assert profile["rating"]["games"] == 1
        for client in (ann, bob, cara):
            await client.close()


async def test_calls_fail_at_once_while_postgres_is_known_to_be_unreachable(
    postgres: PostgresServer,
) -> None:
    """After a call finds PostgreSQL gone, the next ones fail at once (not after the pool's
    wait for a connection, here 30 s) until one tries again and finds it back."""
    link = PostgresAccounts(postgres.url, timeout=30.0)
    try:
        assert await link.find_account(id="a1") is None  # connected
        postgres.kill()
        with pytest.raises(StoreError):
            await link.find_account(id="a1")  # on the connection PostgreSQL dropped
        async with asyncio.timeout(10):
            for _ in range(20):
                with pytest.raises(StoreError, match="unreachable"):
                    await link.find_account(id="a1")
        postgres.start()
        for _ in range(200):  # one call a second tries again: bounded wait
            with contextlib.suppress(StoreError):
                assert await link.find_account(id="a1") is None
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("PostgreSQL is back but the calls still fail")
    finally:
        await link.close()
