"""The community pages in a real browser: the leaderboard, a player's profile with their record
and finished games, and the replay of a finished game, each checked against the server's own
answers after scripted players played rated matches over sockets."""

from __future__ import annotations

import asyncio
import json
import math
import os
import random
from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import pytest
from cdp import Browser, Page
from site_helpers import js_fixed, page_url, site_config
from test_layouts import axe_violations
from wire_client import Frame, WireClient, play_randomly

from muggins.server.app import Server, running_server
from muggins.shared.glicko2 import PROVISIONAL_DEVIATION
from muggins.shared.protocol.accounts import RatingInfo

RATED = {"game": {"target": 61}, "rated": True}
DEALER = ("dealer_pegging", "dealer_hand", "dealer_crib", "dealer_total")
PONE = ("pone_pegging", "pone_hand")
WHERE = """[document.getElementById('replay-where').textContent,
  [...document.querySelectorAll('#replay-scores .score')].map(s => +s.dataset.score),
  [0, 1].map(s => [...document.querySelectorAll(`#replay-hand-${s} .card`)]
    .map(c => c.dataset.card))]"""
MATCHES = 18  # rated matches between two players before their deviations are first looked at
MORE = 30  # at most this many more, while a one-sided run keeps a deviation above the threshold


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Server]:
    """The browser tests' server, letting a player create more than the 10 rooms a minute a
    real one may: up to MATCHES + MORE matches are played flat out, a room each."""
    limits = {"rooms_per_minute": 1000.0, "rooms_per_minute_per_address": 1000.0}
    async with running_server(site_config(tmp_path / "games.db", **limits)) as server:
        yield server


def js_round(x: float) -> int:
    """Math.round: halves go up (Python's round takes them to the even number)."""
    return math.floor(x + 0.5)


async def signed_in(url: str, name: str) -> WireClient:
    client = await WireClient.open(url, name=name)
    reply = await client.request(type="register", name=name, password="long enough")
    assert reply["type"] == "account", reply
    return client


async def play_match(host: WireClient, guest: WireClient, options: object, seed: int) -> str:
    """One match to the end, both sides playing random legal moves; its id."""
    room = await host.request(type="create_room", options=options)
    assert room["type"] == "room", room
    assert (await guest.request(type="join_room", code=room["code"]))["type"] == "room"
    rng = random.Random(seed)
    await asyncio.gather(play_randomly(host, rng), play_randomly(guest, rng))
    for client in (host, guest):
        assert (await client.request(type="leave"))["type"] == "left"
        client.state = None
    return f"{room['code']}-1"


async def community(site: Server) -> tuple[WireClient, list[str], int]:
    """Ann and Bob play rated matches (alternating hosts) until both ratings are established,
    and Cy one casual match; Ann's connection, the match ids and how many were rated.

    The deals are not seeded, so who wins is chance: after 18 matches about one pair in eleven
    still has a deviation above 110 (a one-sided run keeps it high), and they play on."""
    ann, bob, cy = [await signed_in(site.url, n) for n in ("Ann", "Bob", "Cyd")]
    games: list[str] = []
    while True:
        host, guest = (ann, bob) if len(games) % 2 else (bob, ann)
        games.append(await play_match(host, guest, RATED, len(games)))
        if len(games) >= MATCHES:
            profiles = await settled(ann, len(games))
            if all(p["rating"]["deviation"] <= PROVISIONAL_DEVIATION for p in profiles):
                break
            assert len(games) < MATCHES + MORE, profiles
    rated = len(games)
    games.append(await play_match(cy, ann, {"game": {"target": 61}}, 99))
    await bob.close()
    await cy.close()
    return ann, games, rated


async def settled(ann: WireClient, rated: int) -> list[Frame]:
    """Ann's and Bob's profiles once every rated match so far is settled (each is settled just
    after its end, off the players' path)."""
    for _ in range(600):
        profiles = [await ann.request(type="profile", name=n) for n in ("Ann", "Bob")]
        if all(p["rating"]["games"] == rated for p in profiles):
            return profiles
        await asyncio.sleep(0.05)
    raise AssertionError(f"{rated} rated matches not all settled: {profiles}")


async def front(browser: Browser, site: Server, route: str) -> Page:
    page = await browser.new_page()
    await page.goto(page_url(site, "/" + route))
    await page.wait("!!document.querySelector('#pages:not([hidden]) #page-title')", what=route)
    return page


async def step_shown(page: Page, n: int) -> None:
    await page.wait(f"document.getElementById('replay-where').textContent.startsWith('Step {n} ')")


async def on_a_phone(page: Page, name: str) -> None:
    """The page on a phone: nothing wider than the screen; a screenshot; back to the desktop."""
    await page.viewport(390, 844, mobile=True)
    await asyncio.sleep(0.2)
    # (A phone's layout viewport grows to fit wide content, so measure against its 390 px.)
    assert await page.js("document.documentElement.scrollWidth") <= 390, name
    if shots():
        await page.screenshot(shots() / name)  # type: ignore[operator]
    await page.viewport(1280, 800)


def shots() -> Path | None:
    folder = os.environ.get("MUGGINS_SHOTS")
    return Path(folder) if folder else None


async def test_leaderboard_profile_and_replay_agree_with_the_server(
    browser: Browser, site: Server, tmp_path: Path
) -> None:
    ann, games, rated = await community(site)
    board: Frame = await ann.request(type="leaderboard", limit=100)
    assert [e["name"] for e in board["entries"]] and len(board["entries"]) == 2

    # The leaderboard: established ratings only, best first, as the server ranks them.
    page = await front(browser, site, "#/leaderboard")
    rows = await page.wait(
        "(() => { const r = [...document.querySelectorAll('#leaderboard tbody tr')]"
        ".map(tr => [...tr.children].map(c => c.textContent)); return r.length ? r : null; })()"
    )
    assert rows == [
        [
            str(e["rank"]),
            e["name"],
            str(js_round(e["rating"]["rating"])),
            str(js_round(e["rating"]["deviation"])),
            str(e["rating"]["games"]),
            f"{e['counts']['match_wins']}–{e['counts']['matches'] - e['counts']['match_wins']}",
        ]
        for e in board["entries"]
    ]
    assert await axe_violations(page) == []
    if shots():
        await page.screenshot(shots() / "desktop-leaderboard.png")  # type: ignore[operator]

    # A name links to the profile: rating, record, averages and history as the server says.
    await page.click("#leaderboard a[href='#/player/Ann']")
    await page.wait("document.querySelector('#page-title')?.textContent === 'Ann'")
    profile = await ann.request(type="profile", name="Ann")
    history = await ann.request(type="history", name="Ann", limit=20)
    rating = profile["rating"]
    shown = await page.wait("document.getElementById('profile-rating')?.textContent")
    assert RatingInfo.model_validate(rating).text() in shown  # the terminal's very words
    assert "established" in shown and not await page.js("!!document.getElementById('provisional')")
    c, a = profile["counts"], profile["averages"]
    table = await page.js(
        "JSON.stringify(Object.fromEntries(['record', 'skunks', 'averages'].map(id => [id, "
        "[...document.querySelectorAll(`#${id} tbody tr`)].map(tr => [...tr.children]"
        ".slice(1).map(td => td.textContent))])))"
    )
    assert json.loads(table) == {
        "record": [
            [str(c["matches"]), str(c["match_wins"]), str(c["matches"] - c["match_wins"])],
            [str(c["games"]), str(c["wins"]), str(c["losses"])],
        ],
        "skunks": [
            [str(c["skunks_given"]), str(c["skunks_taken"])],
            [str(c["double_skunks_given"]), str(c["double_skunks_taken"])],
        ],
        "averages": [
            [*(js_fixed(a[k], 2) for k in DEALER), str(c["deals_dealer"])],
            [
                *(js_fixed(a[k], 2) for k in PONE),
                "–",
                js_fixed(a["pone_total"], 2),
                str(c["deals_pone"]),
            ],
        ],
    }
    assert c["matches"] == rated + 1 and c["deals_dealer"] > 0
    listed = await page.js("[...document.querySelectorAll('#history li')].map(e => e.dataset.game)")
    assert listed == [g["game"] for g in history["games"]] == list(reversed(games))[:20]
    assert await axe_violations(page) == []
    if shots():
        await page.screenshot(shots() / "desktop-profile.png")  # type: ignore[operator]
    await on_a_phone(page, "phone-profile.png")

    # The newest game (Cy's casual match) replays step by step, every card face up.
    newest = games[-1]
    record = await ann.request(type="game", game=newest, steps=True)
    steps = record["steps"]
    await page.click(f"#history li[data-game='{newest}'] a.button")
    await page.wait("!!document.getElementById('replay-step')?.textContent", what="the replay")
    assert await page.js("location.hash") == f"#/game/{newest}"

    async def where() -> tuple[str, list[int], list[list[str]]]:
        return tuple(  # type: ignore[return-value]
            await page.js(WHERE)
        )

    text, scores, hands = await where()
    assert text.startswith(f"Step 1 of {len(steps)}") and scores == [0, 0]
    assert hands == [list(steps[0]["hands"][0]), list(steps[0]["hands"][1])]  # both face up
    await page.click("#replay-next")
    await step_shown(page, 2)
    await page.js("document.activeElement.blur()")
    await page.call(
        "Input.dispatchKeyEvent",
        type="keyDown",
        key="ArrowRight",
        code="ArrowRight",
        windowsVirtualKeyCode=39,
    )
    await step_shown(page, 3)
    texts = await page.js(
        "[...document.querySelectorAll('#replay-texts li')].map(e => e.textContent)"
    )
    assert texts == (steps[2]["texts"] or ["(nothing new)"])
    # A step with a show draws it, counted.
    show_at = next(i for i, s in enumerate(steps) if s["show"] and s["hands"] == [[], []])
    await page.js(
        f"(e => {{ e.value = '{show_at}'; e.dispatchEvent(new Event('input')); }})"
        "(document.getElementById('replay-slider'))"
    )
    await page.wait("!!document.querySelector('#replay-step #show')")
    totals = await page.js(
        "[...document.querySelectorAll('#show .total')].map(e => +e.dataset.total)"
    )
    assert totals == [s["total"] for s in steps[show_at]["show"]]
    assert await axe_violations(page) == []
    if shots():
        await page.screenshot(shots() / "desktop-replay.png")  # type: ignore[operator]
    await on_a_phone(page, "phone-replay.png")
    await page.click("#replay-last")
    await step_shown(page, len(steps))
    text, scores, hands = await where()
    assert scores == list(steps[-1]["scores"]) and max(scores) >= 61
    assert await page.js("document.getElementById('replay-next').disabled")
    assert page.errors == [] and page.dialogs == []
    await ann.close()


async def test_a_provisional_profile_and_unknown_names(browser: Browser, site: Server) -> None:
    """A new player's rating is marked provisional with no games; an unknown name says so; the
    leaderboard of a server with no established rating says why it is empty."""
    cy = await signed_in(site.url, "Cy Young")
    page = await front(browser, site, f"#/player/{quote('Cy Young')}")
    await page.wait("document.getElementById('page-title').textContent === 'Cy Young'")
    assert await page.js("!!document.getElementById('provisional')")
    assert "1500 ± 350 RD" in await page.js("document.getElementById('profile-rating').textContent")
    assert await page.js("!!document.getElementById('history-empty')")
    assert await axe_violations(page) == []
    await page.js("location.hash = '#/leaderboard'")
    await page.wait("!!document.getElementById('leaderboard-empty')")
    assert await axe_violations(page) == []
    await page.type("#find-player", "Nobody")  # the leaderboard's "Find a player"
    await page.click("#find-player-button")
    error = await page.wait("document.querySelector('#page-body .error')?.textContent")
    assert "Nobody" in error or "account" in error.lower()
    assert await page.js("location.hash") == "#/player/Nobody"
    await page.js("location.hash = '#/game/ZZZZZZ-1'")
    await page.wait("!!document.querySelector('#page-body .error')")
    await page.js("location.hash = ''")
    await page.wait("!!document.querySelector('#front:not([hidden])')")
    assert page.errors == []
    await cy.close()
