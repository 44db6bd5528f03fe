"""True records in the browser after the computer took a seat: the profile's history names the
computer, and the replay names who held each seat, with the hand-over as a step of its own."""

from __future__ import annotations

import random

from cdp import Browser
from site_helpers import page_url
from wire_client import WireClient, play_randomly

from muggins.server.app import Server

COMPUTER = "Computer (expert)"


async def test_the_replay_and_the_profile_name_the_computer(browser: Browser, site: Server) -> None:
    """Ann leaves after her discard and Bob gives her seat to the computer, then plays on to the
    end. Bob's profile says he played the computer; the replay's heading names the computer (who
    took over from Ann), its hand-over step says so, and the scores name the computer after it."""
    ann = await WireClient.open(site.url, name="Ann")
    bob = await WireClient.open(site.url, name="Bob")
    assert (await bob.request(type="register", name="Bob", password="long enough"))["type"] == (
        "account"
    )
    room = await ann.request(type="create_room", options={"game": {"target": 61}})
    await bob.request(type="join_room", code=room["code"])
    while ann.state is None:
        await ann.recv()
    await ann.request(type="discard", cards=ann.state["view"]["hand"][:2])
    await ann.close()
    while (await bob.expect("notice"))["code"] != "claimable":
        pass
    assert (await bob.request(type="claim", take="bot"))["type"] == "room"
    await play_randomly(bob, random.Random(5))
    game = f"{room['code']}-1"
    record = await bob.request(type="game", game=game, steps=True)
    texts = [" ".join(s["texts"]) for s in record["steps"]]
    step = texts.index(f"{COMPUTER} takes over from Ann")

    page = await browser.new_page()
    await page.goto(page_url(site, "/#/player/Bob"))
    entry = await page.wait(
        f"document.querySelector('#history li[data-game=\"{game}\"]')?.textContent"
    )
    assert f"against {COMPUTER}" in entry and "Ann" not in entry
    await page.js(f"location.hash = '#/game/{game}'")
    title = await page.wait(
        "document.getElementById('replay-where') && "
        "document.getElementById('page-title').textContent"
    )
    assert title == f"Game {game}: {COMPUTER} (took over from Ann) v Bob"
    await page.js(
        f"(() => {{ const s = document.getElementById('replay-slider'); s.value = {step};"
        " s.dispatchEvent(new Event('input')); })()"
    )
    await page.wait(
        f"document.getElementById('replay-where').textContent.startsWith('Step {step + 1} ')"
    )
    said = await page.js("document.getElementById('replay-texts').textContent")
    assert said == f"{COMPUTER} takes over from Ann"
    who = await page.js(
        "[...document.querySelectorAll('#replay-scores .who')].map(w => w.textContent)"
    )
    assert who == [COMPUTER, "Bob"]
    await page.js(
        f"(() => {{ const s = document.getElementById('replay-slider'); s.value = {step - 1};"
        " s.dispatchEvent(new Event('input')); })()"
    )
    await page.wait(
        f"document.getElementById('replay-where').textContent.startsWith('Step {step} ')"
    )
    who = await page.js(
        "[...document.querySelectorAll('#replay-scores .who')].map(w => w.textContent)"
    )
    assert who == ["Ann", "Bob"]
    assert page.errors == []
