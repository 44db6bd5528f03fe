"""A remote bot between two tables: the last table's end, told again late, is not a new match.

A cluster node catching up on a room, or a player's leave, can tell a table's end again after
the player has moved on (to the next tournament round, say). The bot must neither take a seat
at a finished table nor count a finished match it is not seated in, or it waits at the old
table for ever and never hears that the tournament is over."""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator

import pytest
from websockets.asyncio.server import ServerConnection, serve
from wire_client import WireClient, play_randomly

from muggins.client.remote_bot import Pacer, _play_match
from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.shared.bots.base import make_strategy
from muggins.shared.protocol import Notice, ServerMessage, encode

CONFIG = ServerConfig(
    port=0, memory=True, bot_delay=0.0, sweep_interval=3600, rate=10_000, burst=10_000
)  # fmt: skip


async def a_finished_tables_frames() -> list[str]:
    """The frames a real server sent a player at the end of a real match (raw text)."""
    async with running_server(CONFIG) as server:
        ann = await WireClient.open(server.url, name="Ann")
        bob = await WireClient.open(server.url, name="Bob")
        room = await ann.request(type="create_room", options={"game": {"target": 61}})
        await bob.request(type="join_room", code=room["code"])
        rng = random.Random(3)
        await asyncio.gather(play_randomly(ann, rng), play_randomly(bob, rng))
        await ann.expect("room")  # the room says the match is over
        assert ann.room is not None and ann.room["status"] == "over", ann.room
        over_room = next(raw for raw, f in zip(ann.raw, ann.frames, strict=True) if f is ann.room)
        assert ann.state is not None and ann.state["view"]["phase"] == "match_over"
        last_state = next(raw for raw, f in zip(ann.raw, ann.frames, strict=True) if f is ann.state)
        await ann.close()
        await bob.close()
    return [over_room, last_state]


@pytest.fixture
async def stale_server() -> AsyncIterator[str]:
    """A server that tells a connection an old table's end again, then a notice."""
    frames = await a_finished_tables_frames()
    notice = encode(Notice(code="left", text="Ann left"))

    async def tell(ws: ServerConnection) -> None:
        for text in [*frames, notice]:
            await ws.send(text)
        await ws.wait_closed()

    async with serve(tell, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        yield f"ws://127.0.0.1:{port}"


async def test_a_finished_table_told_again_is_neither_a_seat_nor_a_result(
    stale_server: str,
) -> None:
    """Told a finished table's room and end again, the bot waits on for its next table; the
    next message that ends the wait (here a notice) ends it with no result."""
    from websockets.asyncio.client import connect

    def stop(message: ServerMessage) -> bool:
        return isinstance(message, Notice)

    async with connect(stale_server) as ws:
        async with asyncio.timeout(30):
            result = await _play_match(
                ws, make_strategy("easy", seed=1), Pacer(1e4, 10**4), "", None, None,
                after="ANOTHER", stop=stop,
            )  # fmt: skip
    assert result is None
