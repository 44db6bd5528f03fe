"""Cluster faults, each over a real redis-server and real node processes.

(a) A node dies right after storing a rated match's last move and nobody comes back: any node's
sweep of matches finished but not settled settles it, exactly once.
(b) A player whose node froze moves to another node; when the frozen node thaws, the opponent
is not offered the claim (the player is connected, on another node).
(c) The opponent's node hangs (SIGSTOP): past the grace the player is offered the claim, and the
claim goes through.
(d) The sweep that settles what dead nodes left keeps the server's limit on one pair's rated
matches.

Timings are not asserted: each test checks the order of what the players are told.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time

import redis.asyncio as aioredis
from cluster_nodes import Node, rated_room, registered, settle
from redis_helpers import RedisServer
from test_rated_cluster import play_until_the_end
from wire_client import Frame, WireClient

from muggins.server.cluster.redis_store import RedisStore
from muggins.server.store.games import MatchRecord, RoomRecord, SeatRecord
from muggins.shared.actions import ACTION, GameOptions
from muggins.shared.match import Match
from muggins.shared.protocol import RoomOptions

GRACE = "1"
"""The nodes' grace period (seconds) before a claim may be offered."""


async def ratings(client: WireClient, names: tuple[str, ...]) -> list[Frame]:
    return [(await client.request(type="profile", name=n))["rating"] for n in names]


async def finishing_move(redis: RedisServer, code: str) -> tuple[int, int, Frame] | None:
    """The stored match's number, and a seat's legal move that ends it, if there is one now."""
    store = RedisStore(redis.url)
    try:
        number = await store.current_match(code)
        record = await store.load_match(code, number)
    finally:
        await store.close()
    assert record is not None
    match = Match.replay(record.options, record.seed, record.actions)
    for seat in match.waiting_for():
        for action in match.legal_actions(seat):
            after = Match.replay(match.options, match.seed, [*match.log, (seat, action)])
            if after.over:
                return number, seat, action.model_dump(mode="json")
    return None


async def test_a_rated_match_left_unsettled_by_a_dead_node_is_settled_once(
    redis_server: RedisServer,
) -> None:
    """The node dies after storing the last move (before finishing or settling it) and nobody
    returns: another node's sweep settles the match; more sweeps and another node change
    nothing."""
    a = Node(redis_server, "--grace", GRACE)
    b = Node(redis_server, "--grace", GRACE, "--sweep-interval", "0.5")
    try:
        (ann, _), (bob, _) = await registered(a.url, "Ann"), await registered(a.url, "Bob")
        room = await ann.request(
            type="create_room", options={"game": {"target": 61}, "rated": True}
        )
        code = room["code"]
        await bob.request(type="join_room", code=code)
        rng = random.Random(3)
        players = [ann, bob]
        seq = 1
        while True:
            await settle(players, seq)
            last = await finishing_move(redis_server, code)
            if last is not None:
                break
            mover = next(c for c in players if c.my_turn())
            assert mover.state is not None
            await mover.send(**rng.choice(mover.state["view"]["legal"]))
            seq += 1
        # The node stores the last move and dies before it finishes or settles the match.
        a.signal(signal.SIGSTOP)
        number, seat, action = last
        store = RedisStore(redis_server.url)
        try:
            record = await store.load_match(code, number)
            assert record is not None
            await store.append_action(
                code, number, len(record.actions), seat, ACTION.validate_python(action), key="last"
            )
        finally:
            await store.close()
        a.kill()
        await ann.close()
        await bob.close()

        # The match leaves the list of unsettled ones: settled by a sweep of node B.
        redis = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
        try:
            while await redis.zscore("muggins:unsettled", f"{code}-{number}") is not None:
                await asyncio.sleep(0.1)
            assert await redis.exists(f"muggins:settled:{code}-{number}")
            rounds: set[str] = set()
            while len(rounds) < 3:  # more sweep rounds after it change nothing
                rounds |= set(await redis.keys("muggins:claim:sweep:*"))
                await asyncio.sleep(0.1)
        finally:
            await redis.aclose()
        watcher = await WireClient.open(b.url, name="watcher")
        now = await ratings(watcher, ("Ann", "Bob"))
        assert [r["games"] for r in now] == [1, 1]
        c = Node(redis_server, "--sweep-interval", "0.5")
        try:
            other = await WireClient.open(c.url, name="other")
            await other.request(type="spectate", code=code)
            assert await ratings(other, ("Ann", "Bob")) == now
        finally:
            c.stop()
    finally:
        a.stop()
        b.stop()


async def test_kill_9_at_the_last_move_with_nobody_back_rates_the_match_once(
    redis_server: RedisServer,
) -> None:
    """kill -9 of the node both players are on the moment either hears the match is over; neither
    comes back: the match is settled once (by that node before it died, or by another node's
    sweep), and a third node changes nothing."""
    a = Node(redis_server, "--grace", GRACE)
    b = Node(redis_server, "--grace", GRACE, "--sweep-interval", "0.5")
    try:
        (ann, _), (bob, _) = await registered(a.url, "Ann"), await registered(a.url, "Bob")
        room = await rated_room(ann, bob)
        over = await play_until_the_end([ann, bob], random.Random(4))
        a.kill()
        member = f"{room['code']}-1"
        redis = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
        try:
            while await redis.zscore("muggins:unsettled", member) is not None:
                await asyncio.sleep(0.1)
            assert await redis.exists(f"muggins:settled:{member}")
        finally:
            await redis.aclose()
        watcher = await WireClient.open(b.url, name="watcher")
        now = await ratings(watcher, ("Ann", "Bob"))
        assert [r["games"] for r in now] == [1, 1]
        winner = over["outcome"]["winner"]
        assert now[winner]["rating"] > 1500 > now[1 - winner]["rating"]
        c = Node(redis_server, "--sweep-interval", "0.5")
        try:
            other = await WireClient.open(c.url, name="other")
            await other.request(type="spectate", code=room["code"])
            assert await ratings(other, ("Ann", "Bob")) == now
        finally:
            c.stop()
    finally:
        a.stop()
        b.stop()


async def notices_until(client: WireClient, done: object) -> list[str]:
    """The notices ``client`` is told until a frame for which ``done(frame)`` holds."""
    told = []
    while True:
        frame = await client.recv(timeout=60)
        if frame["type"] == "notice":
            told.append(frame["code"])
        if done(frame):  # type: ignore[operator]
            return told


async def test_no_claim_offer_while_the_player_is_connected_on_another_node(
    redis_server: RedisServer,
) -> None:
    """Alice's node freezes; she resumes on node B and plays on; the frozen node thaws, catches
    up, and only then sees her old connection close: Bob, on node C, is not offered the claim."""
    a, b, c = (Node(redis_server, "--grace", GRACE) for _ in range(3))
    try:
        old = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(c.url, name="Bob")
        room = await old.request(type="create_room", options={})
        code = room["code"]
        await bob.request(type="join_room", code=code)
        witness = await WireClient.open(a.url, name="witness")
        await witness.request(type="spectate", code=code)
        await bob.expect("state")

        a.signal(signal.SIGSTOP)
        alice = await WireClient.open(b.url, hello=False)
        welcome = await alice.hello("Alice", token=old.token)
        assert welcome["type"] == "welcome" and welcome["resumed"], welcome
        state = await alice.expect("state")
        rng = random.Random(5)
        seq = state["seq"]
        for _ in range(5):  # both play on while node A stays frozen
            await settle([alice, bob], seq)
            mover = next(c for c in (alice, bob) if c.my_turn())
            assert mover.state is not None
            await mover.send(**rng.choice(mover.state["view"]["legal"]))
            seq += 1
        await settle([alice, bob], seq)
        a.signal(signal.SIGCONT)
        while witness.state is None or witness.state["seq"] < seq:
            await witness.recv(timeout=60)  # node A has caught up
        old.ws.transport.abort()
        # Node A sees the old connection gone now: past its grace (1 s) it must not offer Bob
        # the claim, for Alice is connected (to node B). Then a chat line from her closes the
        # window in which an offer would have come.
        await asyncio.sleep(3)
        await alice.send(type="chat", text="still here")
        told = await notices_until(bob, lambda f: f["type"] == "chat")
        assert "claimable" not in told, told
        assert "claimable" not in [f.get("code") for f in bob.frames], bob.frames
    finally:
        for node in (a, b, c):
            node.stop()


async def test_the_claim_is_offered_when_the_opponents_node_hangs(
    redis_server: RedisServer,
) -> None:
    """Alice's node hangs (SIGSTOP) with her connection on it: Bob, on another node, is told she
    is disconnected, then offered the claim after the grace, and his claim wins the game."""
    a, b = Node(redis_server, "--grace", GRACE), Node(redis_server, "--grace", GRACE)
    try:
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        room = await alice.request(type="create_room", options={})
        await bob.request(type="join_room", code=room["code"])
        await bob.expect("state")
        a.signal(signal.SIGSTOP)
        notices: list[str] = []
        with contextlib.suppress(TimeoutError):
            while "claimable" not in notices:
                frame = await bob.recv(timeout=60)
                if frame["type"] == "notice":
                    notices.append(frame["code"])
        # (a loaded machine may tell a lapse and a return before: only the order at the end counts)
        assert notices[-2:] == ["disconnected", "claimable"], notices
        reply = await bob.request(type="claim", take="win")
        assert reply["type"] != "error", reply
        assert (
            any(f["type"] == "state" and f["view"]["phase"] == "match_over" for f in bob.frames)
            or (await bob.expect("state"))["view"]["phase"] == "match_over"
        )
    finally:
        a.stop()
        b.stop()


async def left_unsettled(
    redis: RedisServer, code: str, accounts: tuple[str, str], seed: int
) -> None:
    """A closed rated room of ``accounts`` whose match's last move is stored and nothing after
    it (its node died then): only a sweep settles it."""
    rng = random.Random(seed)
    raw = rng.randbytes(32)
    options = GameOptions(target=61)
    match = Match(seed=raw, options=options)
    while not match.over:
        seat = match.waiting_for()[0]
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    seats = (
        SeatRecord(0, "human", "Ann", player=f"a{seed}", account=accounts[0]),
        SeatRecord(1, "human", "Bob", player=f"b{seed}", account=accounts[1]),
    )
    store = RedisStore(redis.url)
    try:
        room = RoomOptions(game=options, rated=True)
        await store.create_room(RoomRecord(code, room, time.time(), seats))
        await store.start_match(MatchRecord(code, 1, raw, options, ("Ann", "Bob"), time.time()))
        for index, (seat, action) in enumerate(match.log):
            await store.append_action(code, 1, index, seat, action, key=f"k{seed}")
        await store.close_room(code)
    finally:
        await store.close()


async def test_the_sweep_keeps_the_servers_limit_on_rated_matches_of_one_pair(
    redis_server: RedisServer,
) -> None:
    """With --rated-pair-per-day 1, of two rated matches of one pair that only the sweep
    settles (their nodes died after the last move), the first is rated and the second is not,
    as when a room settles them (the sweep used the default limit, 3)."""
    b = Node(redis_server, "--sweep-interval", "0.5", "--rated-pair-per-day", "1")
    redis = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        ann = await WireClient.open(b.url, name="Ann")
        bob = await WireClient.open(b.url, name="Bob")
        made = [
            await c.request(type="register", name=c.name, password="long enough")
            for c in (ann, bob)
        ]
        pair = (str(made[0]["account"]), str(made[1]["account"]))
        for n, code in enumerate(("SWEEP1", "SWEEP2")):
            await left_unsettled(redis_server, code, pair, n)
            while not await redis.exists(f"muggins:settled:{code}-1"):
                await asyncio.sleep(0.1)
        history = await ann.request(type="history")
        assert [(g["game"], g["rated"]) for g in reversed(history["games"])] == [
            ("SWEEP1-1", True),
            ("SWEEP2-1", False),
        ]
        assert (await ratings(ann, ("Ann",)))[0]["games"] == 1
        await ann.close()
        await bob.close()
    finally:
        await redis.aclose()
        b.stop()
