"""The wire protocol: strict models, one union per direction, committed schema files."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from pydantic import ValidationError

from muggins.server.wire.state_writer import left_out_of, starts_phase
from muggins.shared.actions import EVENT, Discard, GameOptions, Play
from muggins.shared.cards import parse_card, parse_cards
from muggins.shared.commands.schema import schema_texts
from muggins.shared.match import Match
from muggins.shared.protocol import (
    DiscardCards,
    EventLine,
    Hello,
    Notice,
    PlayCard,
    State,
    encode,
    encode_utf8,
    from_action,
    parse_client,
    parse_server,
    to_action,
)
from muggins.shared.protocol.unpack import BriefFirst, Unpacker
from muggins.shared.view import PHASE_FIXED, VIEW_FIELDS, WHOLE_ONLY, BriefView, SeatView, brief

SCHEMA_DIR = Path(__file__).parents[2] / "shared" / "schema"


def test_client_message_parses_by_type_tag() -> None:
    """A frame becomes the model named by its type, with cards parsed from text."""
    msg = parse_client('{"type": "discard", "cards": ["5H", "10S"], "seq": 3, "id": "a1"}')
    assert msg == DiscardCards(cards=parse_cards("5H 10S"), seq=3, id="a1")


@pytest.mark.parametrize(
    "frame",
    [
        '{"type": "ping", "extra": 1}',
        '{"type": "warp"}',
        '{"card": "5H"}',
        '{"type": "play"}',
        '{"type": "play", "card": 5}',
        '{"type": "play", "card": "ZZ", "seq": 1}',
        '{"type": "play", "card": "5H"}',
        '{"type": "resign"}',
        '{"type": "accept", "seq": -1}',
        '{"type": "hello", "name": "", "protocol": 1}',
        "[1, 2]",
        "not json",
    ],
)
def test_bad_client_frames_are_refused(frame: str) -> None:
    """Unknown types, extra or missing fields, wrong types and non-objects all fail validation."""
    with pytest.raises(ValidationError):
        parse_client(frame)


def test_messages_are_frozen() -> None:
    """A parsed message cannot be changed after validation."""
    hello = Hello(name="Ann", protocol=1)
    with pytest.raises(ValidationError):
        hello.name = "Bob"  # type: ignore[misc]


def test_every_legal_action_round_trips_through_a_move_message() -> None:
    """from_action and to_action are inverse over every legal action of a real game."""
    match = Match(seed=11)
    for _ in range(40):
        (seat, *_) = match.waiting_for()
        legal = match.legal_actions(seat)
        for action in legal:
            frame = encode(from_action(action, seq=9, id=3))
            parsed = parse_client(frame)
            assert to_action(parsed) == action  # type: ignore[arg-type]
            assert (parsed.seq, parsed.id) == (9, 3)
        match.apply(seat, legal[-1])


def test_discard_of_the_wrong_count_is_a_sentence_not_a_crash() -> None:
    """A discard of three cards parses but asks for exactly two when turned into an action."""
    msg = parse_client('{"type": "discard", "cards": ["5H", "10S", "AC"], "seq": 1}')
    assert isinstance(msg, DiscardCards)
    with pytest.raises(ValueError, match="exactly two"):
        to_action(msg)
    assert to_action(DiscardCards(cards=parse_cards("5H 6H"), seq=1)) == Discard(
        cards=(parse_card("5H"), parse_card("6H"))
    )
    assert to_action(PlayCard(card=parse_card("5H"), seq=1)) == Play(card=parse_card("5H"))


def test_state_and_events_round_trip_from_the_engine() -> None:
    """A state carries the engine's SeatView and its events, each one engine event, unchanged."""
    match = Match(seed=5)
    view = match.view(1)
    lines = tuple(EventLine(event=e, text=e.describe(("A", "B"))) for e in match.events)
    state = parse_server(encode(State(seq=4, view=view, events=lines)))
    assert isinstance(state, State)
    assert state.view == view and not state.brief
    assert [line.event for line in state.events] == list(match.events)
    for event in match.events:
        assert EVENT.validate_python(event) == event


def test_a_brief_state_leaves_out_only_what_a_deal_cannot_change() -> None:
    """Within a phase too, a brief view leaves out only parts that are as they were: it parses as
    a BriefView, and the Unpacker gives back the whole view from the previous one."""
    match = Match(seed=7)
    rng = random.Random(7)
    unpacker = Unpacker()
    first = parse_server(encode(State(seq=1, view=match.view(0))))
    assert isinstance(first, State) and unpacker.whole(first) == match.view(0)
    deal = match.game.deal_number
    while match.game.deal_number == deal:
        seat = match.waiting_for()[0]
        match.apply(seat, rng.choice(match.view(seat).legal))
        if match.game.deal_number != deal:
            break
        view = match.view(0)
        text = encode(State(seq=2, brief=True, view=brief(view)))
        sent = json.loads(text)["view"]
        assert set(json.loads(encode(view))) - set(sent) == WHOLE_ONLY
        state = parse_server(text)
        assert isinstance(state, State) and isinstance(state.view, BriefView)
        assert not isinstance(state.view, SeatView)
        assert unpacker.whole(state) == view
    with pytest.raises(BriefFirst):
        Unpacker().whole(State(seq=3, brief=True, view=brief(match.view(1))))


@pytest.mark.parametrize("muggins", [False, True])
def test_views_sent_brief_within_a_phase_come_back_whole(muggins: bool) -> None:
    """Every step of whole matches, as the server sends it to both seats and a spectator: the
    text leaves out exactly the parts left_out_of names (the phase's fixed parts too, except in
    the step that entered the phase), and each receiver's Unpacker, fed the parsed states in
    order, rebuilds the engine's view exactly."""
    from muggins.server.rooms.step_states import StepStates

    left_phase_parts = 0
    for seed in range(4):
        options = GameOptions(muggins=muggins, target=61, match_to=2)
        match = Match(seed=seed, options=options)
        rng = random.Random(seed)
        seq, events = 1, list(match.events)
        unpackers = {0: Unpacker(), 1: Unpacker(), None: Unpacker()}
        while True:
            make = StepStates(match, seq, events, ("Ann", "Bob"))
            for receiver, unpacker in unpackers.items():
                state = make(receiver)
                text = encode(state)
                left = left_out_of(state)
                sent = json.loads(text)["view"]
                assert set(VIEW_FIELDS) - set(sent) == left
                assert left >= WHOLE_ONLY if state.brief else not left
                view = match.view(receiver)
                if state.brief and view.phase in PHASE_FIXED:
                    entered = any(starts_phase(line, view.dealer) for line in state.events)
                    assert (left >= PHASE_FIXED[view.phase]) != entered
                    left_phase_parts += not entered
                parsed = parse_server(text)
                assert isinstance(parsed, State)
                assert unpacker.whole(parsed) == view
            if match.over:
                break
            seat = rng.choice(match.waiting_for())
            events = match.apply(seat, rng.choice(match.view(seat).legal))
            seq += 1
    assert left_phase_parts > 100


def test_the_state_encoder_writes_what_pydantic_writes() -> None:
    """encode() makes a state's text in parts: it equals pydantic's own text of the same state
    (with a BriefView for a brief one), for every step of whole matches, to both seats and a
    spectator, and for ids of every kind."""
    from muggins.server.rooms.step_states import StepStates

    names = ('Ann "the" \\ 5♠', "Bob\u00e9")
    for seed in range(3):
        match = Match(seed=seed, options=GameOptions(muggins=seed == 1))
        rng = random.Random(seed)
        seq = 1
        while not match.over:
            seat = match.waiting_for()[0]
            events = match.apply(seat, rng.choice(match.view(seat).legal))
            seq += 1
            make = StepStates(match, seq, events, names)
            for receiver, id in ((0, None), (1, 7), (None, 'x"y')):
                state = make(receiver).model_copy(update={"id": id})
                sent = (
                    state.model_copy(update={"view": brief(state.view, left_out_of(state))})
                    if state.brief
                    else state
                )
                assert isinstance(state.view, SeatView)
                assert encode(state) == sent.model_dump_json()
                assert encode_utf8(state) == sent.model_dump_json().encode()
                assert parse_server(encode(state)) == parse_server(sent.model_dump_json())


def test_a_message_in_utf8_is_its_text_encoded() -> None:
    """encode_utf8 is encode's text as UTF-8, for any message (here a non-ASCII notice, and an id
    that is a non-ASCII string)."""
    notice = Notice(code="joined", text="Zoë sits down \u2028 ♠", id="ïd")
    assert encode_utf8(notice) == encode(notice).encode()
    assert json.loads(encode_utf8(notice)) == json.loads(notice.model_dump_json())


@pytest.mark.parametrize("name", ["client.json", "server.json", "protocol.d.ts"])
def test_committed_schema_files_are_current(name: str) -> None:
    """shared/schema/ (the JSON Schema and the browser's TypeScript declarations made from it)
    equals what `muggins schema shared/schema` writes now."""
    expected = schema_texts()[name]
    actual = (SCHEMA_DIR / name).read_text(encoding="utf-8")
    assert actual == expected, "stale: run `muggins schema shared/schema`"


CLIENT_TYPES = {
    "hello", "create_room", "join_room", "list_rooms", "spectate", "seat_bot", "discard", "play",
    "count", "muggins", "challenge", "accept", "resign", "propose_restart", "answer_restart",
    "rematch", "claim", "chat", "leave", "ping",
    "register", "sign_in", "sign_out", "change_password", "delete_account", "profile", "history",
    "leaderboard", "game", "seek", "cancel_seek", "hint", "my_games",
    "create_tournament", "join_tournament", "leave_tournament", "start_tournament",
    "list_tournaments", "get_tournament", "review",
    "report", "block", "moderate", "moderation",
}  # fmt: skip
SERVER_TYPES = {
    "welcome", "room", "rooms", "state", "error", "chat", "notice", "left",
    "pong", "account", "signed_out", "profile", "history", "leaderboard", "game", "seeking",
    "hint", "duplicate_result", "tournaments", "tournament", "games", "story", "game_review",
    "moderated", "sanctioned", "moderation",
}  # fmt: skip


def test_schemas_name_every_message_type() -> None:
    """Each direction's schema lists exactly the message types the issue asks for."""
    for stem, types in (("client", CLIENT_TYPES), ("server", SERVER_TYPES)):
        schema = json.loads((SCHEMA_DIR / f"{stem}.json").read_text(encoding="utf-8"))
        assert set(schema["discriminator"]["mapping"]) == types


def test_a_server_frame_with_fields_this_version_does_not_know_still_parses() -> None:
    """A newer server may add optional fields within a protocol version: parse_server passes
    over them, at the top and nested in a view (whole or brief), its events and a room's seats,
    and reads the rest as it was."""
    match = Match(seed=5)
    view = match.view(1)
    lines = tuple(EventLine(event=e, text=e.describe(("A", "B"))) for e in match.events)
    state = State(seq=4, view=view, events=lines)
    frame = json.loads(encode(state))
    frame["mood"] = "sunny"
    frame["view"]["glow"] = [1, 2]
    frame["events"][0]["event"]["why"] = "dealt"
    frame["events"][0]["colour"] = "red"
    assert parse_server(json.dumps(frame)) == state
    brief_frame = json.loads(encode(State(seq=5, brief=True, view=brief(view))))
    brief_frame["view"]["glow"] = 1
    parsed = parse_server(json.dumps(brief_frame))
    assert isinstance(parsed, State) and isinstance(parsed.view, BriefView)
    notice = {"type": "notice", "id": None, "code": "left", "text": "Ann left", "since": 3}
    assert parse_server(json.dumps(notice)) == Notice(code="left", text="Ann left")


@pytest.mark.parametrize(
    "change",
    [
        lambda f: f.pop("seq"),  # a field missing
        lambda f: f.update(seq="four"),  # a field of the wrong type, beside an unknown one
        lambda f: f.update(type="warp"),  # no such message
    ],
)
def test_a_server_frame_wrong_in_other_ways_is_still_refused(change: object) -> None:
    frame = json.loads(encode(State(seq=4, view=Match(seed=5).view(0))))
    frame["mood"] = "sunny"
    assert callable(change)
    change(frame)
    with pytest.raises(ValidationError):
        parse_server(json.dumps(frame))
