"""Cluster mode, the rooms: presence, agreements, seats, timers and clean-up across nodes."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import time

import pytest
from cluster_nodes import (
    Node,
    alice_and_bob,
    copy_in,
    nodes,
    presence_seen,
    settle,
    stored_log,
)
from redis_helpers import RedisServer
from wire_client import WireClient

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.redis_store import RedisStore


async def test_opponent_on_another_node_drops_returns_and_can_be_claimed(
    redis_server: RedisServer,
) -> None:
    """Bob (node B) drops: Alice (node A) is told, sees him disconnected, and sees him return;
    when he drops again, after the grace period she claims the game from node A."""
    async with nodes(redis_server, 2) as (a, b):
        alice, bob, created = await alice_and_bob(a.url, b.url)
        early = await alice.request(type="claim", take="win")
        assert early["type"] == "error" and early["code"] == "illegal"
        await presence_seen(a, created["code"], 1)
        token = bob.token
        await bob.close()
        notice = await alice.expect("notice")
        assert notice["code"] == "disconnected" and "Bob" in notice["text"]
        room = await alice.expect("room")
        assert room["seats"][1]["connected"] is False
        bob = await WireClient.open(b.url, hello=False)
        welcome = await bob.hello("Bob", token=token)
        assert welcome["resumed"] is True
        notice = await alice.expect("notice")
        assert notice["code"] == "returned"
        await bob.close()
        notice = await alice.expect("notice")
        assert notice["code"] == "disconnected"
        await asyncio.sleep(0.4)  # the grace period of these nodes is 0.3 s
        claimed = await alice.request(type="claim", take="win")
        assert claimed["type"] == "state"
        match = await stored_log(redis_server, created["code"])
        assert match.over and match.winner == 0
        assert match.log[-1][0] == 1 and match.log[-1][1].type == "resign"
        await alice.close()


async def test_abandoned_room_is_closed_once_by_one_node(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both players gone and no move for abandon_after: exactly one node closes the room and
    records its match as abandoned; a room with a player still connected stays open."""
    closes: list[str] = []
    close_room = RedisStore.close_room

    async def counting_close(self: RedisStore, code: str) -> None:
        closes.append(code)
        await close_room(self, code)

    monkeypatch.setattr(RedisStore, "close_room", counting_close)
    async with nodes(redis_server, 3, abandon_after=0.5, sweep_interval=0.1) as (a, b, _):
        alice, bob, created = await alice_and_bob(a.url, b.url, settled=False)
        carol = await WireClient.open(b.url, name="Carol")
        kept = await carol.request(type="create_room")
        await alice.close()
        await bob.close()
        store = RedisStore(redis_server.url)
        try:
            async with asyncio.timeout(10):
                while await store.load_room(created["code"]) is not None:
                    await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            [done] = await store.finished_matches()
            assert (done.room, done.result) == (created["code"], "abandoned")
            assert await store.load_room(kept["code"]) is not None
        finally:
            await store.close()
        assert closes == [created["code"]]
        await carol.close()


async def test_chat_restart_and_rematch_agreements_cross_nodes(redis_server: RedisServer) -> None:
    """Chat, a restart proposal and its acceptance, and rematch wishes work between players on
    two nodes: each side sees the other's line, proposal and wish, and the new match starts."""
    async with nodes(redis_server, 2) as (a, b):
        alice, bob, created = await alice_and_bob(a.url, b.url, target=61)
        said = await alice.request(type="chat", text="good luck")
        assert said["type"] == "chat"
        heard = await bob.expect("chat")
        assert (heard["sender"], heard["text"]) == ("Alice", "good luck")

        assert alice.state is not None
        first_match_seq = alice.state["seq"]
        proposed = await alice.request(type="propose_restart")
        assert proposed["type"] == "room" and proposed["restart_proposed_by"] == 0
        notice = await bob.expect("notice")
        assert notice["code"] == "restart_proposed"
        while bob.room is None or bob.room["restart_proposed_by"] != 0:
            await bob.recv()
        accepted = await bob.request(type="answer_restart", accept=True)
        assert accepted["type"] in ("room", "state")
        for client in (alice, bob):
            while client.room is None or client.room["match_number"] != 2:
                await client.recv()
        while alice.state is None or alice.state["seq"] <= first_match_seq:
            await alice.recv()  # the new match's state: the resign names its seq

        await alice.request(type="resign")
        wish = await bob.request(type="rematch")
        assert wish["type"] == "room" and wish["rematch_wanted"] == [False, True]
        while alice.room is None or alice.room["rematch_wanted"] != [False, True]:
            await alice.recv()
        await alice.request(type="rematch")
        for client in (alice, bob):
            while client.room is None or client.room["match_number"] != 3:
                await client.recv()
        store = RedisStore(redis_server.url)
        try:
            assert await store.current_match(created["code"]) == 3
            results = {m.number: m.result for m in await store.finished_matches()}
        finally:
            await store.close()
        assert results == {1: "restarted", 2: "won"}
        await alice.close()
        await bob.close()


async def test_rematch_wishes_made_at_once_on_two_nodes_are_both_kept(
    redis_server: RedisServer,
) -> None:
    """Alice (node A) and Bob (node B) ask for a rematch at the same moment, match after match:
    each time the new match starts (a blind write of the wishes lost one, and the room waited
    for ever: found by the flat-out cluster bench with each room's players on two nodes)."""
    async with nodes(redis_server, 2) as (a, b):
        alice, bob, _ = await alice_and_bob(a.url, b.url, target=61)
        for number in range(1, 9):
            for client in (alice, bob):
                while client.room is None or client.room["match_number"] != number:
                    await client.recv()
            while alice.state is None or alice.state["view"]["phase"] == "match_over":
                await alice.recv()
            await alice.request(type="resign")
            for client in (alice, bob):
                while client.state is None or client.state["view"]["phase"] != "match_over":
                    await client.recv()
            await asyncio.gather(alice.send(type="rematch"), bob.send(type="rematch"))
            async with asyncio.timeout(15):
                for client in (alice, bob):
                    while client.room is None or client.room["match_number"] != number + 1:
                        await client.recv()
        await alice.close()
        await bob.close()


async def test_two_joiners_on_two_nodes_race_for_the_last_seat(redis_server: RedisServer) -> None:
    """Bob (node A) and Carol (node B) join the same room at once: one sits, the other is told
    the room is full, and every node agrees on who sits."""
    async with nodes(redis_server, 2) as (a, b):
        for _ in range(5):
            alice = await WireClient.open(a.url, name="Alice")
            bob = await WireClient.open(a.url, name="Bob")
            carol = await WireClient.open(b.url, name="Carol")
            created = await alice.request(type="create_room")
            code = created["code"]
            answers = await asyncio.gather(
                bob.request(type="join_room", code=code), carol.request(type="join_room", code=code)
            )
            kinds = sorted(f["type"] for f in answers)
            assert kinds == ["error", "room"], answers
            [refused] = [f for f in answers if f["type"] == "error"]
            assert refused["code"] == "room_full"
            winner = "Bob" if answers[0]["type"] == "room" else "Carol"
            store = RedisStore(redis_server.url)
            try:
                snapshot = await store.load_room(code)
            finally:
                await store.close()
            assert snapshot is not None
            assert [s.name for s in snapshot.room.seats] == ["Alice", winner]
            for node in (a, b):
                await copy_in(node, code).sync()
                assert node.lobby.rooms[code].names() == ("Alice", winner)
            for client in (alice, bob, carol):
                await client.close()


async def test_turn_timer_moves_once_for_a_slow_player_across_three_nodes(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 5 s turn timer runs on every node that has the room; when it runs out exactly one node
    moves for the slow player, once."""
    won: list[str] = []
    claim = ClusterStore.claim

    async def counting_claim(self: ClusterStore, name: str, **kwargs: object) -> bool:
        result = await claim(self, name, **kwargs)  # type: ignore[arg-type]
        if name.startswith("timer:") and result:
            won.append(name)
        return result

    monkeypatch.setattr(ClusterStore, "claim", counting_claim)
    async with nodes(redis_server, 3) as (a, b, c):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        watcher = await WireClient.open(c.url, name="Watcher")
        created = await alice.request(type="create_room", options={"turn_timer": 5})
        await bob.request(type="join_room", code=created["code"])
        await watcher.request(type="spectate", code=created["code"])
        await settle([alice, bob], 1)
        assert alice.state is not None
        await alice.send(**alice.state["view"]["legal"][0])
        await settle([alice, bob], 2)
        notice = await bob.expect("notice", timeout=15)
        assert notice["code"] == "timeout" and "Bob" in notice["text"]
        await settle([alice, bob], 3)
        await asyncio.sleep(0.5)
        match = await stored_log(redis_server, created["code"])
        assert [seat for seat, _ in match.log] == [0, 1]
        assert won == [f"timer:{created['code']}:2"]
        for client in (alice, bob, watcher):
            await client.close()


async def test_a_paused_node_is_not_reported_as_a_drop(redis_server: RedisServer) -> None:
    """Alice's node A (a process) stalls for 8 s (SIGSTOP, as a starved node under load): her
    presence lapses in Redis meanwhile, but she never disconnected, so Bob on node B is not told
    she "lost the connection". When A then dies for real (SIGKILL), Bob is told."""
    node_a = Node(redis_server)
    try:
        async with nodes(redis_server, 1) as (b,):
            _alice, bob, created = await alice_and_bob(node_a.url, b.url)
            await presence_seen(b, created["code"], 0)
            node_a.signal(signal.SIGSTOP)
            await read_for(bob, 8.0)
            node_a.signal(signal.SIGCONT)
            await read_for(bob, 4.0)
            notices = [f["text"] for f in bob.frames if f["type"] == "notice"]
            assert not [t for t in notices if "lost the connection" in t], notices
            node_a.kill()
            notice = await bob.expect("notice", timeout=20)
            assert notice["code"] == "disconnected" and "Alice" in notice["text"]
    finally:
        node_a.stop()


async def read_for(client: WireClient, seconds: float) -> None:
    """Read (into ``client.frames``) whatever comes for ``seconds``."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(seconds):
            while True:
                await client.recv(timeout=seconds)


async def wait_closed(
    redis: RedisServer, code: str, *, within: float, since: float | None = None
) -> float:
    """Seconds until room ``code`` is closed in Redis (fails after ``within``), counted from
    ``since`` (a ``time.monotonic()`` reading) or from now."""
    store = RedisStore(redis.url)
    began = time.monotonic() if since is None else since
    try:
        async with asyncio.timeout(within):
            while await store.load_room(code) is not None:
                await asyncio.sleep(0.05)
    finally:
        await store.close()
    return time.monotonic() - began


async def test_a_waiting_room_its_creator_left_closes_after_the_grace_period(
    redis_server: RedisServer,
) -> None:
    """On two nodes with a 3 s grace period: Alice's waiting room stays while she is connected
    and when she comes back within the grace period; once she has been gone for longer, it
    closes (as on one server) and is no longer listed on either node."""
    async with nodes(redis_server, 2, grace=3.0, sweep_interval=0.5) as (a, b):
        alice = await WireClient.open(a.url, name="Alice")
        code = (await alice.request(type="create_room"))["code"]
        kept = (await (await WireClient.open(b.url, name="Carol")).request(type="create_room"))[
            "code"
        ]
        await asyncio.sleep(2.5)  # several sweeps while she is connected
        store = RedisStore(redis_server.url)
        try:
            assert await store.load_room(code) is not None
            token = alice.token
            await alice.close()
            await asyncio.sleep(0.5)
            alice = await WireClient.open(b.url, hello=False)
            assert (await alice.hello("Alice", token=token))["resumed"] is True
            await asyncio.sleep(2.5)
            assert await store.load_room(code) is not None, "closed while she was back"
            left = time.monotonic()  # before the close: the node sees her go after this
            await alice.close()
            took = await wait_closed(redis_server, code, within=15, since=left)
            print(f"closed {took:.1f} s after its creator left (grace 3 s, sweeps every 0.5 s)")
            assert took > 3.0
            assert await store.load_room(kept) is not None
        finally:
            await store.close()
        for node in (a, b):
            lister = await WireClient.open(node.url, name="Lister")
            listed = await lister.request(type="list_rooms")
            assert [r["code"] for r in listed["rooms"]] == [kept]


async def test_a_waiting_room_on_a_killed_node_closes_after_the_grace_period(
    redis_server: RedisServer,
) -> None:
    """Alice's node (a process) is SIGKILLed while her room waits for an opponent: no node
    holds her connection, so after her presence lapses and the grace period passes another
    node closes the room; a room whose creator is connected elsewhere stays."""
    dead = Node(redis_server, "--grace", "1")
    try:
        async with nodes(redis_server, 1, grace=1.0, sweep_interval=0.5) as (b,):
            alice = await WireClient.open(dead.url, name="Alice")
            code = (await alice.request(type="create_room"))["code"]
            carol = await WireClient.open(b.url, name="Carol")
            kept = (await carol.request(type="create_room"))["code"]
            await asyncio.sleep(1.5)
            killed = time.monotonic()
            dead.kill()
            took = await wait_closed(redis_server, code, within=30, since=killed)
            print(f"closed {took:.1f} s after its node was killed (grace 1 s)")
            assert took > 1.0
            store = RedisStore(redis_server.url)
            try:
                assert await store.load_room(kept) is not None
            finally:
                await store.close()
    finally:
        dead.stop()


async def test_the_sweep_in_small_steps_finds_each_idle_and_vacant_room_once(
    redis_server: RedisServer,
) -> None:
    """The sweep reads the open rooms a few at a time (so Redis is never held for the whole
    pass): over 41 rooms in steps of 3 it finds exactly the rooms one pass over all finds."""
    store = ClusterStore(redis_server.url, prefix="steps:")
    now = time.time()
    idle = {f"I{i:03d}" for i in range(13)}  # in play, no write for two hours
    vacant = {f"V{i:03d}" for i in range(9)}  # no match started, nobody there
    playing = {f"P{i:03d}" for i in range(19)}  # in play, written to now
    try:
        for code in idle | vacant | playing:
            touched = now - 7200 if code in idle else now
            match = "0" if code in vacant else "1"
            await store.redis.hset(
                store.room_key(code),
                mapping={"touched": repr(touched), "created": repr(touched), "match": match},
            )
            await store.redis.sadd(store.open_key, code)
        whole = await store.sweep_rooms(since=now - 3600, step=1000)
        stepped = await store.sweep_rooms(since=now - 3600, step=3)
        assert set(whole[0]) == idle and {code for code, _ in whole[1]} == vacant
        assert stepped[0] == whole[0] and sorted(stepped[1]) == sorted(whole[1])
        assert len(stepped[1]) == len(vacant)
    finally:
        await store.close()
