"""Bots over real sockets: ``muggins bot``, the documented minimal bot, and server tournaments."""

from __future__ import annotations

import asyncio
import re
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from muggins.client.commands.bot import remote_game
from muggins.client.remote_bot import RemoteError, play_remote
from muggins.server.app import Server, running_server
from muggins.server.config import ServerConfig
from muggins.shared.actions import GameOptions
from muggins.shared.protocol import RoomOptions

CONFIG = ServerConfig(
    port=0, memory=True, bot_delay=0.0, sweep_interval=3600, max_per_address=10_000,
    rooms_per_minute=1e6, rooms_per_minute_per_address=1e6,
)  # fmt: skip
BOTS_PAGE = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
QUICK = RoomOptions(game=GameOptions(target=61))


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    async with running_server(CONFIG) as running:
        yield running


async def test_two_remote_bots_finish_a_match(server: Server) -> None:
    """One bot creates a room, another joins by code; both see the match end the same way."""
    room: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    host = asyncio.create_task(
        play_remote(server.url, level="expert", seed=1, create=QUICK, on_room=room.set_result)
    )
    guest = await play_remote(server.url, level="standard", seed=2, code=await room)
    hosted = await host
    assert {hosted.seat, guest.seat} == {0, 1}
    assert hosted.outcomes == guest.outcomes and len(hosted.outcomes) == 1
    assert max(hosted.outcomes[0].scores) >= 61


async def test_joining_a_missing_room_is_a_clear_error(server: Server) -> None:
    """A bad room code ends the bot with the server's sentence, not a hang."""
    with pytest.raises(RemoteError):
        await play_remote(server.url, level="easy", code="NOSUCHROOM")


async def test_muggins_bot_command_completes_a_game(server: Server) -> None:
    """``muggins bot URL --create`` prints its room, plays a whole match and reports it."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "muggins.client.cli", "bot", server.url, "--level", "expert",
        "--create", "--target", "61", "--quiet",
        stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    assert process.stdout is not None
    line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
    code = re.search(r"Room (\w+)", line)
    assert code is not None, line
    joined = await play_remote(server.url, level="random", seed=3, code=code.group(1))
    out, _ = await asyncio.wait_for(process.communicate(), 30)
    assert process.returncode == 0
    assert re.search(r"The expert bot (won|lost) the match", out.decode())
    assert joined.outcomes[0].scores[joined.seat] < 121


async def test_documented_minimal_bot_plays_a_match(server: Server, tmp_path: Path) -> None:
    """docs/bots.md's minimal bot, run exactly as printed, plays a whole match against a bot."""
    text = BOTS_PAGE.read_text()
    section = text[text.index("## Write your own bot") :]
    script = re.search(r"```python\n(.*?)```", section, re.S)
    assert script is not None
    path = tmp_path / "mybot.py"
    path.write_text(script.group(1))
    assert len(script.group(1).splitlines()) <= 50
    process = await asyncio.create_subprocess_exec(
        sys.executable, str(path), server.url, stdout=asyncio.subprocess.PIPE
    )
    assert process.stdout is not None
    line = (await asyncio.wait_for(process.stdout.readline(), 30)).decode()
    code = re.search(r"room (\w+)", line)
    assert code is not None, line
    opponent = await play_remote(server.url, level="standard", seed=4, code=code.group(1))
    out, _ = await asyncio.wait_for(process.communicate(), 60)
    assert process.returncode == 0
    assert re.search(r"^(won|lost) \[\d+, \d+\]$", out.decode().strip(), re.M)
    assert opponent.outcomes and max(opponent.outcomes[0].scores) >= 121
    assert "server says" not in out.decode()


async def test_server_tournament_game_records_the_result(server: Server) -> None:
    """A tournament game over sockets gives a record like an in-process one."""
    record = await remote_game(
        server.url, "expert", "random", seed=1, index=1, target=61, muggins=True
    )
    assert record.winner in (0, 1) and max(record.scores) >= 61
    assert sum(record.deals) >= 1 and record.points


async def test_a_server_going_away_is_a_clear_error() -> None:
    """If the server shuts down mid-wait and the bot is not to reconnect, it stops with a
    sentence instead of a traceback."""
    async with running_server(CONFIG) as server:
        room: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        bot = asyncio.create_task(
            play_remote(
                server.url, level="easy", create=QUICK, on_room=room.set_result, reconnect=False
            )
        )
        await room
    with pytest.raises(RemoteError, match="closed the connection"):
        await asyncio.wait_for(bot, 10)
