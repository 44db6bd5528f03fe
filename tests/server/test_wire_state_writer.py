"""The hand-written state encoder (server.wire.state_writer) writes exactly pydantic's text."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from muggins.server.wire.state_writer import left_out_of
from muggins.server.wire.view_writer import view_text
from muggins.shared.actions import GameOptions, Resign
from muggins.shared.match import Match
from muggins.shared.protocol import SeatClock, State, encode, encode_utf8, parse_server
from muggins.shared.view import WHOLE_ONLY, SeatView, brief, left_out

NAMES = ('Ann "the" \\ 5♠\n', "Bob\u00e9\u2028\x7f")
CLOCKS = (
    None,
    (SeatClock(move=12.3, bank=0.0), None),
    (SeatClock(move=0.0, bank=3599.9), SeatClock(move=60.0, bank=0.1)),
)
"""Turn clocks a state may carry (none, one seat waited for, both)."""


def pydantic_text(state: State) -> str:
    """What pydantic writes for ``state`` as it goes on the wire (a BriefView when brief)."""
    view = state.view
    if state.brief and isinstance(view, SeatView):
        return state.model_copy(update={"view": brief(view, left_out_of(state))}).model_dump_json()
    return state.model_dump_json()


def check_match(seed: int, options: GameOptions, *, resign_every: int = 0) -> int:
    """Play ``seed`` at random; after every step compare both seats' and a spectator's states,
    brief and whole, with pydantic's text. Returns the number of states compared."""
    from muggins.server.rooms.step_states import StepStates

    match = Match(seed=seed, options=options)
    rng = random.Random(seed)
    seq, compared, steps = 1, 0, 0
    events = list(match.events)
    while True:
        make = StepStates(match, seq, events, NAMES, CLOCKS[seq % 3])
        for receiver, id in ((0, None), (1, seq), (None, f'x"{seq}')):
            state = make(receiver, id)
            assert isinstance(state.view, SeatView)
            for brief_now in {state.brief, False}:
                sent = state.model_copy(update={"brief": brief_now})
                expected = pydantic_text(sent)
                assert encode(sent) == expected
                assert encode_utf8(sent) == expected.encode()  # what goes into the frame
                left = left_out_of(sent)
                assert (
                    view_text(sent.view, left)
                    == (brief(sent.view, left) if brief_now else sent.view).model_dump_json()
                )
                # What a client parses back encodes to the same text again.
                parsed = parse_server(expected)
                assert isinstance(parsed, State)
                assert encode(parsed) == parsed.model_dump_json() == expected
                compared += 1
        if match.over:
            return compared
        seat = rng.choice(match.waiting_for())
        steps += 1
        if resign_every and steps % resign_every == 0:
            action = Resign()
        else:
            action = rng.choice(match.view(seat).legal)
        events = match.apply(seat, action)
        seq += 1


def test_every_step_of_whole_matches_encodes_as_pydantic_does() -> None:
    """Automatic and muggins counting, games to 121 and 61, matches of several games (so the
    previous deal, outcomes and games lists fill up), both seats and a spectator."""
    compared = 0
    for seed in range(5):
        options = GameOptions(
            muggins=seed % 2 == 1,
            target=61 if seed % 3 == 2 else 121,
            match_to=1 if seed < 2 else 3,
            scheme=("standard", "acc", "games")[seed % 3],
        )
        compared += check_match(seed, options)
    assert compared > 2000


def test_resigned_games_encode_as_pydantic_does() -> None:
    for seed in range(3):
        check_match(100 + seed, GameOptions(match_to=3), resign_every=17 + seed)


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 2**32),
    muggins=st.booleans(),
    target=st.sampled_from([61, 121]),
    match_to=st.integers(1, 4),
)
def test_random_matches_encode_as_pydantic_does(
    seed: int, muggins: bool, target: int, match_to: int
) -> None:
    check_match(seed, GameOptions(muggins=muggins, target=target, match_to=match_to))  # type: ignore[arg-type]


def test_a_view_built_by_validation_encodes_the_same() -> None:
    """A view made by pydantic's validation (not the engine's trusted build) writes the same."""
    match = Match(seed=11)
    view = match.view(0)
    again = SeatView.model_validate_json(view.model_dump_json())
    assert view_text(again) == view.model_dump_json()
    assert view_text(again, WHOLE_ONLY) == brief(view).model_dump_json()
    discard = left_out("discard", phase_started=False)
    assert view_text(again, discard) == brief(view, discard).model_dump_json()
