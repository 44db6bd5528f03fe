"""Impersonation: nobody acts for a seat that is not theirs, whatever token or field they send.

A resume token is ``<player id>.<secret>``; the server keeps only the secret's hash. Forged,
altered, foreign or malformed tokens are refused with ``bad_token`` and change nothing. A
genuine token replayed on a new connection takes the seat over and closes the older connection
(4000), so two connections never act for one seat. No message can name another seat.
"""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cluster_nodes import nodes
from redis_helpers import running_redis
from websockets.exceptions import ConnectionClosed
from wire_client import WireClient, game_overs

from muggins.server.app import Server, running_server
from muggins.server.config import ServerConfig
from muggins.server.rooms.room import Room
from muggins.shared.protocol import PROTOCOL_VERSION


async def table(server: Server) -> tuple[WireClient, WireClient, Room]:
    """Alice and Bob seated in a fresh room with the match begun (both must discard)."""
    alice = await WireClient.open(server.url, name="Alice")
    bob = await WireClient.open(server.url, name="Bob")
    created = await alice.request(type="create_room")
    await bob.request(type="join_room", code=created["code"])
    for client in (alice, bob):
        while client.state is None:
            await client.recv()
    return alice, bob, server.lobby.find(created["code"])


def snapshot(room: Room) -> tuple[int, list[Any]]:
    assert room.match is not None
    return room.seq, list(room.match.log)


async def assert_still_works(client: WireClient) -> None:
    pong = await client.request(type="ping")
    assert pong["type"] == "pong"


def forgeries(token: str, player: str, foreign: str) -> list[str]:
    _, _, secret = token.partition(".")
    flipped = secret[:-1] + ("A" if secret[-1] != "A" else "B")
    return [
        f"{player}.{flipped}",  # one character of the secret changed
        f"{player}.{secret[::-1]}",  # the secret reversed
        f"{player}.",  # no secret
        player,  # no dot at all
        f"{player}.{secret}x",  # the right secret with a suffix
        f"{player[:-1]}0.{secret}" if not player.endswith("0") else f"{player[:-1]}1.{secret}",
        "." + secret,  # the secret without a player
        foreign,  # a real token from another server
        "p" + "0" * 12 + "." + secret,  # a made-up player id
        "x" * 200,
    ]


async def test_forged_and_altered_tokens_are_refused_and_change_nothing(server: Server) -> None:
    """Every token that is not exactly one issued here gets bad_token; the seat stays Alice's."""
    alice, _, room = await table(server)
    assert alice.token is not None
    player = alice.token.split(".", 1)[0]
    async with running_server(ServerConfig(port=0, memory=True)) as other:
        stranger = await WireClient.open(other.url, name="Alice")
        foreign = stranger.token
        await stranger.close()
    assert foreign is not None
    before = snapshot(room)
    for forged in forgeries(alice.token, player, foreign):
        mallory = await WireClient.open(server.url, hello=False)
        answer = await mallory.hello("Mallory", token=forged)
        assert answer["type"] == "error" and answer["code"] == "bad_token", forged
        move = await mallory.request(type="discard", cards=alice.state["view"]["hand"][:2])
        assert move["type"] == "error" and move["code"] == "hello_first"
        await mallory.close()
    assert snapshot(room) == before
    assert room.seats[0].player is not None and room.seats[0].player.peer is not None
    await assert_still_works(alice)


async def test_a_second_hello_cannot_switch_identity_on_a_live_connection(server: Server) -> None:
    """Bob replaying Alice's token in a second hello is refused: one identity per connection."""
    alice, bob, room = await table(server)
    answer = await bob.request(
        type="hello", name="Alice", protocol=PROTOCOL_VERSION, token=alice.token
    )
    assert answer["type"] == "error" and answer["code"] == "already_welcomed"
    before = snapshot(room)
    hand = alice.state["view"]["hand"]
    refused = await bob.request(type="discard", cards=hand[:2])
    assert refused["type"] == "error" and refused["code"] == "illegal"
    assert snapshot(room) == before
    assert room.seats[0].player is not None and room.seats[0].player.name == "Alice"


async def test_a_replayed_token_takes_the_seat_over_and_closes_the_old_connection(
    server: Server,
) -> None:
    """The token's new connection holds the seat; the old one is closed (4000) and cannot act."""
    alice, _, room = await table(server)
    thief = await WireClient.open(server.url, hello=False)
    welcome = await thief.hello("whoever", token=alice.token)
    assert welcome["type"] == "welcome" and welcome["resumed"] and welcome["name"] == "Alice"
    with pytest.raises(ConnectionClosed) as closed:
        for _ in range(50):
            await alice.request(type="ping", timeout=5)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4000
    seat = room.seats[0]
    assert seat.player is not None and seat.player.peer is not None
    assert [peer for _, peer in room.receivers()].count(seat.player.peer) == 1


async def test_nobody_moves_for_the_other_seat(server: Server) -> None:
    """Out of turn, the opponent's cards, a seat field, a spectator, another room: all refused."""
    alice, bob, room = await table(server)
    watcher = await WireClient.open(server.url, name="Watcher")
    await watcher.request(type="spectate", code=room.code)
    elsewhere = await WireClient.open(server.url, name="Eve")
    await elsewhere.request(type="create_room")
    rng = random.Random(3)
    assert room.match is not None
    alice_hand = [str(card) for card in room.match.game.hands[0]]
    before = snapshot(room)
    attempts: list[tuple[WireClient, dict[str, Any], set[str]]] = [
        (bob, {"type": "discard", "cards": alice_hand[:2]}, {"illegal"}),
        (bob, {"type": "discard", "cards": alice_hand[:2], "seat": 0}, {"bad_message"}),
        (bob, {"type": "play", "card": alice_hand[0], "player": "Alice"}, {"bad_message"}),
        (watcher, {"type": "discard", "cards": alice_hand[:2]}, {"not_seated"}),
        (watcher, {"type": "resign"}, {"not_seated"}),
        (elsewhere, {"type": "discard", "cards": alice_hand[:2]}, {"illegal"}),
        (elsewhere, {"type": "join_room", "code": room.code}, {"already_in_room"}),
        (elsewhere, {"type": "claim"}, {"illegal"}),
    ]
    for client, message, codes in attempts:
        if codes == {"bad_message"}:  # an invalid message's id cannot be trusted, so not echoed
            await client.send(**message)
            answer = await client.expect("error")
        else:
            answer = await client.request(**message)
        assert answer["type"] == "error" and answer["code"] in codes, (message, answer)
        assert snapshot(room) == before, message
    # Once the pegging starts, the player not waited for is refused too.
    for client in (alice, bob):
        await client.send(**rng.choice(client.state["view"]["legal"]))
    while not (alice.state["view"]["phase"] == "play" and bob.state["view"]["phase"] == "play"):
        await (alice if alice.state["view"]["phase"] != "play" else bob).recv()
    waiting = alice if alice.my_turn() else bob
    other = bob if waiting is alice else alice
    before = snapshot(room)
    other_card = waiting.state["view"]["hand"][0]
    for message in ({"type": "play", "card": other_card}, {"type": "play", "card": "5H"}):
        answer = await other.request(**message)
        assert answer["type"] == "error" and answer["code"] in {"not_your_turn", "illegal"}
    assert snapshot(room) == before
    # Resigning is the one move allowed out of turn, and it is the resigner's own game it ends.
    over = await other.request(type="resign")
    assert over["type"] == "state"
    [last] = game_overs(other.frames)[-1:]
    assert last["winner"] == ("Alice" if other is bob else "Bob")


async def resume(server: Server, token: str | None) -> tuple[WireClient, dict[str, Any]]:
    client = await WireClient.open(server.url, hello=False)
    return client, await client.hello("whoever", token=token)


async def test_every_resume_rotates_the_token_and_the_old_one_stops_working(
    server: Server,
) -> None:
    """A resume hands out a new token; the one it used is refused, so a thief cannot hold on."""
    alice, _, room = await table(server)
    stolen = alice.token
    _, welcome = await resume(server, stolen)
    assert welcome["type"] == "welcome" and welcome["resumed"]
    assert welcome["token"] != stolen
    _, again = await resume(server, stolen)
    assert again["type"] == "error" and again["code"] == "bad_token"
    # The owner's own later resume rotates too: the token it used is spent.
    _, regained = await resume(server, welcome["token"])
    assert regained["type"] == "welcome" and regained["token"] not in (stolen, welcome["token"])
    for spent in (stolen, welcome["token"]):
        _, refused = await resume(server, spent)
        assert refused["type"] == "error" and refused["code"] == "bad_token"
    seat = room.seats[0]
    assert seat.player is not None and seat.player.name == "Alice"
    assert room.record().seats[0].token_hash == seat.player.token_hash


async def test_a_rotated_token_is_the_one_kept_in_the_store(tmp_path: Path) -> None:
    """After a resume and a restart on the same database, only the newest token works."""
    config = ServerConfig(port=0, db=tmp_path / "games.db", bot_delay=0.0)
    async with running_server(config) as first:
        alice, _, _ = await table(first)
        old = alice.token
        _, welcome = await resume(first, old)
        new = welcome["token"]
    async with running_server(config) as second:
        _, refused = await resume(second, old)
        assert refused["type"] == "error" and refused["code"] == "bad_token"
        _, welcome = await resume(second, new)
        assert welcome["type"] == "welcome" and welcome["resumed"] and welcome["room"]


async def test_a_seatless_players_token_expires_when_the_grace_period_ends(
    config: ServerConfig,
) -> None:
    """A seatless player's token stops working as the grace period ends, not at the next sweep."""
    async with running_server(replace(config, grace=0.3, sweep_interval=3600)) as server:
        walker = await WireClient.open(server.url, name="Walker")
        token = walker.token
        await walker.close()
        await asyncio.sleep(0.6)
        _, answer = await resume(server, token)
        assert answer["type"] == "error" and answer["code"] == "bad_token"


@pytest.mark.parametrize(
    "name",
    [
        "Computer (expert)",
        "computer",
        "The Computer",
        "AS",
        "10H KD",
        "ＡＨ",
        " JD ",
        "Ann ♠",
        "5♥",
    ],
)
async def test_names_that_read_as_the_computer_or_as_cards_are_refused(
    server: Server, name: str
) -> None:
    """A name read as the computer, a card or a suit would make event sentences lie: bad_name."""
    client = await WireClient.open(server.url, hello=False)
    answer = await client.hello(name)
    assert answer["type"] == "error" and answer["code"] == "bad_name", answer
    assert (await client.hello("Ann"))["type"] == "welcome"


@pytest.mark.parametrize("name", ["Ace", "Jack Spade", "AS Byatt", "Kd", "Computerised", "10"])
async def test_ordinary_names_near_those_are_accepted(server: Server, name: str) -> None:
    """Names that only resemble cards or the computer are fine."""
    client = await WireClient.open(server.url, hello=False)
    assert (await client.hello(name))["type"] == "welcome"


async def test_in_a_cluster_a_token_rotated_on_one_node_is_spent_on_every_node(
    tmp_path: Path,
) -> None:
    """Resumed through node B, Alice's old token is refused by node A too; the new one works."""
    with running_redis(tmp_path) as redis:
        async with nodes(redis, 2) as (a, b):
            alice = await WireClient.open(a.url, name="Alice")
            created = await alice.request(type="create_room")
            await alice.request(type="seat_bot", level="random")
            old = alice.token
            _, moved = await resume(b, old)
            assert moved["type"] == "welcome" and moved["room"] == created["code"]
            for node in (a, b):
                _, refused = await resume(node, old)
                assert refused["type"] == "error" and refused["code"] == "bad_token", node.url
            _, back = await resume(a, moved["token"])
            assert back["type"] == "welcome" and back["room"] == created["code"]
