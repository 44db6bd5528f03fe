"""The terminal client's turn clock: a room made with a clock and a bank (the lobby's choices,
or ``create clock=N bank=N`` in plain mode), and the countdown from what each state says."""

from __future__ import annotations

import asyncio
import io
import re

from harness import real_server, until, wait_for
from textual.widgets import Select

from muggins.client.app import MugginsApp
from muggins.client.lobby import LobbyScreen
from muggins.client.plain import PlainClient, create_room
from muggins.client.session import Goal
from muggins.client.texts import status_text
from muggins.shared.protocol import RoomOptions, SeatBot


def test_plain_create_takes_a_clock_and_a_bank() -> None:
    made = create_room(["61", "clock=30", "bank=180"])
    assert (made.options.turn_timer, made.options.turn_bank) == (30, 180)
    assert made.options.game.target == 61
    for words, sentence in ((["bank=60"], "needs a per-move clock"), (["clock=x"], "create takes")):
        try:
            create_room(words)
        except ValueError as error:
            assert sentence in str(error)
        else:
            raise AssertionError(f"create {words} was taken")


async def test_plain_mode_shows_the_clock_the_server_gives() -> None:
    """Against the computer with 60 s a move and a 2 min bank, the prompt's table says the
    player's time as the deal's state gave it, counted down since."""
    out = io.StringIO()
    options = RoomOptions(turn_timer=60, turn_bank=120)
    async with real_server() as server:
        client = PlainClient(
            url=server.url,
            name="Ann",
            goal=Goal("computer", level="easy", options=options),
            out=out,
        )
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(client.run(lines))
        await wait_for(lambda: "| Clock: " in out.getvalue())
        clock = client.session.clock
        assert clock is not None and clock[0] is not None and clock[0].bank == 120
        await lines.put("quit")
        assert await asyncio.wait_for(task, 10) == 0
    shown = re.search(r"\| Clock: Your move: (\d+ s|1:00) \+ bank 2:00", out.getvalue())
    assert shown, out.getvalue()


async def test_the_lobby_makes_a_room_with_a_clock_and_the_status_counts_it() -> None:
    async with real_server() as server:
        app = MugginsApp(url=server.url, name="Ann", goal=Goal("lobby"), hint=False)
        async with app.run_test(size=(120, 40)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen) and app.session.token)
            app.screen.query_one("#clock", Select).value = 30
            app.screen.query_one("#bank", Select).value = 180
            await pilot.click("#create")
            await until(pilot, lambda: app.session.room is not None)
            room = app.session.room
            assert room is not None
            assert (room.options.turn_timer, room.options.turn_bank) == (30, 180)
            assert room.bank == (180.0, 180.0)
            await app.link.send(SeatBot(level="easy"))
            await until(pilot, lambda: app.session.clock is not None)
            status = status_text(app.session, app.link_status, "").plain
            assert re.search(r"Clock: Your move: \d+ s \+ bank 3:00", status), status
