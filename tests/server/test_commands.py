"""`muggins history` and `muggins replay` read finished games; rooms with the computer resume."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path

import pytest
from wire_client import WireClient, play_randomly

from server.app import running_server
from server.config import ServerConfig
from shared.cli import main

CONFIG = ServerConfig(port=0, bot_delay=0.0, rate=10_000, burst=10_000)


async def finished_game(db: Path) -> str:
    """Play one game to 61 against the computer on ``db``; return the game id."""
    async with running_server(replace(CONFIG, db=db)) as server:
        alice = await WireClient.open(server.url, name="Alice")
        created = await alice.request(type="create_room", options={"game": {"target": 61}})
        await alice.request(type="seat_bot", level="random")
        await play_randomly(alice, random.Random(4))
    return f"{created['code']}-1"


def test_history_lists_and_replay_prints_a_finished_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A finished game shows in history with its result, and replays deal by deal."""
    db = tmp_path / "games.db"
    game = asyncio.run(finished_game(db))
    assert main(["history", "--db", str(db)]) == 0
    listing = capsys.readouterr().out
    [row] = [line for line in listing.splitlines() if line.startswith(game)]
    assert "Alice v Computer (random)" in row and " won " in row
    assert main(["replay", game.lower(), "--db", str(db)]) == 0
    steps = capsys.readouterr().out
    assert steps.startswith(f"Game {game}: Alice v Computer (random)")
    assert "Alice lays away" in steps and "holds" in steps and "Result: won" in steps
    assert main(["replay", "NOSUCH-1", "--db", str(db)]) == 1
    assert "no game NOSUCH-1" in capsys.readouterr().out


async def test_a_game_against_the_computer_resumes_after_a_restart(tmp_path: Path) -> None:
    """A room with the computer is rebuilt from SQLite; the player resumes and the bot plays on."""
    config = replace(CONFIG, db=tmp_path / "games.db")
    async with running_server(config) as server:
        alice = await WireClient.open(server.url, name="Alice")
        created = await alice.request(type="create_room", options={"game": {"target": 61}})
        await alice.request(type="seat_bot", level="random")
        await play_randomly(alice, random.Random(1), until="show")
        seq = server.lobby.find(created["code"]).seq
    async with running_server(config) as server:
        room = server.lobby.find(created["code"])
        assert room.seq == seq and room.seats[1].kind == "bot"
        back = await WireClient.open(server.url, hello=False)
        welcome = await back.hello("Alice", token=alice.token)
        assert welcome["resumed"] and welcome["room"] == created["code"]
        await play_randomly(back, random.Random(2))
        assert room.match is not None and room.match.over


def test_serve_refuses_half_a_tls_setup(capsys: pytest.CaptureFixture[str]) -> None:
    """A certificate without its key (or the reverse) is an error, not a plain-text server."""
    assert main(["serve", "--certfile", "cert.pem"]) == 2
    assert "--keyfile" in capsys.readouterr().out
