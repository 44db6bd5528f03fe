"""The Content-Security-Policy as Chromium applies it: no inline script, no other origin."""

from __future__ import annotations

import asyncio

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
    for _ in range(40):  # the violation reports arrive as log entries
        if "connect-src" in " ".join(page.errors):
            break
        await asyncio.sleep(0.05)
    text = " ".join(page.errors)
    assert "Content Security Policy" in text and "script-src" in text and "connect-src" in text
