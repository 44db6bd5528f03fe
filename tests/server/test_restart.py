"""Restart: a server process on a SQLite file is stopped with SIGTERM, then killed with
SIGKILL, mid-game. Each time a new process rebuilds the room from its log, both players
reconnect with their tokens and play on. The stored log equals the moves the players saw
accepted, and replaying it without faults gives the final view they saw."""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import sys
from collections.abc import AsyncIterator
from pathlib import Path

from websockets.exceptions import ConnectionClosed
from wire_client import WireClient

from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.actions import ACTION
from muggins.shared.match import Match


@contextlib.asynccontextmanager
async def server_process(
    db: Path, log: Path
) -> AsyncIterator[tuple[asyncio.subprocess.Process, str]]:
    """``muggins serve`` in its own process on ``db``; yields the process and its URL."""
    args = ["serve", "--port", "0", "--db", str(db), "--bot-delay", "0", "--rate", "1000"]
    with log.open("a") as errors:
        process = await asyncio.create_subprocess_exec(
            sys.executable, "-m", "muggins.client.cli", *args,
            stdout=asyncio.subprocess.PIPE, stderr=errors,
        )  # fmt: skip
    assert process.stdout is not None
    line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
    assert "listening on ws://" in line, line
    try:
        yield process, line.split("listening on ", 1)[1].strip()
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()


async def latest(client: WireClient, seq: int) -> None:
    while client.state is None or client.state["seq"] < seq:
        await client.recv()


async def play(
    clients: dict[int, WireClient], rng: random.Random, moves: int, accepted: list[tuple[int, str]]
) -> None:
    """One move at a time, each answered before the next, so no move is in flight at a fault."""
    for _ in range(moves):
        seq = max(c.state["seq"] for c in clients.values() if c.state)
        for client in clients.values():
            await latest(client, seq)
        view = clients[0].state["view"] if clients[0].state else {}
        if view["phase"] == "match_over":
            return
        seat = view["waiting_for"][0]
        legal = clients[seat].state["view"]["legal"] if clients[seat].state else []
        choice = rng.choice(legal)
        answer = await clients[seat].request(**choice)
        assert answer["type"] == "state", answer
        accepted.append((seat, ACTION.validate_python(choice).model_dump_json()))


async def reconnect(url: str, old: WireClient, name: str) -> WireClient:
    client = await WireClient.open(url, hello=False)
    welcome = await client.hello(name, token=old.token)
    assert welcome["resumed"] is True and welcome["room"] is not None
    await client.expect("state")
    return client


async def test_sigterm_and_sigkill_mid_game_lose_nothing(tmp_path: Path) -> None:
    """Two faults mid-game; both players resume by token; the log equals a no-fault replay."""
    db, errors = tmp_path / "games.db", tmp_path / "server.log"
    rng = random.Random(5)
    accepted: list[tuple[int, str]] = []
    async with server_process(db, errors) as (process, url):
        alice = await WireClient.open(url, name="Alice")
        bob = await WireClient.open(url, name="Bob")
        room = await alice.request(type="create_room", options={"game": {"target": 121}})
        await bob.request(type="join_room", code=room["code"])
        await alice.expect("state")
        await bob.expect("state")
        await play({0: alice, 1: bob}, rng, 25, accepted)
        process.send_signal(signal.SIGTERM)
        for client in (alice, bob):
            try:
                while True:
                    await client.recv()
            except ConnectionClosed as closed:
                assert closed.rcvd is not None and closed.rcvd.code == 1012
        assert await asyncio.wait_for(process.wait(), 15) == 0
    async with server_process(db, errors) as (process, url):
        alice, bob = await reconnect(url, alice, "Alice"), await reconnect(url, bob, "Bob")
        assert alice.state and alice.state["seq"] == len(accepted) + 1
        await play({0: alice, 1: bob}, rng, 25, accepted)
        process.kill()
        await process.wait()
    async with server_process(db, errors) as (process, url):
        alice, bob = await reconnect(url, alice, "Alice"), await reconnect(url, bob, "Bob")
        assert alice.state and alice.state["seq"] == len(accepted) + 1
        await play({0: alice, 1: bob}, rng, 10_000, accepted)
        final = alice.state["view"] if alice.state else {}
        assert final["phase"] == "match_over"
    store = SqliteStore(db)
    await store.open()
    try:
        record = await store.load_match(room["code"], 1)
    finally:
        await store.close()
    assert record is not None and record.finished is not None and record.result == "won"
    assert [(seat, action.model_dump_json()) for seat, action in record.actions] == accepted
    replayed = Match.replay(record.options, record.seed, record.actions)
    assert replayed.view(0).model_dump(mode="json") == final
