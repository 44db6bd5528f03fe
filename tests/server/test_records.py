"""A player's record after a few scripted matches, checked against the matches' own logs."""

from __future__ import annotations

import asyncio
import random

from wire_client import WireClient, play_randomly

from muggins.server.app import Server
from muggins.server.results.records import match_stats
from muggins.shared.actions import ACTION, GameOptions, GameOver, HandScored
from muggins.shared.match import Match


async def test_records_agree_with_the_logs_of_the_games(server: Server) -> None:
    """Games, wins, skunks, hands and cribs in the profile equal a recount from each log."""
    ann = await WireClient.open(server.url, name="Ann")
    await ann.request(type="register", name="Ann", password="long enough")
    bob = await WireClient.open(server.url, name="Bob")
    await bob.request(type="register", name="Bob", password="long enough")
    for n in range(3):
        room = await ann.request(type="create_room", options={"game": {"target": 61}})
        await bob.request(type="join_room", code=room["code"])
        rng = random.Random(n)
        await asyncio.gather(play_randomly(ann, rng), play_randomly(bob, rng))
        await ann.request(type="leave")
        await bob.request(type="leave")
        ann.state = bob.state = None  # the next room starts afresh
    history = await ann.request(type="history")
    assert len(history["games"]) == 3
    finished = [g["finished"] for g in history["games"]]
    assert finished == sorted(finished, reverse=True)
    recount: dict[str, int] = {}

    def add(key: str, n: int = 1) -> None:
        recount[key] = recount.get(key, 0) + n

    for entry in history["games"]:
        record = await ann.request(type="game", game=entry["game"])
        seat = entry["seat"]
        actions = [(a["seat"], ACTION.validate_python(a["action"])) for a in record["actions"]]
        match = Match(seed=bytes.fromhex(record["seed"]), options=GameOptions(**record["options"]))
        for s, action in actions:
            for event in match.apply(s, action):
                if isinstance(event, HandScored) and event.seat == seat:
                    add(f"{event.kind}s")
                    add(f"{event.kind}_points", event.total)
                elif isinstance(event, GameOver):
                    add("games")
                    add("wins" if event.outcome.winner == seat else "losses")
                    skunked = event.outcome.skunk or event.outcome.double_skunk
                    if skunked:
                        add("skunks_given" if event.outcome.winner == seat else "skunks_taken")
        assert match.over
        add("matches")
        add("match_wins", int(match.winner == seat))
        assert entry["result"] == ("won" if match.winner == seat else "lost")
        deals = match_stats(match)[seat]
        add("deals_dealer", deals.get("deals_dealer", 0))
    profile = await ann.request(type="profile")
    counts = profile["counts"]
    for key, value in recount.items():
        assert counts[key] == value, key
    for key in ("skunks_given", "skunks_taken", "wins", "losses"):
        assert counts[key] == recount.get(key, 0), key
    averages = profile["averages"]
    assert averages["hand"] == round(counts["hand_points"] / counts["hands"], 2)
    await ann.close()
    await bob.close()
