"""The review in the browser: a finished match's page with every decision graded against the
expert, the worst moments, the points given away per deal and the win-chance graph, checked
against the server's own answer; reached from a profile's history and from the game-over panel;
the profile shows the points given away. Screenshots at 1280x800, 1366x768 and 390x844."""

from __future__ import annotations

import asyncio
import random

from cdp import Browser, Page
from site_helpers import js_fixed, page_url
from test_community_pages import shots
from test_friend_game import named_page
from test_layouts import axe_violations
from wire_client import WireClient, play_randomly

from muggins.server.app import Server

SUITS = str.maketrans({"C": "♣", "D": "♦", "H": "♥", "S": "♠"})


def pretty(text: str) -> str:
    """Cards as the page writes them ("3H JH" as "3♥ J♥"); a count as it is."""
    return text.translate(SUITS)


SIZES = ((1280, 800, False), (1366, 768, False), (390, 844, True))
DECISIONS = "[...document.querySelectorAll('#review-decisions tbody tr')]"


async def played(site: Server) -> tuple[WireClient, str]:
    """Ann (signed in, seat 0) and Bob play a match to 61 at random; Ann and the game id."""
    ann = await WireClient.open(site.url, name="Ann")
    assert (await ann.request(type="register", name="Ann", password="long enough"))["type"] == (
        "account"
    )
    bob = await WireClient.open(site.url, name="Bob")
    room = await ann.request(type="create_room", options={"game": {"target": 61}})
    await bob.request(type="join_room", code=room["code"])
    rng = random.Random(11)
    await asyncio.gather(play_randomly(ann, rng), play_randomly(bob, rng))
    return ann, f"{room['code']}-1"


async def test_the_review_page_agrees_with_the_server(browser: Browser, site: Server) -> None:
    """From Ann's profile, Review opens her game's review: each decision row, the summary, the
    worst moments, the deals and a graph point per win-chance figure are the server's; the other
    seat's review is one link away; nothing is wider than a phone."""
    ann, game = await played(site)
    expected = await ann.request(type="review", game=game, seat=0)
    assert expected["type"] == "game_review" and expected["decisions"]
    page = await browser.new_page()
    await page.goto(page_url(site, "/#/player/Ann"))
    await page.click(f"#history a[href='#/review/{game}/0']")
    await page.wait("!!document.getElementById('review-summary')", what="the review")
    rows = await page.js(f"{DECISIONS}.map(tr => [...tr.children].map(c => c.textContent))")
    assert len(rows) == len(expected["decisions"])
    for row, d in zip(rows, expected["decisions"], strict=True):
        assert row[0] == f"Game {d['game']}, deal {d['deal']}" and row[3] == pretty(d["chosen"])
        assert row[4] == (pretty(d["best"]) if d["loss"] > 1e-9 else "the same")
        assert row[5] == (f"−{js_fixed(d['loss'], 2)}" if d["loss"] > 1e-9 else "0")
    summary = await page.js("document.getElementById('review-summary').textContent")
    assert f"{len(rows)} decisions, {expected['agreed']} the same as the expert's" in summary
    assert js_fixed(sum(expected["given_away"]), 2) in summary
    worst = await page.js(
        "[...document.querySelectorAll('#review-worst li')].map(li => +li.dataset.index)"
    )
    assert worst == expected["worst"]
    dots = await page.js("document.querySelectorAll('#win-graph circle').length")
    line = await page.js("document.querySelector('#win-graph polyline').getAttribute('points')")
    assert dots == len(line.split()) == len(expected["win_chance"])
    deals = await page.js("document.querySelectorAll('#review-deals tbody tr').length")
    assert deals == len(expected["deals"])
    assert await axe_violations(page) == []
    for width, height, mobile in SIZES:
        await page.viewport(width, height, mobile=mobile)
        await asyncio.sleep(0.2)
        assert await page.js("document.documentElement.scrollWidth") <= width, width
        box = await page.js(
            "(() => { const r = document.querySelector('#win-graph svg').getBoundingClientRect();"
            " return [r.left, r.right]; })()"
        )
        assert box[0] >= 0 and box[1] <= width
        if shots():
            kind = "phone" if mobile else f"desktop-{width}x{height}"
            await page.screenshot(shots() / f"{kind}-review.png")  # type: ignore[operator]
    await page.viewport(1280, 800)
    await page.click("#review-other")
    await page.wait("document.getElementById('page-title')?.textContent.endsWith(': Bob')")
    assert page.errors == [] and page.dialogs == []


async def test_the_profile_shows_the_points_given_away(browser: Browser, site: Server) -> None:
    """Once the reviewer has added a player's figures, the profile says how many points a deal
    they gave away, by discards and play; before, that they are not reviewed yet."""
    from muggins.shared.names import name_key

    _, game = await played(site)
    page = await browser.new_page()
    await page.goto(page_url(site, "/#/player/Ann"))
    shown = await page.wait("document.getElementById('given-away')?.textContent")
    assert "not reviewed yet" in shown
    account = await site.store.find_account(key=name_key("Ann"))
    assert account is not None
    review = {"reviewed_deals": 8, "given_away_discard_milli": 1200, "given_away_play_milli": 1000}
    assert await site.store.record_review(game, (review, {}))
    await page.reload()
    shown = await page.wait(
        "document.getElementById('given-away')?.textContent.includes('0.28')"
        " && document.getElementById('given-away').textContent"
    )
    assert "0.28 (discards 0.15, play 0.12; 8 deals reviewed)" in shown


async def review_from_game_over(page: Page) -> str:
    """The game-over panel's review link."""
    href: str = await page.wait("document.getElementById('review-link')?.getAttribute('href')")
    return href


async def test_the_game_over_panel_links_to_the_review(browser: Browser, site: Server) -> None:
    """After a match against the computer ends (Ada lays away, then resigns), the game-over
    panel links to the match's review of her seat, and the link opens it."""
    page = await named_page(browser, page_url(site), "Ada")
    await page.click("#start-computer")
    await page.wait("!!document.querySelector('#lay-away')", what="the first deal")
    cards = await page.js("[...document.querySelectorAll('#hand button')].map(b => b.dataset.card)")
    for card in cards[:2]:
        await page.click(f'#hand button[data-card="{card}"]')
    await page.click("#lay-away")
    await page.wait("!document.querySelector('#lay-away')")
    await page.click("#resign")
    await page.wait("document.getElementById('confirm').open", what="the confirmation")
    await page.click("#confirm-yes")
    href = await review_from_game_over(page)
    code = await page.js("location.pathname.split('/').pop()")
    assert href == f"/#/review/{code}-1/0"
    reader = await browser.new_page()
    await reader.goto(page_url(site, href))
    await reader.wait("!!document.getElementById('review-summary')", what="the review")
    assert await reader.js(f"{DECISIONS}.length") == 1  # the one discard
    assert reader.errors == [] and page.errors == []
