"""A duplicate match in the full-screen client: both tables played with the keys against a
protocol player, the move to the second table on its own, and the result in the log."""

from __future__ import annotations

import asyncio
import random

from harness import make_move, my_move, real_server, until
from wire_client import WireClient

from muggins.client.app import MugginsApp
from muggins.client.screens import GameOverScreen
from muggins.client.session import Goal


async def play_patiently(client: WireClient, rng: random.Random) -> None:
    frame = client.state
    while True:
        if frame is not None and frame["type"] == "state":
            view = frame["view"]
            if view["phase"] == "match_over":
                return
            if view["seat"] in view["waiting_for"] and view["legal"]:
                await client.send(**rng.choice(view["legal"]))
        frame = await client.recv(timeout=120)


async def test_both_tables_of_a_duplicate_match_with_the_keys() -> None:
    """Ann joins Bob's duplicate room by code, plays table 1, is seated at table 2 (the client
    follows), plays it, and reads who won by how many points on the same cards."""
    async with real_server() as server:
        bob = await WireClient.open(server.url, name="Bob")
        room = await bob.request(
            type="create_room", options={"duplicate": True, "game": {"target": 61}}
        )
        app = MugginsApp(url=server.url, name="Ann", goal=Goal("join", code=room["code"]))
        rng = random.Random(8)

        async def bob_plays() -> None:
            await play_patiently(bob, rng)
            while True:
                frame = await bob.expect("room", timeout=120)
                if frame["code"] != room["code"] and frame["you"] is not None:
                    bob.state = None
                    break
            await play_patiently(bob, rng)

        async with app.run_test(size=(120, 40)) as pilot:
            other = asyncio.create_task(bob_plays())
            await until(pilot, lambda: app.session.view is not None)
            tables = set()
            while app.session.duplicate is None:
                await until(
                    pilot,
                    lambda: (
                        my_move(app)
                        or app.session.duplicate is not None
                        or isinstance(app.screen, GameOverScreen)
                    ),
                    timeout=120,
                )
                if isinstance(app.screen, GameOverScreen):
                    await pilot.press("escape")
                    await pilot.pause()
                    continue
                if app.session.duplicate is not None:
                    break
                assert app.session.room is not None
                tables.add(app.session.room.code)
                await make_move(app, pilot)
            await other
            assert len(tables) == 2  # it played at both tables
            result = app.session.duplicate
            assert result.you == 1 and result.text in " ".join(app.session.log)
            assert any(line.startswith("Game 1, deal 1 ") for line in app.session.log)
        await bob.close()
