"""A room's life over real sockets: disconnect and return, claims, restart, rematch, leave."""

from __future__ import annotations

import asyncio

import pytest
from conftest import with_options
from wire_client import WireClient, game_overs

from muggins.server.app import Server
from muggins.server.rooms.room import Room


async def seated(server: Server) -> tuple[WireClient, WireClient, Room]:
    alice = await WireClient.open(server.url, name="Alice")
    bob = await WireClient.open(server.url, name="Bob")
    created = await alice.request(type="create_room")
    await bob.request(type="join_room", code=created["code"])
    for client in (alice, bob):
        while client.state is None:
            await client.recv()
    return alice, bob, server.lobby.find(created["code"])


async def notice(client: WireClient, code: str) -> dict[str, object]:
    while True:
        frame = await client.expect("notice")
        if frame["code"] == code:
            return frame


async def test_the_opponent_hears_of_a_disconnect_and_the_return(server: Server) -> None:
    """Bob's drop and his return with the token are told to Alice; Bob gets a fresh state."""
    alice, bob, room = await seated(server)
    await bob.close()
    gone = await notice(alice, "disconnected")
    assert "Bob" in str(gone["text"])
    seats = (await alice.expect("room"))["seats"]
    assert seats[1]["connected"] is False and seats[1]["claimable_in"] > 0
    back = await WireClient.open(server.url, hello=False)
    welcome = await back.hello("Bob", token=bob.token)
    assert welcome["resumed"] and welcome["room"] == room.code and welcome["player"]
    state = await back.expect("state")
    assert room.match is not None
    assert state["view"] == room.match.view(1).model_dump(mode="json")
    await notice(alice, "returned")


@pytest.mark.parametrize("config", [with_options(grace=2.0)])  # the early claim is early
async def test_claims_wait_for_the_grace_period_then_win_the_game(server: Server) -> None:
    """Claiming is refused until the grace period is over; then the absent player resigns."""
    alice, bob, room = await seated(server)
    await bob.close()
    await notice(alice, "disconnected")
    early = await alice.request(type="claim", take="win")
    assert early["type"] == "error" and early["code"] == "too_early"
    told = await notice(alice, "claimable")
    assert "Bob" in str(told["text"])
    await alice.request(type="claim", take="win")
    [over] = game_overs(alice.frames)
    assert over["winner"] == "Alice" and over["outcome"]["reason"] == "resign"
    assert room.match is not None and room.match.over


async def test_a_claim_can_hand_the_empty_seat_to_the_computer(server: Server) -> None:
    """After the grace period the waiting player may seat the computer, which plays on."""
    alice, bob, room = await seated(server)
    assert alice.state is not None
    await alice.request(type="discard", cards=alice.state["view"]["hand"][:2])
    await bob.close()
    await asyncio.sleep(server.config.grace + 0.05)
    answer = await alice.request(type="claim", take="bot")
    assert answer["type"] == "room" and answer["seats"][1]["kind"] == "bot"
    while room.match is not None and len(room.match.log) < 2:
        await alice.recv()
    assert room.match is not None and room.match.log[1][0] == 1
    returning = await WireClient.open(server.url, hello=False)
    welcome = await returning.hello("Bob", token=bob.token)
    # Seatless now and gone past the grace period, so the token has expired too.
    assert welcome["type"] == "error" and welcome["code"] == "bad_token"
    assert room.seats[1].kind == "bot", "a replaced player does not get the seat back"


async def test_restart_against_a_person_needs_their_answer(server: Server) -> None:
    """A proposal waits for the opponent: declined, nothing changes; accepted, a new match."""
    alice, bob, room = await seated(server)
    first = room.match
    proposed = await alice.request(type="propose_restart")
    assert proposed["type"] == "room" and proposed["restart_proposed_by"] == 0
    own = await alice.request(type="answer_restart", accept=True)
    assert own["type"] == "error" and own["code"] == "nothing_pending"
    await bob.request(type="answer_restart", accept=False)
    assert room.match is first and room.restart_by is None
    await alice.request(type="propose_restart")
    await bob.request(type="answer_restart", accept=True)
    assert room.match is not first and room.match_number == 2
    state = await alice.expect("state")
    assert state["view"]["scores"] == [0, 0] and state["seq"] == room.seq


async def test_restart_and_rematch_against_the_computer_are_immediate(server: Server) -> None:
    """With the computer in the other seat, restart and rematch need no answer."""
    alice = await WireClient.open(server.url, name="Alice")
    created = await alice.request(type="create_room", options={"game": {"target": 61}})
    await alice.request(type="seat_bot", level="random")
    room = server.lobby.find(created["code"])
    answer = await alice.request(type="propose_restart")
    assert answer["type"] == "room" and answer["match_number"] == 2
    early = await alice.request(type="rematch")
    assert early["type"] == "error" and early["code"] == "not_over"
    # The computer lays away at once but from a worker thread, so its state may come after the
    # answer above: wait for it, or the resign answers an earlier state and is refused as stale.
    while not (alice.state is not None and alice.state["view"]["discarded"][1]):
        await alice.expect("state")
    await alice.request(type="resign")
    assert room.match is not None and room.match.over
    again = await alice.request(type="rematch")
    assert again["type"] == "room" and again["match_number"] == 3 and again["status"] == "playing"


async def test_a_rematch_against_a_person_needs_both(server: Server) -> None:
    """The first rematch request waits for the second player's."""
    alice, bob, room = await seated(server)
    await bob.request(type="resign")
    wanted = await alice.request(type="rematch")
    assert wanted["rematch_wanted"] == [True, False] and room.match_number == 1
    await bob.request(type="rematch")
    assert room.match_number == 2 and room.status == "playing"


async def test_leaving_an_unstarted_room_frees_the_seat(server: Server) -> None:
    """Leave before the match: the seat empties; a room left with nobody in it closes at once."""
    alice = await WireClient.open(server.url, name="Alice")
    bob = await WireClient.open(server.url, name="Bob")
    watcher = await WireClient.open(server.url, name="Wat")
    created = await alice.request(type="create_room")
    await watcher.request(type="spectate", code=created["code"])
    left = await alice.request(type="leave")
    assert left["type"] == "left"
    joined = await bob.request(type="join_room", code=created["code"])
    assert joined["you"] == 0, "the room stays while someone watches it"
    elsewhere = await alice.request(type="create_room")
    assert elsewhere["type"] == "room" and elsewhere["code"] != created["code"]
    await alice.request(type="leave")
    assert elsewhere["code"] not in server.lobby.rooms, "an empty room closes at once"
    gone = await bob.request(type="join_room", code=elsewhere["code"])
    assert gone["type"] == "error" and gone["code"] == "no_room"


async def test_a_seat_in_a_running_match_must_be_left_before_another(server: Server) -> None:
    """Seated in a running match, creating another room is refused; after the match it is not."""
    alice, bob, room = await seated(server)
    refused = await alice.request(type="create_room")
    assert refused["type"] == "error" and refused["code"] == "already_in_room"
    await bob.request(type="resign")
    moved = await alice.request(type="create_room")
    assert moved["type"] == "room" and moved["code"] != room.code
    assert room.seats[0].kind == "empty"


async def test_lobby_lists_public_rooms_and_chat_reaches_the_room(server: Server) -> None:
    """list_rooms shows public open rooms (not private ones); chat goes to everyone in a room."""
    alice = await WireClient.open(server.url, name="Alice")
    hidden = await WireClient.open(server.url, name="Hid")
    public = await alice.request(type="create_room")
    await hidden.request(type="create_room", options={"private": True})
    browser = await WireClient.open(server.url, name="Browse")
    listing = await browser.request(type="list_rooms")
    codes = {r["code"] for r in listing["rooms"]}
    assert public["code"] in codes and not codes & {hidden.room["code"] if hidden.room else ""}
    await browser.request(type="join_room", code=public["code"])
    said = await browser.request(type="chat", text="  good\u0007 luck  ")
    assert said["type"] == "chat" and said["sender"] == "Browse" and said["seat"] == 1
    assert said["text"] == "good luck"
    heard = await alice.expect("chat")
    assert heard["text"] == said["text"]


@pytest.mark.parametrize("name", ["  Al\\u0000ice\\n  ", "x" * 60, "\\u200b\\u200b"])
async def test_names_are_sanitised_and_limited(server: Server, name: str) -> None:
    """Control characters go, whitespace collapses, at most 24 characters, never empty."""
    client = await WireClient.open(server.url, hello=False)
    welcome = await client.hello(name.encode().decode("unicode_escape"))
    assert 0 < len(welcome["name"]) <= 24
    assert welcome["name"].isprintable() and welcome["name"] == welcome["name"].strip()


async def test_health_and_metrics_are_served_on_the_same_port(server: Server) -> None:
    """GET /healthz says ok; GET /metrics is Prometheus text with the server's figures."""
    await WireClient.open(server.url, name="Counted")

    async def get(path: str) -> tuple[str, str]:
        reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
        writer.write(f"GET {path} HTTP/1.1\r\nHost: x\r\n\r\n".encode())
        head = (await reader.readuntil(b"\r\n\r\n")).decode()
        length = int(head.lower().split("content-length:")[1].split("\r\n")[0])
        body = (await reader.readexactly(length)).decode()
        writer.close()
        return head, body

    head, body = await get("/healthz")
    assert head.startswith("HTTP/1.1 200") and body == "ok\n"
    head, body = await get("/metrics")
    assert "text/plain" in head and "muggins_connections 1.0" in body
    assert "muggins_messages_total" in body and "muggins_action_seconds" in body


async def test_a_player_who_sits_elsewhere_hears_nothing_more_from_the_room_left(
    server: Server,
) -> None:
    """Left mid-match (the seat kept) and seated in a new room: the old room's frames stop."""
    alice, bob, room = await seated(server)
    assert (await alice.request(type="leave"))["type"] == "left"
    elsewhere = await alice.request(type="create_room")
    assert elsewhere["type"] == "room" and elsewhere["code"] != room.code
    alice.frames.clear()
    assert bob.state is not None
    moved = await bob.request(**bob.state["view"]["legal"][0])
    assert moved["type"] == "state" and moved["seq"] == room.seq
    pong = await alice.request(type="ping")
    assert pong["type"] == "pong"
    heard = [f for f in alice.frames if f["type"] in ("state", "room", "notice")]
    assert heard == [], "frames of the room Alice left reached her in her new room"
    back = await alice.request(type="leave")
    assert back["type"] == "left"
    rejoined = await alice.request(type="join_room", code=room.code)
    assert rejoined["type"] == "room" and rejoined["you"] == 0, "her seat was kept"
