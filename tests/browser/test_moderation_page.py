"""The moderation page in a browser: an admin bans a player who is in a game; the game ends by
the documented rule (the banned player's match is resigned: the opponent wins), the player sees
the ban and why, and cannot sign in, nor register, from the same address while it lasts."""

from __future__ import annotations

from cdp import Browser
from site_helpers import page_url
from test_sign_in import READY, front_page, signed_in_as, use_form
from wire_client import WireClient

from muggins.server.accounts.roles import grant
from muggins.server.app import Server

PASSWORD = "correct horse battery"


async def test_an_admin_bans_a_player_in_a_game_from_the_moderation_page(
    browser: Browser, site: Server
) -> None:
    """The ban from the page ends Bob's game (Ann wins it), shows Bob why and until when, and
    keeps him from signing in or registering again; the page lists the ban and the log."""
    bob = await front_page(browser, site)
    await use_form(bob, "Bob", PASSWORD, "#register")
    await bob.wait(signed_in_as("Bob"), what="Bob registered")
    await bob.click("#create-room")
    code = await bob.wait("location.pathname.startsWith('/r/') && location.pathname.slice(3)")
    ann = await WireClient.open(f"ws://127.0.0.1:{site.port}", name="Ann")
    assert (await ann.request(type="join_room", code=code))["type"] == "room"
    while ann.state is None:
        await ann.recv()
    await bob.wait("!!document.querySelector('#table-moderation .report')", what="the report row")

    boss = await front_page(browser, site)
    await use_form(boss, "Boss", PASSWORD, "#register")
    await boss.wait(signed_in_as("Boss"), what="Boss registered")
    await grant(site.store, "Boss", "admin")
    await boss.goto(page_url(site, "/moderation"))
    await boss.wait("!!document.getElementById('mod-form')", what="the moderation page")
    assert code in await boss.js("document.getElementById('live-rooms').textContent")
    await boss.js("document.getElementById('mod-action').value = 'ban'")
    await boss.type("#mod-name", "Bob")
    await boss.type("#mod-minutes", "60")
    await boss.type("#mod-reason", "cheating")
    await boss.js("document.getElementById('mod-address').checked = true")
    await boss.click("#mod-submit")
    done = await boss.wait("document.getElementById('mod-done')?.textContent")
    assert done.startswith("Bob is banned until")
    sanctions = await boss.js("document.getElementById('sanctions').textContent")
    assert "Banned: Bob" in sanctions and "cheating" in sanctions
    assert "ban Bob (cheating)" in await boss.js("document.getElementById('mod-log').textContent")

    shown = "!document.getElementById('sanction').hidden"
    told = await bob.wait(f"{shown} && document.getElementById('sanction').textContent")
    assert told.startswith("You are banned until") and told.endswith(": cheating")
    while ann.state["view"]["phase"] != "match_over":
        await ann.recv()
    view = ann.state["view"]
    assert view["match_points"][view["seat"]] > view["match_points"][1 - view["seat"]]

    await bob.goto(page_url(site))
    await bob.wait(READY, what="the front page again")
    await bob.wait("document.getElementById('account-button').textContent === 'Sign in'")
    await use_form(bob, "Bob", PASSWORD, "#sign-in")
    refused = await bob.wait("document.getElementById('account-error')?.textContent")
    assert refused.startswith("You are banned until") and "cheating" in refused
    await bob.js("document.getElementById('account-error').remove()")
    await bob.js("document.getElementById('account-dialog').close()")
    await use_form(bob, "Bobby", PASSWORD, "#register")
    again = await bob.wait("document.getElementById('account-error')?.textContent")
    assert again.startswith("You are banned until")
    assert bob.errors == [] and boss.errors == []
