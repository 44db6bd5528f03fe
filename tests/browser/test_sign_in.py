"""Accounts in the browser: register, sign in from another browser, sign out everywhere, one
answer for a wrong name and a wrong password, a guest registering mid-game, and a rated game
found through the queue with its turn clock counting down at the table."""

from __future__ import annotations

import asyncio
import json
import os
import re
from pathlib import Path

from cdp import Browser, Page
from site_helpers import page_url
from table_driver import read_table, take_turn
from test_layouts import axe_violations

from muggins.server.app import Server

PASSWORD = "correct horse battery"
READY = "!!document.querySelector('#level option[value=random]')"  # the welcome has arrived


async def front_page(browser: Browser, site: Server) -> Page:
    page = await browser.new_page()
    await page.goto(page_url(site))
    await page.wait(READY, what="the front page")
    return page


def signed_in_as(name: str) -> str:
    button = "document.getElementById('account-button').textContent"
    return f"{button} === {json.dumps(name + ' (account)')}"


async def use_form(page: Page, name: str, password: str, button: str) -> None:
    """Open the Account dialog, type a name and a password, press a button."""
    await page.click("#account-button")
    await page.wait("document.getElementById('account-dialog').open")
    await page.js("document.getElementById('account-name').value = ''")
    await page.type("#account-name", name)
    await page.type("#account-password", password)
    await page.click(button)


async def session_of(page: Page) -> str | None:
    value = await page.js("localStorage.getItem('muggins.session')")
    return str(value) if value else None


def shot(name: str) -> Path | None:
    folder = os.environ.get("MUGGINS_SHOTS")
    return Path(folder) / name if folder else None


async def test_register_sign_in_elsewhere_and_sign_out_everywhere(
    browser: Browser, site: Server
) -> None:
    """A session kept in localStorage signs a reload in again; a second browser signs in with the
    password; "sign out everywhere" there ends the first browser's session too."""
    first = await front_page(browser, site)
    await first.click("#account-button")
    assert await axe_violations(first) == []  # the sign-in form in its dialog
    if path := shot("desktop-sign-in.png"):
        await first.screenshot(path)
    await first.js("document.getElementById('account-dialog').close()")
    await use_form(first, "Alice", PASSWORD, "#register")
    await first.wait(signed_in_as("Alice"), what="registered")
    token = await session_of(first)
    assert token and len(token) > 20
    assert await first.js("document.getElementById('account-password') === null")
    assert await first.js("document.getElementById('name').readOnly")
    assert await first.js("document.getElementById('name').value") == "Alice"
    assert await axe_violations(first) == []  # the front page with the rated box
    if path := shot("desktop-front-signed-in.png"):
        await first.screenshot(path)
    await first.reload()
    await first.wait(signed_in_as("Alice"), what="signed in again by the session")
    assert await session_of(first) == token  # the same session: no password asked
    assert "1500 ± 350 RD (provisional)" in await first.js(
        "document.getElementById('rated-area').textContent"
    )

    second = await front_page(browser, site)
    await use_form(second, "alice", PASSWORD, "#sign-in")  # names are case-insensitive
    await second.wait(signed_in_as("Alice"), what="signed in with the password")
    other = await session_of(second)
    assert other and other != token
    await second.click("#account-button")
    assert await axe_violations(second) == []  # the signed-in dialog
    await second.click("#sign-out-everywhere")
    await second.wait("document.getElementById('account-button').textContent === 'Sign in'")
    assert await session_of(second) is None
    assert "every device" in await second.js("document.getElementById('account-note').textContent")

    await first.reload()  # its session was ended elsewhere
    await first.wait("localStorage.getItem('muggins.session') === null")
    await first.wait("document.getElementById('account-button').textContent === 'Sign in'")
    await first.click("#account-button")
    note = await first.wait("document.getElementById('account-note')?.textContent")
    assert "session has ended" in note
    for page in (first, second):
        assert page.errors == [] and page.dialogs == []


async def test_a_wrong_name_and_a_wrong_password_read_the_same(
    browser: Browser, site: Server
) -> None:
    page = await front_page(browser, site)
    await use_form(page, "Bertha", PASSWORD, "#register")
    await page.wait(signed_in_as("Bertha"))
    await page.click("#account-button")
    await page.click("#sign-out")
    await page.wait("document.getElementById('account-button').textContent === 'Sign in'")
    answers = []
    for name, password in (("Bertha", "not the password"), ("Nobody here", PASSWORD)):
        await page.js("document.getElementById('account-dialog').close()")
        await use_form(page, name, password, "#sign-in")
        answers.append(await page.wait("document.getElementById('account-error')?.textContent"))
        assert await page.js("document.getElementById('account-password').value") == ""
        await page.js("document.getElementById('account-error').remove()")
    assert answers[0] == answers[1] and "do not match" in answers[0]
    short = await page.js("document.getElementById('account-dialog').close()")
    assert short is None
    await use_form(page, "Newcomer", "short", "#register")
    refused = await page.wait("document.getElementById('account-error')?.textContent")
    assert "8" in refused  # the reason is given: a password has at least 8 characters
    assert page.errors == []


async def test_a_guest_registers_mid_game_and_keeps_the_seat(
    browser: Browser, site: Server
) -> None:
    """Registering at the table keeps the room, the seat and the game; the seat is the account's."""
    page = await front_page(browser, site)
    await page.type("#name", "Gus")
    await page.click("#start-computer")
    await page.wait("!!document.querySelector('#lay-away')", what="the first deal")
    path = await page.js("location.pathname")
    code = path.rsplit("/", 1)[-1]
    await use_form(page, "Gus Grant", PASSWORD, "#register")
    await page.wait(signed_in_as("Gus Grant"), what="registered at the table")
    assert await page.js("location.pathname") == path
    assert await page.js("!document.getElementById('table').hidden")
    room = site.lobby.rooms[code]
    assert room.seats[0].account is not None
    table = await read_table(page)
    assert await take_turn(page, table)  # the game goes on: a move is accepted
    await page.wait(f"+document.querySelector('#table').dataset.seq > {table['seq']}")
    assert page.errors == []


async def test_a_rated_game_from_the_queue_with_its_clock(browser: Browser, site: Server) -> None:
    """Seek and cancel; then two signed-in players seek and land at the same rated table, where
    the clock counts down their move time and shows the 3-minute bank."""
    rita, sam = await front_page(browser, site), await front_page(browser, site)
    for page, name in ((rita, "Rita"), (sam, "Sam Spade")):
        await use_form(page, name, PASSWORD, "#register")
        await page.wait(signed_in_as(name))
    await rita.click("#seek")
    seeking = await rita.wait("document.getElementById('seeking')?.textContent")
    assert "Looking for an opponent (one game)" in seeking
    await rita.wait("/within \\d+ of 1500/.test(document.getElementById('seek-range').textContent)")
    await rita.click("#cancel-seek")
    await rita.wait("!!document.getElementById('seek') && !document.getElementById('seeking')")
    await rita.click("#seek")
    await rita.wait("!!document.getElementById('seeking')")
    await sam.click("#seek")
    for page in (rita, sam):
        await page.wait("location.pathname.startsWith('/r/')", what="paired: at the table")
        await page.wait(
            "!document.getElementById('table').hidden && !!document.querySelector('#hand button')"
        )
    assert await rita.js("location.pathname") == await sam.js("location.pathname")
    for page in (rita, sam):  # paired: the queue's words are gone from the page
        await page.wait("document.getElementById('seeking') === null", what="no longer seeking")
    assert "rated" in await rita.js("document.getElementById('room-facts').textContent")
    await rita.wait("document.getElementById('restart').offsetParent === null")  # no restarts
    clock = "(c => c.hidden ? '' : c.textContent)(document.getElementById('clock'))"
    first = await rita.wait(clock, what="the clock")
    assert re.search(r"Your move: \d+ s \+ bank 3:00", first), first
    seconds = int(re.search(r"Your move: (\d+) s", first).group(1))  # type: ignore[union-attr]
    assert 25 <= seconds <= 30
    await asyncio.sleep(1.3)
    later = int(re.search(r"Your move: (\d+) s", await rita.js(clock)).group(1))  # type: ignore[union-attr]
    assert later < seconds  # counting down
    assert await axe_violations(rita) == []
    if path := shot("desktop-rated-clock.png"):
        await rita.screenshot(path)
    for page in (rita, sam):
        assert page.errors == [] and page.dialogs == []


async def test_change_the_password_then_delete_the_account(browser: Browser, site: Server) -> None:
    """A new password ends the other browser's session and the old password; deleting the
    account (asked twice) frees the name."""
    first, second = await front_page(browser, site), await front_page(browser, site)
    await use_form(first, "Dora", PASSWORD, "#register")
    await first.wait(signed_in_as("Dora"))
    await use_form(second, "Dora", PASSWORD, "#sign-in")
    await second.wait(signed_in_as("Dora"))
    before = await session_of(first)
    await first.click("#account-button")
    await first.click("#account-manage summary")
    await first.type("#old-password", PASSWORD)
    await first.type("#new-password", "a brand new one")
    assert await axe_violations(first) == []
    await first.click("#change-password")
    note = await first.wait("document.getElementById('account-note')?.textContent")
    assert "every other session has ended" in note
    assert await session_of(first) not in (None, before)
    await second.reload()
    await second.wait("localStorage.getItem('muggins.session') === null")
    await use_form(second, "Dora", PASSWORD, "#sign-in")
    assert "do not match" in await second.wait(
        "document.getElementById('account-error')?.textContent"
    )
    await second.js("document.getElementById('account-dialog').close()")
    await use_form(second, "Dora", "a brand new one", "#sign-in")
    await second.wait(signed_in_as("Dora"))
    await second.click("#account-button")
    await second.click("#account-manage summary")
    await second.type("#delete-password", "a brand new one")
    await second.click("#delete-account")
    await second.wait("document.getElementById('delete-account').textContent.startsWith('Really')")
    await second.click("#delete-account")
    note = await second.wait("document.getElementById('account-note')?.textContent")
    assert "deleted" in note and await session_of(second) is None
    await second.js("document.getElementById('account-dialog').close()")
    await use_form(second, "Dora", "yet another one", "#register")  # the name is free again
    await second.wait(signed_in_as("Dora"))
    for page in (first, second):
        assert page.errors == [] and page.dialogs == []
