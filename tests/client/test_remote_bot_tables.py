"""A remote bot between two tables: the last table's end, told again late, is not a new match.

A cluster node catching up on a room, or a player's leave, can tell a table's end again after
the player has moved on (to the next tournament round, say). The bot must neither take a seat
at a finished table nor count a finished match it is not seated in, or it waits at the old
table for ever and never hears that the tournament is over."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from websockets.asyncio.client import connect
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

    def stop(message: ServerMessage) -> bool:
        return isinstance(message, Notice)

    async with connect(stale_server) as ws:
        async with asyncio.timeout(30):
            result = await _play_match(
                ws, make_strategy("easy", seed=1), Pacer(1e4, 10**4), "", None, None,
                after="ANOTHER", stop=stop,
            )  # fmt: skip
    assert result is None


async def my_turns(count: int) -> list[str]:
    """Whole states (raw text) of a real match at which Ann was waited for: ``count`` of them,
    each at least two actions after the one before."""
    async with running_server(CONFIG) as server:
        ann = await WireClient.open(server.url, name="Ann")
        bob = await WireClient.open(server.url, name="Bob")
        room = await ann.request(type="create_room", options={"game": {"target": 61}})
        await bob.request(type="join_room", code=room["code"])
        rng = random.Random(5)
        await asyncio.gather(play_randomly(ann, rng), play_randomly(bob, rng))
        await ann.close()
        await bob.close()
    turns: list[str] = []
    for frame in ann.frames:
        if frame["type"] != "state" or not ann_waited(frame):
            continue
        if turns and frame["seq"] < json.loads(turns[-1])["seq"] + 2:
            continue
        turns.append(json.dumps({**frame, "brief": False, "id": None}))
        if len(turns) == count:
            return turns
    raise AssertionError("the match was too short")


def ann_waited(frame: dict[str, Any]) -> bool:
    view = frame["view"]
    return bool(view["seat"] in view["waiting_for"] and view["legal"])


async def bot_moves(batches: list[list[str]], *, after: str | None = None) -> list[dict[str, Any]]:
    """Tell a bot each batch of frames in turn, reading one move after each (never answered);
    the moves it made."""
    moves: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def tell(ws: ServerConnection) -> None:
        for batch in batches:
            for text in batch:
                await ws.send(text)
            moves.put_nowait(json.loads(await ws.recv()))
        await ws.wait_closed()

    async with serve(tell, "127.0.0.1", 0) as server:
        port = server.sockets[0].getsockname()[1]
        async with connect(f"ws://127.0.0.1:{port}") as ws:
            strategy, pacer = make_strategy("easy", seed=1), Pacer(1e4, 10**4)
            bot = asyncio.create_task(_play_match(ws, strategy, pacer, "", None, None, after=after))
            try:
                async with asyncio.timeout(30):
                    return [await moves.get() for _ in batches]
            finally:
                bot.cancel()


def a_table(over_room: str) -> str:
    """A table in play, as the room of the finished table ``over_room`` says it."""
    return json.dumps({**json.loads(over_room), "code": "NEXTAB", "status": "playing"})


async def test_a_move_never_answered_does_not_hold_the_bot_at_its_next_turn() -> None:
    """The bot moves; no answer comes (the server lost it, or took it and the answer was lost);
    a state two actions on waits for the bot again: it moves there, answering that state."""
    first, later = await my_turns(2)
    over_room, _ = await a_finished_tables_frames()
    one, two = await bot_moves([[a_table(over_room), first], [later]])
    assert one["seq"] == json.loads(first)["seq"]
    assert two["seq"] == json.loads(later)["seq"]


async def test_the_next_table_is_played_after_the_last_ones_end_told_again() -> None:
    """The last table's end told again (its room, its final state: a high seq), then the next
    table's room and first state (seq counts from the start again there): the bot moves."""
    over_room, last_state = await a_finished_tables_frames()
    (turn,) = await my_turns(1)
    (move,) = await bot_moves([[over_room, last_state, a_table(over_room), turn]], after="LASTAB")
    assert move["seq"] == json.loads(turn)["seq"] < json.loads(last_state)["seq"]
