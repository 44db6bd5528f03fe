"""Complete games over real sockets: two people, and one person against the computer."""

from __future__ import annotations

import asyncio
import random

from wire_client import WireClient, event_lines, game_overs, play_randomly

from muggins.server.app import Server
from muggins.shared.bots import LEVELS


async def test_two_clients_play_a_full_game_to_121(server: Server) -> None:
    """From hello to game_over: two socket clients finish a game to 121 with consistent views."""
    alice = await WireClient.open(server.url, name="Alice")
    bob = await WireClient.open(server.url, name="Bob")
    created = await alice.request(type="create_room", options={"game": {"target": 121}})
    assert created["type"] == "room" and created["you"] == 0 and created["status"] == "waiting"
    joined = await bob.request(type="join_room", code=created["code"].lower())
    assert joined["type"] == "room" and joined["you"] == 1
    rng = random.Random(1)
    await asyncio.gather(play_randomly(alice, rng), play_randomly(bob, rng))
    for client in (alice, bob):
        [over] = game_overs(client.frames)
        assert over["match_over"] is True
        assert max(over["outcome"]["scores"]) >= 121
        assert client.state is not None and client.state["view"]["phase"] == "match_over"
    assert alice.state and bob.state and alice.state["seq"] == bob.state["seq"]
    texts = [line["text"] for line in event_lines(alice.frames)]
    assert any(t.startswith(("Alice plays", "Bob plays")) for t in texts)
    room = server.lobby.find(created["code"])
    assert room.match is not None and room.match.over
    assert alice.state["seq"] == len(room.match.log) + 1


async def test_one_client_beats_or_loses_to_the_seated_computer(server: Server) -> None:
    """A player seats the computer and plays it to the end; the bot moves from its seat only."""
    alice = await WireClient.open(server.url, name="Alice")
    created = await alice.request(type="create_room", options={"game": {"target": 121}})
    seated = await alice.request(type="seat_bot")
    assert seated["type"] in ("room", "state")
    await play_randomly(alice, random.Random(2))
    [over] = game_overs(alice.frames)
    assert over["match_over"] and max(over["outcome"]["scores"]) >= 121
    room = server.lobby.find(created["code"])
    assert room.match is not None
    assert {seat for seat, _ in room.match.log} == {0, 1}
    assert alice.room is not None and alice.room["seats"][1]["kind"] == "bot"
    assert alice.room["seats"][1]["level"] == list(LEVELS)[-1], "the strongest level by default"
