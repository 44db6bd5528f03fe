"""The coach over the wire: a hint against the computer, refused elsewhere."""

from __future__ import annotations

from wire_client import WireClient

from muggins.server.app import Server


async def test_a_hint_against_the_computer_is_a_legal_move_with_a_reason(server: Server) -> None:
    """Waiting for our discard against the computer, `hint` answers one of our legal moves."""
    alice = await WireClient.open(server.url, name="Alice")
    await alice.request(type="create_room")
    await alice.request(type="seat_bot", level="easy")
    while not alice.my_turn():
        await alice.expect("state")
    hint = await alice.request(type="hint")
    assert hint["type"] == "hint"
    assert hint["move"] in alice.state["view"]["legal"] and hint["move"]["type"] == "discard"
    assert len(hint["text"]) > 10


async def test_no_hint_between_two_people(server: Server) -> None:
    """The coach helps only against the computer, as in the terminal; spectators get none."""
    alice = await WireClient.open(server.url, name="Alice")
    room = await alice.request(type="create_room")
    bob = await WireClient.open(server.url, name="Bob")
    await bob.request(type="join_room", code=room["code"])
    refused = await alice.request(type="hint")
    assert refused["type"] == "error" and refused["code"] == "illegal"
    assert "against the computer" in refused["message"]
    carol = await WireClient.open(server.url, name="Carol")
    await carol.request(type="spectate", code=room["code"])
    assert (await carol.request(type="hint"))["code"] == "not_seated"


async def test_no_hint_when_it_is_not_your_move(server: Server) -> None:
    """Once the match is over (we resigned) there is nothing to advise."""
    alice = await WireClient.open(server.url, name="Alice")
    await alice.request(type="create_room")
    await alice.request(type="seat_bot", level="easy")
    while not alice.my_turn():
        await alice.expect("state")
    answer = await alice.request(type="resign")
    while answer["type"] == "error" and answer["code"] == "stale":  # the computer moved first
        answer = await alice.request(type="resign")
    assert alice.state["view"]["phase"] == "match_over"
    refused = await alice.request(type="hint")
    assert refused["code"] == "not_your_turn"


async def test_no_hint_while_a_muggins_count_or_answer_is_pending(server: Server) -> None:
    """A muggins show refuses the coach while we must count or answer (it would tell the total)."""
    alice = await WireClient.open(server.url, name="Alice")
    await alice.request(type="create_room", options={"game": {"muggins": True}})
    await alice.request(type="seat_bot", level="easy")
    refused_for: set[str] = set()
    while len(refused_for) < 2:
        frame = await alice.expect("state")
        view = frame["view"]
        assert view["phase"] != "match_over", "no count and no answer came to Alice"
        if not alice.my_turn():
            continue
        legal = view["legal"]
        kinds = {action["type"] for action in legal}
        answer = await alice.request(type="hint")
        if view["phase"] == "show" and kinds & {"count", "accept"}:
            assert answer["type"] == "error" and answer["code"] == "illegal", answer
            assert "muggins show" in answer["message"]
            refused_for |= kinds & {"count", "accept"}
        else:
            assert answer["type"] == "hint" and answer["move"] in legal
        move = legal[0]
        if move["type"] == "discard":
            move = answer["move"]
        await alice.send(**move)
    await alice.close()
