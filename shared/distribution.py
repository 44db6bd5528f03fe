"""Exact distribution of show scores over every hand and starter, by rank multiset.

There are C(52,4) x 48 = 12,994,800 ways to hold four cards and cut a starter. Scoring each
one takes minutes in pure Python, so this module scores each *rank pattern* once instead:
fifteens, pairs and runs depend only on the five ranks, and the flush and his nobs depend on
suits in a way that can be counted. A pattern is the multiset of the hand's four ranks plus the
starter's rank (23,647 of them); for each, :func:`suit_ways` says how many suit assignments give
no bonus, his nobs, a four-card flush, a five-card flush, or a five-card flush with nobs.

>>> table = distribution()
>>> table.hands, table.counts[29], round(table.mean, 4)
(12994800, 4, 4.7692)
>>> crib = distribution(crib=True)
>>> crib.counts[0], round(crib.mean, 4)
(1022208, 4.7348)
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from itertools import combinations, combinations_with_replacement
from math import comb
from pathlib import Path
from typing import Final, Literal

from muggins.shared.cards import JACK, Card

RANKS: Final = range(1, 14)
PUBLISHED: Final = Path(__file__).with_name("data") / "hand_distribution.json"
"""The published hand-rule table and crib figures, shipped as package data."""
SUIT_COUNT: Final = 4

Bonus = Literal["none", "nobs", "flush4", "flush5", "flush5_nobs"]
BONUS_POINTS: Final[dict[Bonus, int]] = {
    "none": 0,
    "nobs": 1,
    "flush4": 4,
    "flush5": 5,
    "flush5_nobs": 6,
}
"""What each suit class adds to a hand; a crib scores ``flush4`` as 0."""


@dataclass(frozen=True, slots=True)
class Distribution:
    """How many hand-and-starter combinations make each score."""

    crib: bool
    counts: dict[int, int]
    """Score to number of combinations, for every score that occurs, in score order."""

    @property
    def hands(self) -> int:
        return sum(self.counts.values())

    @property
    def total_points(self) -> int:
        return sum(score * n for score, n in self.counts.items())

    @property
    def mean(self) -> float:
        return self.total_points / self.hands

    @property
    def impossible(self) -> list[int]:
        """Scores from 0 to the maximum that no combination makes."""
        return [s for s in range(max(self.counts) + 1) if s not in self.counts]


def _value(rank: int) -> int:
    return min(rank, 10)


@cache
def rank_points(ranks: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of five cards given only their ranks (sorted, ace = 1).

    >>> rank_points((5, 5, 5, 5, 11))
    28
    """
    values = [_value(r) for r in ranks]
    points = 0
    for size in range(2, 6):
        for combo in combinations(values, size):
            if sum(combo) == 15:
                points += 2
    counts = [0] * 15
    for r in ranks:
        counts[r] += 1
    for n in counts:
        points += n * (n - 1)  # each of the C(n,2) pairs scores 2
    rank = 1
    while rank <= 13:
        if not counts[rank]:
            rank += 1
            continue
        end, ways = rank, counts[rank]
        while counts[end + 1]:
            end += 1
            ways *= counts[end]
        if end - rank + 1 >= 3:
            points += (end - rank + 1) * ways
        rank = end + 1
    return points


def suit_ways(hand_ranks: Sequence[int], starter_rank: int) -> dict[Bonus, int]:
    """Count the suit assignments of a rank pattern by what the suits add to the score.

    ``hand_ranks`` is the multiset of the four hand ranks, ``starter_rank`` the starter's. The
    counts add up to the number of distinct (hand, starter) card combinations with these ranks.

    - A four-card flush needs four different ranks: 4 suits for the hand. The starter then joins
      the flush in 1 of its suits unless its rank is in the hand (that card holds the suit).
    - His nobs needs a jack in hand whose suit is the starter's. Summed over the suits of the
      ``j`` hand jacks and the ``k`` hand cards of the starter's rank, the starter can take
      ``4 * C(3, j-1) * C(3, k)`` (suit, jack) matches; other ranks multiply freely.
    - In a flush, a hand jack shares the flush suit, so nobs comes only with a five-card flush.
    """
    multiplicity = [0] * 14
    for r in hand_ranks:
        multiplicity[r] += 1
    k = multiplicity[starter_rank]
    if len(hand_ranks) != 4 or k >= SUIT_COUNT or max(multiplicity) > SUIT_COUNT:
        raise ValueError("not a possible hand and starter")
    hand_ways = 1
    for m in multiplicity:
        hand_ways *= comb(SUIT_COUNT, m)
    total = hand_ways * (SUIT_COUNT - k)

    jacks = multiplicity[JACK]
    nobs = 0
    if jacks and starter_rank != JACK:
        others = hand_ways // (comb(SUIT_COUNT, jacks) * comb(SUIT_COUNT, k))
        nobs = others * SUIT_COUNT * comb(SUIT_COUNT - 1, jacks - 1) * comb(SUIT_COUNT - 1, k)

    flush4 = flush5 = flush5_nobs = 0
    if max(multiplicity) == 1:
        flush4 = SUIT_COUNT * (SUIT_COUNT - 1)
        if not k:
            if jacks:
                flush5_nobs = SUIT_COUNT
            else:
                flush5 = SUIT_COUNT
    nobs -= flush5_nobs
    none = total - nobs - flush4 - flush5 - flush5_nobs
    return {
        "none": none,
        "nobs": nobs,
        "flush4": flush4,
        "flush5": flush5,
        "flush5_nobs": flush5_nobs,
    }


def patterns(ranks: Sequence[int] = RANKS) -> Iterator[tuple[tuple[int, ...], int]]:
    """Every (hand rank multiset, starter rank) that real cards of these ranks can make."""
    for hand in combinations_with_replacement(ranks, 4):
        for starter in ranks:
            if hand.count(starter) < SUIT_COUNT:
                yield hand, starter


def distribution(*, crib: bool = False, ranks: Sequence[int] = RANKS) -> Distribution:
    """The exact score distribution over all 12,994,800 hands and starters.

    With ``crib=True`` the four-card flush does not count (a crib needs the starter's suit too).
    ``ranks`` limits the deck to those ranks (all four suits of each), for cross-checks.
    """
    counts = [0] * 30
    bonus_points = dict(BONUS_POINTS)
    if crib:
        bonus_points["flush4"] = 0
    for hand, starter in patterns(ranks):
        base = rank_points(tuple(sorted((*hand, starter))))
        for bonus, ways in suit_ways(hand, starter).items():
            if ways:
                counts[base + bonus_points[bonus]] += ways
    return Distribution(crib, {score: n for score, n in enumerate(counts) if n})


def published_hand_table() -> dict[int, int]:
    """The published hand-rule table (Steven S. Lumetta's enumeration), shipped as package data."""
    counts: dict[str, int] = json.loads(PUBLISHED.read_text("utf-8"))["counts"]
    return {int(score): n for score, n in counts.items()}


def published_crib_figures() -> tuple[int, float]:
    """The published crib-rule figures: combinations scoring 0, and the mean (4 places)."""
    crib = json.loads(PUBLISHED.read_text("utf-8"))["crib"]
    return int(crib["zero"]), float(crib["mean"])


def score_total(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """The show total of a hand, as :func:`shared.scoring.score_hand` gives it, but faster.

    Uses the cached rank score; for bots that score many candidate hands.
    """
    if len(hand) != 4:
        raise ValueError(f"a hand for the show has 4 cards, not {len(hand)}")
    points = rank_points(tuple(sorted([*(c.rank for c in hand), starter.rank])))
    suit = hand[0].suit
    if all(c.suit == suit for c in hand):
        if starter.suit == suit:
            points += 5
        elif not crib:
            points += 4
    if any(c.rank == JACK and c.suit == starter.suit for c in hand):
        points += 1
    return points
