"""The seat is the player's, not the tab's: a closed tab comes back to its seat from the front
page's "Your games" or the room's link; the same account on another device takes the seat over
and the older page says it was replaced."""

from __future__ import annotations

from cdp import Browser, Page
from site_helpers import page_url
from table_driver import read_table, room_code
from test_friend_game import invite, named_page
from test_sign_in import PASSWORD, front_page, signed_in_as, use_form

from muggins.server.app import Server

DEALT = "!!document.querySelector('#lay-away')"


async def against_computer(page: Page) -> tuple[str, list[str]]:
    """Start a game against the random computer; the room code and the dealt hand."""
    await page.js("document.getElementById('level').value = 'random'")
    await page.click("#start-computer")
    await page.wait(DEALT, what="a dealt hand")
    table = await read_table(page)
    return room_code(table), sorted(h["card"] for h in table["hand"])


def listed(code: str) -> str:
    return f"document.querySelector('#my-games li[data-room={code}]')"


async def test_a_closed_tab_comes_back_to_its_seat(browser: Browser, site: Server) -> None:
    """Closing the tab mid-game and opening the front page in a new tab lists the game (the
    opponent, the score, your move) with one click back to the same seat and hand; the room's
    link in yet another tab gets the seat back too."""
    first = await front_page(browser, site)
    await first.type("#name", "Ada")
    code, hand = await against_computer(first)
    second = await browser.new_page(beside=first)
    await first.close()
    await second.goto(page_url(site))
    text = await second.wait(f"{listed(code)}?.textContent", what="the game in Your games")
    assert "against Computer (random)" in text and "0–0" in text and "your move" in text
    await second.click(f"#my-games li[data-room={code}] a")
    await second.wait(DEALT, what="the seat again")
    table = await read_table(second)
    assert room_code(table) == code
    assert sorted(h["card"] for h in table["hand"]) == hand
    assert site.lobby.rooms[code].seats[0].name == "Ada"
    third = await browser.new_page(beside=second)
    await second.close()
    await third.goto(page_url(site, f"/r/{code}"))
    await third.wait(DEALT, what="the seat by the room's link")
    assert sorted(h["card"] for h in (await read_table(third))["hand"]) == hand
    assert third.errors == []


async def test_the_same_account_on_another_device_takes_the_seat(
    browser: Browser, site: Server
) -> None:
    """Alice plays on her laptop; on her phone (another browser, signed in) Your games lists
    the game and one click seats her with the same hand; the laptop says it was replaced."""
    laptop = await front_page(browser, site)
    await use_form(laptop, "Alice", PASSWORD, "#register")
    await laptop.wait(signed_in_as("Alice"), what="registered")
    await laptop.js("document.getElementById('account-dialog').close()")
    code, hand = await against_computer(laptop)
    phone = await front_page(browser, site)
    assert await phone.js(f"{listed(code)} === null")  # not signed in: nothing of Alice's
    await use_form(phone, "Alice", PASSWORD, "#sign-in")
    await phone.wait(signed_in_as("Alice"), what="signed in on the phone")
    await phone.js("document.getElementById('account-dialog').close()")
    await phone.wait(f"{listed(code)}?.textContent", what="Alice's game on the phone")
    await phone.click(f"#my-games li[data-room={code}] a")
    await phone.wait(DEALT, what="the seat on the phone")
    assert sorted(h["card"] for h in (await read_table(phone))["hand"]) == hand
    status = await laptop.wait(
        "!document.getElementById('link-status').hidden"
        " && document.getElementById('link-status').textContent",
        what="the laptop told it was replaced",
    )
    assert "another tab or on another device" in status
    assert phone.errors == [] and laptop.errors == []


async def test_leaving_by_a_link_closes_the_socket_and_back_resumes(
    browser: Browser, site: Server
) -> None:
    """Bob follows a link away mid-game: the server sees him gone at once and Alice's page says
    so (the grace period runs); the Back button brings him back to his seat, connected."""
    alice, link = await invite(browser, site, "Alice")
    bob = await named_page(browser, page_url(site), "Bob")
    await bob.goto(link)
    await bob.wait(DEALT, what="Bob's hand")
    code = link.rsplit("/", 1)[1]
    seat = site.lobby.rooms[code].seats[1]
    hand = sorted(h["card"] for h in (await read_table(bob))["hand"])
    await bob.goto(page_url(site, "/healthz"))
    await alice.wait(
        "document.getElementById('opponent-status').textContent.includes('Bob is disconnected')",
        what="Alice told that Bob is gone",
    )
    assert seat.peer is None and seat.gone_since is not None
    await bob.js("history.back()")
    await bob.wait(DEALT, what="Bob back at the table")
    await bob.wait("document.getElementById('link-status').hidden", what="Bob connected")
    await alice.wait(
        "document.getElementById('opponent-status').textContent.includes('Bob is connected')",
        what="Alice told that Bob is back",
    )
    assert seat.peer is not None and seat.gone_since is None
    assert sorted(h["card"] for h in (await read_table(bob))["hand"]) == hand
    assert bob.errors == [] and alice.errors == []


async def test_a_reload_keeps_the_chat_and_the_log(browser: Browser, site: Server) -> None:
    """After a reload the chat and the log are there again (the server tells the story)."""
    alice, link = await invite(browser, site, "Alice")
    bob = await named_page(browser, page_url(site), "Bob")
    await bob.goto(link)
    await bob.wait(DEALT, what="Bob's hand")
    await alice.type("#chat-input", "good luck")
    await alice.click("#chat-send")
    chat = "document.getElementById('chat-lines').textContent"
    await bob.wait(f"{chat}.includes('good luck')", what="the chat line")
    await bob.reload()
    await bob.wait(DEALT, what="Bob's hand after the reload")
    await bob.wait(f"{chat}.includes('Alice: good luck')", what="the chat after the reload")
    await bob.wait(
        "document.getElementById('log-lines').textContent.includes('deals (deal 1)')",
        what="the first deal in the log after the reload",
    )


async def test_arriving_by_link_asks_the_name_and_marks_watchers(
    browser: Browser, site: Server
) -> None:
    """A friend opening the link with a fresh browser is asked a name (kept for next time) and
    sits under it; a watcher's chat line is marked "(watching)" and the watchers counted."""
    alice, link = await invite(browser, site, "Alice")
    bea = await browser.new_page()
    await bea.goto(link)
    await bea.wait("document.getElementById('name-dialog').open", what="the name asked")
    await bea.type("#arrival-name", "Bea")
    await bea.click("#arrival-sit")
    await bea.wait(DEALT, what="Bea seated")
    assert await bea.js("localStorage.getItem('muggins.name')") == "Bea"
    await alice.wait("document.getElementById('scoreline').textContent.includes('Bea')")
    zoe = await named_page(browser, page_url(site), "Zoe")
    await zoe.goto(link.replace("/r/", "/w/"))
    await zoe.wait("!!document.getElementById('pegboard')", what="Zoe watching")
    await zoe.type("#chat-input", "nice hand")
    await zoe.click("#chat-send")
    chat = "document.getElementById('chat-lines').textContent"
    await alice.wait(f"{chat}.includes('Zoe (watching): nice hand')", what="the marked line")
    await alice.wait("document.getElementById('room-facts').textContent.includes('1 watching')")
    assert [] == alice.errors == bea.errors == zoe.errors
