"""``muggins bot`` in a room survives its server going away: it connects again with growing
pauses, resumes its seat with its token and finishes the match; an opponent gone past the grace
is claimed when its flag says so."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

from conftest import TEST_CONFIG
from redis_helpers import free_port
from wire_client import WireClient

from muggins.client.remote_bot import play_remote
from muggins.server.app import running_server
from muggins.shared.actions import GameOptions
from muggins.shared.protocol import RoomOptions

QUICK = RoomOptions(game=GameOptions(target=61))


async def test_bots_resume_their_seats_after_a_restart_and_finish(tmp_path: Path) -> None:
    """The server stops mid-match and comes back on its file: both bots play on to the end."""
    config = replace(TEST_CONFIG, memory=False, db=tmp_path / "muggins.db", port=free_port())
    said: list[str] = []
    room: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    moves = asyncio.Event()

    def heard(text: str) -> None:
        said.append(text)
        if len(said) >= 15:
            moves.set()

    async with running_server(config) as server:
        host = asyncio.create_task(
            play_remote(server.url, level="random", seed=1, create=QUICK,
                        on_room=room.set_result, on_event=heard, rate=30)
        )  # fmt: skip
        guest = asyncio.create_task(
            play_remote(server.url, level="random", seed=2, code=await room, rate=30)
        )
        await moves.wait()
    assert not host.done() and not guest.done()
    async with running_server(config):
        hosted, joined = await asyncio.gather(host, guest)
    assert any(text.startswith("(connection lost") for text in said)
    assert hosted.code == joined.code == room.result() and hosted.seat != joined.seat
    assert hosted.outcomes == joined.outcomes and hosted.outcomes[-1].winner in (0, 1)


async def test_a_bot_claims_the_game_of_an_opponent_gone_past_the_grace() -> None:
    """With claim="win", the bot wins the game its opponent left (grace 0.3 s here)."""
    async with running_server(TEST_CONFIG) as server:
        room: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        bot = asyncio.create_task(
            play_remote(server.url, level="random", create=QUICK, on_room=room.set_result,
                        claim="win")
        )  # fmt: skip
        person = await WireClient.open(server.url, name="Gone")
        await person.request(type="join_room", code=await room)
        await person.expect("state")
        await person.close()
        result = await asyncio.wait_for(bot, 30)
    assert result.outcomes[-1].winner == result.seat


async def test_a_bot_told_to_wait_keeps_waiting_for_a_gone_opponent() -> None:
    """With the default claim="wait", the bot does not end the game of an absent opponent."""
    async with running_server(TEST_CONFIG) as server:
        room: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        said: list[str] = []
        bot = asyncio.create_task(
            play_remote(server.url, level="random", create=QUICK, on_room=room.set_result,
                        on_event=said.append)
        )  # fmt: skip
        person = await WireClient.open(server.url, name="Gone")
        await person.request(type="join_room", code=await room)
        await person.expect("state")
        await person.close()
        watcher = await WireClient.open(server.url, name="Watcher")
        await watcher.request(type="spectate", code=room.result())
        await watcher.expect("room")
        while not any(f["type"] == "notice" and f["code"] == "claimable" for f in watcher.frames):
            await watcher.recv()
        await asyncio.sleep(0.5)  # time for a claim to be made, if the bot were to make one
        assert not bot.done()
        assert server.lobby.rooms[room.result()].match is not None
        assert not server.lobby.rooms[room.result()].match.over
        bot.cancel()
