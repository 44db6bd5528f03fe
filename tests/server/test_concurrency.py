"""Concurrency: simultaneous discards, a move during a reconnect, two takers for one seat."""

from __future__ import annotations

import asyncio

from wire_client import WireClient

from muggins.server.app import Server
from muggins.server.rooms.room import Room
from muggins.shared.protocol import PROTOCOL_VERSION


async def seated(server: Server) -> tuple[WireClient, WireClient, Room]:
    alice = await WireClient.open(server.url, name="Alice")
    bob = await WireClient.open(server.url, name="Bob")
    created = await alice.request(type="create_room")
    await bob.request(type="join_room", code=created["code"])
    for client in (alice, bob):
        while client.state is None:
            await client.recv()
    return alice, bob, server.lobby.find(created["code"])


async def settle(seq: int, *clients: WireClient) -> None:
    """Read until every client has the state with this ``seq``."""
    for client in clients:
        while client.state is None or client.state["seq"] < seq:
            await client.recv()


async def test_both_players_discard_at_the_same_instant(server: Server) -> None:
    """Two discards sent at once are both applied, in some order, and both views agree."""
    for _ in range(10):
        alice, bob, room = await seated(server)
        assert alice.state and bob.state
        a_cards = alice.state["view"]["hand"][:2]
        b_cards = bob.state["view"]["hand"][:2]
        await asyncio.gather(
            alice.send(type="discard", cards=a_cards), bob.send(type="discard", cards=b_cards)
        )
        assert room.match is not None
        await settle(alice.state["seq"] + 2, alice, bob)
        assert len(room.match.log) == 2 and room.match.game.phase in ("play", "game_over")
        assert set(alice.state["view"]["discards"]) == set(a_cards)
        assert set(bob.state["view"]["discards"]) == set(b_cards)
        assert alice.state["view"]["discarded"] == [True, True]
        assert not [f for f in alice.frames + bob.frames if f["type"] == "error"]


async def test_the_same_move_twice_at_once_is_applied_once(server: Server) -> None:
    """A doubled discard: the first is applied, the second is stale; nothing else changes."""
    alice, _, room = await seated(server)
    assert alice.state is not None
    cards = alice.state["view"]["hand"][:2]
    await asyncio.gather(
        alice.send(type="discard", cards=cards, id=1), alice.send(type="discard", cards=cards, id=2)
    )
    answers: dict[int, dict[str, object]] = {}
    while len(answers) < 2:
        frame = await alice.expect("state", "error")
        if frame.get("id") in (1, 2):
            answers[frame["id"]] = frame
    assert answers[1]["type"] == "state"
    assert answers[2]["type"] == "error" and answers[2]["code"] == "stale"
    assert room.match is not None and room.match.log == [(0, room.match.log[0][1])]


async def test_a_move_during_a_reconnect_reaches_the_returning_player(server: Server) -> None:
    """Bob moves while Alice reconnects: Alice's new connection ends on the room's latest view."""
    for _ in range(10):
        alice, bob, room = await seated(server)
        assert alice.token and bob.state and room.match is not None
        start = room.seq
        await alice.close()
        returning = await WireClient.open(server.url, hello=False)
        hello = returning.send(
            type="hello", name="Alice", protocol=PROTOCOL_VERSION, token=alice.token
        )
        move = bob.send(type="discard", cards=bob.state["view"]["hand"][:2])
        await asyncio.gather(hello, move)
        welcome = await returning.expect("welcome")
        assert welcome["resumed"] is True and welcome["room"] == room.code
        await settle(start + 1, returning, bob)
        assert returning.state is not None
        assert returning.state["view"] == room.match.view(0).model_dump(mode="json")
        assert returning.state["view"]["discarded"] == [False, True]
        hand = returning.state["view"]["hand"][:2]
        answer = await returning.request(type="discard", cards=hand)
        assert answer["type"] == "state" and len(room.match.log) == 2


async def test_two_clients_race_for_the_last_seat(server: Server) -> None:
    """Exactly one of two simultaneous joiners gets the seat; the other is told it is full."""
    for _ in range(10):
        owner = await WireClient.open(server.url, name="Owner")
        created = await owner.request(type="create_room")
        carol = await WireClient.open(server.url, name="Carol")
        dave = await WireClient.open(server.url, name="Dave")
        answers = await asyncio.gather(
            carol.request(type="join_room", code=created["code"]),
            dave.request(type="join_room", code=created["code"]),
        )
        kinds = sorted(
            (a["type"], a.get("code") if a["type"] == "error" else a["you"]) for a in answers
        )
        assert kinds == [("error", "room_full"), ("room", 1)]
        room = server.lobby.find(created["code"])
        names = {s.name for s in room.seats}
        assert names in ({"Owner", "Carol"}, {"Owner", "Dave"})
        assert room.match is not None and room.match.log == []
