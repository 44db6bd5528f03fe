"""Pictures of the table (SVG snapshots) from a fixed deal, fixed names and a fixed screen size.

The deal comes from an in-process stand-in for the server with a fixed seed, so the pictures
are the same on every run. Refresh them with ``pytest tests/client --snapshot-update``.
"""

from __future__ import annotations

from typing import Any

from fakelink import FakeLink
from harness import make_move, until
from textual.pilot import Pilot

from muggins.client.app import MugginsApp
from muggins.client.session import Goal

SIZE = (120, 40)


def table_app() -> MugginsApp:
    app = MugginsApp(url="ws://127.0.0.1:8765", name="Ann", goal=Goal("computer"), hint=False)
    app.link = FakeLink(app.post_server_message, seed=1, on_status=app.post_link_status)
    return app


async def mid_pegging(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, MugginsApp)
    await until(pilot, lambda: app.session.view is not None)
    await make_move(app, pilot)  # lay away two
    await make_move(app, pilot)  # play a card; the computer answers
    await pilot.pause()


async def at_the_show(pilot: Pilot[None]) -> None:
    app = pilot.app
    assert isinstance(app, MugginsApp)
    await until(pilot, lambda: app.session.view is not None)
    while not app._reviewable():
        await make_move(app, pilot)
    await pilot.pause()


def test_table_mid_pegging(snap_compare: Any) -> None:
    """The table mid-play: pegs, the opponent's backs, crib, starter, pile, count and calls."""
    assert snap_compare(table_app(), terminal_size=SIZE, run_before=mid_pegging)


def test_the_show(snap_compare: Any) -> None:
    """The show after the first deal: both hands and the crib with their spoken counts."""
    assert snap_compare(table_app(), terminal_size=SIZE, run_before=at_the_show)


def test_table_on_an_80_by_24_terminal(snap_compare: Any) -> None:
    """On 80x24 the board runs in streets of 60, the table is compact and the log is hidden."""
    assert snap_compare(table_app(), terminal_size=(80, 24), run_before=mid_pegging)
