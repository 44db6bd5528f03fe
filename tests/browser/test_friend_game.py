"""Two people in two browsers play a deal by invite link; a third watches; nothing hidden leaks."""

from __future__ import annotations

import asyncio
import time

from cdp import Browser, Page
from secrets_check import hidden_cards, leaked
from site_helpers import page_url
from table_driver import check_against, read_table, take_turn, truth
from test_layouts import axe_violations

from muggins.server.app import Server

XSS_NAME = "<img src=x onerror=alert(1)>"
XSS_CHAT = "<script>alert(1)</script>"


async def named_page(browser: Browser, front: str, name: str) -> Page:
    """A fresh browser on the front page at this address, with this name typed in."""
    page = await browser.new_page()
    await page.goto(front)
    await page.wait("!!document.querySelector('#front:not([hidden])')", what="the front page")
    await page.type("#name", name)
    return page


async def invite(browser: Browser, server: Server, name: str) -> tuple[Page, str]:
    """Create a room from the front page; return the page and the invite link it shows."""
    page = await named_page(browser, page_url(server), name)
    await page.click("#create-room")
    link: str = await page.wait(
        "document.getElementById('invite-link')?.value", what="the invite link"
    )
    command = await page.js("document.getElementById('invite-command').textContent")
    assert command == f"muggins play ws://127.0.0.1:{server.port} --join {link[-6:]}"
    return page, link


async def assert_nothing_hidden(server: Server, code: str, pages: dict[int | None, Page]) -> None:
    """Each page's DOM and storage hold no card the rules have not shown its viewer (in the
    first deal; once it ends its whole deck is revealed)."""
    for seat, page in pages.items():
        view = truth(server, code, seat)
        if view.last_deal is not None:
            return
        secret = hidden_cards(view)
        found = leaked(await page.everything(), secret)
        assert not found, f"seat {seat} page shows hidden cards {found}"


async def test_friends_play_a_deal_by_link_and_a_spectator_watches(
    browser: Browser, site: Server
) -> None:
    """The invite link seats the friend; a third browser opening it when full watches; at every
    step no page holds a card its viewer may not see, and the spectator sees no hand."""
    alice, link = await invite(browser, site, "Alice")
    assert await axe_violations(alice) == []  # the waiting room with the invite link
    code = link.rsplit("/", 1)[-1]
    assert link == page_url(site, f"/r/{code}")
    bob = await named_page(browser, page_url(site), "Bob")
    await bob.goto(link)
    await bob.wait("!!document.querySelector('#hand button')", what="Bob's hand")
    carol = await browser.new_page()
    await carol.goto(link)
    await carol.wait("document.getElementById('name-dialog').open", what="Carol asked her name")
    await carol.type("#arrival-name", "Carol")
    await carol.click("#arrival-sit")
    await carol.wait("!!document.querySelector('.watching')", what="Carol watching")
    assert await carol.js("location.pathname") == f"/w/{code}"
    assert await carol.js("document.querySelectorAll('#hand button').length") == 0
    # The link's pages name the room in their WebSocket URL (a cluster's proxy routes by it), and
    # that they follow 4001; Alice's front page, where she made the room, named none.
    paths = [ws.request.path for ws in site.connections if ws.request is not None]
    assert paths.count(f"/?room={code}&follow=1") == 2 and "/" in paths, paths
    pages: dict[int | None, Page] = {0: alice, 1: bob, None: carol}
    room = site.lobby.rooms[code]
    assert [s.name for s in room.seats] == ["Alice", "Bob"]
    checks, deadline = 0, time.monotonic() + 120
    while time.monotonic() < deadline:
        view = truth(site, code, None)
        if view.deal_number > 1 or (view.phase != "discard" and view.last_deal is not None):
            break
        await assert_nothing_hidden(site, code, pages)
        checks += 1
        moved = False
        for seat in (0, 1):
            table = await read_table(pages[seat])
            if table["seq"] != room.seq:
                continue
            check_against(table, truth(site, code, seat))
            if not table["cont"] and await take_turn(pages[seat], table):
                moved = True
                await pages[seat].wait(
                    f"Number(document.querySelector('#table').dataset.seq) > {table['seq']}"
                )
                await assert_nothing_hidden(site, code, pages)
                checks += 1
        if not moved:
            await asyncio.sleep(0.05)
    else:
        raise AssertionError("the deal did not finish in time")
    assert checks >= 10, checks  # a discard each, eight cards, and the go
    for page in pages.values():  # everyone sees the whole show of the deal
        await page.wait("document.querySelectorAll('#show .shown').length === 3", what="the show")
        shown = await page.js(
            "[...document.querySelectorAll('#show .shown h3')].map(h => h.textContent)"
        )
        assert shown[0].startswith("Pone's hand") and shown[1].startswith("Dealer's hand")
        assert shown[2].endswith("crib")
        assert page.dialogs == [] and page.errors == []


async def test_a_hostile_name_and_chat_are_shown_as_text(browser: Browser, site: Server) -> None:
    """A player named like an HTML tag who chats a script tag appears as that literal text on the
    other page; no element is made from it and no dialog opens."""
    host, link = await invite(browser, site, "Host")
    code = link.rsplit("/", 1)[-1]
    mallory = await named_page(browser, page_url(site), XSS_NAME)
    await mallory.goto(link)
    await mallory.wait("!!document.querySelector('#hand button')", what="Mallory seated")
    shown_name = site.lobby.rooms[code].seats[1].name
    assert shown_name is not None and shown_name.startswith("<img src=x")
    await mallory.type("#chat-input", XSS_CHAT)
    await mallory.click("#chat-send")
    line = f"{shown_name}: {XSS_CHAT}"
    await host.wait(
        f"document.getElementById('chat-lines').textContent.includes({line!r})",
        what="the chat line as text",
    )
    assert shown_name in await host.js("document.getElementById('scoreline').textContent")
    await asyncio.sleep(0.5)  # time for any injected handler to have fired
    for page in (host, mallory):
        assert page.dialogs == [], page.dialogs
        assert await page.js("document.querySelectorAll('img, script:not([src])').length") == 0
        assert page.errors == []
