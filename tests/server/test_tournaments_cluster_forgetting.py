"""A cluster node forgets a tournament's tables once they are played: a node running for
months must not keep an entry for every seat it ever filled (nodes in one process on a real
redis-server)."""

from __future__ import annotations

import asyncio
import random

from cluster_nodes import admin, node_of, nodes, registered
from redis_helpers import RedisServer
from wire_client import WireClient, play_randomly


async def test_a_finished_tournament_leaves_nothing_behind_on_its_nodes(
    redis_server: RedisServer,
) -> None:
    """Ann on one node and Bob on the other play a one-round Swiss to its end: afterwards
    neither node holds a seat, a last-told summary or a lock for it."""
    async with nodes(redis_server, 2) as (a, b):
        boss = await admin(redis_server, a.url, "Director")
        made = await boss.request(
            type="create_tournament", name="Short", kind="swiss", rounds=1, target=61
        )
        tid = made["summary"]["tournament"]
        players: list[WireClient] = []
        for name, node in (("Ann", a), ("Bob", b)):
            client, _ = await registered(node.url, name)
            assert (await client.request(type="join_tournament", tournament=tid))["joined"]
            players.append(client)
        await boss.request(type="start_tournament", tournament=tid)
        table = ""
        for client in players:
            room = await client.expect("room", timeout=30)
            while room["you"] is None or room["status"] == "over":
                room = await client.expect("room", timeout=30)
            table = room["code"]
        rng = random.Random(7)
        seated = [node_of(s).tournaments._seated for s in (a, b)]
        assert {code for s in seated for code, _ in s} == {table}  # each node seated its own
        await asyncio.gather(*(play_randomly(c, rng, code=table) for c in players))
        ann = players[0]
        await ann.request(type="get_tournament", tournament=tid)
        while True:
            frame = await ann.expect("tournament", timeout=30)
            if frame["summary"]["status"] == "finished":
                break
        for server in (a, b):
            await node_of(server).tournaments.step(tid)  # each looks at it once more
            tournaments = node_of(server).tournaments
            assert tournaments._seated == set(), tournaments._seated
            assert tid not in tournaments._told and tid not in tournaments._locks
        for client in (*players, boss):
            await client.close()
