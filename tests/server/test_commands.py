"""`muggins history` and `muggins replay` read finished games; rooms with the computer resume."""

from __future__ import annotations

import asyncio
import random
import re
import subprocess
import sys
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest
from cluster_nodes import nodes
from redis_helpers import RedisServer, running_redis
from wire_client import WireClient, play_randomly

from muggins.client.cli import main
from muggins.server.app import running_server
from muggins.server.config import ServerConfig

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
    assert "Alice lays away" in steps and "holds" in steps and "Result: " in steps
    assert main(["replay", "NOSUCH-1", "--db", str(db)]) == 1
    assert "no game NOSUCH-1" in capsys.readouterr().out


def test_history_and_replay_find_the_games_of_muggins_play_without_flags(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A game finished on the file muggins play embeds is listed by a bare muggins history,
    winner's score first with who won, and muggins replay ends with the winner and score."""
    from muggins.server.store.datafiles import embedded_db
    from muggins.server.store.sqlite_games import SqliteStore

    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    db = embedded_db()
    assert db.parent == tmp_path / "muggins"
    db.parent.mkdir()
    game = asyncio.run(finished_game(db))

    async def record() -> tuple[int, tuple[int, int], bool, bool]:
        from muggins.shared.match import Match

        store = SqliteStore(db)
        await store.open()
        try:
            code, number = game.split("-")
            found = await store.load_match(code, int(number))
        finally:
            await store.close()
        assert found is not None and found.winner is not None
        outcome = Match.replay(found.options, found.seed, found.actions).games[-1]
        return found.winner, outcome.scores, outcome.skunk, outcome.double_skunk

    winner, scores, skunk, double = asyncio.run(record())
    names = ("Alice", "Computer (random)")
    said = f"{names[winner]} won {scores[winner]}-{scores[1 - winner]}"
    said += ", double skunk" if double else ", skunk" if skunk else ""
    assert main(["history"]) == 0
    [row] = [line for line in capsys.readouterr().out.splitlines() if line.startswith(game)]
    assert row.endswith(said), row
    assert main(["replay", game]) == 0
    assert capsys.readouterr().out.rstrip().endswith(f"Result: {said}")


async def test_a_game_against_the_computer_resumes_after_a_restart(tmp_path: Path) -> None:
    """A room with the computer is rebuilt from SQLite; the player resumes and the bot plays on."""
    config = replace(CONFIG, db=tmp_path / "games.db")
    async with running_server(config) as server:
        alice = await WireClient.open(server.url, name="Alice")
        created = await alice.request(type="create_room", options={"game": {"target": 61}})
        await alice.request(type="seat_bot", level="random")
        await play_randomly(alice, random.Random(1), until="show")
        before = server.lobby.find(created["code"])
    # The room as the server stopped (the computer may have moved after the show), and as it is
    # rebuilt: every move kept, and the computer, if it is to move, may already have moved again.
    assert before.match is not None and not before.match.over
    moves = list(before.match.log)
    async with running_server(config) as server:
        room = server.lobby.find(created["code"])
        assert room.match is not None and room.seats[1].kind == "bot"
        assert room.match.log[: len(moves)] == moves and room.seq >= before.seq
        back = await WireClient.open(server.url, hello=False)
        welcome = await back.hello("Alice", token=alice.token)
        assert welcome["resumed"] and welcome["room"] == created["code"]
        await play_randomly(back, random.Random(2))
        assert room.match is not None and room.match.over


def test_serve_refuses_half_a_tls_setup(capsys: pytest.CaptureFixture[str]) -> None:
    """A certificate without its key (or the reverse) is an error, not a plain-text server."""
    assert main(["serve", "--certfile", "cert.pem"]) == 2
    assert "--keyfile" in capsys.readouterr().out


def test_serve_refuses_postgres_without_a_cluster(capsys: pytest.CaptureFixture[str]) -> None:
    """--postgres keeps a cluster's finished games: without --redis it is an error, not ignored."""
    assert main(["serve", "--postgres", "postgresql://muggins@db/muggins"]) == 2
    assert "--redis" in capsys.readouterr().out


def gc_collections(url: str) -> dict[str, float]:
    """The server's collections by generation, read from its /metrics page."""
    text = urllib.request.urlopen(url + "/metrics", timeout=10).read().decode()
    found = re.findall(r'^python_gc_collections_total\{generation="(\d)"\} (\S+)$', text, re.M)
    return {generation: float(count) for generation, count in found}


def test_serve_collects_young_objects_on_a_clock(tmp_path: Path) -> None:
    """`muggins serve` runs its server under the collector's schedule (server/runtime/collector.py):
    an idle server still makes a young collection every quarter of a second, where CPython's
    count of allocations would make none (and /metrics shows it)."""
    command = [sys.executable, "-m", "muggins.client.cli", "serve", "--memory", "--port", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        assert server.stdout is not None
        line = server.stdout.readline()
        assert "listening on ws://" in line, line
        url = line.split("listening on ", 1)[1].strip().replace("ws://", "http://")
        first = gc_collections(url)
        time.sleep(2.0)
        second = gc_collections(url)
        assert second["0"] - first["0"] >= 5  # about 8 in 2 s
        assert second["2"] - first["2"] <= 1  # a full one only every 10 minutes
    finally:
        server.terminate()
        server.wait(timeout=30)


async def finished_cluster_game(redis: RedisServer) -> str:
    """Play one game to 61 against the computer on a cluster node; return the game id."""
    async with nodes(redis, 1) as (node,):
        alice = await WireClient.open(node.url, name="Alice")
        created = await alice.request(type="create_room", options={"game": {"target": 61}})
        await alice.request(type="seat_bot", level="random")
        await play_randomly(alice, random.Random(4))
    return f"{created['code']}-1"


def test_history_and_replay_read_a_clusters_redis(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """With --redis, history lists a cluster's finished game and replay prints it; an
    unreachable or malformed Redis address is a clear error with status 1."""
    with running_redis(tmp_path) as redis:
        game = asyncio.run(finished_cluster_game(redis))
        assert main(["history", "--redis", redis.url]) == 0
        [row] = [line for line in capsys.readouterr().out.splitlines() if line.startswith(game)]
        assert "Alice v Computer (random)" in row and " won " in row
        assert main(["history", "--redis", redis.url, "--json"]) == 0
        assert f'"id": "{game}"' in capsys.readouterr().out
        assert main(["replay", game, "--redis", redis.url]) == 0
        steps = capsys.readouterr().out
        assert steps.startswith(f"Game {game}: Alice v Computer (random)")
        assert "Alice lays away" in steps and "Result: " in steps and " won " in steps
        assert main(["replay", "NOSUCH-1", "--redis", redis.url]) == 1
        assert "no game NOSUCH-1" in capsys.readouterr().out
    assert main(["history", "--redis", redis.url]) == 1
    assert "muggins history: Redis" in capsys.readouterr().out
    assert main(["replay", game, "--redis", "localhost:6379"]) == 1
    assert "not a Redis URL" in capsys.readouterr().out


def serve_lines(*flags: str, env: dict[str, str] | None = None) -> list[str]:
    """What `muggins serve FLAGS` prints before it waits (then it is stopped)."""
    import os

    command = [sys.executable, "-m", "muggins.client.cli", "serve", "--memory", "--port", "0"]
    server = subprocess.Popen(
        [*command, *flags],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, **(env or {})},
    )
    lines: list[str] = []
    try:
        assert server.stdout is not None
        while not lines or not lines[-1].startswith("Stop with Ctrl-C"):
            line = server.stdout.readline()
            assert line, lines
            lines.append(line.strip())
    finally:
        server.terminate()
        server.wait(timeout=30)
    return lines


def test_serve_on_all_addresses_prints_this_machines_real_addresses() -> None:
    """Bound to 0.0.0.0, the page and a friend's command name an address others reach (the
    machine's own), not a placeholder and not 127.0.0.1."""
    from muggins.server.commands.serve import machine_addresses

    lines = serve_lines("--host", "0.0.0.0")
    shown = "\n".join(lines)
    assert "THIS-MACHINE" not in shown
    page, friend = lines[1], lines[2]
    addresses = machine_addresses()
    if not addresses:
        pytest.skip("this machine has no address but loopback")
    assert page.startswith(f"Play in a browser: open http://{addresses[0]}:")
    assert f" ws://{addresses[0]}:" in friend and "127.0.0.1" not in page + friend


def test_serve_names_its_public_url_from_the_flag_or_the_environment() -> None:
    """--public-url (or MUGGINS_PUBLIC_URL) is the address printed for the page and the room
    links, and its wss:// twin in the friend's command; a malformed one is refused."""
    for flags, env in (
        (("--public-url", "https://cribbage.example/"), None),
        ((), {"MUGGINS_PUBLIC_URL": "https://cribbage.example"}),
    ):
        page, friend = serve_lines(*flags, env=env)[1:3]
        assert page.startswith("Play in a browser: open https://cribbage.example/;")
        assert "https://cribbage.example/r/CODE" in page
        assert friend.endswith(" wss://cribbage.example --join CODE")
    command = [sys.executable, "-m", "muggins.client.cli", "serve", "--memory"]
    done = subprocess.run(
        [*command, "--public-url", "cribbage.example"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 2 and "is not an address like" in done.stdout


async def test_the_welcome_names_the_public_url() -> None:
    """The welcome tells every client the public address, for the links it shows."""
    # In memory: the test must not touch the data directory's file.
    config = replace(CONFIG, memory=True)
    async with running_server(replace(config, public_url="https://cribbage.example")) as server:
        alice = await WireClient.open(server.url, hello=False)
        assert (await alice.hello("Alice"))["public_url"] == "https://cribbage.example"
    async with running_server(config) as server:
        bob = await WireClient.open(server.url, hello=False)
        assert (await bob.hello("Bob"))["public_url"] is None
