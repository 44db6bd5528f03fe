"""The expert's play mixed where values are close (``shared.bots.mixing``): its odds, its
draws from them, and the best-response tool answering its odds."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from muggins.shared.actions import Play
from muggins.shared.bots import make_strategy
from muggins.shared.bots.expert import decision_rng, play_values
from muggins.shared.bots.mixing import MixedExpert, Mixes, play_odds, rank_odds
from muggins.shared.cards import parse_card, parse_cards
from muggins.shared.match import Match
from muggins.shared.view import SeatView

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def play_view(hand: str, *, pile: str) -> SeatView:
    """Seat 0, the dealer, to answer the lead ``pile`` from ``hand``."""
    base = Match(seed=1).view(0)
    cards = parse_cards(hand)
    led = parse_cards(pile)
    played = tuple({"seat": 1, "card": c} for c in led)
    count = sum(c.value for c in led)
    update = {
        "phase": "play",
        "dealer": 0,
        "turn": 0,
        "waiting_for": (0,),
        "hand": cards,
        "discards": parse_cards("QH QC"),
        "hand_counts": (len(cards), 4 - len(led)),
        "starter": parse_card("KD"),
        "count": count,
        "pile": played,
        "played": played,
        "legal": tuple(Play(card=c) for c in cards if count + c.value <= 31),
    }
    return SeatView.model_validate({**base.model_dump(), **update})


def test_ranks_within_the_margin_share_the_odds_by_their_gap() -> None:
    odds = rank_odds({3: 2.0, 7: 1.9, 9: 1.95, 10: 0.0}, 0.2)
    assert odds == pytest.approx({3: 1 / 2.25, 7: 0.5 / 2.25, 9: 0.75 / 2.25})
    assert rank_odds({3: 2.0, 7: 1.9}, 0.0) == {3: 1.0}
    assert rank_odds({3: 2.0, 7: 2.0}, 0.0) == {3: 0.5, 7: 0.5}


def test_the_mixed_expert_plays_from_its_odds_as_its_seed_says() -> None:
    """Odds over the cards it may play, the best of the expert's values always among them; the
    same seed and view draw the same card, and over seeds each card with some chance comes up."""
    view = play_view("2S 3D 7C 8H", pile="KS")  # values 0.88, 0.99, 0.75, 1.45
    plays = [a for a in view.legal if isinstance(a, Play)]
    values = play_values(view, decision_rng(0, view))
    odds = play_odds(view, plays, 0, 1.0)
    assert sum(odds.values()) == pytest.approx(1.0)
    best = max(values, key=lambda r: values[r])
    assert best in {c.rank for c in odds}
    assert {c.rank for c in odds} == {r for r, v in values.items() if v > values[best] - 1.0}
    mixed = MixedExpert(seed=4, margin=1.0)
    assert isinstance(mixed, Mixes) and not isinstance(make_strategy("expert"), Mixes)
    first = mixed.choose(view)
    assert all(MixedExpert(seed=4, margin=1.0).choose(view) == first for _ in range(3))
    drawn = {MixedExpert(seed=s, margin=1.0).choose(view) for s in range(40)}
    assert {a.card for a in drawn if isinstance(a, Play)} <= set(odds)
    assert len(odds) == 4 and len(drawn) > 1


def test_the_tool_answers_a_mixed_levels_odds() -> None:
    """On a real deal the best response to the mixed expert does at least as well as playing as
    it does, and its gain splits over the adversary's cards."""
    spec = importlib.util.spec_from_file_location("best_response", TOOLS / "best_response.py")
    assert spec is not None and spec.loader is not None
    br = importlib.util.module_from_spec(spec)
    sys.modules["best_response"] = br
    spec.loader.exec_module(br)
    result = br.solve_ranks("expert-mixed:0.5", seed=3, index=1, samples=40)
    assert result.best >= result.own - 1e-9
    assert sum(result.by_card) == pytest.approx(result.best - result.own)
