"""A rated match in a cluster: the node holding both players is killed with SIGKILL the moment
the last move is told; the other node settles it when the players come back, exactly once. And
two accounts from one public address on two nodes: recorded, not rated."""

from __future__ import annotations

import asyncio
import json
import random

import redis.asyncio as aioredis
from cluster_nodes import Node, rated_room, registered
from redis_helpers import RedisServer
from test_outsider_findings import recorded_unrated, registered_from
from wire_client import Frame, WireClient


async def play_until_the_end(players: list[WireClient], rng: random.Random) -> Frame:
    """Both play at once; returns the match-ending game_over as soon as either hears it."""

    async def play(client: WireClient) -> Frame:
        while True:
            frame = await client.recv()
            over = frame.get("game_over") if frame["type"] == "state" else None
            if over and over["match_over"]:
                return over
            if frame["type"] == "state" and client.my_turn():
                await client.send(**rng.choice(frame["view"]["legal"]))

    tasks = [asyncio.ensure_future(play(client)) for client in players]
    done, pending = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
    await asyncio.gather(*pending, return_exceptions=True)  # its client may read again
    return next(iter(done)).result()


async def test_sigkill_after_the_last_move_still_rates_once(redis_server: RedisServer) -> None:
    """Kill -9 at the last move: on the other node both ratings change once, and stay."""
    a, b = Node(redis_server), Node(redis_server)
    try:
        (ann, _), (bob, _) = await registered(a.url, "Ann"), await registered(a.url, "Bob")
        room = await rated_room(ann, bob)
        over = await play_until_the_end([ann, bob], random.Random(2))
        a.kill()
        redis = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
        settled_first = await redis.exists(f"muggins:settled:{room['code']}-1")
        await redis.aclose()
        print(f"settled before the kill: {bool(settled_first)}")
        winner = over["outcome"]["winner"]
        tokens = [ann.token, bob.token]
        back = [await WireClient.open(b.url, hello=False) for _ in tokens]
        for client, token, name in zip(back, tokens, ("Ann", "Bob"), strict=True):
            welcome = await client.hello(name, token=token)
            assert welcome["type"] == "welcome" and welcome["resumed"], welcome
        ratings = []
        for name in ("Ann", "Bob"):
            profile = await back[0].request(type="profile", name=name)
            ratings.append(profile["rating"])
        assert [r["games"] for r in ratings] == [1, 1]
        assert (ratings[winner]["rating"] > 1500) and (ratings[1 - winner]["rating"] < 1500)
        c = Node(redis_server)  # a third node loading the finished room settles nothing more
        try:
            watcher = await WireClient.open(c.url, name="watcher")
            await watcher.request(type="spectate", code=room["code"])
            again = [
                (await watcher.request(type="profile", name=n))["rating"] for n in ("Ann", "Bob")
            ]
            assert again == ratings
        finally:
            c.stop()
    finally:
        a.stop()
        b.stop()


async def test_a_rated_match_from_one_public_address_on_two_nodes_moves_no_rating(
    redis_server: RedisServer,
) -> None:
    """Ann and Bob behind one public address, each on their own node, play a rated match: it is
    recorded but rates neither, and the room is told why, as when one node holds both (the
    settling node knew one address only, and rated it)."""
    a = Node(redis_server, "--trusted-proxy", "127.0.0.1")
    b = Node(redis_server, "--trusted-proxy", "127.0.0.1")
    try:
        ann = await registered_from(a.url, "203.0.113.5", "Ann")
        bob = await registered_from(b.url, "203.0.113.5", "Bob")
        room = await rated_room(ann, bob)
        rng = random.Random(2)

        async def play(client: WireClient) -> None:
            while True:
                frame = await client.recv(timeout=20)
                if frame["type"] == "state" and (frame.get("game_over") or {}).get("match_over"):
                    return
                if frame["type"] == "state" and client.my_turn():
                    await client.send(**rng.choice(frame["view"]["legal"]))

        await asyncio.gather(play(ann), play(bob))
        notices = [json.loads(text) for text in ann.raw]  # (it may come before the last state)
        while not any(f["type"] == "notice" and f["code"] == "rating" for f in notices):
            notices.append(await ann.expect("notice", timeout=20))
        [notice] = [f for f in notices if f["type"] == "notice" and f["code"] == "rating"]
        assert notice["text"] == "Not rated: both players connected from one address"
        await recorded_unrated(bob, f"{room['code']}-1", "Ann")
        for client in (ann, bob):
            await client.close()
    finally:
        a.stop()
        b.stop()
