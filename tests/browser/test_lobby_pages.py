"""The front page lists open rooms a page at a time (protocol 2's paginated list_rooms)."""

from __future__ import annotations

from cdp import Browser
from site_helpers import page_url
from wire_client import WireClient

from muggins.server.app import Server

OPEN_ROOMS = 23  # more than the page's 20 rooms at a time


async def test_more_rooms_fetches_the_next_page(browser: Browser, site: Server) -> None:
    """20 rooms first with "20 of 23"; More rooms adds the other 3 and then goes away."""
    hosts = [await WireClient.open(site.url, name=f"Host{i}") for i in range(OPEN_ROOMS)]
    codes = {(await host.request(type="create_room"))["code"] for host in hosts}
    assert len(codes) == OPEN_ROOMS
    page = await browser.new_page()
    await page.goto(page_url(site))
    listed = "[...document.querySelectorAll('#rooms li[data-room]')].map(li => li.dataset.room)"
    first = await page.wait(f"(() => {{ const r = {listed}; return r.length ? r : null; }})()")
    assert len(first) == 20
    assert await page.js("document.getElementById('rooms-count').textContent") == "20 of 23 rooms"
    await page.click("#more-rooms")
    every = await page.wait(f"(() => {{ const r = {listed}; return r.length > 20 ? r : null; }})()")
    assert sorted(every) == sorted(codes) and len(every) == len(set(every))
    assert await page.js("document.getElementById('rooms-count').textContent") == "23 of 23 rooms"
    assert await page.js("!document.getElementById('more-rooms')")
    await page.click("#refresh-rooms")  # a refresh starts again from the first page
    await page.wait("document.getElementById('rooms-count').textContent === '20 of 23 rooms'")
    assert page.errors == []
    for host in hosts:
        await host.close()
