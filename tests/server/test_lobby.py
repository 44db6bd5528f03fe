"""The lobby's housekeeping: abandoned rooms are closed, turn timers move for the absent."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from cluster_nodes import nodes
from conftest import with_options
from redis_helpers import running_redis
from wire_client import WireClient

from muggins.server.app import Server, running_server


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
    if welcome["type"] == "error":  # seatless and gone past the grace period: the token expired
        assert welcome["code"] == "bad_token"
        welcome = await back.hello("Alice")
    assert welcome["room"] is None
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


async def test_spectators_are_capped_per_room() -> None:
    """With max_spectators 3, a fourth spectator is told ``spectators_full`` and hears nothing
    of the room; a chat line reaches the players and the three spectators only; when one leaves,
    another may watch."""
    async with running_server(with_options(max_spectators=3)) as server:
        alice = await WireClient.open(server.url, name="Alice")
        created = await alice.request(type="create_room")
        await alice.request(type="seat_bot", level="random")
        watchers = [await WireClient.open(server.url, name=f"W{i}") for i in range(4)]
        for watcher in watchers[:3]:
            answer = await watcher.request(type="spectate", code=created["code"])
            assert answer["type"] != "error", answer
        refused = await watchers[3].request(type="spectate", code=created["code"])
        assert refused["type"] == "error" and refused["code"] == "spectators_full", refused
        assert len(server.lobby.rooms[created["code"]].spectators) == 3
        await alice.request(type="chat", text="hello watchers")
        for watcher in watchers[:3]:
            heard = await watcher.expect("chat")
            assert heard["text"] == "hello watchers"
        with pytest.raises(TimeoutError):
            await watchers[3].expect("chat", timeout=0.5)
        await watchers[0].close()
        for _ in range(50):
            if len(server.lobby.rooms[created["code"]].spectators) < 3:
                break
            await asyncio.sleep(0.02)
        answer = await watchers[3].request(type="spectate", code=created["code"])
        assert answer["type"] != "error", answer


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


async def test_create_and_leave_in_a_loop_leaves_no_room_behind(server: Server) -> None:
    """A room its only person leaves before the match closes at once; none piles up."""
    loop = await WireClient.open(server.url, name="Loop")
    before = len(server.lobby.rooms)
    for _ in range(5):
        created = await loop.request(type="create_room")
        assert created["type"] == "room"
        assert (await loop.request(type="leave"))["type"] == "left"
    assert len(server.lobby.rooms) == before
    assert len(server.lobby.index) == 0


async def test_room_creation_is_limited_per_player_and_per_address() -> None:
    """Past rooms_per_minute a player, and past the address's share its connections, are refused."""
    limits = with_options(rooms_per_minute=3, rooms_per_minute_per_address=5)
    async with running_server(limits) as server:
        eager = await WireClient.open(server.url, name="Eager")
        for _ in range(3):
            assert (await eager.request(type="create_room"))["type"] == "room"
            await eager.request(type="leave")
        refused = await eager.request(type="create_room")
        assert refused["type"] == "error" and refused["code"] == "too_many_rooms"
        answers = []
        for n in range(4):  # throwaway connections from the same address
            throwaway = await WireClient.open(server.url, name=f"T{n}")
            answers.append((await throwaway.request(type="create_room"))["type"])
            await throwaway.close()
        assert answers == ["room", "room", "error", "error"]


async def test_rooms_made_by_throwaway_connections_go_away_after_the_grace_period() -> None:
    """A room whose match never started, its creator gone for the grace period, is closed."""
    async with running_server(with_options(abandon_after=3600, sweep_interval=0.1)) as server:
        kept = await WireClient.open(server.url, name="Kept")
        waiting = await kept.request(type="create_room")
        codes = []
        for n in range(5):
            throwaway = await WireClient.open(server.url, name=f"T{n}")
            codes.append((await throwaway.request(type="create_room"))["code"])
            await throwaway.close()
        await asyncio.sleep(server.config.grace + 0.3)
        assert not set(codes) & set(server.lobby.rooms)
        assert waiting["code"] in server.lobby.rooms, "a waiting room with its creator stays"


async def test_the_room_list_comes_in_pages_that_cover_every_listed_room_once(
    server: Server,
) -> None:
    """Pages of list_rooms, following next, give each public room once: open seats first."""
    host = await WireClient.open(server.url, name="Host")
    codes = set()
    for n in range(7):
        client = await WireClient.open(server.url, name=f"H{n}")
        created = await client.request(type="create_room", options={"private": n == 6})
        if n % 2:
            await client.request(type="seat_bot", level="random")
        if n != 6:
            codes.add(created["code"])
    seen: list[dict[str, object]] = []
    after = None
    for _ in range(10):
        page = await host.request(type="list_rooms", limit=2, after=after)
        assert page["type"] == "rooms" and len(page["rooms"]) <= 2 and page["total"] == 6
        seen.extend(page["rooms"])
        after = page["next"]
        if after is None:
            break
    assert {r["code"] for r in seen} == codes and len(seen) == 6
    assert [r["open_seat"] for r in seen] == [True] * 3 + [False] * 3
    bad = await host.request(type="list_rooms", after="nonsense")
    assert bad["type"] == "error" and bad["code"] == "bad_message"


async def test_in_a_cluster_a_room_left_empty_is_gone_from_every_node(tmp_path: Path) -> None:
    """Created and left on node A: the room is closed in Redis, so node B knows it no more."""
    with running_redis(tmp_path) as redis:
        async with nodes(redis, 2) as (a, b):
            loop = await WireClient.open(a.url, name="Loop")
            created = await loop.request(type="create_room")
            assert (await loop.request(type="leave"))["type"] == "left"
            other = await WireClient.open(b.url, name="Other")
            gone = await other.request(type="join_room", code=created["code"])
            assert gone["type"] == "error" and gone["code"] == "no_room"
