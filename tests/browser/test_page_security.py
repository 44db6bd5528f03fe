"""The Content-Security-Policy as Chromium applies it: no inline script, no other origin."""

from __future__ import annotations

import asyncio
import json
import logging

import pytest
from cdp import Browser
from site_helpers import page_url

from muggins.server.app import Server


async def test_the_browser_refuses_inline_script_and_other_origins(
    browser: Browser, site: Server
) -> None:
    """A script element made in the page does not run, a request to another origin is refused,
    and Chromium reports both as policy violations; the page itself reports none."""
    page = await browser.new_page()
    await page.goto(page_url(site))
    await page.wait("!!document.querySelector('#level option[value=random]')")
    assert page.errors == []  # the page's own files load under the policy
    await page.js(
        "document.body.appendChild(Object.assign(document.createElement('script'),"
        " {textContent: 'window.injected = 1'}))"
    )
    assert await page.js("typeof window.injected") == "undefined"
    refused = await page.js("fetch('http://127.0.0.2:9/').then(() => 'fetched', () => 'refused')")
    assert refused == "refused"
    for _ in range(400):  # the violation reports arrive as log entries (up to 20 s)
        if "connect-src" in " ".join(page.errors):
            break
        await asyncio.sleep(0.05)
    text = " ".join(page.errors)
    assert "Content Security Policy" in text and "script-src" in text and "connect-src" in text


async def test_no_password_or_session_token_in_addresses_logs_or_the_page(
    browser: Browser, site: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """Register, sign out, sign in with the password, reload (signed in by the session), visit
    the profile and leaderboard pages: the password is nowhere but the field it was typed in
    (emptied at once), and the session token only in localStorage under muggins.session: never
    in an address, the history, the DOM, a field, sessionStorage, the console or the server's
    logs."""
    caplog.set_level(logging.DEBUG)
    password = "Sekrit-p4ssword-xyzzy"
    page = await browser.new_page()
    await page.goto(page_url(site))
    await page.wait("!!document.querySelector('#level option[value=random]')")
    addresses = []

    async def use_form(button: str) -> None:
        await page.click("#account-button")
        await page.wait("document.getElementById('account-dialog').open")
        await page.js("document.getElementById('account-name').value = 'Petra'")
        await page.type("#account-password", password)
        await page.click(button)
        await page.wait(
            "document.getElementById('account-button').textContent === 'Petra (account)'"
        )

    await use_form("#register")
    addresses.append(await page.js("location.href"))
    await page.click("#account-button")
    await page.click("#sign-out")
    await page.wait("document.getElementById('account-button').textContent === 'Sign in'")
    await page.js("document.getElementById('account-dialog').close()")
    await use_form("#sign-in")
    token = await page.js("localStorage.getItem('muggins.session')")
    assert isinstance(token, str) and len(token) > 20
    await page.reload()
    await page.wait("document.getElementById('account-button').textContent === 'Petra (account)'")
    snapshots = [await page.everything()]
    for route in ("#/player/Petra", "#/leaderboard"):
        await page.js(f"location.hash = {json.dumps(route)}")
        await page.wait("!!document.getElementById('page-title')")
        addresses.append(await page.js("location.href"))
        snapshots.append(await page.everything())
    addresses.append(await page.js("JSON.stringify(performance.getEntries().map(e => e.name))"))
    for snapshot in snapshots:
        data = json.loads(snapshot)
        assert password not in snapshot
        assert data["local"]["muggins.session"] == token
        rest = snapshot.replace(json.dumps(token), "")
        assert token not in rest, "the session token is somewhere besides localStorage"
    for text in addresses + page.console:
        assert password not in text and token not in text
    logged = "\n".join(
        f"{r.getMessage()} {r.__dict__}" for r in caplog.records if r.name.startswith("muggins")
    )
    assert "account" in logged  # the server did log the accounts' comings and goings
    assert password not in logged and token not in logged
    assert page.errors == []
