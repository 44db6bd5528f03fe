"""Tournaments and duplicate matches in a real browser: the front page's list, joining an arena
from its standings page, the game it seats you at, the standings after it; a reply that comes
after the news of a later change, not drawn over it; and a duplicate match played by clicking
at both tables, its result and hand-by-hand comparison."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from cdp import Browser, Page
from site_helpers import page_url
from table_driver import read_table, take_turn
from test_layouts import axe_violations
from test_sign_in import PASSWORD, READY, shot, use_form
from wire_client import WireClient

from muggins.server.app import Server


async def signed_in(url: str, name: str) -> tuple[WireClient, str]:
    client = await WireClient.open(url, name=name)
    made = await client.request(type="register", name=name, password="long enough")
    assert made["type"] == "account"
    return client, made["account"]


async def play_by_clicking(page: Page, *, until: str) -> None:
    """Take this seat's turns by clicking until the page shows ``until`` (a CSS selector),
    from table to table. A move the page has not answered in 10 s is looked at and made again,
    as a player whose click did not take would (twice at most: then the test fails)."""
    unanswered = 0
    while not await page.js(f"!!document.querySelector({until!r})"):
        table = await read_table(page)
        try:
            done = await take_turn(page, table)
            if done is None:
                await asyncio.sleep(0.05)
            elif done != "continue":
                await page.wait(
                    f"Number(document.querySelector('#table')?.dataset.seq) > {table['seq']}"
                    f" || location.pathname !== {table['path']!r}"
                    f" || !!document.querySelector({until!r})",
                    timeout=10,
                )
            unanswered = 0
        except TimeoutError:
            unanswered += 1
            if unanswered > 2:
                raise


async def play_patiently(client: WireClient, rng: random.Random) -> None:
    """Random legal moves to the match's end, waiting as long as a person clicking takes. Where
    both seats move at once (the discard), it moves only once the page's player has: the page's
    driver takes a new state as its own move answered, and the opponent's must not race it."""
    frame = client.state
    while True:
        if frame is not None and frame["type"] == "state":
            view = frame["view"]
            if view["phase"] == "match_over":
                return
            if view["waiting_for"] == [view["seat"]] and view["legal"]:
                await client.send(**rng.choice(view["legal"]))
        frame = await client.recv(timeout=120)


async def next_table(client: WireClient, previous: str | None) -> None:
    while True:
        frame = await client.expect("room", timeout=60)
        if frame["you"] is not None and frame["code"] != previous and frame["status"] != "over":
            client.state = None
            return


async def snap(page: Page, name: str) -> None:
    if path := shot(name):
        await page.screenshot(path)


async def test_joining_an_arena_and_its_standings(browser: Browser, site: Server) -> None:
    """Ann, in the browser, finds the arena on the front page, joins it on its standings page,
    is seated against Bob and plays; the standings then count the game."""
    boss, boss_id = await signed_in(site.url, "Director")
    await site.lobby.store.set_role(boss_id, "admin")
    made = await boss.request(
        type="create_tournament", name="Sunday Arena", kind="arena", minutes=90, target=61
    )
    tid = made["summary"]["tournament"]
    page = await browser.new_page()
    await page.goto(page_url(site))
    await page.wait(READY, what="the front page")
    await use_form(page, "Ann", PASSWORD, "#register")
    await page.wait("document.getElementById('account-button').textContent === 'Ann (account)'")
    await page.js("document.getElementById('account-dialog').close()")
    listed = await page.wait(
        f"document.querySelector('#tournament-list [data-tournament={tid}]')?.textContent"
    )
    assert "Sunday Arena" in listed and "Arena" in listed and "people only" in listed
    await snap(page, "desktop-tournament-list.png")
    await page.click(f"#tournament-list [data-tournament={tid}] a")
    await page.wait("document.getElementById('page-title')?.textContent === 'Sunday Arena'")
    await page.wait("!!document.getElementById('join-tournament')")
    assert await axe_violations(page) == []
    await page.click("#join-tournament")
    await page.wait("!!document.getElementById('leave-tournament')")
    rows = await page.js(
        "[...document.querySelectorAll('#standings tbody tr')].map(r => r.dataset.name)"
    )
    assert rows == ["Ann"]
    await snap(page, "desktop-tournament-joined.png")
    bob, _ = await signed_in(site.url, "Bob")
    await bob.request(type="join_tournament", tournament=tid)
    await next_table(bob, None)
    await bob.request(type="leave_tournament", tournament=tid)  # one game, then no more
    await page.wait("location.pathname.startsWith('/r/')", what="Ann seated by the arena")
    rng = random.Random(2)
    assert await page.js("document.getElementById('pages').hidden")  # the table, not the page
    await asyncio.gather(play_patiently(bob, rng), play_by_clicking(page, until="#game-over"))
    await page.goto(page_url(site, f"/#/tournament/{tid}"))
    standings = await page.wait(
        "(() => { const r = [...document.querySelectorAll('#standings tbody tr')]"
        ".map(tr => [...tr.children].map(c => c.textContent));"
        " return r.length === 2 && r[0][3] === '1' ? r : null; })()",
        what="the standings after the game",
    )
    # Signed in again on this page, it offers to leave, not to join: she is still in it.
    await page.wait("!!document.getElementById('leave-tournament')", what="Ann still in it")
    info = await boss.request(type="get_tournament", tournament=tid)
    assert [row[1].removesuffix(" (left)") for row in standings] == [
        s["name"] for s in info["standings"]
    ]
    assert [row[2] for row in standings] == [
        str(s["points"]).removesuffix(".0") for s in info["standings"]
    ]
    assert await page.js("document.querySelectorAll('#tournament-games li').length") == 1
    assert await axe_violations(page) == []
    await snap(page, "desktop-tournament-standings.png")
    for client in (boss, bob):
        await client.close()


HOLD_REPLIES = """
(() => {
  // Holds each reply of `__holdTypes` the page gets while `__holding`, until `__release()`: a reply
  // delayed on its way, as in a cluster where the director changed the tournament meanwhile.
  const held = [];
  window.__held = held;
  window.__holding = false;
  window.__holdTypes = ["tournament"];
  window.__release = () => { window.__holding = false; held.splice(0).forEach((f) => f()); };
  const add = WebSocket.prototype.addEventListener;
  WebSocket.prototype.addEventListener = function (type, listener, options) {
    if (type !== "message") return add.call(this, type, listener, options);
    return add.call(this, type, (event) => {
      const msg = JSON.parse(String(event.data));
      if (window.__holding && window.__holdTypes.includes(msg.type) && msg.id !== null) {
        held.push(() => listener.call(this, event));
      } else {
        listener.call(this, event);
      }
    }, options);
  };
})();
"""


async def test_a_late_reply_is_not_drawn_over_newer_standings(
    browser: Browser, site: Server
) -> None:
    """Ann joins a Swiss on its standings page, and the reply is held on its way while Bob
    joins: the page draws the news of Bob's join (two players), and when Ann's reply, older,
    comes at last, it keeps the two (it drew the one-player reply over them)."""
    boss, boss_id = await signed_in(site.url, "Director")
    await site.lobby.store.set_role(boss_id, "admin")
    made = await boss.request(
        type="create_tournament", name="Late News", kind="swiss", rounds=2, target=61
    )
    tid = made["summary"]["tournament"]
    page = await browser.new_page()
    await page.call("Page.addScriptToEvaluateOnNewDocument", source=HOLD_REPLIES)
    await page.goto(page_url(site))
    await page.wait(READY, what="the front page")
    await use_form(page, "Ann", PASSWORD, "#register")
    await page.wait("document.getElementById('account-button').textContent === 'Ann (account)'")
    await page.js("document.getElementById('account-dialog').close()")
    await page.js(f"location.hash = '#/tournament/{tid}'")
    await page.wait("!!document.getElementById('join-tournament')", what="the standings page")
    await page.js("window.__holding = true")
    await page.click("#join-tournament")
    await page.wait("window.__held.length === 1", what="Ann's reply held")
    bob, _ = await signed_in(site.url, "Bob")
    await bob.request(type="join_tournament", tournament=tid)
    rows = "[...document.querySelectorAll('#standings tbody tr')].map(r => r.dataset.name).sort()"
    two = await page.wait(f"(r => r.length === 2 ? r : null)({rows})", what="Bob's join")
    assert two == ["Ann", "Bob"]
    assert await page.js("!!document.getElementById('leave-tournament')")
    await page.js("window.__release()")
    await page.wait("document.getElementById('announce').textContent.startsWith('You are in')")
    assert await page.js(rows) == ["Ann", "Bob"]
    assert "2 players" in await page.js("document.getElementById('tournament-facts').textContent")
    assert page.errors == []
    await boss.close()
    await bob.close()


async def swiss_and_a_page(
    browser: Browser, site: Server, name: str
) -> tuple[WireClient, str, Page]:
    """The director (signed in), the Swiss of ``name`` they made, and a front page whose replies
    can be held (HOLD_REPLIES)."""
    boss, boss_id = await signed_in(site.url, "Director")
    await site.lobby.store.set_role(boss_id, "admin")
    made = await boss.request(type="create_tournament", name=name, kind="swiss", rounds=2)
    page = await browser.new_page()
    await page.call("Page.addScriptToEvaluateOnNewDocument", source=HOLD_REPLIES)
    await page.goto(page_url(site))
    await page.wait(READY, what="the front page")
    return boss, made["summary"]["tournament"], page


async def release_held(page: Page) -> None:
    """Let the held replies through, and the page handle them."""
    await page.js("window.__release()")
    await page.js("new Promise((done) => setTimeout(done))")  # (handled by then)
    assert await page.js("window.__held.length") == 0


async def test_a_reply_that_comes_after_the_player_left_the_page_is_not_drawn(
    browser: Browser, site: Server
) -> None:
    """Ann opens a tournament's page and, before its standings come, goes to the leaderboard:
    the standings, held on their way until the leaderboard is drawn, do not replace it."""
    boss, tid, page = await swiss_and_a_page(browser, site, "Gone By")
    await page.js("window.__holding = true")
    await page.js(f"location.hash = '#/tournament/{tid}'")
    await page.wait("window.__held.length === 1", what="the standings held")
    await page.js("window.__holding = false; location.hash = '#/leaderboard'")
    await page.wait("!!document.getElementById('leaderboard') || "
                    "/leaderboard/i.test(document.getElementById('page-body').textContent)",
                    what="the leaderboard")  # fmt: skip
    drawn = "document.getElementById('page-body').innerHTML"
    before = await page.js(drawn)
    await release_held(page)
    assert await page.js(drawn) == before
    assert not await page.js("!!document.getElementById('standings')")
    assert page.errors == []
    await boss.close()


async def test_a_leaderboard_that_comes_after_the_player_left_it_is_not_drawn(
    browser: Browser, site: Server
) -> None:
    """The same for the community pages: the leaderboard's reply, held until the player has
    gone on to a tournament's page, does not replace that page."""
    boss, tid, page = await swiss_and_a_page(browser, site, "Stay Here")
    await page.js("window.__holdTypes = ['leaderboard']; window.__holding = true")
    await page.js("location.hash = '#/leaderboard'")
    await page.wait("window.__held.length === 1", what="the leaderboard held")
    await page.js(f"window.__holding = false; location.hash = '#/tournament/{tid}'")
    await page.wait("!!document.getElementById('standings')", what="the tournament's page")
    await release_held(page)
    assert await page.js("document.getElementById('page-title').textContent") == "Stay Here"
    assert page.errors == []
    await boss.close()


async def test_a_duplicate_match_result_in_the_browser(
    browser: Browser, site: Server, tmp_path: Path
) -> None:
    """Bob makes a duplicate room; Ann plays both tables by clicking and is shown who won by
    how many points on the same cards, and every hand as each of them played it."""
    bob = await WireClient.open(site.url, name="Bob")
    room = await bob.request(
        type="create_room", options={"duplicate": True, "game": {"target": 61}}
    )
    page = await browser.new_page()
    await page.goto(page_url(site, f"/r/{room['code']}"))
    await page.wait("document.getElementById('name-dialog').open", what="the name asked")
    await page.type("#arrival-name", "Ann")
    await page.click("#arrival-sit")
    await page.wait("document.getElementById('room-facts')?.textContent.includes('table 1 of 2')")
    rng = random.Random(3)

    async def both_tables() -> None:
        await play_patiently(bob, rng)
        await next_table(bob, room["code"])
        await play_patiently(bob, rng)

    await asyncio.gather(both_tables(), play_by_clicking(page, until="#duplicate-result"))
    facts = await page.js("document.getElementById('room-facts').textContent")
    assert "table 2 of 2" in facts
    result = await bob.expect("duplicate_result")
    heading = await page.js("document.getElementById('duplicate-heading').textContent")
    assert result["you"] == 0  # Bob made the room: he is the first player, Ann the second
    mine = -result["margin"]
    assert heading == (
        "A tie on the same cards"
        if mine == 0
        else f"You {'won' if mine > 0 else 'lost'} by {abs(mine)} point"
        f"{'' if abs(mine) == 1 else 's'} on the same cards"
    )
    rows = await page.js("document.querySelectorAll('#duplicate-hands tbody tr').length")
    assert rows == len(result["hands"]) > 0
    assert await axe_violations(page) == []
    await snap(page, "desktop-duplicate-result.png")
    await bob.close()
