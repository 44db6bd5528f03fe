"""A duplicate match in a cluster: its two players on two node processes sharing one
redis-server, each table watched from the other node, the leak audit on every frame, and the
pair settled once."""

from __future__ import annotations

import asyncio
import json
import random

from cluster_nodes import Node, stored_log
from redis_helpers import RedisServer
from test_duplicate import audit, capped, split_at_room, watch
from test_leak import play_fast
from test_outsider_findings import recorded_unrated, registered_from
from wire_client import WireClient

from muggins.shared.duplicate import compare, deal_lines, verdict


async def until_room(client: WireClient, leaving: str) -> str:
    """Read until the room frame of a table other than ``leaving``; its code."""
    while True:
        frame = await client.recv(timeout=20)
        if frame["type"] == "room" and frame["code"] != leaving:
            assert frame["duplicate_table"] == 2, frame
            return str(frame["code"])


async def seated_for_a_duplicate(ann: WireClient, bob: WireClient) -> tuple[WireClient, WireClient]:
    """Both seek a duplicate match and wait until its first table is playing: the client in
    seat 0 there, and the one in seat 1."""
    for client in (ann, bob):
        reply = await client.request(type="seek", duplicate=True)
        assert reply["type"] == "seeking" and reply["duplicate"], reply
    for client in (ann, bob):
        while client.room is None or client.room["status"] != "playing":
            await client.recv(timeout=20)
    return (ann, bob) if ann.room["you"] == 0 else (bob, ann)


async def test_a_duplicate_match_with_its_players_on_two_nodes(redis_server: RedisServer) -> None:
    """Ann on one node and Bob on another seek a duplicate match: both tables are played,
    the second on the first's deals with the seats swapped; no frame to either player, nor to
    a spectator of each table on the other node, shows a card that table's play has not
    revealed; all three hear the same result once, and the pair is rated once."""
    a, b = Node(redis_server), Node(redis_server)
    try:
        ann = await WireClient.open(a.url, name="Ann")
        bob = await WireClient.open(b.url, name="Bob")
        for client in (ann, bob):
            reply = await client.request(type="register", name=client.name, password="long enough")
            assert reply["type"] == "account", reply
        one, two = await seated_for_a_duplicate(ann, bob)
        first_code = ann.room["code"]
        assert bob.room["code"] == first_code
        assert ann.room["duplicate_table"] == 1 and ann.room["options"]["rated"]
        watcher_one = await watch(b.url, first_code, "Watcher")
        one.raw.clear()  # the frames before the spectator came are not compared with its own
        two.raw.clear()
        rng = random.Random(36)
        await asyncio.gather(play_fast(one, rng, 0), play_fast(two, rng, 1))
        # Each player's own node moves them to the second table.
        codes = await asyncio.gather(until_room(one, first_code), until_room(two, first_code))
        second_code = codes[0]
        assert codes == [second_code, second_code]
        watcher_two = await watch(a.url, second_code, "Onlooker")
        # At the second table the seats are swapped: the first player now sits in seat 1.
        await asyncio.gather(play_fast(one, rng, 1), play_fast(two, rng, 0))
        results = {}
        for client in (one, two, watcher_two):
            results[client.name] = await client.expect("duplicate_result", timeout=20)
        first = await stored_log(redis_server, first_code)
        second = await stored_log(redis_server, second_code)
        assert first.over and second.over
        lines = deal_lines(first.options, first.seed, first.log)
        again = deal_lines(second.options, second.seed, second.log)
        both = min(len(lines), len(again))
        assert both >= 1
        assert [line.hands for line in lines[:both]] == [line.hands for line in again[:both]]
        names = (one.name, two.name)
        margin = capped(first.games, 0) + capped(second.games, 1)
        for client, you in ((one, 0), (two, 1), (watcher_two, None)):
            result = results[client.name]
            assert result["margin"] == margin and result["you"] == you
            assert result["names"] == list(names)
            assert result["text"] == verdict(names, margin, you)
            assert result["games"] == [f"{first_code}-1", f"{second_code}-1"]
            assert len(result["hands"]) == len(compare(lines, again)) > 0
        for client in (one, two):
            kinds = [json.loads(text)["type"] for text in client.raw]
            assert kinds.count("duplicate_result") == 1
        counted = 0
        for client, seat in ((one, 0), (two, 1)):
            before, after = split_at_room(client.raw, second_code)
            counted += audit(before, seat, first) + audit(after, 1 - seat, second)
        counted += audit(watcher_one.raw, None, first) + audit(watcher_two.raw, None, second)
        assert counted > 40
        # Settled once, rated, as one match under the first table's id, whichever node asks.
        for client in (ann, bob):
            history = await client.request(type="history")
            [entry] = history["games"]
            assert entry["game"] == f"{first_code}-1" and entry["rated"]
            won = margin > 0 if client is one else margin < 0
            assert entry["result"] == ("drawn" if margin == 0 else "won" if won else "lost")
        profile = await ann.request(type="profile", name="Bob")
        assert profile["rating"]["games"] == 1
        for client in (ann, bob, watcher_one, watcher_two):
            await client.close()
    finally:
        a.stop()
        b.stop()


async def test_a_duplicate_match_from_one_public_address_on_two_nodes_moves_no_rating(
    redis_server: RedisServer,
) -> None:
    """Two accounts behind one public address, on two nodes, play a rated duplicate match: it
    is recorded but rated not at all, as on one server (the cluster rated it)."""
    a = Node(redis_server, "--trusted-proxy", "127.0.0.1")
    b = Node(redis_server, "--trusted-proxy", "127.0.0.1")
    try:
        ann = await registered_from(a.url, "203.0.113.5", "Ann")
        bob = await registered_from(b.url, "203.0.113.5", "Bob")
        one, two = await seated_for_a_duplicate(ann, bob)
        first_code = ann.room["code"]
        rng = random.Random(5)
        await asyncio.gather(play_fast(one, rng, 0), play_fast(two, rng, 1))
        await asyncio.gather(until_room(one, first_code), until_room(two, first_code))
        await asyncio.gather(play_fast(one, rng, 1), play_fast(two, rng, 0))
        for client in (ann, bob):
            await client.expect("duplicate_result", timeout=20)
        await recorded_unrated(bob, f"{first_code}-1", "Ann")
        for client in (ann, bob):
            await client.close()
    finally:
        a.stop()
        b.stop()
