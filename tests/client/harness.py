"""Helpers for the client tests: a real in-process server, and a player that drives the app."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path

from rich.console import Console
from textual.pilot import Pilot
from textual.widget import Widget

from muggins.client.app import MugginsApp
from muggins.client.prompts import need, own_state, show_prompt
from muggins.client.session import Goal
from muggins.server.app import Server, running_server
from muggins.server.config import ServerConfig
from muggins.shared.actions import Play
from muggins.shared.protocol import EventLine, ServerMessage, State
from muggins.shared.scoring import score_hand

STEP = 0.02


async def wait_for(check: Callable[[], object], timeout: float = 30.0) -> None:
    """Let other tasks run until ``check()`` is true (a plain client, no Textual pilot)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, f"timed out waiting for {check}"
        await asyncio.sleep(0.01)


@asynccontextmanager
async def real_server(
    *, db: Path | None = None, port: int = 0, grace: float = 30.0, public_url: str | None = None
) -> AsyncIterator[Server]:
    config = ServerConfig(
        port=port, memory=db is None, db=db, bot_delay=0.0, grace=grace, rate=1000.0, burst=1000,
        max_per_address=10_000, rooms_per_minute=1e6, rooms_per_minute_per_address=1e6,
        registrations_per_hour=1e6, reads_per_second=1e6,
        public_url=public_url,
    )  # fmt: skip
    async with running_server(config) as server:
        yield server


def status_line(app: MugginsApp, width: int = 200) -> str:
    """The status line's text, whichever screen is on top (a show or a dialog pushed over the
    table hides it from ``app.query_one``, which searches the top screen only)."""
    return plain(app.screen_stack[0].query_one("#status"), width)


def plain(widget: Widget, width: int = 100) -> str:
    """The text a widget draws, without styles, cut to the lines that fit in it on screen."""
    console = Console(width=width, file=io.StringIO(), color_system=None, legacy_windows=False)
    console.print(widget.render())
    output = console.file.getvalue()  # type: ignore[attr-defined]
    assert isinstance(output, str)
    height = widget.content_region.height
    return "\n".join(output.splitlines()[:height]) if height else output


def record_events(app: MugginsApp) -> list[EventLine]:
    """Every event the app receives from now on (inside its states)."""
    seen: list[EventLine] = []
    receive = app.session.receive

    def spy(message: ServerMessage) -> list:  # type: ignore[type-arg]
        if isinstance(message, State):
            seen.extend(message.events)
        return receive(message)

    app.session.receive = spy  # type: ignore[method-assign]
    return seen


async def until(pilot: Pilot[None], check: Callable[[], object], *, timeout: float = 30.0) -> None:
    """Let the app run until ``check()`` is true."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        if loop.time() > deadline:
            raise AssertionError(f"timed out waiting for {check}")
        await asyncio.sleep(STEP)
        await pilot.pause()


def my_move(app: MugginsApp) -> bool:
    view = app.session.view
    return view is not None and view.seat in view.waiting_for and bool(view.legal)


async def make_move(app: MugginsApp, pilot: Pilot[None]) -> None:
    """Make one legal move with the keys a person would press."""
    view = app.session.view
    assert view is not None
    before = mine(view)
    if need(view) == 2:
        await pilot.press("1", "2", "enter")
    elif need(view) == 1:
        legal = [a.card for a in view.legal if isinstance(a, Play)]
        index = view.hand.index(legal[0])
        await pilot.press(str(index + 1), "enter")
    elif show_prompt(view) == "count":
        shown = view.show[-1]
        exact = score_hand(shown.cards, shown.starter, crib=shown.kind == "crib").total
        await pilot.press(*str(exact), "enter")
    elif show_prompt(view) == "answer":
        await pilot.press("a")
    await until(pilot, lambda: mine(app.session.view) != before or app.error)


mine = own_state


def computer_app(url: str, **goal: object) -> MugginsApp:
    return MugginsApp(url=url, name="Ann", goal=Goal("computer", **goal), hint=False)  # type: ignore[arg-type]
