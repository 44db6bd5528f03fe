"""Cluster mode, the Redis traffic of a move: one round trip for the node that writes it, none for
the node that holds the other player (the wake-up carries the action), and nothing at all for a
node that holds no player of the room."""

from __future__ import annotations

import asyncio
import logging
import random
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from cluster_nodes import NEVER, advance, alice_and_bob, node_of, nodes, settle, stored_log
from redis_helpers import RedisServer

import muggins.server.cluster.lobby as cluster_lobby
from muggins.server.app import Server
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.lobby import copy_of
from muggins.shared.match import Match


def count_round_trips(server: Server) -> Counter[str]:
    """Every Redis request ``server`` makes from now on, by what it was for, except the node's
    own rounds (its heartbeat, the matchmaking queue, readiness's ping, the metrics census, its
    look at the live tournaments): one each per node, not per player."""
    store: ClusterStore = node_of(server).redis
    counts: Counter[str] = Counter()
    plain = store._call

    async def counting(what: str, make: Callable[[], Awaitable[Any]]) -> Any:
        if what not in ("heartbeat", "queue", "ping", "census", "tournament live"):
            counts[what] += 1
        return await plain(what, make)

    store._call = counting  # type: ignore[method-assign]
    return counts


async def quiet(*servers: Server) -> None:
    """Wait until no room of these nodes has a catch-up running or queued."""
    async with asyncio.timeout(10):
        while True:
            await asyncio.sleep(0.3)
            rooms = [r for s in servers for r in s.lobby.rooms.values()]
            copies = [copy_of(r) for r in rooms]
            if not any(c is not None and c.catching_up for c in copies):
                return


async def test_a_move_costs_its_node_one_round_trip_and_the_other_node_none(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_lobby, "SAFETY_POLL", NEVER)  # no safety catch-up meanwhile
    async with nodes(redis_server, 2) as (a, b):
        alice, bob, _ = await alice_and_bob(a.url, b.url)
        await quiet(a, b)
        on_a, on_b = count_round_trips(a), count_round_trips(b)
        rng = random.Random(5)
        assert alice.state is not None
        seq = alice.state["seq"]
        moves = {"Alice": 0, "Bob": 0}
        for _ in range(16):
            mover = alice if alice.my_turn() else bob
            assert mover.my_turn() and mover.state is not None
            before_a, before_b = on_a.total(), on_b.total()
            await mover.send(**rng.choice(mover.state["view"]["legal"]))
            seq += 1
            await settle([alice, bob], seq)
            await quiet(a, b)
            writer, other = (on_a, on_b) if mover is alice else (on_b, on_a)
            wrote = (on_a.total() - before_a, on_b.total() - before_b)
            if mover is bob:
                wrote = (wrote[1], wrote[0])
            assert wrote == (1, 0), (mover.name, dict(writer), dict(other))
            moves[mover.name] += 1
        assert moves["Alice"] and moves["Bob"]
        assert set(on_a) == {"append_action"} and set(on_b) == {"append_action"}
        # Both players saw every state, with the same view of the table as the store's order.
        assert alice.state is not None and bob.state is not None
        assert alice.state["seq"] == bob.state["seq"] == seq
        for client in (alice, bob):
            await client.close()


async def test_a_move_heard_while_the_room_is_busy_is_applied_without_reading_redis(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Node B's room is busy (its lock held, as while Bob's own move is on its way to Redis) when
    the wake-up of Alice's move comes: B applies it once the room is free, from the wake-up,
    and makes no Redis request (it caught up with two reads before)."""
    monkeypatch.setattr(cluster_lobby, "SAFETY_POLL", NEVER)
    async with nodes(redis_server, 2) as (a, b):
        alice, bob, created = await alice_and_bob(a.url, b.url)
        await quiet(a, b)
        room = b.lobby.rooms[created["code"]]
        rng = random.Random(9)
        await advance([alice, bob], rng, alice_on_turn)
        await quiet(a, b)
        on_b = count_round_trips(b)
        for _ in range(3):
            assert alice.state is not None and bob.state is not None and alice.my_turn()
            seq = alice.state["seq"]
            async with room.lock:
                await alice.send(**rng.choice(alice.state["view"]["legal"]))
                await settle([alice], seq + 1)
                await asyncio.sleep(0.2)  # the wake-up reaches B meanwhile
                assert bob.state["seq"] == seq
            await settle([bob], seq + 1)
            await quiet(a, b)
            assert not on_b, dict(on_b)
            if not alice.my_turn():
                break
        for client in (alice, bob):
            await client.close()


async def test_a_node_hears_only_the_rooms_whose_players_it_holds(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cluster_lobby, "SAFETY_POLL", NEVER)
    async with nodes(redis_server, 3) as (a, b, c):
        heard: list[str] = []
        lobby_c = node_of(c)
        plain = lobby_c._heard
        lobby_c._heard = lambda data: (heard.append(data), plain(data))[1]  # type: ignore[method-assign]
        on_c = count_round_trips(c)
        alice, bob, created = await alice_and_bob(a.url, b.url)
        rng = random.Random(7)
        for _ in range(6):
            mover = alice if alice.my_turn() else bob
            assert mover.state is not None
            seq = mover.state["seq"]
            await mover.send(**rng.choice(mover.state["view"]["legal"]))
            await settle([alice, bob], seq + 1)
        await bob.request(type="chat", text="hello")
        await alice.expect("chat")
        assert heard == [] and not on_c
        watchers = await node_of(a).redis.redis.smembers(
            node_of(a).redis.watch_key(created["code"])
        )
        assert watchers == {node_of(a).name, node_of(b).name}
        for client in (alice, bob):
            await client.close()


def alice_on_turn(state: dict[str, object] | None) -> bool:
    assert state is not None
    view = state["view"]
    assert isinstance(view, dict)
    return bool(view["seat"] in view["waiting_for"])


def both_discard(state: dict[str, object] | None) -> bool:
    """Both players are to discard (the one phase where both may move at once)."""
    assert state is not None
    view = state["view"]
    assert isinstance(view, dict)
    return view["phase"] == "discard" and len(view["waiting_for"]) == 2


async def test_discards_made_at_once_on_two_nodes_never_replay_the_match(
    redis_server: RedisServer, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Alice (node A) and Bob (node B) discard at the same moment, deal after deal, so one node's
    write loses the race for its index. A discard is stored before it is applied, so the loser
    has nothing to undo: it catches up and stores the discard again, without replaying the match
    from its start (undoing an applied move did, about 10 ms at 80 moves). Both discards stand."""
    caplog.set_level(logging.INFO, logger="muggins.cluster")
    replays = {"n": 0}
    replay = Match.replay.__func__  # type: ignore[attr-defined]

    def counted(cls: type[Match], *args: Any, **kwargs: Any) -> Match:
        replays["n"] += 1
        made: Match = replay(cls, *args, **kwargs)
        return made

    monkeypatch.setattr(Match, "replay", classmethod(counted))
    async with nodes(redis_server, 2) as (a, b):
        alice, bob, created = await alice_and_bob(a.url, b.url, settled=False)
        rng = random.Random(11)
        lost = 0
        for deal in range(8):
            seq = await advance([alice, bob], rng, both_discard)
            assert alice.state is not None and bob.state is not None
            ids = (f"a{deal}", f"b{deal}")
            moves = [rng.choice(c.state["view"]["legal"]) for c in (alice, bob)]  # type: ignore[index]
            caplog.clear()
            replays["n"] = 0
            await asyncio.gather(alice.send(id=ids[0], **moves[0]), bob.send(id=ids[1], **moves[1]))
            for client, id in ((alice, ids[0]), (bob, ids[1])):
                answer = await client.recv()
                while answer.get("id") != id:
                    answer = await client.recv()
                assert answer["type"] == "state", answer
            await settle([alice, bob], seq + 2)
            assert replays["n"] == 0
            lost += sum("lost a race for the move" in r.getMessage() for r in caplog.records)
            if lost >= 2:
                break
        assert lost >= 1  # the race was run (and lost) at least once
        match = await stored_log(redis_server, created["code"])
        assert match.log == a.lobby.rooms[created["code"]].match.log  # type: ignore[union-attr]
        assert match.log == b.lobby.rooms[created["code"]].match.log  # type: ignore[union-attr]
        for client in (alice, bob):
            await client.close()
