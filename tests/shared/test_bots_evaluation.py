"""The bots' fast arithmetic agrees with the rules engine, and the crib table is sound."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from muggins.shared.bots.evaluation import (
    crib_table,
    discard_values,
    hand_distribution,
    hand_ev,
    hand_points,
    play_points,
)
from muggins.shared.cards import DECK, parse_cards
from muggins.shared.scoring import score_hand, score_play

FIVE = st.lists(st.sampled_from(DECK), min_size=5, max_size=5, unique=True)


@settings(max_examples=150, deadline=None)
@given(cards=FIVE, crib=st.booleans())
def test_hand_points_match_the_engine(cards: list, crib: bool) -> None:
    """The table-driven show total equals score_hand's, crib flush rule included."""
    assert (
        hand_points(cards[:4], cards[4], crib=crib)
        == score_hand(cards[:4], cards[4], crib=crib).total
    )


@settings(max_examples=150, deadline=None)
@given(pile=st.lists(st.sampled_from(DECK), min_size=1, max_size=8, unique=True))
def test_play_points_match_the_engine(pile: list) -> None:
    """Pegging points for the last card equal score_play's (fifteen, 31, pairs, runs)."""
    while sum(c.value for c in pile) > 31:
        pile = pile[1:]
    if pile:
        before = pile[:-1]
        points = play_points([c.rank for c in before], sum(c.value for c in before), pile[-1].rank)
        assert points == score_play(pile).total


def test_hand_ev_is_the_average_over_the_46_starters() -> None:
    """hand_ev equals the brute-force mean of score_hand over every unseen starter."""
    rng = random.Random(4)
    for _ in range(40):
        six = rng.sample(DECK, 6)
        kept = six[:4]
        starters = [c for c in DECK if c not in six]
        brute = sum(score_hand(kept, s).total for s in starters) / len(starters)
        assert abs(hand_ev(kept, six) - brute) < 1e-9


def test_hand_distribution_sums_to_one_and_matches_the_mean() -> None:
    """The chances of each hand score add up to one and average to hand_ev."""
    six = parse_cards("5H 5S 5C JD 2C 9D")
    kept = six[:4]
    chances = hand_distribution(kept, six)
    assert abs(sum(chances.values()) - 1) < 1e-9
    assert abs(sum(p * c for p, c in chances.items()) - hand_ev(kept, six)) < 1e-9
    assert max(chances) == 29  # the fourth five with the jack of nobs


def test_crib_table_covers_every_pair_and_five_five_is_best() -> None:
    """Every rank pair has a value in both roles; a pair of fives is the richest throw."""
    table = crib_table()
    assert len(table.dealer) == len(table.pone) == 91
    assert max(table.dealer, key=table.dealer.__getitem__) == (5, 5)
    assert max(table.pone, key=table.pone.__getitem__) == (5, 5)
    assert all(1.0 < v < 10.0 for v in (*table.dealer.values(), *table.pone.values()))


def test_discards_are_ranked_by_net_with_the_crib_sign_by_role() -> None:
    """All 15 discards are ranked best first; the crib adds for the dealer and costs the pone."""
    six = parse_cards("5H 5S 5C JD 2C 9D")
    for dealer in (True, False):
        values = discard_values(six, dealer=dealer, table=crib_table())
        assert len(values) == 15
        nets = [v.net for v in values]
        assert nets == sorted(nets, reverse=True)
        sign = 1 if dealer else -1
        assert all(abs(v.net - (v.hand + sign * v.crib)) < 1e-9 for v in values)
