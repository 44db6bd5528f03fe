"""Moves name the seq of the state they answer: stale moves, retries and protocol 1, on sockets."""

from __future__ import annotations

from typing import Any

from wire_client import WireClient

from muggins.server.app import Server
from muggins.server.rooms.room import Room


async def pegging(server: Server) -> tuple[WireClient, WireClient, Room]:
    """Alice and Bob at a table of two people, both discarded, in the play."""
    alice = await WireClient.open(server.url, name="Alice")
    bob = await WireClient.open(server.url, name="Bob")
    created = await alice.request(type="create_room", options={"game": {"target": 121}})
    await bob.request(type="join_room", code=created["code"])
    room = server.lobby.find(created["code"])
    for client in (alice, bob):
        while client.state is None:
            await client.recv()
        hand = client.state["view"]["hand"][:2]
        answer = await client.request(type="discard", cards=hand)
        assert answer["type"] == "state", answer
    await settled(room, alice, bob)
    return alice, bob, room


async def settled(room: Room, *clients: WireClient) -> None:
    for client in clients:
        while client.state is None or client.state["seq"] < room.seq:
            await client.recv()


def mover(alice: WireClient, bob: WireClient) -> tuple[WireClient, WireClient]:
    return (alice, bob) if alice.my_turn() else (bob, alice)


def plays(client: WireClient) -> list[dict[str, Any]]:
    assert client.state is not None
    return [a for a in client.state["view"]["legal"] if a["type"] == "play"]


async def test_a_late_move_naming_an_old_seq_is_stale_and_not_applied(server: Server) -> None:
    """A move sent for seq s arriving after its player moved on is refused 'stale', not applied."""
    alice, bob, room = await pegging(server)
    first, second = mover(alice, bob)
    assert first.state is not None and room.match is not None
    old_seq = first.state["seq"]
    options = plays(first)
    assert len(options) >= 2, "the first player of the play holds four cards"
    answer = await first.request(**options[0])
    assert answer["type"] == "state" and answer["seq"] == old_seq + 1
    await settled(room, second)
    reply = await second.request(**plays(second)[0])
    assert reply["type"] == "state"
    await settled(room, first)
    log_before = list(room.match.log)
    # The second card, chosen at old_seq (a double click, or a node that froze), arrives now.
    stale = await first.request(**options[1], seq=old_seq)
    assert stale["type"] == "error" and stale["code"] == "stale", stale
    assert stale["seq"] == room.seq and "seq" in stale["message"]
    assert first.frames[-2]["type"] == "state" and first.frames[-2]["seq"] == room.seq
    assert room.match.log == log_before


async def test_a_retried_move_is_answered_again_and_applied_once(server: Server) -> None:
    """The same move sent twice (same id and seq) is applied once; the retry gets the state."""
    alice, bob, room = await pegging(server)
    first, second = mover(alice, bob)
    assert first.state is not None and room.match is not None
    seq = first.state["seq"]
    move = {**plays(first)[0], "seq": seq, "id": "m-1"}
    answer = await first.request(**move)
    assert answer["type"] == "state" and answer["seq"] == seq + 1
    again = await first.request(**move)
    assert again["type"] == "state" and again["seq"] == seq + 1
    await settled(room, second)
    await second.request(**plays(second)[0])
    await settled(room, first)
    late = await first.request(**move)  # the retry after the opponent moved on
    assert late["type"] == "state" and late["seq"] == room.seq == seq + 2
    played = [action for _, action in room.match.log if action.type == "play"]
    assert len(played) == 2 and len(room.match.log) == 4


async def test_a_retry_with_another_id_is_stale(server: Server) -> None:
    """Only the same id makes a retry: the same card at the same seq with a new id is stale."""
    alice, bob, room = await pegging(server)
    first, _ = mover(alice, bob)
    assert first.state is not None and room.match is not None
    seq = first.state["seq"]
    move = plays(first)[0]
    await first.request(**move, seq=seq, id=1)
    refused = await first.request(**move, seq=seq, id=2)
    assert refused["code"] == "stale" and len(room.match.log) == 3


async def test_two_players_discarding_together_are_both_applied(server: Server) -> None:
    """Both discards name the deal's seq: the second is applied though the first came between."""
    alice = await WireClient.open(server.url, name="Alice")
    bob = await WireClient.open(server.url, name="Bob")
    created = await alice.request(type="create_room")
    await bob.request(type="join_room", code=created["code"])
    room = server.lobby.find(created["code"])
    await settled(room, alice, bob)
    assert alice.state is not None and bob.state is not None
    deal = alice.state["seq"]
    await alice.request(type="discard", cards=alice.state["view"]["hand"][:2], seq=deal)
    answer = await bob.request(type="discard", cards=bob.state["view"]["hand"][:2], seq=deal)
    assert answer["type"] == "state" and answer["seq"] == deal + 2


async def test_moves_without_seq_and_protocol_1_are_refused(server: Server) -> None:
    """A move must name its seq (bad_message); a protocol 1, 2 or 3 hello is unsupported, saying
    why (protocol 2 clients expect event frames and whole views; protocol 3 clients complete a
    brief view from the latest whole one)."""
    alice, _, room = await pegging(server)
    assert room.match is not None
    before = list(room.match.log)
    refused = await alice.request(type="resign", seq=None)
    assert refused["code"] == "bad_message" and "seq" in refused["message"]
    assert room.match.log == before
    old = await WireClient.open(server.url, hello=False)
    await old.send(type="hello", name="Old", protocol=1)
    error = await old.expect("error")
    assert error["code"] == "unsupported_protocol" and "seq" in error["message"]
    two = await WireClient.open(server.url, hello=False)
    await two.send(type="hello", name="Two", protocol=2)
    refused = await two.expect("error")
    assert refused["code"] == "unsupported_protocol" and "brief" in refused["message"]
    assert (await two.request(type="create_room"))["code"] == "hello_first", "not welcomed"
    three = await WireClient.open(server.url, hello=False)
    await three.send(type="hello", name="Three", protocol=3)
    refused = await three.expect("error")
    assert refused["code"] == "unsupported_protocol" and "protocol 4" in refused["message"]
    assert (await three.request(type="create_room"))["code"] == "hello_first", "not welcomed"


async def test_a_repeated_restart_does_not_restart_twice(server: Server) -> None:
    """Against the computer a restart is at once; the same proposal sent again is stale."""
    alice = await WireClient.open(server.url, name="Alice")
    created = await alice.request(type="create_room", options={"game": {"target": 61}})
    await alice.request(type="seat_bot", level="random")
    room = server.lobby.find(created["code"])
    while alice.state is None or alice.state["view"]["waiting_for"] != [0]:
        await alice.recv()  # the computer has laid away: nothing moves until Alice does
    seq = alice.state["seq"]
    started = await alice.request(type="propose_restart", seq=seq)
    assert started["type"] == "room" and room.match_number == 2
    again = await alice.request(type="propose_restart", seq=seq)
    assert again["type"] == "error" and again["code"] == "stale" and room.match_number == 2


async def test_the_stored_log_records_the_seq_each_move_named(server: Server) -> None:
    """Every stored action carries its key and the seq its move named: its own place in the log,
    or (a discard) an earlier seq with only the other seat's discards in between."""
    alice = await WireClient.open(server.url, name="Alice")
    created = await alice.request(type="create_room", options={"game": {"target": 61}})
    await alice.request(type="seat_bot", level="easy")
    pending = None
    while alice.state is None or alice.state["view"]["phase"] != "match_over":
        frame = await alice.recv()
        if frame.get("id") is not None and frame["id"] == pending:
            pending = None
        if pending is None and alice.my_turn():
            assert alice.state is not None
            pending = f"m{alice.state['seq']}"
            await alice.send(**alice.state["view"]["legal"][0], id=pending)
    record = await server.lobby.store.load_match(created["code"], 1)
    assert record is not None and len(record.tags) == len(record.actions) > 20
    keys = [key for _, key in record.tags]
    assert all(keys) and len(set(keys)) == len(keys)
    first = 1  # the opening state of match 1
    for index, ((seat, action), (named, key)) in enumerate(
        zip(record.actions, record.tags, strict=True)
    ):
        assert named is not None and named <= first + index
        between = record.actions[named - first : index]
        assert named == first + index or (
            action.type == "discard" and all(s != seat and a.type == "discard" for s, a in between)
        )
        assert key.startswith(f"{seat}:" if seat == 0 else "computer:")
