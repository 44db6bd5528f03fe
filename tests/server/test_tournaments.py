"""Tournaments over real sockets: an arena of six protocol bots (one leaves and comes back) and
a Swiss of four rounds on duplicate deals with the Buchholz tiebreak; and their arithmetic."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from wire_client import Frame, WireClient, play_randomly

from muggins.client.bot_account import play_tournament
from muggins.server.app import Server
from muggins.shared.tournament import Arena, Swiss


def test_a_streak_of_wins_counts_double_after_two() -> None:
    """Win, win, then each win is worth 4 until a loss; a draw is 1."""
    arena = Arena(["ann", "bob"])
    for _ in range(4):
        arena.record("ann", "bob", 1.0)
    assert arena.records["ann"].points == 2 + 2 + 4 + 4
    arena.record("ann", "bob", 0.0)
    arena.record("ann", "bob", 1.0)
    arena.record("ann", "bob", 0.5)
    assert arena.records["ann"].points == 12 + 0 + 2 + 1
    assert arena.records["bob"].points == 2 + 1


def test_swiss_pairs_by_score_without_repeats_and_gives_one_bye() -> None:
    """Five players: one bye a round, never twice to one player while others have had none,
    and nobody meets the same opponent twice in four rounds when it can be helped."""
    swiss = Swiss(["a", "b", "c", "d", "e"])
    rng = random.Random(5)
    met: set[frozenset[str]] = set()
    for _ in range(4):
        for first, second in swiss.pair_round():
            pair = frozenset((first, second))
            assert pair not in met
            met.add(pair)
            swiss.record(first, second, rng.choice([1.0, 0.0]))
    assert sorted(r.byes for r in swiss.records.values()) == [0, 1, 1, 1, 1]
    top = swiss.standings()
    keys = [(r.points, swiss.buchholz(r.player)) for r in top]
    assert keys == sorted(keys, reverse=True)


async def signed_in(url: str, name: str, *, bot: bool = False) -> tuple[WireClient, Frame]:
    client = await WireClient.open(url, name=name)
    made = await client.request(type="register", name=name, password="long enough", bot=bot)
    assert made["type"] == "account"
    return client, made


async def director(server: Server) -> WireClient:
    """An admin, who makes the tournaments."""
    client, made = await signed_in(server.url, "Director")
    await server.lobby.store.set_role(made["account"], "admin")
    return client


async def until(client: WireClient, ok: Any) -> Frame:
    """Read ``tournament`` frames until one satisfies ``ok``."""
    while True:
        frame = await client.expect("tournament", timeout=60)
        if ok(frame):
            return frame


async def next_table(client: WireClient, previous: str | None) -> None:
    """Wait to be seated at a table other than ``previous``."""
    while True:
        frame = await client.expect("room", timeout=60)
        if frame["you"] is not None and frame["code"] != previous and frame["status"] != "over":
            client.state = None
            return


async def test_an_arena_of_six_bots_with_one_who_leaves_and_comes_back(server: Server) -> None:
    """Six bot accounts play an arena; Wanda leaves after a game and is paired with nobody
    until she comes back; the standings are sent live, and the arena ends when its last game
    does once it is told to finish."""
    boss = await director(server)
    refused = await (await signed_in(server.url, "Nobody"))[0].request(
        type="create_tournament", name="Nope", kind="arena"
    )
    assert refused["type"] == "error" and "admins" in refused["message"]
    made = await boss.request(
        type="create_tournament", name="Friday Arena", kind="arena", minutes=60, bots=True,
        target=61,
    )  # fmt: skip
    tid = made["summary"]["tournament"]
    assert made["summary"]["status"] == "playing"
    listed = await boss.request(type="list_tournaments")
    assert [t["tournament"] for t in listed["tournaments"]] == [tid]
    await boss.request(type="get_tournament", tournament=tid)  # and hears each change
    bots = [
        asyncio.create_task(
            play_tournament(
                server.url, level="standard", account=f"Bot {n}", password="long enough",
                tournament=tid, seed=n, rate=10_000, burst=10_000,
            )
        )
        for n in range(5)
    ]  # fmt: skip
    wanda, _ = await signed_in(server.url, "Wanda", bot=True)
    await wanda.request(type="join_tournament", tournament=tid)
    rng = random.Random(6)
    await next_table(wanda, None)
    first_room = wanda.room["code"] if wanda.room else None
    # She leaves during her first game: she plays it out and is paired no more.
    gone = await wanda.request(type="leave_tournament", tournament=tid)
    away_from = len(gone["games"])
    await play_randomly(wanda, rng)
    # Meanwhile the others play on: wait for four more games to start without her.
    during = await until(boss, lambda f: len(f["games"]) >= away_from + 4)
    back = await wanda.request(type="join_tournament", tournament=tid)
    back_at = len(back["games"])
    assert all("Wanda [bot]" not in g["names"] for g in during["games"][away_from:back_at])
    await next_table(wanda, first_room)
    await wanda.request(type="leave_tournament", tournament=tid)  # ...and leaves again
    await play_randomly(wanda, rng)
    finish = await boss.request(type="start_tournament", tournament=tid, finish=True)
    assert finish["type"] == "tournament"
    final = await until(boss, lambda f: f["summary"]["status"] == "finished")
    results = await asyncio.gather(*bots)
    standings = final["standings"]
    assert len(standings) == 6 and {s["name"] for s in standings} >= {"Wanda [bot]", "Bot 0 [bot]"}
    wanda_row = next(s for s in standings if s["name"] == "Wanda [bot]")
    assert wanda_row["games"] == 2 and not wanda_row["active"]
    games = final["games"]
    assert all(g["result"] is not None for g in games)
    assert sum(s["wins"] for s in standings) == sum(s["losses"] for s in standings) == len(games)
    points = [s["points"] for s in standings]
    assert points == sorted(points, reverse=True)
    # Each bot's games as it played them, and the recorded games replayable.
    assert sum(len(r) for r in results) + wanda_row["games"] == 2 * len(games)
    replay = await boss.request(type="game", game=games[0]["game"])
    assert replay["type"] == "game" and replay["finished"] is not None
    for client in (boss, wanda):
        await client.close()


async def test_a_swiss_of_four_rounds_on_duplicate_deals_with_buchholz(server: Server) -> None:
    """Five bots, four rounds: each round's tables share one seed (the same deals), one bye a
    round, standings by points then Buchholz (the sum of the opponents' points)."""
    boss = await director(server)
    made = await boss.request(
        type="create_tournament", name="Swiss Cup", kind="swiss", rounds=4, duplicate=True,
        bots=True, target=61,
    )  # fmt: skip
    tid = made["summary"]["tournament"]
    assert made["summary"]["status"] == "waiting"
    bots = [
        asyncio.create_task(
            play_tournament(
                server.url, level="easy", account=f"Swiss {n}", password="long enough",
                tournament=tid, seed=n, rate=10_000, burst=10_000,
            )
        )
        for n in range(5)
    ]  # fmt: skip
    director_t = server.lobby.tournaments.tournaments[tid]
    while len(director_t.members) < 5:
        await asyncio.sleep(0.01)  # the bots are joining
    started = await boss.request(type="start_tournament", tournament=tid)
    assert started["summary"]["round"] == 1
    await asyncio.gather(*bots)  # each bot plays until it hears the Swiss is finished
    final = await boss.request(type="get_tournament", tournament=tid)
    assert final["summary"]["status"] == "finished"
    games = final["games"]
    assert len(games) == 4 * 2  # five players: two tables and a bye a round
    assert {g["round"] for g in games} == {1, 2, 3, 4}
    assert all(g["result"] is not None for g in games)
    seeds: dict[int, set[bytes]] = {}
    for pairing in director_t.pairings:
        assert pairing.room.match is not None
        seed = pairing.room.match.seed
        assert isinstance(seed, bytes)
        seeds.setdefault(pairing.round or 0, set()).add(seed)
    assert all(len(s) == 1 for s in seeds.values()) and len(seeds) == 4
    points = {s["name"]: s["points"] for s in final["standings"]}
    opponents: dict[str, list[str]] = {name: [] for name in points}
    for g in games:
        a, b = g["names"]
        opponents[a].append(b)
        opponents[b].append(a)
    for s in final["standings"]:
        assert s["buchholz"] == pytest.approx(sum(points[o] for o in opponents[s["name"]]))
    keys = [(s["points"], s["buchholz"]) for s in final["standings"]]
    assert keys == sorted(keys, reverse=True)
    await boss.close()


async def test_a_tournament_table_cannot_be_restarted_or_given_to_the_computer(
    server: Server,
) -> None:
    """A tournament game is played out: no restart to escape a loss, no computer to take it."""
    boss = await director(server)
    made = await boss.request(type="create_tournament", name="Quick Arena", kind="arena")
    tid = made["summary"]["tournament"]
    ann, _ = await signed_in(server.url, "Ann")
    bob, _ = await signed_in(server.url, "Bob")
    for client in (ann, bob):
        await client.request(type="join_tournament", tournament=tid)
    await next_table(ann, None)
    for refused in (
        await ann.request(type="propose_restart"),
        await ann.request(type="seat_bot"),
    ):
        assert refused["type"] == "error" and "tournament" in refused["message"]
    for client in (boss, ann, bob):
        await client.close()


async def test_a_swiss_round_waits_for_two_connected_members(server: Server) -> None:
    """A Swiss started while only one of its two members is connected pairs no round yet (it
    stalled at a round that paired nobody); once the other is back, round 1 pairs them."""
    boss = await director(server)
    made = await boss.request(
        type="create_tournament", name="Patience", kind="swiss", rounds=1, target=61
    )
    tid = made["summary"]["tournament"]
    ann, _ = await signed_in(server.url, "Ann")
    bob, _ = await signed_in(server.url, "Bob")
    for client in (ann, bob):
        assert (await client.request(type="join_tournament", tournament=tid))["joined"]
    await bob.close()
    started = await boss.request(type="start_tournament", tournament=tid)
    assert started["summary"]["status"] == "playing" and started["summary"]["round"] == 0
    assert started["games"] == [] and all(s["points"] == 0 for s in started["standings"])
    back = await WireClient.open(server.url, name="Bob")
    signed = await back.request(type="sign_in", name="Bob", password="long enough")
    assert signed["type"] == "account", signed
    for client in (ann, back):
        frame = await client.expect("room", timeout=15)
        assert frame["you"] is not None and frame["options"]["private"], frame
    assert ann.room is not None and back.room is not None
    assert ann.room["code"] == back.room["code"]
    for client in (boss, ann, back):
        await client.close()


async def test_an_arena_pairing_is_told_to_those_following_it(server: Server) -> None:
    """Ann and Bob join an arena: the pairing made after Bob's join is pushed to the director
    following the standings, with its game, without waiting for another change."""
    boss = await director(server)
    made = await boss.request(
        type="create_tournament", name="Told", kind="arena", minutes=60, target=61
    )
    tid = made["summary"]["tournament"]
    await boss.request(type="get_tournament", tournament=tid)  # and hears each change
    for name in ("Ann", "Bob"):
        client, _ = await signed_in(server.url, name)
        assert (await client.request(type="join_tournament", tournament=tid))["joined"]
    paired = await until(boss, lambda f: len(f["games"]) == 1)
    assert sorted(paired["games"][0]["names"]) == ["Ann", "Bob"]
    assert paired["games"][0]["result"] is None
