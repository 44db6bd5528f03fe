"""Keyboard and screen reader: the focus stays on a sensible control after each move (never
falls to the page), S says the scores and whose move it is, and the show is announced part by
part (each hand its own sentence, the prompt apart)."""

from __future__ import annotations

import asyncio
import time

from cdp import Browser, Page
from site_helpers import computer_game
from table_driver import read_table

from muggins.server.app import Server

FOCUSED = "(() => { const e = document.activeElement;"
FOCUSED += " return e && e !== document.body && !!e.closest('#table') ? e.id || e.dataset.card"
FOCUSED += " || e.tagName : null; })()"


async def focused(page: Page) -> str | None:
    found: str | None = await page.js(FOCUSED)
    return found


async def play_by_keys(page: Page, card: str) -> None:
    """Focus ``card`` and press Enter to choose it and Enter to play it, until it has left the
    hand. A state that comes between (the page read as the player's turn just before the
    server's answer to the last card said otherwise) may undo the choice: then the player, as
    one at the keyboard would, presses again; three tries at most."""
    button = f"document.querySelector('#hand [data-card=\"{card}\"]')"
    for _ in range(3):
        if await page.js(f"{button}?.getAttribute('aria-pressed') !== 'true'"):
            await page.js(f"{button}?.focus()")
            await page.press("Enter")  # chooses it
        await page.press("Enter")  # and plays it
        try:
            await page.wait(f"!{button}", timeout=5.0)
            return
        except TimeoutError:
            continue
    raise AssertionError(f"{card} was chosen and played by keys three times and stayed")


async def test_focus_stays_and_s_says_the_scores(browser: Browser, site: Server) -> None:
    """Played by keys alone: after the lay-away and after each card played the focus is still
    on a control of the table; S announces both scores and whose move; a show's parts are
    announced as separate sentences."""
    page = await browser.new_page()
    await computer_game(page, site, "Kay")
    await page.wait("!!document.querySelector('#lay-away')", what="a dealt hand")
    await page.js("document.querySelector('#hand button').focus()")
    await page.press("s")
    said = await page.js("document.getElementById('announce').textContent")
    assert "You 0" in said and "Computer (random) 0" in said and "move" in said, said
    await page.press("1")
    await page.press("2")
    await page.press("Enter")
    await page.wait("!document.querySelector('#lay-away')", what="laid away by keys")
    assert await focused(page), "the focus fell to the page after the lay-away"
    parts = 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and parts < 2:
        table = await read_table(page)
        if table["cont"]:
            parts = await page.js("document.querySelectorAll('#announce p').length")
            await page.press("Enter")
        elif table["playCard"] and any(h["enabled"] for h in table["hand"]):
            card = next(h["card"] for h in table["hand"] if h["enabled"])
            await play_by_keys(page, card)
            assert await focused(page), f"the focus fell to the page after playing {card}"
        else:
            await asyncio.sleep(0.05)
    assert parts >= 2, "the show was said in one breath"
    assert page.errors == []
