"""The bad-input matrix: each bad frame gets a clear error, the connection still works, the
room's state is unchanged, and another room's game goes on to its end throughout."""

from __future__ import annotations

import asyncio
import json
import logging
import random
from collections.abc import AsyncIterator
from typing import Any

import pytest
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from wire_client import WireClient, play_randomly

from muggins.server.app import Server, running_server
from muggins.server.config import ServerConfig
from muggins.server.rooms.room import Room
from muggins.shared.protocol import PROTOCOL_VERSION

VALUE = {"A": 1, "J": 10, "Q": 10, "K": 10, **{str(n): n for n in range(2, 11)}}
LIMITS = ServerConfig(port=0, memory=True, bot_delay=0.0, rate=50, burst=100, flood_close_after=50)


@pytest.fixture
async def limited() -> AsyncIterator[Server]:
    async with running_server(LIMITS) as server:
        yield server


def snapshot(room: Room) -> tuple[int, str, str]:
    assert room.match is not None
    return room.seq, room.match.view(0).model_dump_json(), room.match.view(1).model_dump_json()


async def refused(client: WireClient, room: Room | None, frame: Any, code: str) -> dict[str, Any]:
    """Send one bad frame; expect ``code``; the connection answers a ping; the room is unchanged."""
    before = snapshot(room) if room else None
    if isinstance(frame, (str, bytes)):
        await client.send_raw(frame)
    else:
        await client.send(**frame)
    error = await client.expect("error")
    assert error["code"] == code, error
    assert 0 < len(error["message"]) < 200
    pong = await client.request(type="ping")
    assert pong["type"] == "pong"
    if room is not None:
        assert snapshot(room) == before
    return error


async def table(server: Server) -> tuple[WireClient, WireClient, Room]:
    alice = await WireClient.open(server.url, name="Alice")
    bob = await WireClient.open(server.url, name="Bob")
    created = await alice.request(type="create_room", options={"game": {"target": 121}})
    await bob.request(type="join_room", code=created["code"])
    for client in (alice, bob):
        while client.state is None:
            await client.recv()
    return alice, bob, server.lobby.find(created["code"])


async def other_room_game(server: Server) -> list[dict[str, Any]]:
    """A person plays the computer in another room; returns the errors it saw (none expected)."""
    carol = await WireClient.open(server.url, name="Carol")
    await carol.request(type="create_room", options={"game": {"target": 61}})
    await carol.request(type="seat_bot", level="random")

    async def paced() -> None:
        """One move at a time: wait for the answer to a move before making the next."""
        rng, pending = random.Random(9), None
        while True:
            frame = await carol.recv(timeout=30)
            if frame.get("id") is not None and frame["id"] == pending:
                pending = None
            if frame["type"] == "state":
                view = frame["view"]
                if view["phase"] == "match_over":
                    return
                if pending is None and view["seat"] in view["waiting_for"] and view["legal"]:
                    await asyncio.sleep(0.02)
                    pending = rng.getrandbits(30)
                    await carol.send(**rng.choice(view["legal"]), id=pending)

    await paced()
    return [f for f in carol.frames if f["type"] == "error"]


async def test_malformed_frames_each_get_an_error_and_change_nothing(limited: Server) -> None:
    """Non-JSON, non-objects, unknown types, missing/extra fields, wrong types, binary frames."""
    other = asyncio.ensure_future(other_room_game(limited))
    alice, _, room = await table(limited)
    await refused(alice, room, "this is not json", "bad_json")
    await refused(alice, room, "[1, 2, 3]", "bad_message")
    await refused(alice, room, '"play"', "bad_message")
    error = await refused(alice, room, {"type": "warp"}, "bad_message")
    assert "warp" in error["message"]
    await refused(alice, room, {"type": "play"}, "bad_message")
    error = await refused(alice, room, {"type": "ping", "shout": 1}, "bad_message")
    assert "shout" in error["message"]
    await refused(alice, room, {"type": "play", "card": 5}, "bad_message")
    await refused(alice, room, {"type": "play", "card": "11S"}, "bad_message")
    await refused(alice, room, {"type": "discard", "cards": "5H 6H"}, "bad_message")
    await refused(alice, room, b"\x00\x01binary", "binary_frame")
    assert await other == []


async def test_illegal_moves_each_get_an_error_and_change_nothing(
    limited: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of turn, a card not in hand, a discard of the wrong count, a play over 31."""
    other = asyncio.ensure_future(other_room_game(limited))
    # A fixed seed makes the deals known, so a play over 31 is sure to come up.
    monkeypatch.setattr(limited.lobby, "new_seed", lambda: b"7" * 32)
    alice, bob, room = await table(limited)
    assert room.match is not None
    assert room.match.seed == b"7" * 32, "the pinned seed did not reach the room"
    hand = alice.state["view"]["hand"] if alice.state else []
    await refused(alice, room, {"type": "discard", "cards": hand[:3]}, "illegal")
    await refused(alice, room, {"type": "discard", "cards": hand[:1]}, "illegal")
    not_mine = next(c for c in room.match.game.hands[1])
    await refused(alice, room, {"type": "discard", "cards": [hand[0], str(not_mine)]}, "illegal")
    clients = {0: alice, 1: bob}
    seen = {"out_of_turn": False, "not_in_hand": False, "over_31": False}
    for _ in range(400):
        if all(seen.values()):
            break
        waiting = room.match.waiting_for()
        for client in clients.values():
            while client.state is None or client.state["seq"] != room.seq:
                await client.recv()
        if room.match.game.phase != "play":
            for seat in waiting:
                await clients[seat].request(**clients[seat].state["view"]["legal"][0])
            continue
        [turn] = waiting
        mover, idle = clients[turn], clients[1 - turn]
        view = mover.state["view"]
        if not seen["out_of_turn"] and idle.state["view"]["hand"]:
            card = idle.state["view"]["hand"][0]
            error = await refused(idle, room, {"type": "play", "card": card}, "not_your_turn")
            seen["out_of_turn"] = "turn" in error["message"]
        if not seen["not_in_hand"]:
            stranger = str(room.match.game.deck[40])
            await refused(mover, room, {"type": "play", "card": stranger}, "illegal")
            seen["not_in_hand"] = True
        too_big = [c for c in view["hand"] if {"type": "play", "card": c} not in view["legal"]]
        if too_big and not seen["over_31"]:
            error = await refused(mover, room, {"type": "play", "card": too_big[0]}, "illegal")
            assert "31" in error["message"]
            seen["over_31"] = True
        lowest = min(view["legal"], key=lambda a: VALUE[a["card"][:-1]])
        await mover.request(**lowest)
    assert all(seen.values()), seen
    assert await other == []


async def test_strangers_and_spectators_cannot_act_and_wrong_tokens_get_no_seat(
    limited: Server,
) -> None:
    """Acting in a room you are not seated in, and a wrong resume token, are refused."""
    alice, _, room = await table(limited)
    stranger = await WireClient.open(limited.url, name="Eve")
    hand = alice.state["view"]["hand"] if alice.state else []
    await refused(stranger, room, {"type": "discard", "cards": hand[:2]}, "not_in_room")
    await refused(stranger, room, {"type": "propose_restart"}, "not_in_room")
    watcher = await WireClient.open(limited.url, name="Wat")
    await watcher.request(type="spectate", code=room.code)
    await refused(watcher, room, {"type": "discard", "cards": hand[:2]}, "not_seated")
    await refused(watcher, room, {"type": "resign"}, "not_seated")
    fresh = await WireClient.open(limited.url, hello=False)
    assert alice.token is not None
    player, _, secret = alice.token.partition(".")
    for token in (f"{player}.{secret[:-2]}xx", "nonsense", f"pzzzz.{secret}", ""):
        hello = {"type": "hello", "name": "Mallory", "protocol": PROTOCOL_VERSION, "token": token}
        if token:
            await refused(fresh, room, hello, "bad_token")
    await refused(fresh, room, {"type": "join_room", "code": room.code}, "hello_first")
    welcome = await fresh.hello("Mallory")
    assert welcome["type"] == "welcome" and welcome["room"] is None
    error = await fresh.request(type="join_room", code=room.code)
    assert error["type"] == "error" and error["code"] == "room_full"


async def test_an_oversized_frame_is_closed_with_1009(limited: Server) -> None:
    """A frame past the size limit closes that connection with 1009; others carry on."""
    alice, bob, _ = await table(limited)
    await alice.send_raw(json.dumps({"type": "chat", "text": "x" * (LIMITS.max_message + 10)}))
    with pytest.raises(ConnectionClosed) as closed:
        await alice.expect("never")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == CloseCode.MESSAGE_TOO_BIG
    assert (await bob.request(type="ping"))["type"] == "pong"


async def test_a_flood_gets_an_answer_per_message_then_a_1008_close(limited: Server) -> None:
    """Past the burst every message still gets an answer with its id (rate_limited), then 1008."""
    alice, _, room = await table(limited)
    before = snapshot(room)
    for n in range(600):
        await alice.send(type="ping", id=n)
    answered: list[int] = []
    codes = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            frame = await alice.recv()
            if frame["type"] in ("pong", "error"):
                answered.append(frame["id"])
            if frame["type"] == "error":
                codes.append(frame["code"])
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CloseCode.POLICY_VIOLATION
    assert answered == list(range(len(answered))), "a message went unanswered"
    assert len(answered) >= LIMITS.burst // 2 + LIMITS.flood_close_after
    assert set(codes) == {"rate_limited"} and len(codes) == LIMITS.flood_close_after
    assert snapshot(room) == before
    back = await WireClient.open(limited.url, hello=False)
    assert (await back.hello("Alice", token=alice.token))["resumed"] is True


async def test_other_rooms_finish_while_one_room_is_abused(limited: Server) -> None:
    """A full game in one room ends normally while another room's player sends garbage."""
    other = asyncio.ensure_future(other_room_game(limited))
    alice, bob, _ = await table(limited)
    for n in range(30):
        await alice.send_raw(random.Random(n).randbytes(20).hex())
        await alice.expect("error")
    rng = random.Random(3)
    await asyncio.gather(
        play_randomly(alice, rng, until="show"), play_randomly(bob, rng, until="show")
    )
    assert await other == []


SURROGATES_AND_DEPTH = [
    '{"type":"ping","id":"\\ud800"}',
    '{"type":"ping","id":"a\\udc00"}',
    '{"type":"chat","text":"\\ud83d"}',
    '{"type":"hello","name":"\\udfff","protocol":1}',
    "[" * 981 + "]" * 981,
    "[" * 2000 + "]" * 2000,
    '{"type":"ping","id":' + "[" * 1500 + "]" * 1500 + "}",
    '{"type":"chat","text":' + '{"a":' * 600 + "1" + "}" * 600 + "}",
]


async def test_lone_surrogates_and_deep_nesting_get_bad_json_and_no_traceback(
    limited: Server, caplog: pytest.LogCaptureFixture
) -> None:
    """A lone surrogate or JSON nested past the limit: bad_json, the link lives, no traceback."""
    caplog.set_level(logging.INFO)
    other = asyncio.ensure_future(other_room_game(limited))
    early = await WireClient.open(limited.url, hello=False)
    alice, _, room = await table(limited)
    for frame in SURROGATES_AND_DEPTH:
        for client in (early, alice):
            error = await refused(client, room, frame, "bad_json")
            assert error["id"] is None
    assert (await early.hello("Early"))["type"] == "welcome"
    assert await other == []
    tracebacks = [r for r in caplog.records if r.exc_info or "Traceback" in r.getMessage()]
    assert tracebacks == []


async def test_wrongly_typed_fields_are_refused_not_coerced(limited: Server) -> None:
    """Strict types: true or 1.0 is no integer, 1 is no boolean, false is no count."""
    early = await WireClient.open(limited.url, hello=False)
    for hello in (
        {"type": "hello", "name": "Eve", "protocol": True},
        {"type": "hello", "name": "Eve", "protocol": 1.0},
        {"type": "hello", "name": 5, "protocol": 1},
    ):
        await refused(early, None, hello, "bad_message")
    alice, _, room = await table(limited)
    for frame in (
        {"type": "resign", "id": True},
        {"type": "resign", "id": 1.0},
        {"type": "ping", "id": False},
        {"type": "count", "points": False},
        {"type": "count", "points": 3.0},
        {"type": "answer_restart", "accept": 1},
        {"type": "claim", "take": 1},
        {"type": "create_room", "options": {"game": {"target": 61.0}}},
        {"type": "create_room", "options": {"private": 0}},
    ):
        error = await refused(alice, room, frame, "bad_message")
        assert error["id"] is None, frame
    assert room.match is not None and room.match.game.phase == "discard"
    assert room.status == "playing"
