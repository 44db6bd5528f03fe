"""The exact score distribution: the published table, the crib figures and brute-force checks."""

from __future__ import annotations

import json
import random
from collections import Counter
from itertools import combinations
from math import comb, prod
from pathlib import Path

import pytest

from muggins.shared.cards import DECK, JACK
from muggins.shared.distribution import (
    distribution,
    patterns,
    published_crib_figures,
    published_hand_table,
    rank_points,
    score_total,
    suit_ways,
)
from muggins.shared.scoring import score_hand

DATA = Path(__file__).parents[2] / "shared" / "data" / "hand_distribution.json"


def test_published_table_is_shipped_with_its_source() -> None:
    """The copy of the published table names its source and adds up to every hand."""
    data = json.loads(DATA.read_text())
    assert "Lumetta" in data["source"]
    assert sum(data["counts"].values()) == comb(52, 4) * 48 == 12_994_800
    assert published_hand_table() == {int(k): v for k, v in data["counts"].items()}


def test_hand_table_matches_the_published_table_exactly() -> None:
    """Every score's count over all 12,994,800 hands and starters is the published one."""
    table = distribution()
    assert table.hands == 12_994_800
    assert table.counts == published_hand_table()
    assert round(table.mean, 4) == 4.7692
    assert table.impossible == [19, 25, 26, 27]


def test_crib_table_matches_the_published_figures() -> None:
    """Under crib rules 1,022,208 combinations score 0 and the mean is 4.7348."""
    crib = distribution(crib=True)
    zero, mean = published_crib_figures()
    assert crib.hands == 12_994_800
    assert (crib.counts[0], round(crib.mean, 4)) == (zero, mean) == (1_022_208, 4.7348)


def test_crib_table_differs_from_hand_table_only_by_four_card_flushes() -> None:
    """The crib loses 4 points for each four-card flush: 4 suits x 39 starters per rank set."""
    hand, crib = distribution(), distribution(crib=True)
    flush4_combinations = comb(13, 4) * 4 * 39
    assert hand.total_points - crib.total_points == 4 * flush4_combinations


def test_every_pattern_counts_its_card_combinations() -> None:
    """Suit classes of each rank pattern add up to its number of real hand-and-starter cards."""
    total = 0
    for hand, starter in patterns():
        ways = sum(suit_ways(hand, starter).values())
        expected = (4 - hand.count(starter)) * prod(comb(4, hand.count(r)) for r in set(hand))
        assert ways == expected
        assert all(n >= 0 for n in suit_ways(hand, starter).values())
        total += ways
    assert total == 12_994_800


def test_table_matches_brute_force_on_a_reduced_deck() -> None:
    """On a 16-card deck (4, 5, 6, J) the table equals scoring every combination with score_hand."""
    ranks = (4, 5, 6, JACK)
    deck = [card for card in DECK if card.rank in ranks]
    hand_counts: Counter[int] = Counter()
    crib_counts: Counter[int] = Counter()
    for held in combinations(deck, 4):
        for starter in deck:
            if starter in held:
                continue
            score = score_hand(held, starter)
            hand_counts[score.total] += 1
            flush4 = any(p.kind == "flush" and p.points == 4 for p in score.parts)
            crib_total = score_hand(held, starter, crib=True).total if flush4 else score.total
            crib_counts[crib_total] += 1
    assert sum(hand_counts.values()) == comb(16, 4) * 12
    assert distribution(ranks=ranks).counts == dict(sorted(hand_counts.items()))
    assert distribution(ranks=ranks, crib=True).counts == dict(sorted(crib_counts.items()))


def test_score_total_agrees_with_score_hand_on_random_hands() -> None:
    """The fast table-driven total equals score_hand's total for hands and cribs."""
    rng = random.Random(2)
    for _ in range(3000):
        *held, starter = rng.sample(DECK, 5)
        crib = rng.random() < 0.5
        assert score_total(held, starter, crib=crib) == score_hand(held, starter, crib=crib).total


def test_rank_points_examples() -> None:
    """Fifteens, pairs and runs by rank alone: 5-5-5-5-J is 28, A-2-3-4-5 is 7, 2-4-6-8-10 is 0."""
    assert rank_points((5, 5, 5, 5, 11)) == 28
    assert rank_points((1, 2, 3, 4, 5)) == 7
    assert rank_points((2, 4, 6, 8, 10)) == 0


def test_suit_ways_rejects_impossible_patterns() -> None:
    """A fifth card of a rank, or a hand that is not four cards, is not a pattern."""
    with pytest.raises(ValueError):
        suit_ways((5, 5, 5, 5), 5)
    with pytest.raises(ValueError):
        suit_ways((5, 5, 5), 6)
