"""The reviewer: what each player gave away lands in their record once per match, also across
restarts, and its worker processes never outlive the server (not even one killed by SIGKILL)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sys
import time
from pathlib import Path

from conftest import with_options
from wire_client import WireClient, play_randomly

from muggins.server.app import running_server
from muggins.shared.actions import ACTION, GameOptions
from muggins.shared.bots.review import review_match

PASSWORD = "long enough"


async def play_one(url: str, seed: int) -> tuple[str, tuple[WireClient, WireClient]]:
    """Ann and Bob (registered on first use) play a match to 61; returns its id."""
    players = []
    for name in ("Ann", "Bob"):
        client = await WireClient.open(url, name=name)
        reply = await client.request(type="register", name=name, password=PASSWORD)
        if reply["type"] == "error":
            reply = await client.request(type="sign_in", name=name, password=PASSWORD)
        assert reply["type"] == "account", reply
        players.append(client)
    ann, bob = players
    room = await ann.request(type="create_room", options={"game": {"target": 61}})
    await bob.request(type="join_room", code=room["code"])
    rng = random.Random(seed)
    await asyncio.gather(play_randomly(ann, rng), play_randomly(bob, rng))
    [game] = (await ann.request(type="history", limit=1))["games"]
    return game["game"], (ann, bob)


async def expected_review(client: WireClient, game: str) -> list[dict[str, int]]:
    """Each seat's counters, from the game's own log reviewed here with the engine's reviewer."""
    record = await client.request(type="game", game=game)
    actions = [(a["seat"], ACTION.validate_python(a["action"])) for a in record["actions"]]
    options = GameOptions(**record["options"])
    seed = bytes.fromhex(record["seed"])
    counters = []
    for seat in (0, 1):
        review = review_match(options, seed, actions, seat)
        counters.append(
            {
                "reviewed_deals": sum(1 for m in review.moments if m.kind == "discard"),
                "given_away_discard_milli": round(1000 * review.loss("discard")),
                "given_away_play_milli": round(1000 * review.loss("play")),
            }
        )
    return counters


async def review_counts(url: str) -> dict[str, dict[str, int]]:
    client = await WireClient.open(url, name="Reader")
    found = {}
    for name in ("Ann", "Bob"):
        profile = await client.request(type="profile", name=name)
        found[name] = {
            k: profile["counts"][k]
            for k in ("reviewed_deals", "given_away_discard_milli", "given_away_play_milli")
        }
        found[name]["seat_averages"] = profile["averages"]
    await client.close()
    return found


async def wait_reviewed(url: str, deals: int, timeout: float = 180.0) -> dict[str, dict[str, int]]:
    deadline = time.monotonic() + timeout
    while True:
        found = await review_counts(url)
        if all(f["reviewed_deals"] >= deals for f in found.values()):
            return found
        assert time.monotonic() < deadline, f"not reviewed in {timeout} s: {found}"
        await asyncio.sleep(0.3)


async def test_a_review_lands_in_both_records_once_also_across_restarts(tmp_path: Path) -> None:
    """A match finished on a server without review workers waits in the store; the next
    server reviews it into both records, matching the engine's reviewer on the game's log; a
    second match is reviewed while the server runs; a third start changes nothing."""
    db = tmp_path / "muggins.db"
    async with running_server(with_options(memory=False, db=db, review_workers=0)) as server:
        first, clients = await play_one(server.url, seed=1)
        expected = await expected_review(clients[0], first)
        seats = {"Ann": 0, "Bob": 1}  # Ann created the room: seat 0
        for client in clients:
            await client.close()
        before = await review_counts(server.url)
        assert all(f["reviewed_deals"] == 0 for f in before.values())
        assert before["Ann"]["seat_averages"]["given_away"] is None
    async with running_server(with_options(memory=False, db=db, review_workers=1)) as server:
        found = await wait_reviewed(server.url, 1)
        for name, seat in seats.items():
            assert {k: v for k, v in found[name].items() if k != "seat_averages"} == expected[seat]
            averages = found[name]["seat_averages"]
            total = (
                expected[seat]["given_away_discard_milli"] + expected[seat]["given_away_play_milli"]
            )
            deals = expected[seat]["reviewed_deals"]
            # (to the cent: the server adds the two parts in thousandths, so a mean that falls on
            # a half cent may round either way)
            assert abs(averages["given_away"] - total / 1000 / deals) <= 0.005 + 1e-9
        second, clients = await play_one(server.url, seed=2)
        more = await expected_review(clients[0], second)
        for client in clients:
            await client.close()
        want = {
            name: {k: expected[seat][k] + more[seat][k] for k in expected[seat]}
            for name, seat in seats.items()
        }
        deadline = time.monotonic() + 180  # a loaded machine starts workers slowly
        while True:
            found = await review_counts(server.url)
            got = {
                n: {k: v for k, v in f.items() if k != "seat_averages"} for n, f in found.items()
            }
            if got == want or time.monotonic() > deadline:
                break
            await asyncio.sleep(0.3)
        assert got == want
        assert server.reviewer.done == 2
    async with running_server(with_options(memory=False, db=db, review_workers=1)) as server:
        await asyncio.sleep(3 * server.reviewer.poll)  # time to review anything still queued
        found = await review_counts(server.url)
        assert {
            n: {k: v for k, v in f.items() if k != "seat_averages"} for n, f in found.items()
        } == want
        assert server.reviewer.done == 0


def children(pid: int) -> list[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        ppid = int(stat.rsplit(")", 1)[1].split()[1])
        if ppid == pid:
            found.append(int(entry))
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


async def test_review_workers_die_with_a_server_killed_by_sigkill(tmp_path: Path) -> None:
    """``muggins serve --review-workers 2`` starts its workers; SIGKILL of the server leaves
    no orphan: every process it started ends within a few seconds."""
    args = ["serve", "--port", "0", "--db", str(tmp_path / "m.db"), "--review-workers", "2"]
    with (tmp_path / "serve.log").open("w") as errors:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "muggins.client.cli", *args,
            stdout=asyncio.subprocess.PIPE, stderr=errors,
        )  # fmt: skip
    workers: list[int] = []
    try:
        assert process.stdout is not None
        line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
        assert "listening on ws://" in line, line
        deadline = time.monotonic() + 180  # a loaded machine starts workers slowly
        while len(workers := children(process.pid)) < 2:  # two workers (and spawn's tracker)
            assert time.monotonic() < deadline, "the review workers did not start"
            await asyncio.sleep(0.2)
        assert all(alive(pid) for pid in workers)
        process.send_signal(signal.SIGKILL)
        deadline = time.monotonic() + 10
        while any(alive(pid) for pid in workers):
            assert time.monotonic() < deadline, "a review worker outlived the server"
            await asyncio.sleep(0.1)
        await asyncio.wait_for(process.wait(), 10)  # an orphan would hold its stdout open
    finally:
        for pid in [process.pid, *workers]:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
