"""A match: the cut for deal, games in sequence, views and replay."""

from __future__ import annotations

import random

import pytest
from pydantic import ValidationError
from stacked import discard, play_all, stacked_match

from muggins.shared.actions import (
    EVENT,
    Accept,
    Count,
    CutForDeal,
    DealStarted,
    GameOptions,
    GameOver,
    IllegalAction,
    Resign,
)
from muggins.shared.cards import parse_cards
from muggins.shared.fairness import StackedRandom
from muggins.shared.match import Match
from muggins.shared.view import SeatView

ALICE, BOB = 0, 1
BGA_PLAY = [(BOB, "JH"), (ALICE, "5S"), (BOB, "7C"), (ALICE, "6H")]
BGA_PLAY += [(ALICE, "2S"), (BOB, "6D"), (ALICE, "4S"), (BOB, "4H")]


def bga_match(options: GameOptions | None = None) -> Match:
    return stacked_match(
        dealer=ALICE,
        dealer_cards="5S 4S 2S 8D 6H 8C",
        pone_cards="10S 6D JH 4H KC 7C",
        starter="5H",
        options=options,
    )


# --- the cut for deal ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cuts", "dealer"),
    [("AS KS", 0), ("KS AS", 1), ("2H AC", 1), ("10D JD", 0), ("QC KH", 0)],
)
def test_low_card_deals_ace_low(cuts: str, dealer: int) -> None:
    """The lower cut deals; the ace is the lowest card and kings the highest."""
    match = Match(seed=0, rng=StackedRandom([parse_cards(cuts)]))
    [cut, *_] = match.events
    assert isinstance(cut, CutForDeal)
    assert (cut.rounds, cut.dealer) == ((parse_cards(cuts),), dealer)
    assert match.view(None).dealer == dealer


def test_cut_for_deal_ties_redraw() -> None:
    """Equal ranks cut again, as often as needed; every round is recorded."""
    decks = [parse_cards("5S 5H"), parse_cards("JC JD"), parse_cards("KS 9S")]
    match = Match(seed=0, rng=StackedRandom(decks))
    [cut, *_] = match.events
    assert isinstance(cut, CutForDeal)
    assert cut.rounds == tuple(tuple(deck) for deck in decks)
    assert cut.dealer == 1
    assert match.view(0).cut_for_deal == cut.rounds


# --- games in a match ------------------------------------------------------------------------


@pytest.mark.parametrize("loser", [ALICE, BOB])
def test_loser_deals_first_in_the_next_game(loser: int) -> None:
    """Game 2 starts at once after game 1, and the loser of game 1 deals it; no new cut."""
    match = bga_match(GameOptions(match_to=9))
    discard(match, ALICE, "8D 8C")
    discard(match, BOB, "10S KC")
    match.game.scores[:] = [100, 100]
    events = match.apply(loser, Resign())
    over = next(e for e in events if isinstance(e, GameOver))
    assert (over.outcome.winner, over.match_over) == (1 - loser, False)
    [started] = [e for e in events if isinstance(e, DealStarted)]
    assert (started.game_number, started.deal_number, started.dealer) == (2, 1, loser)
    assert not any(isinstance(e, CutForDeal) for e in events)
    view = match.view(loser)
    assert (view.game_number, view.phase, view.scores, view.dealer) == (2, "discard", (0, 0), loser)
    assert view.match_points == ((0, 1) if loser == ALICE else (1, 0))
    assert view.outcome == over.outcome
    assert view.games == (over.outcome,)


def test_match_ends_at_match_to_game_points() -> None:
    """Game points add up until one seat reaches match_to; then nothing more can be played."""
    match = bga_match(GameOptions(match_to=3))
    match.apply(BOB, Resign())  # 0-0: Bob is double-skunked, Alice gets 3 points
    assert match.over and match.winner == ALICE
    assert match.match_points == [3, 0]
    view = match.view(BOB)
    assert (view.phase, view.match_winner, view.legal) == ("match_over", ALICE, ())
    with pytest.raises(IllegalAction, match="The match is over"):
        match.apply(ALICE, Resign())


def test_deals_alternate() -> None:
    """After a deal's show the other seat deals, with the pone of the new deal to lead."""
    match = bga_match()
    discard(match, ALICE, "8D 8C")
    discard(match, BOB, "10S KC")
    play_all(match, BGA_PLAY)
    view = match.view(ALICE)
    assert (view.deal_number, view.dealer, view.phase) == (2, BOB, "discard")
    assert len(view.hand) == 6


# --- views -----------------------------------------------------------------------------------


def test_views_at_the_deal() -> None:
    """Each seat sees its own six cards; the spectator none; both see counts and the commitment."""
    match = bga_match()
    alice, bob, spectator = match.view(ALICE), match.view(BOB), match.view(None)
    assert alice.hand == tuple(sorted(parse_cards("5S 4S 2S 8D 6H 8C")))
    assert bob.hand == tuple(sorted(parse_cards("10S 6D JH 4H KC 7C")))
    assert (spectator.hand, spectator.discards, spectator.legal) == ((), (), ())
    for view in (alice, bob, spectator):
        assert (view.hand_counts, view.crib_count, view.starter, view.crib) == (
            (6, 6),
            0,
            None,
            None,
        )
        assert len(view.commitment) == 64
        assert view.waiting_for == (0, 1)
    assert alice.legal == tuple(match.legal_actions(ALICE))
    assert len(alice.legal) == 15  # C(6, 2) ways to lay away two cards


def test_views_in_the_play() -> None:
    """Played cards, the pile since the reset, the count and back pegs are visible to everyone."""
    match = bga_match()
    discard(match, ALICE, "8D 8C")
    discard(match, BOB, "10S KC")
    play_all(match, BGA_PLAY[:5])
    view = match.view(None)
    assert [str(p.card) for p in view.played] == ["JH", "5S", "7C", "6H", "2S"]
    assert (view.count, view.pile, view.hand_counts, view.crib_count) == (0, (), (1, 2), 4)
    assert view.scores == (6, 0)
    assert view.previous_scores == (5, 0)  # the go point moved Alice's front peg from 5 to 6
    assert match.view(BOB).hand == tuple(sorted(parse_cards("6D 4H")))


def test_crib_is_visible_once_shown() -> None:
    """In muggins mode the crib waits face up for its count, so every view shows it."""
    match = bga_match(GameOptions(muggins=True))
    discard(match, ALICE, "8D 8C")
    discard(match, BOB, "10S KC")
    play_all(match, BGA_PLAY)
    for seat, points in ((BOB, 9), (ALICE, 12)):
        match.apply(seat, Count(points=points))
        match.apply(1 - seat, Accept())
    for seat in (ALICE, BOB, None):
        assert match.view(seat).crib == tuple(sorted(parse_cards("8D 8C 10S KC")))
    assert [r.kind for r in match.view(None).show] == ["hand", "hand", "crib"]


def test_view_round_trips_through_json() -> None:
    """A view serialises to JSON and validates back to an equal view, as it travels on the wire."""
    match = bga_match()
    discard(match, ALICE, "8D 8C")
    view = match.view(ALICE)
    assert SeatView.model_validate_json(view.model_dump_json()) == view


def test_views_are_what_validation_would_build() -> None:
    """The view is built without validation: at every step of random matches, for both seats
    and a spectator, it equals the view pydantic validates from its values, with the fields in
    the model's order and every field set (as SeatView.trusted would make it)."""
    for seed, options in enumerate([GameOptions(), GameOptions(muggins=True, match_to=3)]):
        match = Match(seed=seed, options=options)
        rng = random.Random(seed)
        while True:
            for seat in (0, 1, None):
                view = match.view(seat)
                assert type(view) is SeatView
                assert list(view.__dict__) == list(SeatView.model_fields)
                assert view.model_fields_set == set(SeatView.model_fields)
                assert view == SeatView.model_validate(view.__dict__, strict=False)
                assert view == SeatView.trusted(**view.__dict__)
            assert match.views((0, 1, None, 1)) == [match.view(s) for s in (0, 1, None, 1)]
            if match.over:
                break
            seat = rng.choice(match.waiting_for())
            match.apply(seat, rng.choice(match.legal_actions(seat)))


def test_views_share_one_fields_set_that_a_copy_does_not_touch() -> None:
    """Views share one fields set (they are frozen: nothing adds to it); a copy with changes,
    the one way to a changed view, gets a set of its own, and the shared one stays whole."""
    match = Match(seed=3)
    first, second = match.views((0, 1))
    assert first.model_fields_set is second.model_fields_set
    with pytest.raises(ValidationError):
        first.seat = 1  # type: ignore[misc]
    copied = first.model_copy(update={"seat": None})
    assert copied.model_fields_set is not first.model_fields_set
    copied.model_fields_set.discard("seat")
    assert first.model_fields_set == second.model_fields_set == set(SeatView.model_fields)


def test_events_are_what_validation_would_build() -> None:
    """Events are built without validation too: each equals the event pydantic validates from
    its JSON, in automatic and muggins counting, with resignations."""
    for seed, options in enumerate([GameOptions(), GameOptions(muggins=True, match_to=3)]):
        match = Match(seed=seed, options=options)
        rng = random.Random(seed)
        steps = 0
        while not match.over:
            seat = rng.choice(match.waiting_for())
            steps += 1
            action = Resign() if steps % 97 == 0 else rng.choice(match.legal_actions(seat))
            match.apply(seat, action)
        assert len(match.events) > 100
        for event in match.events:
            assert EVENT.validate_json(event.model_dump_json(), strict=True) == event


# --- replay ----------------------------------------------------------------------------------


def random_actions(match: Match, steps: int, rng: random.Random) -> None:
    for _ in range(steps):
        if match.over:
            return
        seat = rng.choice(match.waiting_for())
        match.apply(seat, rng.choice(match.legal_actions(seat)))


def test_replay_rebuilds_the_match() -> None:
    """Options, seed and the action log rebuild the same events and the same views."""
    options = GameOptions(muggins=True, match_to=2)
    match = Match(seed=b"replay me", options=options)
    random_actions(match, 300, random.Random(1))
    replayed = Match.replay(options, b"replay me", match.log)
    assert replayed.events == match.events
    for seat in (0, 1, None):
        assert replayed.view(seat) == match.view(seat)


def test_events_are_the_history_of_every_step_once_in_order() -> None:
    """match.events is the start's events then each apply's, across games: nothing twice."""
    options = GameOptions(target=61, match_to=3)
    match = Match(seed=b"history", options=options)
    told = list(match.events)
    rng = random.Random(4)
    while not match.over:
        seat = rng.choice(match.waiting_for())
        told += match.apply(seat, rng.choice(match.legal_actions(seat)))
    assert len(match.games) >= 2, "the test needs a match of several games"
    assert match.events == told
    deals = [(e.game_number, e.deal_number) for e in told if isinstance(e, DealStarted)]
    assert len(deals) == len(set(deals))


def test_a_match_may_keep_only_the_latest_events() -> None:
    """keep_events=False (a server's choice): the same match, keeping only the latest events."""
    options = GameOptions(target=61, match_to=2, muggins=True)
    full = Match(seed=b"lean", options=options)
    lean = Match(seed=b"lean", options=options, keep_events=False)
    assert lean.events == full.events  # the start
    rng = random.Random(5)
    while not full.over:
        seat = rng.choice(full.waiting_for())
        action = rng.choice(full.legal_actions(seat))
        step = full.apply(seat, action)
        assert lean.apply(seat, action) == step
        assert lean.events == step
        assert lean.view(seat) == full.view(seat)
    assert len(lean.events) < len(full.events)
    rebuilt = Match.replay(options, b"lean", full.log, keep_events=False)
    assert rebuilt.events == lean.events and rebuilt.view(None) == full.view(None)
