"""A reload mid-pegging keeps the seat; a server killed and restarted on its SQLite file mid-game
leaves both pages saying "reconnecting…", then carrying on."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import sys
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from cdp import Browser, Page
from table_driver import read_table, take_turn
from test_friend_game import named_page

SERVE = [sys.executable, "-m", "muggins.client.cli", "serve", "--bot-delay", "0", "--grace", "30"]


@asynccontextmanager
async def serve_process(
    db: Path, port: int = 0
) -> AsyncIterator[tuple[asyncio.subprocess.Process, int]]:
    """`muggins serve` as its own process on a port (0: a free one); yields it and its port."""
    process = await asyncio.create_subprocess_exec(
        *SERVE, "--port", str(port), "--db", str(db),
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        while True:
            line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
            assert line, "the server exited before listening"
            found = re.search(r"listening on ws://127\.0\.0\.1:(\d+)", line)
            if found:
                break
        yield process, int(found.group(1))
    finally:
        if process.returncode is None:
            process.kill()
        await process.wait()


async def play_until(pages: dict[int, Page], done: str, timeout: float = 60) -> None:
    """Both pages play by clicking until the JS condition holds on the first page; then both
    pages show the same state (the second may not have drawn the last move yet)."""
    deadline = time.monotonic() + timeout
    while not await pages[0].js(done):
        assert time.monotonic() < deadline, f"waited for {done}"
        moved = False
        for seat in (0, 1):
            table = await read_table(pages[seat])
            if not table["cont"] and await take_turn(pages[seat], table):
                moved = True
                await pages[seat].wait(
                    f"+document.querySelector('#table').dataset.seq > {table['seq']}"
                )
                break
        if not moved:
            await asyncio.sleep(0.05)
    seq = (await read_table(pages[0]))["seq"]
    for page in pages.values():  # nobody moves now: let both pages draw the same state
        await page.wait(f"+document.querySelector('#table').dataset.seq >= {seq}")


MID_PEGGING = "document.querySelectorAll('#pile .card').length >= 2"
SHOW = "document.querySelectorAll('#show .shown').length === 3"


async def test_reload_and_server_restart_resume_the_game(browser: Browser, tmp_path: Path) -> None:
    """Reloading a page mid-pegging gives back the same seat and hand; killing the server (SIGKILL)
    shows "reconnecting…" on both pages, and after a restart on the same SQLite file both pages
    show the same table as before and play on to the show."""
    db = tmp_path / "games.db"
    async with serve_process(db) as (process, port):
        base = f"http://127.0.0.1:{port}"
        alice = await named_page(browser, base + "/", "Alice")
        await alice.click("#create-room")
        link: str = await alice.wait("document.getElementById('invite-link')?.value")
        assert link.startswith(base)
        bob = await named_page(browser, base + "/", "Bob")
        await bob.goto(link)
        await bob.wait("!!document.querySelector('#hand button')")
        pages = {0: alice, 1: bob}
        await play_until(pages, MID_PEGGING)
        before = await read_table(bob)
        await bob.reload()
        await bob.wait(
            f"+document.querySelector('#table')?.dataset.seq === {before['seq']}",
            what="Bob's table after the reload",
        )
        after = await read_table(bob)
        assert after["path"] == before["path"]
        assert [h["card"] for h in after["hand"]] == [h["card"] for h in before["hand"]]
        assert after["scores"] == before["scores"] and after["pile"] == before["pile"]
        names = await bob.js("document.getElementById('scoreline').textContent")
        assert "Alice" in names and "Bob" in names
        await play_until(
            pages,
            "document.querySelectorAll('#pile .card').length >= 3 "
            "|| document.querySelectorAll('#show .shown').length > 0",
        )
        tables = {seat: await read_table(page) for seat, page in pages.items()}
        process.send_signal(signal.SIGKILL)
        await process.wait()
    for page in pages.values():
        await page.wait(
            "document.getElementById('link-status').textContent === 'reconnecting…'"
            " && !document.getElementById('link-status').hidden",
            what="reconnecting…",
        )
    assert os.path.exists(db)
    async with serve_process(db, port):
        for seat, page in pages.items():
            await page.wait("document.getElementById('link-status').hidden", what="reconnected")
            await page.wait(
                f"+document.querySelector('#table').dataset.seq === {tables[seat]['seq']}"
            )
            again = await read_table(page)
            for key in ("scores", "pile", "hand", "pegs", "count"):
                assert again[key] == tables[seat][key], key
        await play_until(pages, SHOW)
        for page in pages.values():
            assert page.errors == [] and page.dialogs == []
