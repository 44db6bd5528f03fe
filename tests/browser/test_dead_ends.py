"""No dead ends: a wrong room link leads home saying so; a spectator is never offered Resign or
Propose restart, and nobody is once the match is over; the text slips stay fixed."""

from __future__ import annotations

from cdp import Browser
from site_helpers import page_url
from test_friend_game import invite, named_page

from muggins.server.app import Server

DEALT = "!!document.querySelector('#lay-away')"
SHOWN = (
    "(id) => { const e = document.getElementById(id);"
    " return !e.hidden && e.offsetParent !== null; }"
)


def visible(id: str) -> str:
    return f"({SHOWN})('{id}')"


async def test_a_wrong_room_link_leads_home(browser: Browser, site: Server) -> None:
    """/r/NOSUCH shows the front page at / with "There is no room NOSUCH", not an empty table."""
    page = await browser.new_page()
    await page.goto(page_url(site, "/r/NOSUCH"))
    await page.wait("document.getElementById('name-dialog').open", what="the name asked")
    await page.type("#arrival-name", "Ned")
    await page.click("#arrival-sit")
    said = await page.wait(
        "document.getElementById('join-error').textContent", what="the no-room sentence"
    )
    assert "There is no room NOSUCH" in said
    assert await page.js(visible("front")) and await page.js("location.pathname") == "/"
    assert await page.js("document.getElementById('table').hidden")
    assert page.errors == []


async def test_resign_and_restart_only_for_a_seat_in_a_match(
    browser: Browser, site: Server
) -> None:
    """A spectator sees neither Resign nor Propose restart; a player does while the match is
    on, and no longer once it is over (a resignation ends a one-game match)."""
    alice, link = await invite(browser, site, "Alice")
    bob = await named_page(browser, page_url(site), "Bob")
    await bob.goto(link)
    await bob.wait(DEALT, what="Bob's hand")
    zoe = await named_page(browser, page_url(site), "Zoe")
    await zoe.goto(link.replace("/r/", "/w/"))
    await zoe.wait("!!document.getElementById('pegboard')", what="the watched table")
    assert not await zoe.js(visible("resign")) and not await zoe.js(visible("restart"))
    await alice.wait(visible("resign"), what="Resign for a player")
    assert await alice.js(visible("restart"))
    await alice.click("#resign")
    await alice.click("#confirm-yes")
    await alice.wait("!!document.getElementById('game-over')", what="the match over")
    assert not await alice.js(visible("resign")) and not await alice.js(visible("restart"))
    await bob.wait("!!document.getElementById('game-over')")
    assert not await bob.js(visible("resign"))
    assert [] == alice.errors == bob.errors == zoe.errors
