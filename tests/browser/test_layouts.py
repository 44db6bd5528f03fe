"""The table on a phone (390x844) and a desktop (1280x800): screenshots at the discard, mid-pegging
and the show, and axe-core run in the page at each with no serious or critical violation."""

from __future__ import annotations

import asyncio
import json
import os
import time
from pathlib import Path

import pytest
from cdp import Browser, Page
from site_helpers import page_url
from table_driver import read_table, take_turn

from muggins.server.app import Server

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
VIEWPORTS = {"phone": (390, 844, True), "desktop": (1280, 800, False)}


async def axe_violations(page: Page) -> list[dict[str, object]]:
    """Serious and critical axe-core violations (WCAG 2.x A and AA rules) on the page now."""
    if not await page.js("typeof axe !== 'undefined'"):
        await page.js(AXE.read_text(encoding="utf-8"))
    found = await page.js(
        "axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21aa', "
        "'best-practice']}}).then(r => JSON.stringify(r.violations.map(v => ({id: v.id, "
        "impact: v.impact, nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))))"
    )
    return [v for v in json.loads(found) if v["impact"] in ("serious", "critical")]


async def until(page: Page, condition: str, timeout: float = 60) -> None:
    """Play this page (the computer plays the other seat) until the condition holds."""
    deadline = time.monotonic() + timeout
    while not await page.js(condition):
        assert time.monotonic() < deadline, condition
        table = await read_table(page)
        if table["cont"] or not await take_turn(page, table):
            if table["cont"]:
                await page.click("#continue")
            await asyncio.sleep(0.05)
            continue
        await page.wait(f"+document.querySelector('#table').dataset.seq > {table['seq']}")


@pytest.mark.parametrize("layout", ["phone", "desktop"])
async def test_table_layouts_screenshots_and_accessibility(
    browser: Browser, site: Server, tmp_path: Path, layout: str
) -> None:
    """Discard, mid-pegging and the show render without overflow on this screen, are captured as
    PNGs, and axe-core finds no serious or critical problem on them or on the front page."""
    if not AXE.exists():
        pytest.fail("axe-core is missing: run npm ci (./dev test does it)")
    shots = Path(os.environ.get("MUGGINS_SHOTS", tmp_path))
    width, height, mobile = VIEWPORTS[layout]
    page = await browser.new_page(width, height, mobile=mobile)
    await page.goto(page_url(site))
    await page.wait("!!document.querySelector('#level option[value=random]')")
    assert await axe_violations(page) == []
    await page.type("#name", "Ada")
    await page.click("#start-computer")
    steps = {
        "discard": "!!document.querySelector('#lay-away')",
        "pegging": "document.querySelectorAll('#pile .card').length >= 2"
        " && !!document.querySelector('#play-card')",
        "show": "!!document.querySelector('#continue')",
    }
    for step, condition in steps.items():
        await until(page, condition)
        await asyncio.sleep(0.2)
        overflow = await page.js("document.documentElement.scrollWidth - window.innerWidth")
        assert overflow <= 0, f"{layout} {step}: {overflow}px wider than the screen"
        await page.screenshot(shots / f"{layout}-{step}.png")
        assert (shots / f"{layout}-{step}.png").stat().st_size > 10_000
        violations = await axe_violations(page)
        assert violations == [], f"{layout} {step}: {violations}"
    assert page.errors == [] and page.dialogs == []
