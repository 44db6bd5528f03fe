"""The table's other controls in a real browser: the fair-deal check (tick and warning), resign
with its confirmation, and the grace period's claim after the opponent's browser goes away."""

from __future__ import annotations

import json

from cdp import Browser
from site_helpers import page_url
from test_friend_game import invite, named_page

from muggins.server.app import Server
from muggins.shared.cards import DECK
from muggins.shared.fairness import DeckRandom, commit_deal, dealt_hand


async def test_the_deal_check_ticks_a_true_deck_and_warns_on_a_false_one(
    browser: Browser, site: Server
) -> None:
    """The page's Web Crypto check accepts the deck and salt the commitment was made from (and
    our six cards in it), and rejects a deck with two cards swapped or a hand it did not deal."""
    page = await browser.new_page()
    await page.goto(page_url(site))
    deck = DeckRandom(7).shuffled_deck()
    assert sorted(deck) == sorted(DECK)
    salt = "00ff" * 8
    commitment = commit_deal(deck, salt)
    reveal = {"deal_number": 3, "dealer": 1, "commitment": commitment,
              "deck": [str(c) for c in deck], "salt": salt}  # fmt: skip
    hand = [str(c) for c in dealt_hand(deck, dealer=1, seat=0)]
    swapped = {**reveal, "deck": [reveal["deck"][1], reveal["deck"][0], *reveal["deck"][2:]]}
    check = (
        "(async () => {{ const m = await import('/static/fair.js');"
        " const r = await m.checkDeal({reveal}, new Set([{commitment!r}]), {hand}, 0);"
        " return [r.ok, r.handChecked, r.sentence]; }})()"
    )
    ok = await page.js(check.format(reveal=json.dumps(reveal), commitment=commitment, hand=hand))
    assert ok == [True, True, "✓ fair deal 3: the deck and your six cards match the commitment"]
    bad = await page.js(check.format(reveal=json.dumps(swapped), commitment=commitment, hand=hand))
    assert bad[0] is False and bad[2].startswith("WARNING: deal 3 does NOT match")
    other = [c for c in reveal["deck"] if c not in hand][:6]
    wrong = await page.js(
        check.format(reveal=json.dumps(reveal), commitment=commitment, hand=other)
    )
    assert wrong[0] is False


async def test_a_real_deal_shows_the_tick_and_the_check_panel(
    browser: Browser, site: Server
) -> None:
    """After the first deal against the computer the side panel says the deal was fair and the
    "check it yourself" panel holds the commitment, the 52 revealed cards and the salt."""
    page = await named_page(browser, page_url(site), "Ada")
    await page.click("#start-computer")
    await page.wait("!!document.querySelector('#lay-away')", what="the first deal")
    await page.click("#resign")  # resign at once: the deal ends and its deck is revealed
    await page.wait("document.getElementById('confirm').open", what="the confirmation")
    await page.click("#confirm-yes")
    over = await page.wait("document.getElementById('game-over')?.textContent")
    assert "Ada resigned" in over and "wins game 1" in over
    status = await page.wait("document.getElementById('fair-status')?.textContent")
    assert status.startswith("✓ fair deal 1")
    deck = await page.js("document.getElementById('revealed-deck').textContent")
    assert len(deck.split()) == 52 and len(set(deck.split())) == 52
    assert page.dialogs == [] and page.errors == []


async def test_the_grace_period_offers_the_claim_and_it_wins(
    browser: Browser, site: Server
) -> None:
    """When the opponent's browser closes, the page says they are disconnected with a countdown;
    after the grace period (1 s here) it offers the claim, and claiming wins the game."""
    alice, link = await invite(browser, site, "Alice")
    bob = await named_page(browser, page_url(site), "Bob")
    await bob.goto(link)
    await bob.wait("!!document.querySelector('#hand button')")
    await alice.wait("document.getElementById('opponent-status').textContent.includes('connected')")
    await browser.call("Target.closeTarget", targetId=bob.target)
    away = await alice.wait(
        "document.getElementById('opponent-status').textContent.includes('disconnected')"
        " && document.getElementById('opponent-status').textContent",
        what="the disconnect",
    )
    assert "Bob is disconnected" in away
    await alice.click("#claim-win")
    over = await alice.wait("document.getElementById('game-over')?.textContent")
    assert "Alice wins game 1" in over and "Bob resigned" in over
    assert alice.dialogs == [] and alice.errors == []


async def test_the_front_page_lists_a_public_room_to_join(browser: Browser, site: Server) -> None:
    """A public room appears on another browser's front page with a Join link that seats them;
    once full, the list offers to watch it."""
    host = await named_page(browser, page_url(site), "Host")
    await host.click("#friend-private")  # untick: a public room
    await host.click("#create-room")
    code = (await host.wait("document.getElementById('room-code')?.textContent")).strip()
    guest = await named_page(browser, page_url(site), "Guest")
    await guest.click("#refresh-rooms")
    await guest.wait(f"!!document.querySelector('#rooms li[data-room=\"{code}\"] a')")
    assert "Host" in await guest.js(
        f"document.querySelector('#rooms li[data-room=\"{code}\"]').textContent"
    )
    await guest.click(f'#rooms li[data-room="{code}"] a')
    await guest.wait("!!document.querySelector('#hand button')", what="seated by the Join link")
    assert await guest.js("location.pathname") == f"/r/{code}"
    third = await browser.new_page()
    await third.goto(page_url(site))
    link = await third.wait(
        f"document.querySelector('#rooms li[data-room=\"{code}\"] a')?.textContent"
    )
    assert link == "Watch"
