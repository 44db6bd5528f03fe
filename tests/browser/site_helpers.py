"""Servers, addresses and the first steps on a page for the browser tests."""

from __future__ import annotations

import asyncio
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import redis
from cdp import Page

from muggins.server.app import Server
from muggins.server.config import ServerConfig

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def site_config(db: Path, **changes: object) -> ServerConfig:
    base = {
        "port": 0,
        "db": db,
        "bot_delay": 0.0,
        "grace": 1.0,
        "sweep_interval": 3600,
        "rate": 10_000,
        "burst": 10_000,
        "registrations_per_hour": 1e6,
        "reads_per_second": 1e6,
        "rated_pair_per_day": 10**6,
    }
    base.update(changes)
    return ServerConfig(**base)  # type: ignore[arg-type]


def page_url(server: Server, path: str = "/") -> str:
    return f"http://127.0.0.1:{server.port}{path}"


def js_fixed(value: float, places: int) -> str:
    """`value.toFixed(places)` as the page computes it: the exact binary value rounded, a tie
    going up (Python's format sends a tie such as 0.125 to the even digit instead)."""
    exact = Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return f"{exact:.{places}f}"


async def computer_game(page: Page, site: Server, name: str, *, level: str = "random") -> None:
    """On the front page, ``name`` starts a game against the computer at ``level``."""
    await page.goto(page_url(site))
    await page.wait("!!document.querySelector('#level option[value=random]')", what="the levels")
    await page.type("#name", name)
    await page.js(f"document.getElementById('level').value = '{level}'")
    await page.click("#start-computer")


async def leased_room(page: Page, store: redis.Redis, *, who: str) -> str:
    """The code of the room ``page`` just made, once a node (``who``) holds its lease."""
    link: str = await page.wait("document.getElementById('invite-link')?.value")
    code = link.rsplit("/", 1)[-1]
    deadline = time.monotonic() + 15
    while store.get(f"muggins:owner:{code}") is None:
        assert time.monotonic() < deadline, f"no lease on the room from {who}"
        await asyncio.sleep(0.05)
    return code
