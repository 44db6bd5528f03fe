"""Links that work from anywhere: the invite link and the terminal command name the server's
public address when it has one; on a loopback address without one, the page says the link is
dead for a friend elsewhere."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from cdp import Browser
from site_helpers import page_url, site_config
from test_friend_game import named_page

from muggins.server.app import Server, running_server

PUBLIC = "https://cribbage.example"


@pytest.fixture
async def public_site(tmp_path: Path) -> AsyncIterator[Server]:
    async with running_server(site_config(tmp_path / "games.db", public_url=PUBLIC)) as server:
        yield server


async def test_the_invite_names_the_public_address(browser: Browser, public_site: Server) -> None:
    """With --public-url, the page loaded from 127.0.0.1 shows a link and a command that name
    the public address, and no loopback warning."""
    page = await named_page(browser, page_url(public_site), "Alice")
    await page.click("#create-room")
    link: str = await page.wait("document.getElementById('invite-link')?.value")
    code = link.rsplit("/", 1)[-1]
    assert link == f"{PUBLIC}/r/{code}"
    command = await page.js("document.getElementById('invite-command').textContent")
    assert command == f"muggins play wss://cribbage.example --join {code}"
    assert not await page.js("!!document.getElementById('loopback-warning')")
    assert page.errors == []


async def test_a_loopback_page_warns_that_its_link_is_dead_elsewhere(
    browser: Browser, site: Server
) -> None:
    """Without a public address, a page loaded from 127.0.0.1 keeps its own origin in the link
    and says on the invite panel that a friend elsewhere cannot open it, and how to fix it."""
    page = await named_page(browser, page_url(site), "Alice")
    await page.click("#create-room")
    link: str = await page.wait("document.getElementById('invite-link')?.value")
    assert link.startswith(f"http://127.0.0.1:{site.port}/r/")
    warning = await page.wait("document.getElementById('loopback-warning')?.textContent")
    assert "127.0.0.1" in warning and "--public-url" in warning
    assert page.errors == []
