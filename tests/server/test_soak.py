"""Long runs (with --run-slow): a soak with random disconnects, and the leak audit at scale.

Soak: rooms of two players play at a human pace (a move 0.5-1.5 s after being waited for) on a
server with a SQLite file, for ``--soak-seconds``. Each player now and then drops its socket
without a goodbye and comes back after a moment with its resume token. When time is up the
running matches are played out. It must end with every match finished and stored, each stored
log replaying to its end, no player or connection left over, and memory flat after warm-up.

Leak audit: ``--leak-games`` complete random games (default 10,000), every frame of both seats
and a spectator checked by the leak test's own checker.
"""

from __future__ import annotations

import asyncio
import random
import resource
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_leak import one_game
from websockets.exceptions import ConnectionClosed
from wire_client import WireClient

from muggins.server.app import Server, running_server
from muggins.server.config import ServerConfig
from muggins.server.runtime.collector import collecting
from muggins.shared.match import Match

# As long as --soak-seconds asks (30 minutes and more): no per-test timeout.
pytestmark = [pytest.mark.slow, pytest.mark.timeout(0)]
ROOMS = 40
PACE = 1.0
DROP_CHANCE = 0.02
"""Per move: the chance that a player drops its socket instead of moving."""


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def current_rss_mb() -> float:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return rss_mb()


class Seat:
    """One player who plays at a human pace, drops now and then, and resumes with its token."""

    def __init__(
        self, url: str, name: str, rng: random.Random, go_on: Callable[[int], bool]
    ) -> None:
        self.url = url
        self.go_on = go_on
        self.name = name
        self.rng = rng
        self.client: WireClient | None = None
        self.drops = 0
        self.matches = 0
        self.errors: list[str] = []

    async def connect(self) -> WireClient:
        if self.client is None:
            self.client = await WireClient.open(self.url, name=self.name)
        else:
            token = self.client.token
            self.client = await WireClient.open(self.url, hello=False)
            welcome = await self.client.hello(self.name, token=token)
            assert welcome["type"] == "welcome" and welcome["resumed"], welcome
        return self.client

    async def play(self) -> None:
        client = self.client
        assert client is not None
        pending: int | None = None
        while True:
            try:
                frame = await client.recv(timeout=120)
            except ConnectionClosed:
                raise AssertionError(f"{self.name} was disconnected by the server") from None
            client.frames.clear()  # keep no history: memory is measured
            client.raw.clear()
            if frame["type"] == "error":
                self.errors.append(frame["code"])
            if frame.get("id") is not None and frame["id"] == pending:
                pending = None
            if frame["type"] != "state":
                continue
            view = frame["view"]
            if view["phase"] == "match_over":
                self.matches += 1
                if not self.go_on(frame["seq"]):
                    return
                await client.send(type="rematch")
                continue
            if pending is not None or view["seat"] not in view["waiting_for"]:
                continue
            if not view["legal"]:
                continue
            await asyncio.sleep(PACE * self.rng.uniform(0.5, 1.5))
            if self.rng.random() < DROP_CHANCE:
                self.drops += 1
                assert client.ws.transport is not None
                client.ws.transport.abort()
                await asyncio.sleep(self.rng.uniform(0.1, 3.0))
                client = await self.connect()
                pending = None
                continue
            pending = self.rng.getrandbits(30)
            await client.send(**self.rng.choice(client.state["view"]["legal"]), id=pending)


async def soak_room(url: str, n: int, stop_at: float) -> tuple[Seat, Seat]:
    rng = random.Random(n)
    decided: dict[int, bool] = {}

    def go_on(seq: int) -> bool:
        """Whether to ask for a rematch after the match ending at ``seq``: one answer per room."""
        return decided.setdefault(seq, time.monotonic() < stop_at)

    host = Seat(url, f"Host{n}", random.Random(rng.getrandbits(32)), go_on)
    guest = Seat(url, f"Guest{n}", random.Random(rng.getrandbits(32)), go_on)
    created = await (await host.connect()).request(
        type="create_room", options={"game": {"target": 61}}
    )
    await (await guest.connect()).request(type="join_room", code=created["code"])
    await asyncio.gather(host.play(), guest.play())
    return host, guest


async def sample_memory(samples: list[tuple[float, float]], every: float) -> None:
    start = time.monotonic()
    while True:
        samples.append((time.monotonic() - start, current_rss_mb()))
        await asyncio.sleep(every)


async def test_soak_with_random_disconnects_loses_no_game(
    tmp_path: Path, pytestconfig: pytest.Config
) -> None:
    """Human pace, random drops and resumes: every match finishes, is stored, memory is flat."""
    seconds = float(pytestconfig.getoption("--soak-seconds"))
    config = ServerConfig(
        port=0, db=tmp_path / "soak.db", grace=60.0, bot_delay=0.0, max_per_address=10_000,
        rooms_per_minute=1e6, rooms_per_minute_per_address=1e6,
    )  # fmt: skip
    samples: list[tuple[float, float]] = []
    async with running_server(config) as server:
        sampler = asyncio.ensure_future(sample_memory(samples, max(1.0, seconds / 60)))
        stop_at = time.monotonic() + seconds
        pairs = await asyncio.gather(*(soak_room(server.url, n, stop_at) for n in range(ROOMS)))
        sampler.cancel()
        seats = [seat for pair in pairs for seat in pair]
        for seat in seats:
            assert seat.client is not None
            await seat.client.close()
        await asyncio.sleep(0.5)
        await audit_store(server, pairs)
        assert len(server.lobby.players) == 2 * ROOMS, "a resume made a new player"
        assert len(server.connections) == 0
    drops = sum(seat.drops for seat in seats)
    matches = sum(host.matches for host, _ in pairs)
    refused = [code for seat in seats for code in seat.errors]
    print(f"\nsoak: {seconds:.0f} s, {ROOMS} rooms, {matches} matches, {drops} drops and resumes")
    print(f"soak: RSS MB over time: {[(round(t), round(mb, 1)) for t, mb in samples]}")
    assert drops > 0, "no disconnect happened: the soak did not test resuming"
    assert refused == [], f"moves refused: {refused}"
    settled = [mb for t, mb in samples if t >= seconds / 3]
    early = [mb for t, mb in samples if t < seconds / 3] or settled
    assert max(settled) <= max(early) * 1.15 + 8, "memory kept growing after warm-up"


async def audit_store(server: Server, pairs: list[tuple[Seat, Seat]]) -> None:
    """Every room's matches are all finished in the store, and each stored log replays."""
    finished = await server.store.finished_matches(limit=1_000_000)
    by_room: dict[str, int] = {}
    for record in finished:
        by_room[record.room] = by_room.get(record.room, 0) + 1
    for room in server.lobby.rooms.values():
        assert room.match is not None and room.match.over, f"room {room.code} left unfinished"
        assert by_room.get(room.code) == room.match_number, f"room {room.code} lost a match"
        for number in range(1, room.match_number + 1):
            stored = await server.store.load_match(room.code, number)
            assert stored is not None
            replay = Match.replay(stored.options, stored.seed, list(stored.actions))
            assert replay.over, f"room {room.code} match {number} does not replay to its end"
    assert sum(by_room.values()) == sum(host.matches for host, _ in pairs)


async def test_leak_audit_at_scale(server: Server, pytestconfig: pytest.Config) -> None:
    """Thousands of complete random games: no frame to any seat or spectator leaks a card."""
    games = int(pytestconfig.getoption("--leak-games"))
    gate = asyncio.Semaphore(20)
    done = 0
    started = time.monotonic()
    report: Callable[[], None] = lambda: print(  # noqa: E731
        f"\nleak audit: {done}/{games} games in {time.monotonic() - started:.0f} s", flush=True
    )

    async def gated(n: int) -> int:
        nonlocal done
        async with gate:
            checked = await one_game(server, 100_000 + n)
        done += 1
        if done % 500 == 0:
            report()
        return checked

    async with collecting():  # as muggins serve does: thousands of rooms, no long pauses
        checked: list[Any] = await asyncio.gather(*(gated(n) for n in range(games)))
    report()
    assert len(checked) == games and all(c > 50 for c in checked)
