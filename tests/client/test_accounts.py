"""The terminal client's accounts: `muggins account`, the sign-in of `muggins play URL --name`,
and the session signing in after every hello; against a real server on a socket."""

from __future__ import annotations

import asyncio
import io
import json
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from muggins.client.accounts import AccountDenied, Sessions, sign_in_for_play
from muggins.client.cli import main
from muggins.client.session import Goal, Session
from muggins.server.app import Server, running_server
from muggins.server.config import ServerConfig
from muggins.server.results.settle import rate
from muggins.server.store.accounts import MatchResult
from muggins.shared.names import name_key
from muggins.shared.protocol import CreateRoom, Welcome
from muggins.shared.protocol.accounts import SignIn


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    config = ServerConfig(
        port=0, memory=True, bot_delay=0.0, sweep_interval=3600, registrations_per_hour=1e6
    )
    async with running_server(config) as running:
        yield running


async def account(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    *args: str,
    stdin: str = "",
) -> tuple[int, str]:
    """Run `muggins account ...` in a worker thread; its exit status and what it printed."""
    monkeypatch.setattr("sys.stdin", io.StringIO(stdin))
    argv = ["account", *args, "--data-dir", str(tmp_path), "--password-stdin"]
    status = await asyncio.to_thread(main, argv)
    return status, capsys.readouterr().out


async def test_the_account_command_from_register_to_delete(
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """register keeps a session (not the password); profile, sign-out, sign-in, delete work."""
    url = server.url
    status, out = await account(
        tmp_path, monkeypatch, capsys, url, "register", "Alice", stdin="sesame1234\n"
    )
    assert status == 0 and "Signed in as Alice (rating 1500, provisional) (session saved)" in out
    saved = (tmp_path / "sessions.json").read_text()
    assert "sesame1234" not in saved and json.loads(saved)[url]["name"] == "Alice"
    assert (tmp_path / "sessions.json").stat().st_mode & 0o777 == 0o600
    status, out = await account(tmp_path, monkeypatch, capsys, url, "profile")
    assert status == 0 and "matches 0" in out
    # One ± for a rating everywhere: one RD, named (the browser writes the same).
    assert out.startswith("Alice: rating 1500 ± 350 RD (provisional, 0 rated)")
    assert "points given away per deal: not reviewed yet" in out
    status, out = await account(tmp_path, monkeypatch, capsys, url, "leaderboard")
    assert "No established ratings" in out
    status, out = await account(tmp_path, monkeypatch, capsys, url, "sign-out")
    assert status == 0 and "1 session(s) ended" in out
    status, out = await account(tmp_path, monkeypatch, capsys, url, "profile")
    assert status == 1 and "not signed in" in out
    status, out = await account(
        tmp_path, monkeypatch, capsys, url, "sign-in", "ALICE", stdin="wrong one\n"
    )
    assert status == 1 and "do not match" in out
    status, out = await account(
        tmp_path, monkeypatch, capsys, url, "sign-in", "alice", stdin="sesame1234\n"
    )
    assert status == 0
    status, out = await account(tmp_path, monkeypatch, capsys, url, "delete", stdin="sesame1234\n")
    assert status == 0 and "Account deleted" in out
    status, out = await account(tmp_path, monkeypatch, capsys, url, "profile", "Alice")
    assert status == 1 and "No account" in out


async def test_play_asks_the_password_only_for_a_registered_name(
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A guest name asks nothing; a registered one asks once, then the saved session serves."""
    await account(
        tmp_path / "other",
        monkeypatch,
        capsys,
        server.url,
        "register",
        "Bob",
        stdin="bobs password\n",
    )
    sessions = Sessions(tmp_path / "sessions.json")
    asked: list[str] = []

    def ask(prompt: str) -> str:
        asked.append(prompt)
        return "bobs password"

    assert await sign_in_for_play(server.url, "Carol", sessions, ask) is None
    assert asked == []
    session = await sign_in_for_play(server.url, "bob", sessions, ask)
    assert session and asked == ["Password for bob: "]
    assert await sign_in_for_play(server.url, "Bob", sessions, ask) == session
    assert len(asked) == 1
    with pytest.raises(AccountDenied):
        await sign_in_for_play(
            server.url, "Bob", Sessions(tmp_path / "x.json"), lambda _: "nope nope"
        )


def test_a_session_signs_in_after_every_hello() -> None:
    """With an account session, the first messages after welcome sign in, then seek the goal."""
    session = Session(name="Bob", goal=Goal("computer", session="tok"))
    welcome = Welcome(
        player="p1", name="Bob", token="p1.x", protocol=1, server="0", levels=(), resumed=False
    )
    replies = session.receive(welcome)
    assert isinstance(replies[0], SignIn) and replies[0].session == "tok"
    assert isinstance(replies[1], CreateRoom)


def test_a_rated_goal_signs_in_then_seeks() -> None:
    """muggins play URL --rated 3: sign in, then seek a best-of-three rated opponent."""
    from muggins.shared.protocol.accounts import Seek

    session = Session(name="Bob", goal=Goal("seek", session="tok", best_of=3))
    welcome = Welcome(
        player="p1", name="Bob", token="p1.x", protocol=1, server="0", levels=(), resumed=False
    )
    replies = session.receive(welcome)
    assert isinstance(replies[0], SignIn)
    assert isinstance(replies[1], Seek) and replies[1].best_of == 3


async def test_the_record_shows_the_points_given_away_per_deal(
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Once a match of the player's is reviewed, the profile shows what they gave away."""
    url = server.url
    status, _ = await account(
        tmp_path, monkeypatch, capsys, url, "register", "Alice", stdin="sesame1234\n"
    )
    assert status == 0
    alice = await server.store.find_account(key=name_key("Alice"))
    assert alice is not None
    result = MatchResult(
        match="ABCDEF-1", finished=1.0, accounts=(alice.id, None), names=("Alice", "Guest"),
        rated=False, score=1.0, match_points=(1, 0), stats=({"matches": 1}, {}),
    )  # fmt: skip
    assert await server.store.record_result(result, rate)
    review = {"reviewed_deals": 8, "given_away_discard_milli": 1200, "given_away_play_milli": 1000}
    assert await server.store.record_review("ABCDEF-1", (review, {}))
    status, out = await account(tmp_path, monkeypatch, capsys, url, "profile")
    assert status == 0
    assert "points given away per deal 0.28: discards 0.15, play 0.12 (8 deals reviewed)" in out


async def test_games_lists_the_kept_seats_with_the_way_back(
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A seat kept in seats.json is listed with its opponent, score and `muggins play --join`."""
    from websockets.asyncio.client import connect

    from muggins.shared.protocol import PROTOCOL_VERSION

    url = server.url
    async with connect(url) as ws:
        await ws.send(json.dumps({"type": "hello", "name": "Ann", "protocol": PROTOCOL_VERSION}))
        token = json.loads(await ws.recv())["token"]
        await ws.send(json.dumps({"type": "create_room", "id": 1}))
        room = ""
        while not room:
            frame = json.loads(await ws.recv())
            room = frame["code"] if frame["type"] == "room" else ""
        await ws.send(json.dumps({"type": "seat_bot", "level": "random"}))
        while json.loads(await ws.recv())["type"] != "state":
            pass
    seats = {url: [{"token": token, "room": room, "seat": 0, "name": "Ann"}]}
    (tmp_path / "seats.json").write_text(json.dumps(seats))
    status, out = await account(tmp_path, monkeypatch, capsys, url, "games")
    assert status == 0, out
    assert f"{room}  against Computer (random): 0-0" in out
    assert f"(muggins play {url} --join {room})" in out
    (tmp_path / "seats.json").write_text("{}")
    status, out = await account(tmp_path, monkeypatch, capsys, url, "games")
    assert status == 0 and "no games in progress" in out
