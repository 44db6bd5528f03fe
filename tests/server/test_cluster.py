"""Cluster mode, the games: server nodes in one process sharing a real redis-server."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from cluster_nodes import (
    advance,
    alice_and_bob,
    node_config,
    nodes,
    passing_turn,
    pegging_choice,
    read_all,
    settle,
    stored_log,
)
from redis_helpers import RedisServer, running_redis
from wire_client import WireClient, game_overs, play_randomly

from muggins.server.app import running_server
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.redis_store import RedisStore


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
            [over] = game_overs(client.frames)
            assert over["match_over"] is True
            assert client.state is not None
            assert client.state["seq"] == len(match.log) + 1
            assert client.state["view"]["scores"] == list(match.view(None).scores)
        listed = await carol.request(type="list_rooms")
        [summary] = [r for r in listed["rooms"] if r["code"] == created["code"]]
        assert summary["status"] == "over" and summary["names"] == ["Alice", "Bob"]


async def test_nodes_on_a_unix_socket_play_a_game_as_stored(tmp_path: Path) -> None:
    """With a ``unix://`` Redis URL every connection of a node (its script line, its wake-ups,
    its pool) goes through the socket file: two nodes finish a game stored as the players were
    told, and no node ever connects to Redis's TCP port."""
    with running_redis(tmp_path, unix=True) as redis:
        assert redis.url.startswith("unix://")
        async with nodes(redis, 2) as [a, b]:
            alice, bob, created = await alice_and_bob(a.url, b.url, target=61)
            await asyncio.gather(
                play_randomly(alice, random.Random(5)), play_randomly(bob, random.Random(6))
            )
            match = await stored_log(redis, created["code"])
            assert match.over
            for client in (alice, bob):
                assert client.state is not None
                assert client.state["seq"] == len(match.log) + 1
            assert tcp_clients(redis) == 0


def tcp_clients(redis: RedisServer) -> int:
    """How many connections Redis has on its TCP port (CLIENT LIST's ``laddr``; this one's own
    question goes through the socket file too)."""
    import redis as redis_py

    client = redis_py.Redis.from_url(redis.url, decode_responses=True)
    try:
        listed: list[dict[str, str]] = client.client_list()
    finally:
        client.close()
    return sum(1 for c in listed if c.get("laddr", "").startswith("127.0.0.1:"))


async def test_a_node_holding_its_writes_plays_a_game_as_stored(
    redis_server: RedisServer,
) -> None:
    """With --redis-batch-ms a node's writes wait to go out together; the game is the same:
    every move acknowledged is in Redis, in the order the players were told."""
    async with nodes(redis_server, 1, redis_batch_ms=5.0) as [a]:
        assert isinstance(a.store, RedisStore) and a.store.line.batch == 0.005
        alice, bob, created = await alice_and_bob(a.url, a.url, target=61)
        await asyncio.gather(
            play_randomly(alice, random.Random(3)), play_randomly(bob, random.Random(4))
        )
        match = await stored_log(redis_server, created["code"])
        assert match.over
        for client in (alice, bob):
            assert client.state is not None
            assert client.state["seq"] == len(match.log) + 1
            assert client.state["view"]["scores"] == list(match.view(None).scores)


async def test_conflicting_moves_on_two_nodes_one_wins_one_clean_error(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Alice's seat plays two different cards through two nodes at once: one is accepted, the
    other gets a clean error, and the lost race raises no alarm of Redis losing writes."""
    caplog.set_level(logging.INFO, logger="muggins.cluster")
    async with nodes(redis_server, 2) as (a, b):
        alice, bob, created = await alice_and_bob(a.url, b.url, settled=False)
        twin = await WireClient.open(b.url, hello=False)
        welcome = await twin.hello("Alice", token=alice.token)
        assert welcome["resumed"] is True and welcome["room"] == created["code"]
        rng = random.Random(5)
        for round in range(4):
            while True:
                seq = await advance([alice, bob, twin], rng, pegging_choice)
                exclusive = await passing_turn(redis_server, created["code"])
                if len(exclusive) >= 2:
                    break
                assert alice.state is not None
                await alice.send(**rng.choice(alice.state["view"]["legal"]))
                await settle([alice, bob, twin], seq + 1)
            assert twin.state is not None and twin.state["seq"] == seq
            first, second = rng.sample(exclusive, 2)
            ids = (f"a{round}", f"b{round}")
            await asyncio.gather(alice.send(id=ids[0], **first), twin.send(id=ids[1], **second))
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
            assert error["code"] == "stale"  # both named the same seq; one was applied first
            winner = first if answers[0]["type"] == "state" else second
            match = await stored_log(redis_server, created["code"])
            assert len(match.log) == seq
            assert match.log[-1][0] == 0
            assert match.log[-1][1].model_dump(mode="json") == winner
    alarms = [r.getMessage() for r in caplog.records if "ahead of Redis" in r.getMessage()]
    assert alarms == []


async def test_redis_restart_mid_game_loses_nothing_and_clients_get_errors(
    tmp_path: Path,
) -> None:
    """Redis (AOF, fsync always, as recommended) is killed mid-game: moves get a storage error;
    after it returns the game goes on from the same state to the end, every earlier action kept."""
    with running_redis(tmp_path, fsync="always") as redis:
        async with nodes(redis, 2) as (a, b):
            alice, bob, created = await alice_and_bob(a.url, b.url, target=61, settled=False)
            seq = await advance([alice, bob], random.Random(8), pegging_choice)
            before = await stored_log(redis, created["code"])
            assert len(before.log) == seq - 1
            redis.stop(kill=True)
            assert alice.state is not None
            move = alice.state["view"]["legal"][0]
            refused = await alice.request(**move)
            # A move goes straight to Redis (no read first): with Redis gone the server cannot
            # tell whether it was saved, which is what ``unconfirmed`` says (send it again).
            assert refused["type"] == "error" and refused["code"] in ("storage", "unconfirmed")
            listing = await bob.request(type="list_rooms")
            assert listing["type"] == "error" and listing["code"] == "storage"
            redis.start()
            accepted = await alice.request(**move)
            assert accepted["type"] == "state" and accepted["seq"] == seq + 1
            await asyncio.gather(
                play_randomly(alice, random.Random(3)), play_randomly(bob, random.Random(4))
            )
            after = await stored_log(redis, created["code"])
            assert after.over
            assert after.log[: len(before.log)] == before.log
            assert after.log[len(before.log)][1].model_dump(mode="json") == move
            assert alice.state is not None and alice.state["seq"] == len(after.log) + 1


async def test_seated_computer_moves_once_with_three_nodes(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The room is cached on three nodes, each with the computer in it; every computer move is
    made by exactly one node, also after one node stops mid-game."""
    from muggins.server.cluster.bot import ClusterBot
    from muggins.server.cluster.lobby import copy_of
    from muggins.server.rooms.room import Room

    made: list[str] = []
    refused: list[str] = []
    act = Room.act

    def node_of(room: Room) -> str:
        copy = copy_of(room)
        assert copy is not None
        return copy.node.name

    async def counting_act(self: Room, seat: int, move: object, **kwargs: object) -> None:
        origin = kwargs.get("origin")
        try:
            await act(self, seat, move, **kwargs)  # type: ignore[arg-type]
        except Exception:
            if isinstance(origin, ClusterBot):
                refused.append(node_of(self))
            raise
        if isinstance(origin, ClusterBot):
            made.append(node_of(self))

    monkeypatch.setattr(Room, "act", counting_act)
    claims: Counter[bool] = Counter()
    claim = ClusterStore.claim

    async def counting_claim(self: ClusterStore, name: str, **kwargs: object) -> bool:
        won = await claim(self, name, **kwargs)  # type: ignore[arg-type]
        if name.startswith("bot:"):
            claims[won] += 1
        return won

    monkeypatch.setattr(ClusterStore, "claim", counting_claim)
    async with AsyncExitStack() as stack:
        servers = [
            await stack.enter_async_context(running_server(node_config(redis_server)))
            for _ in range(3)
        ]
        alice = await WireClient.open(servers[0].url, name="Alice")
        created = await alice.request(type="create_room", options={"game": {"target": 121}})
        code = created["code"]
        await alice.request(type="seat_bot", level="easy")
        watchers = []
        for node in servers[1:]:
            watcher = await WireClient.open(node.url, name="Watcher")
            watched = await watcher.request(type="spectate", code=code)
            assert watched["type"] == "room"
            watchers.append(watcher)
        reading = [asyncio.create_task(read_all(w)) for w in watchers]
        for node in servers:
            room = node.lobby.rooms[code]
            assert isinstance(room.seats[1].bot, ClusterBot)
        await play_randomly(alice, random.Random(6), until="play")
        await watchers[1].close()
        await servers[2].stop()
        rng = random.Random(7)
        if alice.my_turn():
            assert alice.state is not None
            await alice.send(**rng.choice(alice.state["view"]["legal"]))
        await play_randomly(alice, rng)
        match = await stored_log(redis_server, code)
        assert match.over
        bot_moves = sum(1 for seat, _ in match.log if seat == 1)
        assert len(made) == bot_moves and refused == []
        assert claims[False] > 0, "the other nodes' computers never competed for a move"
        assert alice.state is not None
        async with asyncio.timeout(5):
            while watchers[0].state is None or watchers[0].state["seq"] < alice.state["seq"]:
                await asyncio.sleep(0.01)
        assert watchers[0].state["view"]["phase"] == "match_over"
        await watchers[0].close()
        await asyncio.gather(*reading)
        print("computer moves by node:", Counter(made).most_common(), "claims:", dict(claims))


async def test_node_whose_cache_is_ahead_of_redis_reloads_redis_truth(
    redis_server: RedisServer,
) -> None:
    """If Redis lost the last acknowledged move (say a power cut under fsync everysec), the next
    write conflicts, the node reloads the room from Redis and the players get Redis's state."""
    async with nodes(redis_server, 1) as (a,):
        alice, bob, created = await alice_and_bob(a.url, a.url, settled=False)
        seq = await advance([alice, bob], random.Random(9), pegging_choice)
        store = RedisStore(redis_server.url)
        try:
            await store.redis.rpop(store.log_key(created["code"], 1))
        finally:
            await store.close()
        assert alice.state is not None
        answer = await alice.request(**alice.state["view"]["legal"][0])
        truth = await stored_log(redis_server, created["code"])
        assert answer["type"] in ("state", "error")
        for client, seat in ((alice, 0), (bob, 1)):
            while client.state is None or client.state["seq"] != len(truth.log) + 1:
                await client.recv()
            assert client.state["seq"] == len(truth.log) + 1 <= seq
            assert client.state["view"]["hand"] == [str(c) for c in truth.view(seat).hand]


async def test_a_lost_race_with_a_slow_reply_raises_no_alarm(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture
) -> None:
    """Alice's seat moves through node A and through node B at once, and B's Redis replies are
    slow (as under load), so B's wake-up catch-up runs before B retries: B's move gets a clean
    error and the log never says B's cache is ahead of Redis (that alarm means lost writes)."""
    caplog.set_level(logging.INFO, logger="muggins.cluster")
    async with nodes(redis_server, 2) as (a, b):
        alice, bob, created = await alice_and_bob(a.url, a.url, settled=False)
        twin = await WireClient.open(b.url, hello=False)
        await twin.hello("Alice", token=alice.token)
        rng = random.Random(11)
        while True:
            seq = await advance([alice, bob, twin], rng, pegging_choice)
            exclusive = await passing_turn(redis_server, created["code"])
            if len(exclusive) >= 2:
                break
            assert alice.state is not None
            await alice.send(**rng.choice(alice.state["view"]["legal"]))
            await settle([alice, bob, twin], seq + 1)
        append = b.store.append_action

        async def slow_append(*args: object, **kwargs: object) -> None:
            async with asyncio.timeout(30):  # A's write is stored first, however slow Redis is
                while len((await stored_log(redis_server, created["code"])).log) < seq:
                    await asyncio.sleep(0.01)
            await asyncio.sleep(0.3)  # and its wake-up reaches B meanwhile
            await append(*args, **kwargs)  # type: ignore[arg-type]

        b.store.append_action = slow_append  # type: ignore[method-assign]
        first, second = exclusive[:2]
        await asyncio.gather(alice.send(id="a", **first), twin.send(id="b", **second))
        answers = {}
        for client, id in ((alice, "a"), (twin, "b")):
            while True:
                frame = await client.recv()
                if frame.get("id") == id:
                    answers[id] = frame
                    break
        assert answers["a"]["type"] == "state" and answers["a"]["seq"] == seq + 1
        assert answers["b"]["type"] == "error", answers["b"]
        assert answers["b"]["code"] == "stale"  # both named the same seq
        match = await stored_log(redis_server, created["code"])
        assert len(match.log) == seq and match.log[-1][1].model_dump(mode="json") == first
    races = [r for r in caplog.records if "lost a race" in r.getMessage()]
    alarms = [r.getMessage() for r in caplog.records if "ahead of Redis" in r.getMessage()]
    assert races, "the two writes never raced"
    assert alarms == []
