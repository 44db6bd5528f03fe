"""A rated match in a cluster: the node holding both players is killed with SIGKILL the moment
the last move is told; the other node settles it when the players come back, exactly once."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis.asyncio as aioredis
from redis_helpers import RedisServer, running_redis
from test_cluster_failover import Node
from wire_client import Frame, WireClient


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    with running_redis(tmp_path) as server:
        yield server


async def account(url: str, name: str) -> WireClient:
    client = await WireClient.open(url, name=name)
    reply = await client.request(type="register", name=name, password="long enough")
    assert reply["type"] == "account", reply
    return client


async def play_until_the_end(players: list[WireClient], rng: random.Random) -> Frame:
    """Both play at once; returns the match-ending game_over as soon as either hears it."""

    async def play(client: WireClient) -> Frame:
        while True:
            frame = await client.recv()
            over = frame.get("game_over") if frame["type"] == "state" else None
            if over and over["match_over"]:
                return over
            if frame["type"] == "state" and client.my_turn():
                await client.send(**rng.choice(frame["view"]["legal"]))

    tasks = [asyncio.ensure_future(play(client)) for client in players]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    return next(iter(done)).result()


async def test_sigkill_after_the_last_move_still_rates_once(redis_server: RedisServer) -> None:
    """Kill -9 at the last move: on the other node both ratings change once, and stay."""
    a, b = Node(redis_server), Node(redis_server)
    try:
        ann, bob = await account(a.url, "Ann"), await account(a.url, "Bob")
        room = await ann.request(
            type="create_room", options={"game": {"target": 61}, "rated": True}
        )
        await bob.request(type="join_room", code=room["code"])
        over = await play_until_the_end([ann, bob], random.Random(2))
        a.kill()
        redis = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
        settled_first = await redis.exists(f"muggins:settled:{room['code']}-1")
        await redis.aclose()
        print(f"settled before the kill: {bool(settled_first)}")
        winner = over["outcome"]["winner"]
        tokens = [ann.token, bob.token]
        back = [await WireClient.open(b.url, hello=False) for _ in tokens]
        for client, token, name in zip(back, tokens, ("Ann", "Bob"), strict=True):
            welcome = await client.hello(name, token=token)
            assert welcome["type"] == "welcome" and welcome["resumed"], welcome
        ratings = []
        for name in ("Ann", "Bob"):
            profile = await back[0].request(type="profile", name=name)
            ratings.append(profile["rating"])
        assert [r["games"] for r in ratings] == [1, 1]
        assert (ratings[winner]["rating"] > 1500) and (ratings[1 - winner]["rating"] < 1500)
        c = Node(redis_server)  # a third node loading the finished room settles nothing more
        try:
            watcher = await WireClient.open(c.url, name="watcher")
            await watcher.request(type="spectate", code=room["code"])
            again = [
                (await watcher.request(type="profile", name=n))["rating"] for n in ("Ann", "Bob")
            ]
            assert again == ratings
        finally:
            c.stop()
    finally:
        a.stop()
        b.stop()
