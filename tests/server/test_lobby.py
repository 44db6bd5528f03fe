"""The lobby's housekeeping: abandoned rooms are closed, turn timers move for the absent."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest
from conftest import with_options
from wire_client import WireClient

from server.app import Server, running_server


@pytest.fixture
async def hasty() -> AsyncIterator[Server]:
    async with running_server(with_options(abandon_after=0.3, sweep_interval=0.1)) as server:
        yield server


async def test_a_room_nobody_is_in_is_closed_and_its_game_kept(hasty: Server) -> None:
    """With nobody connected past abandon_after, the room closes; the match is kept as abandoned."""
    alice = await WireClient.open(hasty.url, name="Alice")
    created = await alice.request(type="create_room")
    await alice.request(type="seat_bot", level="random")
    watched = await WireClient.open(hasty.url, name="Busy")
    busy = await watched.request(type="create_room")
    await alice.close()
    for _ in range(50):
        if created["code"] not in hasty.lobby.rooms:
            break
        await asyncio.sleep(0.05)
    assert created["code"] not in hasty.lobby.rooms
    assert busy["code"] in hasty.lobby.rooms, "a room with someone in it stays open"
    [match] = [m for m in await hasty.store.finished_matches() if m.room == created["code"]]
    assert match.result == "abandoned"
    back = await WireClient.open(hasty.url, hello=False)
    welcome = await back.hello("Alice", token=alice.token)
    assert welcome["resumed"] and welcome["room"] is None
    error = await back.request(type="join_room", code=created["code"])
    assert error["type"] == "error" and error["code"] == "no_room"


async def test_the_turn_timer_moves_for_a_player_who_does_not(server: Server) -> None:
    """When the turn timer runs out, the server makes a legal move for the waiting player."""
    alice = await WireClient.open(server.url, name="Alice")
    created = await alice.request(type="create_room", options={"turn_timer": 5})
    room = server.lobby.find(created["code"])
    assert room.turn_limit == 5
    room.turn_limit = 0.2
    await alice.request(type="seat_bot", level="random")
    while True:
        frame = await alice.expect("notice")
        if frame["code"] == "timeout":
            break
    assert "Alice" in frame["text"]
    state = await alice.expect("state")
    assert state["view"]["discarded"][0] is True


async def test_spectating_is_refused_where_it_is_off(server: Server) -> None:
    """A room created without spectators refuses them, and is not listed once full."""
    alice = await WireClient.open(server.url, name="Alice")
    created = await alice.request(type="create_room", options={"spectators": False})
    await alice.request(type="seat_bot", level="random")
    eve = await WireClient.open(server.url, name="Eve")
    error = await eve.request(type="spectate", code=created["code"])
    assert error["type"] == "error" and error["code"] == "spectators_off"
    listing = await eve.request(type="list_rooms")
    assert created["code"] not in {r["code"] for r in listing["rooms"]}


async def test_players_without_a_seat_are_forgotten_after_they_go(hasty: Server) -> None:
    """A roomless player who disconnected is dropped by the sweep; a seated one is kept."""
    idle = await WireClient.open(hasty.url, name="Idle")
    seated = await WireClient.open(hasty.url, name="Seated")
    await seated.request(type="create_room")
    await seated.request(type="seat_bot", level="random")
    await idle.close()
    await asyncio.sleep(hasty.config.grace + 0.3)
    assert {p.name for p in hasty.lobby.players.values()} == {"Seated"}
    back = await WireClient.open(hasty.url, hello=False)
    error = await back.hello("Idle", token=idle.token)
    assert error["type"] == "error" and error["code"] == "bad_token"
