"""Tournaments in a cluster: node processes on one redis-server, bots on the protocol on
different nodes, and the node holding the director killed with SIGKILL during a round."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import pytest
import redis.asyncio as aioredis
from cluster_nodes import Node, admin, node_of, nodes, registered, stored_log
from redis_helpers import RedisServer
from wire_client import Frame, WireClient, play_randomly

from muggins.client.bot_account import play_tournament
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.tournament_director import direct
from muggins.server.cluster.tournament_records import TournamentRecords
from muggins.server.cluster.tournament_state import Entry, State


async def until(client: WireClient, ok: Callable[[Frame], bool]) -> Frame:
    """Read ``tournament`` frames until one satisfies ``ok``."""
    while True:
        frame = await client.expect("tournament", timeout=90)
        if ok(frame):
            return frame


async def next_table(client: WireClient, previous: str | None) -> str:
    """Wait to be seated at a table other than ``previous``; its code."""
    while True:
        frame = await client.expect("room", timeout=90)
        if frame["you"] is not None and frame["code"] != previous and frame["status"] != "over":
            client.state = None
            return str(frame["code"])


def finished(frame: Frame) -> bool:
    return bool(frame["summary"]["status"] == "finished")


async def director_of(redis: RedisServer, tid: str) -> str | None:
    client = aioredis.Redis.from_url(redis.url, decode_responses=True)
    try:
        holder = await client.get(f"muggins:tournament:director:{tid}")
    finally:
        await client.aclose()
    return None if holder is None else str(holder)


def bot(url: str, name: str, tid: str, seed: int) -> asyncio.Task[list[Any]]:
    return asyncio.create_task(
        play_tournament(
            url, level="easy", account=name, password="long enough", tournament=tid,
            seed=seed, rate=10_000, burst=10_000,
        )
    )  # fmt: skip


async def test_a_swiss_survives_its_directors_node_killed_during_a_round(
    redis_server: RedisServer,
) -> None:
    """Five bots on two nodes play a Swiss of four rounds on duplicate deals, directed from a
    third node; that node is killed with SIGKILL during round 2; another node's director takes
    over and the Swiss finishes: each round's tables dealt from one seed, every game's result in
    once, and the standings by points then Buchholz as the games say."""
    a, b, c = Node(redis_server), Node(redis_server), Node(redis_server)
    try:
        boss = await admin(redis_server, c.url, "Director")
        made = await boss.request(
            type="create_tournament", name="Cluster Cup", kind="swiss", rounds=4,
            duplicate=True, bots=True, target=61,
        )  # fmt: skip
        assert made["type"] == "tournament", made
        tid = made["summary"]["tournament"]
        first_director = await director_of(redis_server, tid)
        assert first_director is not None
        await boss.request(type="get_tournament", tournament=tid)  # and hears each change
        names = [f"Swiss {n}" for n in range(5)]
        bots = [bot(a.url if n < 3 else b.url, names[n], tid, n) for n in range(5)]
        await until(boss, lambda f: f["summary"]["players"] == 5)
        started = await boss.request(type="start_tournament", tournament=tid)
        assert started["summary"]["round"] == 1 and started["summary"]["status"] == "playing"
        during = await until(
            boss,
            lambda f: (
                f["summary"]["round"] == 2
                and any(g["result"] is None for g in f["games"] if g["round"] == 2)
            ),
        )
        assert all(g["result"] is not None for g in during["games"] if g["round"] == 1)
        c.kill()  # the director's node, during round 2
        boss = await WireClient.open(a.url, name="Director")
        signed = await boss.request(type="sign_in", name="Director", password="long enough")
        assert signed["type"] == "account", signed
        await boss.request(type="get_tournament", tournament=tid)
        results = await asyncio.wait_for(asyncio.gather(*bots), timeout=240)
        final = await boss.request(type="get_tournament", tournament=tid)
        assert final["summary"]["status"] == "finished"
        after = await director_of(redis_server, tid)
        assert after is not None and after != first_director
        games = final["games"]
        assert len(games) == 4 * 2  # five players: two tables and a bye a round
        assert {g["round"] for g in games} == {1, 2, 3, 4}
        assert all(g["result"] is not None for g in games)
        assert len({g["game"] for g in games}) == len(games)
        # Every game played once, as the bots played them, and each recorded once.
        assert sum(len(r) for r in results) == 2 * len(games)
        seeds: dict[int, set[bytes]] = {}
        for g in games:
            code = g["game"].rsplit("-", 1)[0]
            match = await stored_log(redis_server, code)
            assert match.over
            seed = match.seed
            assert isinstance(seed, bytes)
            seeds.setdefault(g["round"], set()).add(seed)
            replay = await boss.request(type="game", game=g["game"])
            assert replay["type"] == "game" and replay["finished"] is not None
        assert all(len(s) == 1 for s in seeds.values()) and len(seeds) == 4
        # Each game once in each of its players' histories, whichever node recorded it.
        recorded: list[str] = []
        for n, name in enumerate(names):
            client = await WireClient.open((a.url, b.url)[n % 2], name=name)
            signed = await client.request(type="sign_in", name=name, password="long enough")
            assert signed["type"] == "account", signed
            history = await client.request(type="history")
            recorded += [entry["game"] for entry in history["games"]]
            await client.close()
        assert sorted(recorded) == sorted(g["game"] for g in games for _ in (0, 1))
        standings = final["standings"]
        points = {s["name"]: s["points"] for s in standings}
        opponents: dict[str, list[str]] = {name: [] for name in points}
        for g in games:
            first, second = g["names"]
            opponents[first].append(second)
            opponents[second].append(first)
        for s in standings:
            assert s["games"] == len(opponents[s["name"]])
            assert s["buchholz"] == pytest.approx(sum(points[o] for o in opponents[s["name"]]))
        keys = [(s["points"], s["buchholz"]) for s in standings]
        assert keys == sorted(keys, reverse=True)
        assert sum(s["wins"] for s in standings) == sum(s["losses"] for s in standings) == 8
        assert sum(s["points"] for s in standings) == 8 + 4  # a point a game, and four byes
        await boss.close()
    finally:
        for node in (a, b, c):
            node.stop()


async def test_an_arena_on_duplicate_deals_survives_a_killed_node(
    redis_server: RedisServer,
) -> None:
    """Six bots on two nodes play an arena on duplicate deals (each pairing two linked tables),
    directed from a third node killed with SIGKILL while tables are in play; one bot leaves
    after a game and is paired no more until it comes back; told to finish, the arena ends when
    its last match does, every match's result in once."""
    a, b, c = Node(redis_server), Node(redis_server), Node(redis_server)
    try:
        boss = await admin(redis_server, c.url, "Director")
        made = await boss.request(
            type="create_tournament", name="Cluster Arena", kind="arena", minutes=60,
            duplicate=True, bots=True, target=61,
        )  # fmt: skip
        tid = made["summary"]["tournament"]
        first_director = await director_of(redis_server, tid)
        await boss.request(type="get_tournament", tournament=tid)
        bots = [bot((a.url, b.url)[n % 2], f"Arena {n}", tid, n) for n in range(5)]
        wanda = await WireClient.open(b.url, name="Wanda")
        made_w = await wanda.request(
            type="register", name="Wanda", password="long enough", bot=True
        )
        assert made_w["type"] == "account", made_w
        await wanda.request(type="join_tournament", tournament=tid)
        rng = random.Random(7)
        # Wanda leaves during her first match: she plays out both its tables, and no other.
        first_table = await next_table(wanda, None)
        gone = await wanda.request(type="leave_tournament", tournament=tid)
        away_from = len(gone["games"])
        await play_randomly(wanda, rng)
        last = await next_table(wanda, first_table)
        await play_randomly(wanda, rng)
        during = await until(boss, lambda f: len(f["games"]) >= away_from + 4)
        c.kill()  # the director's node, with matches in play
        boss = await WireClient.open(a.url, name="Director")
        signed = await boss.request(type="sign_in", name="Director", password="long enough")
        assert signed["type"] == "account", signed
        more = await boss.request(type="get_tournament", tournament=tid)
        back = await wanda.request(type="join_tournament", tournament=tid)
        assert back["joined"]
        back_at = len(back["games"])
        assert all("Wanda [bot]" not in g["names"] for g in during["games"][away_from:back_at])
        # The new director pairs her again: she plays that match's two tables, and leaves.
        table = await next_table(wanda, last)
        await wanda.request(type="leave_tournament", tournament=tid)
        await play_randomly(wanda, rng)
        await next_table(wanda, table)
        await play_randomly(wanda, rng)
        await until(boss, lambda f: len(f["games"]) >= len(more["games"]) + 2)
        assert await director_of(redis_server, tid) not in (None, first_director)
        heard = len(boss.frames)
        finish = await boss.request(type="start_tournament", tournament=tid, finish=True)
        assert finish["type"] == "tournament"
        # The arena may have finished while the answer was on its way: its news came first.
        final = next(
            (f for f in boss.frames[heard:] if f["type"] == "tournament" and finished(f)), None
        ) or await until(boss, finished)
        results = await asyncio.wait_for(asyncio.gather(*bots), timeout=240)
        games = final["games"]
        assert all(g["result"] is not None for g in games)
        assert len({g["game"] for g in games}) == len(games)
        standings = final["standings"]
        assert len(standings) == 6
        played = {s["name"]: 0 for s in standings}
        for g in games:
            for name in g["names"]:
                played[name] += 1
        for s in standings:
            assert s["games"] == s["wins"] + s["draws"] + s["losses"] == played[s["name"]]
        assert sum(s["wins"] for s in standings) == sum(s["losses"] for s in standings)
        points = [s["points"] for s in standings]
        assert points == sorted(points, reverse=True)
        # Each pairing is two tables (a duplicate match), both played by the bots.
        assert sum(len(r) for r in results) == 2 * 2 * len(games) - 2 * played["Wanda [bot]"]
        await boss.close()
        await wanda.close()
    finally:
        for node in (a, b, c):
            node.stop()


async def test_a_swiss_round_in_a_cluster_pairs_only_connected_members(
    redis_server: RedisServer,
) -> None:
    """Four members join a Swiss on two nodes, and one on each node disconnects before it
    starts: the first round pairs the two connected ones only, and the two away sit it out with
    no points, as on one server (a cluster paired every member joined)."""
    a, b = Node(redis_server), Node(redis_server)
    redis = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        boss = await admin(redis_server, a.url, "Director")
        made = await boss.request(
            type="create_tournament", name="Who Is Here", kind="swiss", rounds=1, target=61
        )
        tid = made["summary"]["tournament"]
        await boss.request(type="get_tournament", tournament=tid)  # and hears each change
        members: dict[str, WireClient] = {}
        accounts: dict[str, str] = {}
        for name, node in (("Ann", a), ("Bob", b), ("Cyd", a), ("Dee", b)):
            client, accounts[name] = await registered(node.url, name)
            joined = await client.request(type="join_tournament", tournament=tid)
            assert joined["joined"], joined
            members[name] = client
        for name in ("Cyd", "Dee"):
            await members.pop(name).close()
        # Each node notes who is connected to it when it looks at the tournament next.
        while {accounts["Cyd"], accounts["Dee"]} & set(
            await redis.hkeys(f"muggins:tournament:here:{tid}")
        ):
            await asyncio.sleep(0.05)
        started = await boss.request(type="start_tournament", tournament=tid)
        if started["summary"]["round"] != 1:  # the director's answer came after the reply
            started = await until(boss, lambda f: f["summary"]["round"] == 1)
        [game] = started["games"]
        assert sorted(game["names"]) == ["Ann", "Bob"] and game["result"] is None
        points = {s["name"]: (s["games"], s["points"]) for s in started["standings"]}
        assert points["Cyd"] == points["Dee"] == (0, 0)
        for client in members.values():
            table = await next_table(client, None)
            assert table == game["game"].rsplit("-", 1)[0]
            await client.close()
        await boss.close()
    finally:
        await redis.aclose()
        a.stop()
        b.stop()


async def test_an_arena_in_a_cluster_pairs_a_member_only_while_connected(
    redis_server: RedisServer,
) -> None:
    """An arena on two nodes: Ann joins and disconnects, so Bob and Cyd, who join next, are
    paired with each other and not with her; back on the other node, Ann is paired with Dee,
    who joins after her."""
    a, b = (Node(redis_server, "--registrations-per-hour", "100") for _ in range(2))
    redis = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
    here = ""

    async def connected() -> set[str]:
        return set(await redis.hkeys(here))

    async def member(url: str, name: str, tid: str) -> tuple[WireClient, str]:
        client, account = await registered(url, name)
        joined = await client.request(type="join_tournament", tournament=tid)
        assert joined["joined"], joined
        return client, account

    try:
        boss = await admin(redis_server, a.url, "Director")
        made = await boss.request(
            type="create_tournament", name="Who Is Free", kind="arena", minutes=60, target=61
        )
        tid = made["summary"]["tournament"]
        here = f"muggins:tournament:here:{tid}"
        await boss.request(type="get_tournament", tournament=tid)  # and hears each change
        ann, ann_id = await member(a.url, "Ann", tid)
        await ann.close()
        while ann_id in await connected():  # its node takes her out when it looks next
            await asyncio.sleep(0.05)
        bob, _ = await member(b.url, "Bob", tid)
        cyd, _ = await member(a.url, "Cyd", tid)
        first = await until(boss, lambda f: len(f["games"]) >= 1)
        [game] = first["games"]
        assert sorted(game["names"]) == ["Bob", "Cyd"]
        back = await WireClient.open(b.url, name="Ann")
        signed = await back.request(type="sign_in", name="Ann", password="long enough")
        assert signed["type"] == "account", signed
        while ann_id not in await connected():  # her new node notes her when it looks next
            await asyncio.sleep(0.05)
        dee, _ = await member(a.url, "Dee", tid)
        second = await until(boss, lambda f: len(f["games"]) >= 2)
        assert len(second["games"]) == 2
        assert sorted(second["games"][1]["names"]) == ["Ann", "Dee"]
        await next_table(back, None)
        for client in (boss, back, bob, cyd, dee):
            await client.close()
    finally:
        await redis.aclose()
        a.stop()
        b.stop()


async def swiss_to_start(records: TournamentRecords, id: str, *, members: int) -> State:
    """A Swiss of ``members`` members ("account0", ...) asked to start, its lease held by
    ``records``' node, written straight to Redis (a director is then run by hand)."""
    state = State(
        id=id, name="Hand run", kind="swiss", duplicate=False, bots=False, target=61,
        minutes=0, rounds=2, maker="maker",
    )  # fmt: skip
    await records.create(state)
    for n in range(members):
        await records.put(id, f"account{n}", Entry(name=f"P{n}", active=True, at=n))
    await records.ask(id, "start")
    assert await records.lease(id)
    return state


async def test_an_ask_made_while_the_director_answers_another_is_kept(
    redis_server: RedisServer,
) -> None:
    """A finish asked on another node while the director acts on a start (after it read the
    asks, before it answered them) is kept for the director's next look, which finishes the
    Swiss (it was dropped with the start)."""

    class Racing(TournamentRecords):
        async def connected(self, id: str) -> set[str]:
            await self.ask(id, "finish")  # another node's request, meanwhile
            return await super().connected(id)

    store = ClusterStore(redis_server.url)
    try:
        records = Racing(store, "director")
        state = await swiss_to_start(records, "TRACE1", members=2)
        lobby: Any = None  # no one is connected: no table is made
        assert await direct(records, lobby, state.id)
        assert (await records.read(state.id))[0].status == "playing"
        assert await records.asks(state.id) == {"finish": "1"}
        assert await direct(TournamentRecords(store, "director"), lobby, state.id)
        assert (await records.read(state.id))[0].status == "finished"
    finally:
        await store.close()


async def test_a_swiss_waits_for_two_connected_members_before_a_round(
    redis_server: RedisServer,
) -> None:
    """A Swiss started while fewer than two of its members are connected pairs no round: its
    director looks again and again and it stays at round 0 (it went through every round with
    nobody paired, and finished); once two are connected, round 1 pairs them."""
    async with nodes(redis_server, 1) as [server]:
        node = node_of(server)
        records = TournamentRecords(node.redis, node.name)
        state = await swiss_to_start(records, "TWAIT1", members=3)
        for here in ([], [], [], ["account1"]):
            await records.mark_here(state.id, here)
            await direct(records, server.lobby, state.id)
            now, _ = await records.read(state.id)
            assert (now.status, now.round, now.games, now.byes) == ("playing", 0, [], [])
        await records.mark_here(state.id, ["account1", "account2"])
        await direct(records, server.lobby, state.id)
        now, _ = await records.read(state.id)
        assert now.round == 1 and now.byes == []
        [game] = now.games
        assert {game.first, game.second} == {"account1", "account2"}
