"""``muggins play`` itself: the embedded server, saved seats, and argument errors."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from muggins.client.cli import main
from muggins.client.play import EMBEDDED, Seats
from muggins.client.session import Goal, Session
from muggins.shared.protocol import Room, RoomOptions, SeatInfo


def run_plain(data: Path, *extra: str, until: str) -> str:
    """Start ``muggins play --plain`` on its own embedded server, wait for a line, then quit."""
    command = [sys.executable, "-m", "muggins.client.cli", "play", "--plain", "--name", "Ann"]
    process = subprocess.Popen(
        [*command, "--data-dir", str(data), "--level", "easy", *extra],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert process.stdin is not None and process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        lines.append(line)
        if until in line or not line:
            break
    process.stdin.write("quit\n")
    process.stdin.flush()
    out, err = process.communicate(timeout=20)
    assert process.returncode == 0, err
    return "".join(lines) + out


def test_play_starts_an_embedded_server_and_resumes_the_game_next_time(tmp_path: Path) -> None:
    """With no address, play runs its own server; quitting keeps the seat, and the next run is
    back in the same room with the same cards; --new starts another game."""
    first = run_plain(tmp_path, until="> Lay away two cards")
    assert "| your hand: [1] " in first
    room = first.split("= room ", 1)[1].split()[0]
    hand = first.split("| your hand: ", 1)[1].splitlines()[0]
    assert (tmp_path / "games.sqlite3").exists()

    second = run_plain(tmp_path, until="> Lay away two cards")
    assert f"your game in room {room}" in second
    assert hand in second

    third = run_plain(tmp_path, "--new", until="> Lay away two cards")
    assert f"= room {room}" not in third


def test_saved_seat_is_used_only_for_its_own_room(tmp_path: Path) -> None:
    """A saved token is offered again for the same server and room, not for another code."""
    seats = Seats(tmp_path / "seats.json")
    session = Session(name="Ann")
    session.room = Room(
        code="KXPWTR",
        options=RoomOptions(),
        seats=(
            SeatInfo(seat=0, name="Ann", kind="human", connected=True),
            SeatInfo(seat=1, name="Bob", kind="human", connected=True),
        ),
        spectators=0,
        you=0,
        status="playing",
        match_number=1,
    )
    seats.save("ws://h:1", "secret", session)
    assert seats.token_for("ws://h:1", Goal("join", code="KXPWTR"), fresh=False) == "secret"
    assert seats.token_for("ws://h:1", Goal("join", code="ABCDEF"), fresh=False) is None
    assert seats.token_for("ws://h:1", Goal("lobby"), fresh=True) is None
    assert seats.token_for(EMBEDDED, Goal("computer"), fresh=False) is None
    assert oct((tmp_path / "seats.json").stat().st_mode & 0o777) == "0o600"


def test_play_refuses_bad_addresses_and_levels(capsys: object) -> None:
    """A server address must be ws:// or wss://, and the level must exist; both exit 2."""
    assert main(["play", "http://example.org"]) == 2
    assert main(["play", "--level", "grandmaster"]) == 2
    err = capsys.readouterr().err  # type: ignore[attr-defined]
    assert "is not a server address; write ws://HOST:PORT" in err
    assert "unknown level 'grandmaster'" in err


async def test_a_friend_game_and_a_spectator_on_one_account_keep_their_own_seats(
    tmp_path: Path,
) -> None:
    """The one-machine flow (README, "Host a game") with one data directory: Alice creates a
    room, Bob joins with --join CODE and a spectator uses --watch CODE, all as separate
    muggins play processes. Bob gets the second seat (no "Welcome back, Alice"), the spectator
    no seat and no hand, and Alice keeps hers."""
    import asyncio

    from harness import real_server

    async def start(*args: str) -> asyncio.subprocess.Process:
        command = [sys.executable, "-m", "muggins.client.cli", "play", "--plain"]
        return await asyncio.create_subprocess_exec(
            *command,
            *args,
            "--data-dir",
            str(tmp_path),
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )

    async def read_until(process: asyncio.subprocess.Process, text: str, seen: list[str]) -> str:
        assert process.stdout is not None
        async with asyncio.timeout(60):
            while True:
                line = (await process.stdout.readline()).decode()
                assert line, "".join(seen)
                seen.append(line)
                if text in line:
                    return line

    async def stop(process: asyncio.subprocess.Process) -> None:
        assert process.stdin is not None
        process.stdin.write(b"quit\n")
        await process.stdin.drain()
        await asyncio.wait_for(process.wait(), 30)

    async with real_server() as server:
        alice_out: list[str] = []
        alice = await start(server.url, "--name", "Alice")
        await read_until(alice, "connected as Alice", alice_out)
        assert alice.stdin is not None
        alice.stdin.write(b"create\n")
        await alice.stdin.drain()
        line = await read_until(alice, "= room ", alice_out)
        code = line.split("= room ", 1)[1].split()[0]

        bob_out: list[str] = []
        bob = await start(server.url, "--join", code, "--name", "Bob")
        await read_until(bob, "| your hand:", bob_out)
        watch_out: list[str] = []
        watcher = await start(server.url, "--watch", code, "--name", "Cy")
        await read_until(watcher, "(playing): Alice vs Bob", watch_out)
        await read_until(alice, "| your hand:", alice_out)
        await asyncio.sleep(1.0)  # a fight over a seat would show up as reconnections
        for process in (watcher, bob, alice):
            await stop(process)
            assert process.stdout is not None
            rest = (await process.stdout.read()).decode()
            (alice_out if process is alice else bob_out if process is bob else watch_out).append(
                rest
            )
    bob_text, watch_text, alice_text = "".join(bob_out), "".join(watch_out), "".join(alice_out)
    assert "Welcome back" not in bob_text and "(playing): Alice vs you" in bob_text
    assert "Welcome back" not in watch_text and "your hand" not in watch_text
    assert "(playing): you vs Bob" in alice_text
    for text in (alice_text, bob_text, watch_text):
        assert "reconnecting" not in text and "took over this seat" not in text
