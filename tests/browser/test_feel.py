"""How the table feels: the tab title says when it is your move; cards slide in unless the
system asks for reduced motion; the table darkens with a dark colour scheme; sound is off
until chosen, and the choice is kept."""

from __future__ import annotations

import re

from cdp import Browser, Page
from site_helpers import computer_game, page_url
from table_driver import read_table, take_turn
from test_friend_game import named_page

from muggins.server.app import Server


async def test_title_motion_theme_and_sound(browser: Browser, site: Server) -> None:
    """Your move shows in the title; a played card has its slide-in animation, and none when
    motion is reduced; a dark scheme darkens the felt; the sound box starts off and stays on."""
    page = await browser.new_page()
    await computer_game(page, site, "Ty")
    await page.wait("document.title.startsWith('● Your move')", what="the title at the discard")
    await page.wait("!!document.querySelector('#lay-away')", what="a dealt hand")
    # A card just played carries "fresh" (redraws after it do not); its computed animation:
    animation = (
        "(() => { const e = document.createElement('span'); e.className = 'card fresh';"
        " document.body.append(e); const name = getComputedStyle(e)"
        ".animationName; e.remove(); return name; })()"
    )
    assert await page.js(animation) == "slide-in"
    features = [{"name": "prefers-reduced-motion", "value": "reduce"}]
    await page.call("Emulation.setEmulatedMedia", features=features)
    assert await page.js(animation) == "none"
    felt = "getComputedStyle(document.body).backgroundColor"
    light = await page.js(felt)
    dark = [{"name": "prefers-color-scheme", "value": "dark"}]
    await page.call("Emulation.setEmulatedMedia", features=dark)
    assert await page.js(felt) != light
    assert not await page.js("document.getElementById('sound-on').checked")
    await page.click("#sound-on")
    await page.reload()
    await page.wait("!!document.querySelector('#hand button')")
    assert await page.js("document.getElementById('sound-on').checked")
    assert page.errors == []


async def test_a_casual_room_with_a_clock(browser: Browser, site: Server) -> None:
    """A friend room set to 30 s a move shows the clock counting down on both pages at the
    discard (no bank in a casual room), and the room is made with that turn timer."""
    alice = await named_page(browser, page_url(site), "Alice")
    await page_select(alice, "friend-clock", "30")
    await alice.click("#create-room")
    link: str = await alice.wait("document.getElementById('invite-link')?.value")
    code = link.rsplit("/", 1)[1]
    assert site.lobby.rooms[code].options.turn_timer == 30
    bob = await named_page(browser, page_url(site), "Bob")
    await bob.goto(link)
    for page in (alice, bob):
        shown = await page.wait(
            "!document.getElementById('clock').hidden"
            " && document.getElementById('clock').textContent",
            what="the clock",
        )
        assert "Your move: " in shown and "bank" not in shown, shown
        seconds = [int(n) for n in re.findall(r"(\d+) s", shown)]
        assert seconds and all(0 < n <= 30 for n in seconds), shown
    assert "30 s a move" in await bob.js("document.getElementById('room-facts').textContent")


async def page_select(page: Page, select: str, value: str) -> None:
    await page.js(f"document.getElementById('{select}').value = '{value}'")


async def test_both_tables_count_down_the_time_the_server_gives(
    browser: Browser, site: Server
) -> None:
    """30 s a move with a 1 min bank. Bob has been thinking for 40 s by the server's clock when
    Alice lays away: both pages then show Bob in his bank with at most 50 s left, as the server
    says, not a move's time started afresh by Alice's discard."""
    alice = await named_page(browser, page_url(site), "Alice")
    await page_select(alice, "friend-clock", "30")
    await page_select(alice, "friend-bank", "60")
    await alice.click("#create-room")
    link: str = await alice.wait("document.getElementById('invite-link')?.value")
    room = site.lobby.rooms[link.rsplit("/", 1)[1]]
    assert room.options.turn_timer == 30 and room.options.turn_bank == 60
    bob = await named_page(browser, page_url(site), "Bob")
    await bob.goto(link)
    shown = (
        "!document.getElementById('clock').hidden && document.getElementById('clock').textContent"
    )
    for page in (alice, bob):
        both = await page.wait(f"({shown} || '').split(' + bank 1:00').length === 3 && {shown}")
        assert both.count("+ bank 1:00") == 2, both
    clock = room.turn_clock
    assert clock is not None and clock.started[1] is not None
    since, actions = clock.started[1]
    clock.started[1] = (since - 40, actions)  # Bob's time started 40 s ago
    await take_turn(alice, await read_table(alice))
    for page, who in ((alice, "Bob"), (bob, "Your move")):
        text = await page.wait(
            f"/^Clock: {who}: bank \\d+ s$/.test({shown} || '') && {shown}", what="Bob's bank"
        )
        left = re.search(r"bank (\d+) s", text)
        assert left and int(left[1]) <= 50, text
    assert alice.errors == [] and bob.errors == []
