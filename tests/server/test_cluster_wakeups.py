"""Cluster mode, wake-ups and presence: an action applied from its wake-up, a wake-up lost, a move
from a cache that missed a new match, a dead node's players, and what an idle node costs Redis."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from cluster_nodes import (
    NEVER,
    Node,
    alice_and_bob,
    node_of,
    nodes,
    presence_seen,
    settle,
    stored_log,
)
from redis_helpers import RedisServer
from test_cluster_listener import count_round_trips, quiet
from wire_client import WireClient

import muggins.server.cluster.lobby as cluster_lobby
import muggins.server.cluster.room as cluster_room
from muggins.server.app import Server
from muggins.server.cluster.redis_store import RedisStore
from muggins.server.store.games import MatchRecord, RoomRecord, SeatRecord, StoreConflict
from muggins.shared.actions import GameOptions
from muggins.shared.match import Match
from muggins.shared.protocol import RoomOptions


async def test_a_lost_action_wake_up_is_made_good_by_the_next(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nodes B (Bob's) and C (a spectator's) miss the wake-up of Alice's discard. Bob's own
    discard, written from B's cache, loses the race for its index: B catches up and writes it
    again. C hears of Bob's discard, which is ahead of its cache: C catches up from the log.
    Everyone gets every state, in order."""
    monkeypatch.setattr(cluster_lobby, "SAFETY_POLL", NEVER)
    async with nodes(redis_server, 3) as (a, b, c):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        watcher = await WireClient.open(c.url, name="Watcher")
        created = await alice.request(type="create_room", options={"game": {"target": 121}})
        await bob.request(type="join_room", code=created["code"])
        await watcher.request(type="spectate", code=created["code"])
        await settle([alice, bob, watcher], 1)
        await quiet(a, b, c)
        dropped: list[str] = []

        def deaf_once(plain: Callable[[str], None]) -> Callable[[str], None]:
            """``plain``, except that the first action wake-up is dropped."""
            mine: list[str] = []

            def heard(data: str) -> None:
                if not mine and '"kind":"action"' in data:
                    mine.append(data)
                    dropped.append(data)
                    return
                plain(data)

            return heard

        for node in (b, c):
            lobby = node_of(node)
            lobby._heard = deaf_once(lobby._heard)  # type: ignore[method-assign]
        assert alice.state is not None and bob.state is not None
        first = bob.state["seq"]
        await alice.send(**alice.state["view"]["legal"][0])
        await settle([alice], first + 1)
        async with asyncio.timeout(5):
            while len(dropped) < 2:
                await asyncio.sleep(0.01)
        await asyncio.sleep(0.2)
        assert bob.state["seq"] == first  # B did not hear of it
        await bob.send(**bob.state["view"]["legal"][0])
        await settle([alice, bob, watcher], first + 2)
        match = await stored_log(redis_server, created["code"])
        assert [seat for seat, _ in match.log] == [0, 1]
        for client in (bob, watcher):
            seqs = [f["seq"] for f in client.frames if f["type"] == "state"]
            assert seqs == sorted(seqs) and seqs[-1] == first + 2, seqs
        assert bob.state is not None and not [f for f in bob.frames if f["type"] == "error"]
        for client in (alice, bob, watcher):
            await client.close()


async def test_a_move_from_a_cache_that_missed_a_new_match_is_refused(
    redis_server: RedisServer,
) -> None:
    """The log of the old match still has room at the index, but the room moved on: Redis
    refuses the write as a lost race (the node then catches up), rather than storing it."""
    store = RedisStore(redis_server.url)
    try:
        seats = (SeatRecord(0, kind="human", player="p1", name="A"), SeatRecord(1))
        await store.create_room(RoomRecord("ROOMAA", RoomOptions(), time.time(), seats))
        options = GameOptions()
        seed = bytes(32)
        for number in (1, 2):
            record = MatchRecord("ROOMAA", number, seed, options, ("A", "B"), time.time())
            await store.start_match(record)
        match = Match(seed=seed, options=options)
        seat = match.waiting_for()[0]
        action = match.legal_actions(seat)[0]
        with pytest.raises(StoreConflict):
            await store.append_action("ROOMAA", 1, 0, seat, action, key="k")
        await store.append_action("ROOMAA", 2, 0, seat, action, key="k")
        assert len(await store.moves_since("ROOMAA", 1, 0)) == 0
        assert len(await store.moves_since("ROOMAA", 2, 0)) == 1
    finally:
        await store.close()


async def test_the_opponent_is_told_of_a_killed_node_before_its_heartbeat_runs_out(
    redis_server: RedisServer,
) -> None:
    """Alice's node dies (SIGKILL): its connections close, so its subscription to its wake-ups
    ends at once, and Bob on node B is told she lost the connection after a short confirmation
    and before her node's heartbeat would have run out (two presence lives, the only way a
    drop was seen before; a stalled node keeps its subscription, and test_cluster_rooms checks
    that a stall is not told as a drop). The bound is that order of events, not a timing goal:
    bench/failover.py measures how soon."""
    node_a = Node(redis_server)
    try:
        async with nodes(redis_server, 1) as (b,):
            _alice, bob, created = await alice_and_bob(node_a.url, b.url)
            await presence_seen(b, created["code"], 0)
            killed = time.monotonic()
            node_a.kill()
            notice = await bob.expect("notice", timeout=20)
            while notice["code"] != "disconnected":  # notices sent before the kill come first
                assert time.monotonic() - killed < 20, notice
                notice = await bob.expect("notice", timeout=20)
            took = time.monotonic() - killed
            assert notice["code"] == "disconnected" and "Alice" in notice["text"]
            print(f"the opponent was told {took:.2f} s after the kill")
            assert took < 2 * cluster_lobby.PRESENCE_TTL, (
                took
            )  # before the heartbeat's path could tell
            assert took >= cluster_room.END_CONFIRM, took  # not at once: confirmed first
            status = await bob.expect("room")
            assert status["seats"][0]["connected"] is False
            await bob.close()
    finally:
        node_a.stop()


def count_queue_requests(server: Server) -> list[str]:
    """The matchmaking queue's Redis requests ``server`` makes from now on."""
    store = node_of(server).redis
    made: list[str] = []
    plain = store._call

    async def counting(what: str, make: Callable[[], Awaitable[Any]]) -> Any:
        if what == "queue":
            made.append(what)
        return await plain(what, make)

    store._call = counting  # type: ignore[method-assign]
    return made


async def test_an_idle_node_costs_redis_one_heartbeat_a_round_whatever_its_players(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Twelve idle players in six rooms over two nodes: in six seconds the nodes make no request
    but their heartbeats, however many players they hold (no matchmaking round reads the queue
    while nobody is queued on the node)."""
    monkeypatch.setattr(cluster_lobby, "SAFETY_POLL", NEVER)
    async with nodes(redis_server, 2) as (a, b):
        clients = []
        for n in range(6):
            host = await WireClient.open(a.url, name=f"H{n}")
            guest = await WireClient.open(b.url, name=f"G{n}")
            created = await host.request(type="create_room", options={"game": {"target": 121}})
            await guest.request(type="join_room", code=created["code"])
            await settle([host, guest], 1)
            clients += [host, guest]
        await quiet(a, b)
        on_a, on_b = count_round_trips(a), count_round_trips(b)
        beats = {"n": 0}
        lobby = node_of(a)
        heartbeat = lobby.redis.heartbeat

        async def counted(**kwargs: object) -> list[bool]:
            beats["n"] += 1
            return await heartbeat(**kwargs)  # type: ignore[arg-type]

        lobby.redis.heartbeat = counted  # type: ignore[method-assign]
        queue_reads = [count_queue_requests(a), count_queue_requests(b)]
        await asyncio.sleep(6.0)
        assert not on_a and not on_b, (dict(on_a), dict(on_b))
        assert queue_reads == [[], []]
        rounds = 6.0 / cluster_lobby.POLL
        assert rounds - 2 <= beats["n"] <= rounds + 1, beats
        rng = random.Random(1)
        mover = next(c for c in clients if c.my_turn())
        assert mover.state is not None
        await mover.send(**rng.choice(mover.state["view"]["legal"]))
        await mover.expect("state")
        for client in clients:
            await client.close()


async def test_a_finish_the_finishing_node_did_not_record_is_recorded_by_the_next(
    redis_server: RedisServer,
) -> None:
    """The node that applied a match's last move died before recording the finish (the move is
    stored, the match has no result; the chaos test once left a game so): the next node that
    loads the room records it, and a later record of another result does not replace it."""
    store = RedisStore(redis_server.url)
    try:
        seats = (
            SeatRecord(0, kind="human", player="p1", name="A"),
            SeatRecord(1, kind="human", player="p2", name="B"),
        )
        await store.create_room(RoomRecord("ROOMAB", RoomOptions(), time.time(), seats))
        options = GameOptions(target=61)
        seed = bytes(32)
        await store.start_match(MatchRecord("ROOMAB", 1, seed, options, ("A", "B"), time.time()))
        match = Match(seed=seed, options=options)
        rng = random.Random(4)
        while not match.over:
            seat = match.waiting_for()[0]
            action = rng.choice(match.legal_actions(seat))
            await store.append_action("ROOMAB", 1, len(match.log), seat, action, key=f"k{seat}")
            match.apply(seat, action)
        assert (await store.load_match("ROOMAB", 1)).finished is None  # type: ignore[union-attr]
        async with nodes(redis_server, 1) as (node,):
            watcher = await WireClient.open(node.url, name="Watcher")
            await watcher.request(type="spectate", code="ROOMAB")
            record = await store.load_match("ROOMAB", 1)
            assert record is not None and record.finished is not None
            assert (record.result, record.winner) == ("won", match.winner)
            await store.finish_match(
                "ROOMAB", 1, finished=time.time(), result="abandoned", winner=None
            )
            again = await store.load_match("ROOMAB", 1)
            assert again == record
            await watcher.close()
    finally:
        await store.close()


async def test_a_move_made_while_a_node_loads_the_room_is_caught_up_there(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Node B loads a private room (a tournament table reads its pairing first) while Alice, on
    A, moves: the move's wake-up reaches B before B's copy is in place. B's copy catches up at
    once, not at the next safety poll (turned off here), so a player seated there sees it."""
    monkeypatch.setattr(cluster_lobby, "SAFETY_POLL", NEVER)
    async with nodes(redis_server, 2) as (a, b):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(a.url, name="Bob")
        options = {"game": {"target": 121}, "private": True}
        created = await alice.request(type="create_room", options=options)
        code = created["code"]
        await bob.request(type="join_room", code=code)
        await settle([alice, bob], 1)
        await quiet(a, b)
        lobby = node_of(b)
        heard: list[str] = []
        plain_heard = lobby._heard

        def hearing(data: str) -> None:
            heard.append(data)
            plain_heard(data)

        lobby._heard = hearing  # type: ignore[method-assign]
        plain_loaded = lobby.tournaments.loaded

        async def loaded_while_alice_moves(room: Any) -> None:
            await plain_loaded(room)
            assert alice.state is not None
            seq = alice.state["seq"]
            await alice.send(**alice.state["view"]["legal"][0])
            await settle([alice], seq + 1)
            async with asyncio.timeout(5):
                while not any(code in data for data in heard):
                    await asyncio.sleep(0.01)

        lobby.tournaments.loaded = loaded_while_alice_moves  # type: ignore[method-assign]
        room = await lobby.load(code)
        assert room is not None and room.match is not None
        stored = await stored_log(redis_server, code)
        async with asyncio.timeout(5):
            while len(room.match.log) < len(stored.log):
                await asyncio.sleep(0.01)
        assert room.match.log == stored.log
