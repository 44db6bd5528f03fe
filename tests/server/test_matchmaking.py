"""Ranked matchmaking: pairing by rating with a widening range, 20 players over sockets, and a
queue that outlives the node a player was queued on (SIGKILL)."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import pytest
from hypothesis import given
from hypothesis import strategies as st
from redis_helpers import RedisServer
from test_cluster_failover import Node
from wire_client import WireClient

from muggins.server.app import Server
from muggins.server.lobby.matchmaking import accepted_range, pair
from muggins.server.store.accounts import QueueEntry
from muggins.shared.glicko2 import Rating

CLUSTERS = [(1000 + 300 * n, 1000 + 300 * n + 20 + n) for n in range(10)]
"""Ten pairs of close ratings, 300 points apart from the next pair."""


def entry(account: str, rating: float, since: float = 0.0, best_of: int = 1) -> QueueEntry:
    return QueueEntry(account, account, rating, best_of, since, since)


def test_twenty_queued_players_are_paired_with_their_nearest_rating() -> None:
    """Twenty players queued at once make the ten pairs of close ratings, nothing else."""
    entries = [
        entry(f"a{i:02}-{j}", r) for i, pair_ in enumerate(CLUSTERS) for j, r in enumerate(pair_)
    ]
    pairs = pair(entries, now=0.0)
    assert sorted(tuple(sorted((a.rating, b.rating))) for a, b in pairs) == CLUSTERS


def test_the_range_widens_with_waiting() -> None:
    """350 points apart: no pair at once, a pair after 25 s; best-of-three never meets one game."""
    far = [entry("low", 1000), entry("high", 1350)]
    assert pair(far, now=0.0) == []
    assert accepted_range(far[0], 25.0) == 350.0
    assert len(pair(far, now=25.0)) == 1
    mixed = [entry("one", 1500), entry("three", 1500, best_of=3)]
    assert pair(mixed, now=1000.0) == []


@given(
    st.lists(
        st.tuples(st.floats(800, 2500), st.floats(0, 60), st.sampled_from([1, 3])),
        max_size=30,
    ),
    st.floats(60, 120),
)
def test_pairs_are_disjoint_and_each_accepts_the_other(
    specs: list[tuple[float, float, int]], now: float
) -> None:
    """Nobody is paired twice; a pair has one length and a gap both players accept."""
    entries = [entry(f"p{i}", r, since, best_of) for i, (r, since, best_of) in enumerate(specs)]
    pairs = pair(entries, now)
    seen = [e.account for p in pairs for e in p]
    assert len(seen) == len(set(seen))
    for a, b in pairs:
        assert a.best_of == b.best_of
        gap = abs(a.rating - b.rating)
        assert gap <= max(accepted_range(a, now), accepted_range(b, now))


def test_a_far_player_who_has_waited_is_paired_before_newcomers_pair_up() -> None:
    """990 points from the nearer of two newcomers close to each other: after 89 s of waiting the
    far player's range reaches them, and the far player is served first, with the nearer one."""
    entries = [entry("far", 2000), entry("a", 1000, since=88.5), entry("b", 1010, since=88.5)]
    assert [(x.account, y.account) for x, y in pair(entries, now=88.5)] == [("a", "b")]
    assert [(x.account, y.account) for x, y in pair(entries, now=89.0)] == [("far", "b")]


@given(st.lists(st.floats(800, 2500), min_size=1, max_size=20), st.floats(800, 2500))
def test_whoever_has_waited_longest_is_paired_once_its_range_reaches_someone(
    fresh: list[float], rating: float
) -> None:
    """However the others' ratings lie, and though they have only just started seeking, the
    longest-waiting player is paired as soon as one of them is within its range."""
    entries = [entry(f"n{i}", r, since=300.0) for i, r in enumerate(fresh)]
    waiter = entry("waiter", rating)
    gap = min(abs(rating - r) for r in fresh)
    now = 300.0 + 0.01
    paired = [{a.account, b.account} for a, b in pair([waiter, *entries], now)]
    assert any("waiter" in p for p in paired) == (gap <= accepted_range(waiter, now))


async def seeker(
    url: str, name: str, rating: float, server: Server, *, duplicate: bool = False
) -> WireClient:
    client = await WireClient.open(url, name=name)
    made = await client.request(type="register", name=name, password="long enough")
    store = server.lobby.store
    found = await store.find_account(id=made["account"])
    assert found is not None
    store.accounts[found.id] = replace(found, rating=Rating(rating, 80))  # type: ignore[attr-defined]
    reply = await client.request(type="seek", duplicate=duplicate)
    assert reply["type"] == "seeking" and reply["active"] and reply["rating"] == rating
    return client


async def test_twenty_players_over_sockets_get_rated_rooms_by_rating(server: Server) -> None:
    """Twenty signed-in players seek at once; each lands in a rated room with their pair."""
    clients = {}
    for n, ratings in enumerate(CLUSTERS):
        for j, rating in enumerate(ratings):
            name = f"P{n:02}x{j}"
            clients[name] = await seeker(server.url, name, rating, server)
    rooms: dict[str, set[str]] = {}
    for name, client in clients.items():
        while client.room is None or client.room["status"] != "playing":
            await client.recv(timeout=15)
        assert client.room["options"]["rated"]
        rooms.setdefault(client.room["code"], set()).add(name)
    assert sorted(sorted(names) for names in rooms.values()) == [
        [f"P{n:02}x0", f"P{n:02}x1"] for n in range(10)
    ]
    assert await server.lobby.store.queue_entries() == []
    for client in clients.values():
        await client.close()


async def seated(client: WireClient) -> str:
    while client.room is None or client.room["status"] != "playing":
        await client.recv(timeout=15)
    return str(client.room["code"])


@pytest.mark.parametrize("duplicate", [False, True])
async def test_a_player_far_from_everyone_is_not_left_waiting(
    server: Server, duplicate: bool
) -> None:
    """Far (2000) has waited 200 s when Ann (1000) and Bob (1010) seek: Far's range reaches
    them, so Far is paired, with Bob, rather than Ann with Bob (who accept only 100 points at
    first, and would seek again, and again, and never reach Far)."""
    store = server.lobby.store
    far = await seeker(server.url, "Far", 2000, server, duplicate=duplicate)
    (waited,) = await store.queue_entries()
    queue = store.queue  # type: ignore[attr-defined]
    queue[waited.account] = replace(waited, since=waited.since - 200)
    clients = {"Far": far}
    for name, rating in (("Ann", 1000), ("Bob", 1010)):
        clients[name] = await seeker(server.url, name, rating, server, duplicate=duplicate)
    tasks = {asyncio.create_task(seated(client)): name for name, client in clients.items()}
    done: set[asyncio.Task[str]] = set()
    async with asyncio.timeout(20):
        while len(done) < 2:
            finished, _ = await asyncio.wait(set(tasks) - done, return_when=asyncio.FIRST_COMPLETED)
            done |= finished
    rooms = {tasks[task]: task.result() for task in done}
    assert set(rooms) == {"Far", "Bob"} and rooms["Far"] == rooms["Bob"]
    for task in set(tasks) - done:
        task.cancel()
    for client in clients.values():
        await client.close()


async def test_the_queue_survives_its_node_being_killed(redis_server: RedisServer) -> None:
    """Queued on node A, A is killed; back on B (token and session), Ann is paired with Bob."""
    a, b = Node(redis_server), Node(redis_server)
    try:
        ann = await WireClient.open(a.url, name="Ann")
        made = await ann.request(type="register", name="Ann", password="long enough")
        assert (await ann.request(type="seek"))["active"]
        a.kill()
        # A roomless player's token resumes only on its own node (docs/hosting.md): Ann's client
        # says hello afresh on B and signs in with her session, as the client does.
        back = await WireClient.open(b.url, hello=False)
        assert (await back.hello("Ann", token=ann.token))["code"] == "bad_token"
        assert (await back.hello("Ann"))["type"] == "welcome"
        signed = await back.request(type="sign_in", session=made["session"])
        assert signed["type"] == "account"
        bob = await WireClient.open(b.url, name="Bob")
        await bob.request(type="register", name="Bob", password="long enough")
        assert (await bob.request(type="seek"))["active"]
        for client in (back, bob):
            async with asyncio.timeout(15):
                while client.room is None or client.room["status"] != "playing":
                    await client.recv(timeout=15)
        assert back.room is not None and bob.room is not None
        assert back.room["code"] == bob.room["code"] and back.room["options"]["rated"]
        names = {s["name"] for s in back.room["seats"]}
        assert names == {"Ann", "Bob"}
    finally:
        a.stop()
        b.stop()
