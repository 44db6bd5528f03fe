"""A table that fits: at 1280x800, 1366x768 and 390x844 every decision's controls (the hand and
its button at the discard and in the pegging, the show's Continue, the count form and the
muggins answer with the hand it answers) are inside the screen as the page stands, without the
player scrolling. Screenshots of each go to MUGGINS_SHOTS (docs/screenshots holds the latest)."""

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

SIZES = {
    "1280x800": (1280, 800, False),
    "1366x768": (1366, 768, False),
    "390x844": (390, 844, True),
}
CONTROLS = {
    "discard": ["#hand button", "#lay-away"],
    "pegging": ["#hand button", "#play-card", "#count"],
    "show": ["#show", "#continue"],
    "count": ["#show .shown:last-child .cards", "#count-form input", "#count-form button"],
    "answer": ["#show .shown:last-child .cards", "#answer button"],
}
"""Each decision: what the player must see and press (the show's panel at least begins)."""
WHEN = {
    "discard": "!!document.querySelector('#lay-away')",
    "pegging": "document.querySelectorAll('#pile .card').length >= 1"
    " && !!document.querySelector('#play-card')",
    "show": "!!document.querySelector('#continue')",
    "count": "!!document.querySelector('#count-form')",
    "answer": "!!document.querySelector('#answer')",
}
OUTSIDE = """((selectors) => {
  const out = [];
  for (const selector of selectors) {
    const found = [...document.querySelectorAll(selector)];
    if (!found.length) out.push(selector + ': missing');
    for (const e of found) {
      const r = e.getBoundingClientRect();
      const bottom = selector === '#show' ? r.top + 40 : r.bottom;  // the panel begins in view
      if (r.top < 0 || bottom > innerHeight || r.left < 0 || r.right > innerWidth)
        out.push(`${selector} at ${Math.round(r.left)},${Math.round(r.top)}-` +
                 `${Math.round(r.right)},${Math.round(r.bottom)} in ${innerWidth}x${innerHeight}`);
    }
  }
  return out;
})"""


async def outside(page: Page, selectors: list[str]) -> list[str]:
    found: list[str] = await page.js(f"{OUTSIDE}({json.dumps(selectors)})")
    return found


async def answer_by_keys(page: Page, table: dict[str, object]) -> bool:
    """Count a hand (the true total is not known here: 0 is a claim like any) or accept one."""
    if table["countForm"]:
        await page.js("document.getElementById('count-input').value = '0'")
        await page.click("#count-form button")
        return True
    if table["answer"]:
        await page.click("#accept-button")
        return True
    return False


@pytest.mark.parametrize("size", list(SIZES))
async def test_every_decision_fits_the_screen(
    browser: Browser, site: Server, tmp_path: Path, size: str
) -> None:
    """Against the computer in muggins mode, each decision is met as the page shows it (after
    each click the test scrolls back to the top, as a player who never scrolls; the page may
    scroll itself) with every control in the screen."""
    width, height, mobile = SIZES[size]
    shots = Path(os.environ.get("MUGGINS_SHOTS", tmp_path))
    page = await browser.new_page(width, height, mobile=mobile)
    await page.goto(page_url(site))
    await page.wait("!!document.querySelector('#level option[value=random]')")
    await page.type("#name", "Ada")
    await page.js("document.getElementById('level').value = 'random'")
    await page.js("document.getElementById('cpu-muggins').checked = true")
    await page.click("#start-computer")
    seen: dict[str, list[str]] = {}
    deadline = time.monotonic() + 120
    while len(seen) < len(WHEN) and time.monotonic() < deadline:
        table = await read_table(page)
        for step, condition in WHEN.items():
            if step not in seen and await page.js(condition):
                await asyncio.sleep(0.15)  # let the page settle where it puts itself
                seen[step] = await outside(page, CONTROLS[step])
                if step == "discard":  # a phone is tapped, not typed on
                    prompt = await page.js("document.getElementById('prompt').textContent")
                    assert ("tap two" in prompt) == mobile, prompt
                await page.screenshot_viewport(shots / f"fit-{size}-{step}.png")
        if table["cont"]:
            await page.click("#continue")
        elif not (await answer_by_keys(page, table) or await take_turn(page, table)):
            await asyncio.sleep(0.05)
            continue
        await page.js("window.scrollTo(0, 0)")  # the player never scrolls: clicks did
        await asyncio.sleep(0.1)
    assert set(seen) == set(WHEN), f"decisions met: {sorted(seen)}"
    problems = {step: found for step, found in seen.items() if found}
    assert problems == {}, problems
    assert page.errors == []
