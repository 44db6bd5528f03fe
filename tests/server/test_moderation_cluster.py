"""Moderation across the nodes of a cluster (two nodes in this process on one real
redis-server, keeping accounts and moderation in Redis or, with --postgres, in a real
PostgreSQL): a moderator on node A bans or mutes a player connected to node B. The order of
events is asserted, never a time: once the moderator's answer has come, every node refuses what
the sanction forbids, whether or not node B has heard of it yet; then the player is told."""

from __future__ import annotations

import time
from collections.abc import Iterator

import pytest
from cluster_nodes import nodes
from pg_helpers import PostgresServer
from redis_helpers import RedisServer, redis_flush, running_redis
from test_account_store_contract import fresh_database, postgres_server  # noqa: F401
from test_moderation import PASSWORD, admin, moderate, person
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from wire_client import WireClient

from muggins.server.app import Server

BOB = "203.0.113.7"
"""Bob's address."""


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with running_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(params=["redis", "postgres"])
def durable(request: pytest.FixtureRequest) -> dict[str, str]:
    """The nodes' options: accounts and moderation in Redis, or in a new PostgreSQL database."""
    if request.param == "redis":
        return {}
    server: PostgresServer = request.getfixturevalue("postgres_server")
    return {"postgres": fresh_database(server)}


async def durable_keys(redis: RedisServer) -> list[str]:
    """Moderation's keys in Redis (none when it is kept in PostgreSQL)."""
    import redis.asyncio as aioredis

    client = aioredis.Redis.from_url(redis.url, decode_responses=True)
    try:
        return [k async for k in client.scan_iter("muggins:mod*")]
    finally:
        await client.aclose()


async def stranger(server: Server, address: str) -> WireClient:
    ws = await connect(server.url, additional_headers={"X-Forwarded-For": address})
    client = WireClient(ws, name="Visitor")
    await client.hello("Visitor")
    return client


async def test_a_ban_on_node_a_resigns_a_match_and_shuts_out_a_player_on_node_b(
    redis_server: RedisServer, durable: dict[str, str]
) -> None:
    """Bob, connected to node B, plays Ann, connected to node A. Banned (with his address) by
    a moderator on A: as soon as A has answered, neither node lets Bob sign in or anyone
    register from his address; Bob is told why on B, then his connection closes (4003); Ann
    wins the match."""
    await redis_flush(redis_server)
    async with nodes(redis_server, 2, trusted_proxies=("127.0.0.1",), **durable) as (a, b):
        boss = await admin(a)
        ann = await person(a, "Ann", address="198.51.100.1")
        bob = await person(b, "Bob", address=BOB)
        room = await ann.request(type="create_room")
        assert (await bob.request(type="join_room", code=room["code"]))["type"] != "error"
        for client in (ann, bob):
            while client.state is None:
                await client.recv()
        done = await moderate(boss, action="ban", name="Bob", reason="abuse", address=True)
        assert done["type"] == "moderated"
        for node in (a, b):
            other = await stranger(node, BOB)
            refused = await other.request(type="sign_in", name="Bob", password=PASSWORD)
            assert refused["code"] == "banned" and "abuse" in refused["message"]
            refused = await other.request(type="register", name="Bobby", password=PASSWORD)
            assert refused["code"] == "banned"
            await other.close()
        told = await bob.expect("sanctioned")
        assert told["kind"] == "ban" and told["reason"] == "abuse" and told["until"] is None
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await bob.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003
        while ann.state is None or ann.state["view"]["phase"] != "match_over":
            await ann.recv()
        points = ann.state["view"]["match_points"]
        assert points[0] > points[1]
    assert bool(await durable_keys(redis_server)) == (not durable)  # the ban and the log


async def test_a_mute_on_node_a_silences_a_player_on_node_b_until_lifted(
    redis_server: RedisServer, durable: dict[str, str]
) -> None:
    """Cyd chats in a room on node B. Muted by a moderator on A: her next line on B, sent as
    soon as A has answered, is refused; she is told she is muted. Unmuted on A: her next line
    goes through, and she is told she may chat again."""
    await redis_flush(redis_server)
    async with nodes(redis_server, 2, trusted_proxies=("127.0.0.1",), **durable) as (a, b):
        boss = await admin(a)
        cyd = await person(b, "Cyd", address="203.0.113.8")
        await cyd.request(type="create_room")
        assert (await cyd.request(type="chat", text="hello"))["type"] == "chat"
        assert (await moderate(boss, action="mute", name="Cyd", minutes=5))["type"] == "moderated"
        refused = await cyd.request(type="chat", text="HEY")
        assert refused["code"] == "muted"
        told = next((f for f in cyd.frames if f["type"] == "sanctioned"), None)
        told = told or await cyd.expect("sanctioned")
        assert told["kind"] == "mute" and "You are muted until" in told["text"]
        assert (await moderate(boss, action="unmute", name="Cyd"))["type"] == "moderated"
        assert (await cyd.request(type="chat", text="sorry"))["type"] == "chat"
        lifted = [f for f in cyd.frames if f["type"] == "sanctioned"][1:]
        lifted = lifted or [await cyd.expect("sanctioned")]
        assert lifted[0]["text"] == "You may chat again"


async def test_one_node_of_the_cluster_sweeps_kept_chat_each_hour(
    redis_server: RedisServer, durable: dict[str, str]
) -> None:
    """Kept chat past its retention is deleted by the first node to sweep in the hour; the other
    node's sweep in that hour does nothing."""
    await redis_flush(redis_server)
    async with nodes(redis_server, 2, **durable) as (a, b):
        await a.lobby.sanctions.keep_line("ROOM", at=100.0, sender="Bob", account=None, text="x")
        now = time.time()
        assert [await b.lobby.sweep_chat(now), await a.lobby.sweep_chat(now)] == [1, None]
        assert await a.store.list_read("chat:ROOM", limit=10) == []
