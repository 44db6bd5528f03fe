"""Cluster mode, the room listing: an index in Redis kept by the scripts that change rooms, so a
page costs the same few Redis commands whatever the number of rooms, and it stays true."""

from __future__ import annotations

import asyncio
import time

from cluster_nodes import nodes, settle
from redis_helpers import RedisServer
from wire_client import WireClient

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.store.games import RoomRecord, SeatRecord
from muggins.shared.protocol import RoomOptions


def code_of(n: int) -> str:
    letters = ""
    for _ in range(6):
        n, digit = divmod(n, 26)
        letters = chr(ord("A") + digit) + letters
    return letters


async def make_rooms(redis: RedisServer, count: int, *, start: int = 0) -> list[str]:
    """``count`` public rooms written straight into Redis: every third one full (listed for
    watching), the others with an open seat."""
    store = ClusterStore(redis.url)
    codes = []
    try:
        for n in range(start, count):
            code = code_of(n)
            seats = (
                SeatRecord(0, "human", f"P{n}", f"p{n}"),
                SeatRecord(1, "human", f"Q{n}", f"q{n}") if n % 3 == 0 else SeatRecord(1),
            )
            await store.create_room(RoomRecord(code, RoomOptions(), time.time(), seats))
            codes.append(code)
    finally:
        await store.close()
    return codes


UPKEEP = frozenset(
    {
        "cmdstat_info",
        "cmdstat_config|resetstat",
        "cmdstat_client|setinfo",
        "cmdstat_hello",
        "cmdstat_ping",
        "cmdstat_hvals",  # the node's matchmaking queue poll, on its own clock
        "cmdstat_set",  # the node's heartbeat (SET alive:<node> PX), once a second on its own clock
    }
)


async def commands_for(
    redis: RedisServer, client: WireClient, **message: object
) -> tuple[dict[str, object], int]:
    """The answer to ``message`` and how many commands Redis ran meanwhile (INFO commandstats,
    reset just before; the counting's own commands left out, and those that keep connections up:
    a pooled connection's health-check ``PING`` and a new one's ``HELLO`` and ``CLIENT SETINFO``,
    and the node's matchmaking poll).
    """
    store = ClusterStore(redis.url)
    try:
        await store.redis.config_resetstat()
        answer = await client.request(**message)
        stats = await store.redis.info("commandstats")
    finally:
        await store.close()
    ran = sum(int(value["calls"]) for name, value in stats.items() if name not in UPKEEP)
    return answer, ran


async def test_a_page_costs_three_redis_commands_at_3000_rooms(redis_server: RedisServer) -> None:
    """With 3,000 rooms the first page, a page from the middle (by cursor) and the last page
    each cost three Redis commands (the page, the count, the summaries), as with 30 rooms; the
    pages walk every listed room once, open seats first, each section by code."""
    async with nodes(redis_server, 1) as (node,):
        lister = await WireClient.open(node.url, name="Lister")
        codes = await make_rooms(redis_server, 30)
        _, few = await commands_for(redis_server, lister, type="list_rooms")
        codes += await make_rooms(redis_server, 3000, start=30)
        first, many = await commands_for(redis_server, lister, type="list_rooms")
        assert (few, many) == (3, 3), (few, many)
        assert first["total"] == 3000 and len(first["rooms"]) == 50
        seen = [r["code"] for r in first["rooms"]]
        cursor = first["next"]
        costs = []
        while cursor is not None:
            page, cost = await commands_for(
                redis_server, lister, type="list_rooms", after=cursor, limit=200
            )
            costs.append(cost)
            seen += [r["code"] for r in page["rooms"]]
            cursor = page["next"]
        assert set(costs) == {3}, costs
        full = {code_of(n) for n in range(3000) if n % 3 == 0}
        assert seen == sorted(set(codes) - full) + sorted(full)
        await lister.close()


async def test_the_listing_follows_rooms_through_their_life(redis_server: RedisServer) -> None:
    """Across two nodes: a new public room is listed waiting with an open seat; a private one
    and a full unwatchable one never are; a started match shows playing (listed for watching),
    a finished one over; a closed room is gone from the listing."""
    async with nodes(redis_server, 2) as (a, b):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        carol = await WireClient.open(a.url, name="Carol")
        dave = await WireClient.open(b.url, name="Dave")
        erin = await WireClient.open(b.url, name="Erin")
        lister = await WireClient.open(b.url, name="Lister")

        async def listed() -> dict[str, dict[str, object]]:
            page = await lister.request(type="list_rooms")
            assert page["total"] == len(page["rooms"])
            return {r["code"]: r for r in page["rooms"]}

        game = (await alice.request(type="create_room", options={"game": {"target": 121}}))["code"]
        hidden = (await carol.request(type="create_room", options={"private": True}))["code"]
        unwatched = (await dave.request(type="create_room", options={"spectators": False}))["code"]
        rooms = await listed()
        assert set(rooms) == {game, unwatched}
        assert (rooms[game]["status"], rooms[game]["open_seat"]) == ("waiting", True)
        assert rooms[game]["names"] == ["Alice", None]

        await bob.request(type="join_room", code=game)
        await erin.request(type="join_room", code=unwatched)
        await settle([alice, bob], 1)
        rooms = await listed()
        assert set(rooms) == {game}
        assert (rooms[game]["status"], rooms[game]["open_seat"]) == ("playing", False)
        assert rooms[game]["names"] == ["Alice", "Bob"]

        resigned = await alice.request(type="resign")
        assert resigned["type"] != "error", resigned
        async with asyncio.timeout(10):  # the match is over once the resign is stored
            while (await listed())[game]["status"] != "over":
                await asyncio.sleep(0.05)

        for client in (carol, dave, erin, bob, alice):
            left = await client.request(type="leave")
            assert left["type"] != "error", left
        assert await listed() == {}
        assert hidden not in await listed()


async def test_rooms_stored_before_the_index_are_indexed_once(redis_server: RedisServer) -> None:
    """A cluster whose Redis holds rooms but no listing index (written by an older version):
    the first node to start builds the index, and every node lists the rooms."""
    codes = await make_rooms(redis_server, 12)
    store = ClusterStore(redis_server.url)
    try:
        await store.redis.delete(
            store.listed_key, store.summary_key, f"{store.prefix}rooms:indexed"
        )
    finally:
        await store.close()
    async with nodes(redis_server, 2) as (a, b):
        for node in (a, b):
            lister = await WireClient.open(node.url, name="Lister")
            page = await lister.request(type="list_rooms")
            assert page["total"] == 12
            assert {r["code"] for r in page["rooms"]} == set(codes)
            await lister.close()
