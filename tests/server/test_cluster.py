"""Cluster mode: server nodes in one process sharing a real redis-server started on a free port."""

from __future__ import annotations

import asyncio
import contextlib
import random
import secrets
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack
from dataclasses import replace
from pathlib import Path

import pytest
from redis_helpers import RedisServer, running_redis
from wire_client import WireClient, play_randomly

from server.app import Server, running_server
from server.cluster.redis_store import RedisStore
from server.config import ServerConfig
from shared.match import Match


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    with running_redis(tmp_path) as server:
        yield server


def node_config(redis: RedisServer, **changes: object) -> ServerConfig:
    config = ServerConfig(port=0, redis=redis.url, bot_delay=0.0, grace=0.3, sweep_interval=3600)
    return replace(config, **changes)  # type: ignore[arg-type]


@contextlib.asynccontextmanager
async def nodes(redis: RedisServer, count: int, **changes: object) -> AsyncIterator[list[Server]]:
    async with AsyncExitStack() as stack:
        yield [
            await stack.enter_async_context(running_server(node_config(redis, **changes)))
            for _ in range(count)
        ]


async def stored_log(redis: RedisServer, code: str) -> Match:
    store = RedisStore(redis.url)
    try:
        number = await store.current_match(code)
        record = await store.load_match(code, number)
    finally:
        await store.close()
    assert record is not None
    return Match.replay(record.options, record.seed, record.actions)


async def test_two_nodes_play_a_full_game_and_list_each_others_rooms(
    redis_server: RedisServer,
) -> None:
    """Alice on node A and Bob on node B finish a game; both lobbies list rooms of both nodes."""
    async with nodes(redis_server, 2) as (a, b):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        carol = await WireClient.open(b.url, name="Carol")
        created = await alice.request(type="create_room", options={"game": {"target": 61}})
        other = await carol.request(type="create_room", options={"game": {"target": 121}})
        for node in (a, b):
            lister = await WireClient.open(node.url, name="Lister")
            listed = await lister.request(type="list_rooms")
            assert {r["code"] for r in listed["rooms"]} == {created["code"], other["code"]}
            await lister.close()
        joined = await bob.request(type="join_room", code=created["code"])
        assert joined["type"] == "room" and joined["you"] == 1
        await asyncio.gather(
            play_randomly(alice, random.Random(1)), play_randomly(bob, random.Random(2))
        )
        match = await stored_log(redis_server, created["code"])
        assert match.over
        for client in (alice, bob):
            [over] = [f for f in client.frames if f["type"] == "game_over"]
            assert over["match_over"] is True
            assert client.state is not None
            assert client.state["seq"] == len(match.log) + 1
            assert client.state["view"]["scores"] == list(match.view(None).scores)
        listed = await carol.request(type="list_rooms")
        [summary] = [r for r in listed["rooms"] if r["code"] == created["code"]]
        assert summary["status"] == "over" and summary["names"] == ["Alice", "Bob"]


def my_turn(client: WireClient) -> bool:
    return client.my_turn()


async def settle(clients: list[WireClient], seq: int) -> None:
    """Read until every client has seen the state after action ``seq``."""
    for client in clients:
        while client.state is None or client.state["seq"] < seq:
            await client.recv()


async def advance(
    clients: list[WireClient], rng: random.Random, until: object, *, limit: int = 400
) -> int:
    """Random legal moves, one at a time, until ``until(state of clients[0])``; returns seq."""
    await settle(clients, 1)
    assert clients[0].state is not None
    seq: int = clients[0].state["seq"]
    for _ in range(limit):
        await settle(clients, seq)
        if until(clients[0].state):  # type: ignore[operator]
            return seq
        mover = next(c for c in clients if c.my_turn())
        assert mover.state is not None
        await mover.send(**rng.choice(mover.state["view"]["legal"]))
        seq += 1
    raise AssertionError("the condition never came")


def pegging_choice(state: dict[str, object] | None) -> bool:
    """Alice is on turn in the play with at least two cards she may play."""
    assert state is not None
    view = state["view"]
    assert isinstance(view, dict)
    return bool(
        view["phase"] == "play" and view["seat"] in view["waiting_for"] and len(view["legal"]) >= 2
    )


async def test_conflicting_moves_on_two_nodes_one_wins_one_clean_error(
    redis_server: RedisServer,
) -> None:
    """Alice's seat plays two different cards through two nodes at once: one is accepted."""
    async with nodes(redis_server, 2) as (a, b):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        created = await alice.request(type="create_room", options={"game": {"target": 121}})
        await bob.request(type="join_room", code=created["code"])
        twin = await WireClient.open(b.url, hello=False)
        welcome = await twin.hello("Alice", token=alice.token)
        assert welcome["resumed"] is True and welcome["room"] == created["code"]
        rng = random.Random(5)
        for round in range(4):
            seq = await advance([alice, bob, twin], rng, pegging_choice)
            assert twin.state is not None and twin.state["seq"] == seq
            first, second = rng.sample(alice.state["view"]["legal"], 2)  # type: ignore[index]
            ids = (f"a{round}", f"b{round}")
            await asyncio.gather(
                alice.send(id=ids[0], **first), twin.send(id=ids[1], **second)
            )
            answers = []
            for client, id in ((alice, ids[0]), (twin, ids[1])):
                while True:
                    frame = await client.recv()
                    if frame.get("id") == id:
                        answers.append(frame)
                        break
            kinds = sorted(f["type"] for f in answers)
            assert kinds == ["error", "state"], answers
            [error] = [f for f in answers if f["type"] == "error"]
            assert error["code"] in ("not_your_turn", "illegal")
            winner = first if answers[0]["type"] == "state" else second
            match = await stored_log(redis_server, created["code"])
            assert len(match.log) == seq
            assert match.log[-1][0] == 0
            assert match.log[-1][1].model_dump(mode="json") == winner
