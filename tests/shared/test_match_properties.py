"""Properties of whole random matches: random seeds, options and legal actions, checked each step.

Each example plays one complete match (one to three games) with uniformly random legal actions
and the occasional resignation. Set MUGGINS_PROPERTY_SCALE=10 to play ten times as many.
"""

from __future__ import annotations

import os
import random
import re
from collections import Counter
from dataclasses import dataclass, field

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from muggins.shared.actions import (
    EVENT,
    Accept,
    Action,
    CardPlayed,
    Challenge,
    Count,
    CountAnswered,
    DealRevealed,
    DealStarted,
    Event,
    GameOptions,
    GameOver,
    Muggins,
    Resign,
    Scored,
)
from muggins.shared.cards import DECK, Card
from muggins.shared.counting import settle
from muggins.shared.fairness import deck_text, verify_deal
from muggins.shared.match import Match
from muggins.shared.scoring import score_hand
from muggins.shared.view import SeatView

OPTIONS = st.builds(
    GameOptions,
    target=st.sampled_from([121, 61]),
    muggins=st.booleans(),
    scheme=st.sampled_from(["standard", "acc"]),
    match_to=st.integers(1, 3),
)
SEEDS = st.integers(0, 2**64) | st.binary(min_size=1, max_size=16)
MOVES = st.integers(0, 2**32)
CARD_TEXT = re.compile(r'"((?:10|[A2-9JQK])[CDHS])"')
RESIGN_RATE = 1 / 800
SCALE = int(os.environ.get("MUGGINS_PROPERTY_SCALE", "1"))
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_step(match: Match, rng: random.Random) -> tuple[int, Action, list[Event]]:
    """Apply one random legal action (or, rarely, a resignation) for a seat being waited for."""
    seat = rng.choice(match.waiting_for())
    legal = match.legal_actions(seat)
    assert legal, "a seat being waited for always has a legal action"
    action: Action = Resign() if rng.random() < RESIGN_RATE else rng.choice(legal)
    return seat, action, match.apply(seat, action)


@dataclass
class DealRecord:
    commitment: str
    dealer: int
    hands: dict[int, tuple[Card, ...]]
    played: Counter[int] = field(default_factory=Counter)


def start_deal(match: Match, started: DealStarted) -> DealRecord:
    """Every card is dealt once: two six-card hands, twelve different cards."""
    hands = {seat: match.view(seat).hand for seat in (0, 1)}
    assert len(hands[0]) == len(hands[1]) == 6
    assert len(set(hands[0]) | set(hands[1])) == 12
    return DealRecord(started.commitment, started.dealer, hands)


def end_deal(deal: DealRecord, revealed: DealRevealed, *, cut_short: bool) -> None:
    """The reveal checks out; every card played was dealt to its player; 4 each if completed."""
    assert sorted(revealed.deck) == sorted(DECK)
    assert revealed.commitment == deal.commitment
    for seat in (0, 1):
        hand = deal.hands[seat]
        assert verify_deal(
            deal.commitment, revealed.deck, revealed.salt, hand=hand, dealer=deal.dealer, seat=seat
        )
        assert deal.played[seat] <= 4
        if not cut_short:
            assert deal.played[seat] == 4


@settings(SETTINGS, max_examples=100 * SCALE)
@given(seed=SEEDS, options=OPTIONS, moves_seed=MOVES)
def test_random_matches_keep_the_rules(
    seed: int | bytes, options: GameOptions, moves_seed: int
) -> None:
    """Cards dealt once, count <= 31, 4 cards each per deal, scores grow, one winner per game."""
    match, moves = Match(seed=seed, options=options), random.Random(moves_seed)
    [started] = [e for e in match.events if isinstance(e, DealStarted)]
    deal = start_deal(match, started)
    deal_game = 1
    running = [0, 0]
    while not match.over:
        _, action, events = random_step(match, moves)
        game_over = any(isinstance(e, GameOver) for e in events)
        for event in events:
            if isinstance(event, CardPlayed):
                assert event.card in deal.hands[event.seat]
                assert 0 < event.count <= 31
                deal.played[event.seat] += 1
            elif isinstance(event, DealRevealed):
                end_deal(deal, event, cut_short=game_over)
            elif isinstance(event, DealStarted):
                if event.game_number != deal_game:
                    running, deal_game = [0, 0], event.game_number
                deal = start_deal(match, event)
            elif isinstance(event, GameOver):
                check_outcome(event, options, resigned=isinstance(action, Resign))
                # The winner's peg stops in the game hole; the events keep the raw points.
                assert list(event.outcome.scores) == [min(r, options.target) for r in running]
            if isinstance(event, CardPlayed | Scored):
                assert event.points >= 0
                assert event.score == running[event.seat] + event.points
                running[event.seat] = event.score
        view = match.view(None)
        assert 0 <= view.count <= 31
        if not match.over:
            assert list(view.scores) == running
    winners = [seat for seat in (0, 1) if match.match_points[seat] >= options.match_to]
    assert winners == [match.winner]
    for seat in (0, 1):
        assert match.match_points[seat] == sum(
            o.game_points for o in match.games if o.winner == seat
        )


def check_outcome(over: GameOver, options: GameOptions, *, resigned: bool) -> None:
    """Exactly one winner: the only seat at the target (unless the other resigned)."""
    outcome = over.outcome
    assert outcome.winner in (0, 1)
    winner, loser = outcome.scores[outcome.winner], outcome.scores[outcome.loser]
    assert loser < options.target
    if resigned:
        assert outcome.reason == "resign"
    else:
        assert outcome.reason == "score"
        assert winner >= options.target
    assert outcome.skunk == (loser < options.skunk_line and not outcome.double_skunk)


def hidden_cards(match: Match, viewer: int | None) -> set[Card]:
    """Cards the viewer must not see now: others' unplayed cards, the crib, the undealt deck."""
    game = match.game
    hidden = set(game.deck[12:]) - {game.starter}
    crib_shown = any(result.kind == "crib" for result in game.show)
    for seat in (0, 1):
        if seat != viewer:
            hidden |= set(game.hands[seat])
            if not crib_shown:
                hidden |= set(game.discards[seat])
    return hidden


def check_view_leaks(match: Match) -> None:
    """Search each seat's and the spectator's view, as JSON, for anything it must not show."""
    game = match.game
    for viewer in (0, 1, None):
        view = match.view(viewer)
        if viewer is None:
            assert view.hand == view.discards == view.legal == ()
        if game.over:
            continue  # the match is over and its last deal is revealed
        # Finished deals (with their revealed decks) and the cut for deal are public.
        assert view.last_deal is None or view.last_deal.reveal.salt != game.salt
        text = view.model_dump_json(exclude={"last_deal", "cut_for_deal"})
        assert "seed" not in text
        assert game.salt not in text
        assert deck_text(game.deck) not in text
        shown = set(CARD_TEXT.findall(text))
        leaked = shown & {str(card) for card in hidden_cards(match, viewer)}
        assert not leaked, f"{leaked} leak to viewer {viewer}"


@settings(SETTINGS, max_examples=30 * SCALE)
@given(seed=SEEDS, options=OPTIONS, moves_seed=MOVES)
def test_views_and_events_never_show_hidden_cards(
    seed: int | bytes, options: GameOptions, moves_seed: int
) -> None:
    """No view or event at any step shows a hidden hand, the crib before its show, or the deck."""
    match, moves = Match(seed=seed, options=options), random.Random(moves_seed)
    check_view_leaks(match)
    while not match.over:
        _, _, events = random_step(match, moves)
        check_view_leaks(match)
        if not any(isinstance(e, DealRevealed) for e in events):
            check_event_leaks(match, events)


def check_event_leaks(match: Match, events: list[Event]) -> None:
    """Events go to everyone: none may name a card the spectator cannot see."""
    hidden = {str(card) for card in hidden_cards(match, None)}
    for event in events:
        leaked = set(CARD_TEXT.findall(EVENT.dump_json(event).decode())) & hidden
        assert not leaked, f"{leaked} leak in {event.type}"


@settings(SETTINGS, max_examples=40 * SCALE)
@given(seed=SEEDS, options=OPTIONS, moves_seed=MOVES, data=st.data())
def test_replay_gives_the_same_match(
    seed: int | bytes, options: GameOptions, moves_seed: int, data: st.DataObject
) -> None:
    """Replaying (options, seed, actions) reproduces every event and every view, at any point."""
    match, moves = Match(seed=seed, options=options), random.Random(moves_seed)
    while not match.over:
        random_step(match, moves)
    cut = data.draw(st.integers(0, len(match.log)), label="replay up to")
    partial = Match.replay(options, seed, match.log[:cut])
    assert partial.events == match.events[: len(partial.events)]
    full = Match.replay(options, seed, match.log)
    assert full.events == match.events
    for viewer in (0, 1, None):
        assert full.view(viewer) == match.view(viewer)


@settings(SETTINGS, max_examples=15 * SCALE)
@given(seed=SEEDS, options=OPTIONS, moves_seed=MOVES)
def test_unvalidated_views_and_events_equal_validated_ones(
    seed: int | bytes, options: GameOptions, moves_seed: int
) -> None:
    """What the engine builds without validation equals what validating its JSON gives."""
    match, moves = Match(seed=seed, options=options), random.Random(moves_seed)
    while not match.over:
        _, _, events = random_step(match, moves)
        for event in events:
            assert EVENT.validate_json(EVENT.dump_json(event)) == event
        for viewer in (0, 1, None):
            view = match.view(viewer)
            assert SeatView.model_validate_json(view.model_dump_json()) == view


MUGGINS_OPTIONS = st.builds(
    GameOptions,
    target=st.sampled_from([121, 61]),
    muggins=st.just(True),
    match_to=st.integers(1, 2),
)
ANSWER_OF = {Accept: "accept", Muggins: "muggins", Challenge: "challenge"}
COUNTS = tuple(Count(points=n) for n in range(30))
ANSWERS = (Accept(), Muggins(), Challenge())


def check_pending_claim(match: Match) -> None:
    """While a shown hand is unsettled, no view carries its total, breakdown or a hint of it."""
    game = match.game
    if game.over or game.phase != "show":
        return
    for viewer in (0, 1, None):
        view = match.view(viewer)
        pending = view.show[-1]
        assert (pending.total, pending.parts, pending.spoken, pending.answer) == (
            None,
            (),
            "",
            None,
        )
        assert (pending.taken, pending.penalty) == (0, 0)
        if view.legal:
            counting = pending.claimed is None
            assert view.legal == (COUNTS if counting else ANSWERS)


@settings(SETTINGS, max_examples=60 * SCALE)
@given(seed=SEEDS, options=MUGGINS_OPTIONS, moves_seed=MOVES)
def test_muggins_claims_settle_by_the_rule(
    seed: int | bytes, options: GameOptions, moves_seed: int
) -> None:
    """Any claim and answer: the scores move exactly as the rule says, in its order, to the end."""
    match, moves = Match(seed=seed, options=options), random.Random(moves_seed)
    while not match.over:
        check_pending_claim(match)
        game = match.game
        before = list(game.scores)
        pending = game.show[-1] if game.phase == "show" and game.show else None
        seat, action, events = random_step(match, moves)
        if not isinstance(action, Accept | Muggins | Challenge):
            continue
        assert pending is not None and pending.claimed is not None
        owner = pending.seat
        assert owner == 1 - seat
        total = score_hand(pending.cards, pending.starter, crib=pending.kind == "crib").total
        rule = settle(pending.claimed, total, ANSWER_OF[type(action)])  # type: ignore[arg-type]
        pegs = [(owner, rule.credited), (seat, rule.taken), (owner, rule.penalty)]
        expected = list(before)
        for who, points in pegs:  # the game stops at the first peg that reaches the target
            if points and max(expected) < options.target:
                expected[who] += points
        over = [e for e in events if isinstance(e, GameOver)]
        after = list(over[0].outcome.scores) if over else list(match.game.scores)
        if over:  # the winner's peg may stop in the game hole
            expected = [min(score, options.target) for score in expected]
            after = [min(score, options.target) for score in after]
        assert after == expected, (pending.claimed, total, action, before)
        [answer] = [e for e in events if isinstance(e, CountAnswered)]
        assert (answer.claimed, answer.total, answer.answer) == (
            pending.claimed,
            total,
            ANSWER_OF[type(action)],
        )
