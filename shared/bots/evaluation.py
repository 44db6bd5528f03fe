"""Fast arithmetic for computer players: hand values over the 46 starters, crib values, pegging.

The rules engine scores hands part by part for people to read; a bot needs only totals, millions
of times. Fifteens, pairs and runs depend on ranks alone, so the rank part of every five-card hand
is precomputed once (about 6,000 rank patterns) and flushes and his nobs are added by suit.

>>> from muggins.shared.cards import parse_cards
>>> rank_points((5, 5, 5, 11, 5))
28
>>> round(hand_ev(parse_cards("5H 5S 5C JD"), parse_cards("5H 5S 5C JD 2C 9D")), 2)
16.63
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import combinations, combinations_with_replacement
from typing import Final

from muggins.shared.cards import DECK, JACK, SUITS, Card

RANKS: Final = range(1, 14)


def pip(rank: int) -> int:
    """The count value of a rank: faces count ten."""
    return rank if rank < 10 else 10


def _rank_points(ranks: Sequence[int]) -> int:
    points = 0
    values = [pip(r) for r in ranks]
    for size in range(2, len(ranks) + 1):
        for combo in combinations(values, size):
            if sum(combo) == 15:
                points += 2
    for a, b in combinations(ranks, 2):
        if a == b:
            points += 2
    counts = {r: ranks.count(r) for r in set(ranks)}
    rank = 1
    while rank <= 13:
        if rank not in counts:
            rank += 1
            continue
        end = rank
        while end + 1 in counts:
            end += 1
        if end - rank + 1 >= 3:
            multiplicity = 1
            for r in range(rank, end + 1):
                multiplicity *= counts[r]
            points += (end - rank + 1) * multiplicity
        rank = end + 1
    return points


def _build_rank_table() -> dict[tuple[int, ...], int]:
    table: dict[tuple[int, ...], int] = {}
    for ranks in combinations_with_replacement(RANKS, 5):
        if all(ranks.count(r) <= 4 for r in set(ranks)):
            table[ranks] = _rank_points(ranks)
    return table


RANK_TABLE: Final = _build_rank_table()
"""Fifteens, pairs and runs of every possible five ranks, keyed by the sorted ranks."""


def rank_points(ranks: Iterable[int]) -> int:
    """Fifteens, pairs and runs of five ranks (any order)."""
    return RANK_TABLE[tuple(sorted(ranks))]


def hand_points(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> int:
    """The show total of four cards and the starter, as :func:`shared.scoring.score_hand`."""
    points = rank_points([c.rank for c in hand] + [starter.rank])
    suit = hand[0].suit
    if all(c.suit == suit for c in hand):
        if starter.suit == suit:
            points += 5
        elif not crib:
            points += 4
    for card in hand:
        if card.rank == JACK and card.suit == starter.suit:
            points += 1
    return points


def hand_ev(kept: Sequence[Card], seen: Sequence[Card]) -> float:
    """Expected show value of ``kept`` over every starter not among ``seen`` (usually 46)."""
    seen_suits = dict.fromkeys(SUITS, 0)
    for c in seen:
        seen_suits[c.suit] += 1
    starters = 52 - len(seen)
    kept_ranks = tuple(sorted(c.rank for c in kept))
    others = tuple(sorted(c.rank for c in seen if c not in kept))
    total = _rank_total(kept_ranks, others)
    suit = kept[0].suit
    if all(c.suit == suit for c in kept):
        total += 4 * starters + (13 - seen_suits[suit])
    for card in kept:
        if card.rank == JACK:
            total += 13 - seen_suits[card.suit]
    return total / starters


@cache
def _rank_total(kept: tuple[int, ...], others: tuple[int, ...]) -> int:
    """Fifteens, pairs and runs of ``kept`` summed over the starters, by rank."""
    left = [4] * 14
    for r in (*kept, *others):
        left[r] -= 1
    total = 0
    for r in RANKS:
        if left[r]:
            total += left[r] * RANK_TABLE[tuple(sorted((*kept, r)))]
    return total


def hand_distribution(kept: Sequence[Card], seen: Sequence[Card]) -> dict[int, float]:
    """The probability of each show total of ``kept`` over the starters not among ``seen``."""
    starters = [c for c in DECK if c not in seen]
    counts: dict[int, int] = {}
    for starter in starters:
        points = hand_points(kept, starter)
        counts[points] = counts.get(points, 0) + 1
    return {p: n / len(starters) for p, n in sorted(counts.items())}


# --- the crib ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class CribTable:
    """Expected crib points for the two cards one player lays away, by their ranks.

    ``dealer[(a, b)]`` is the dealer's own crib value after laying away ranks a <= b (the pone
    adds two cards to it); ``pone[(a, b)]`` is the value the pone hands the dealer.
    """

    dealer: dict[tuple[int, int], float]
    pone: dict[tuple[int, int], float]
    source: str

    def value(self, cards: Sequence[Card], *, dealer: bool) -> float:
        a, b = sorted(c.rank for c in cards)
        return (self.dealer if dealer else self.pone)[(a, b)]


@cache
def crib_table() -> CribTable:
    """The crib table shipped with the package (made by ``tools/crib_table.py``)."""
    text = resources.files("muggins.shared.bots").joinpath("data/crib.json").read_text()
    return crib_table_from_json(json.loads(text))


def crib_table_from_json(data: dict[str, object]) -> CribTable:
    def parse(rows: object) -> dict[tuple[int, int], float]:
        assert isinstance(rows, dict)
        out: dict[tuple[int, int], float] = {}
        for key, value in rows.items():
            a, b = (int(x) for x in key.split("-"))
            out[(a, b)] = float(value)
        return out

    return CribTable(parse(data["dealer"]), parse(data["pone"]), str(data.get("source", "")))


# --- discards ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class DiscardValue:
    """One way to lay away two of six cards, valued."""

    discard: tuple[Card, Card]
    kept: tuple[Card, ...]
    hand: float
    crib: float
    """Expected crib points: yours as dealer, the opponent's as pone (positive either way)."""
    dealer: bool

    @property
    def net(self) -> float:
        return self.hand + self.crib if self.dealer else self.hand - self.crib


def discard_values(
    six: Sequence[Card], *, dealer: bool, table: CribTable | None = None
) -> list[DiscardValue]:
    """Every discard from ``six`` cards, best net first (hand only when ``table`` is None)."""
    values: list[DiscardValue] = []
    cards = sorted(six)
    rank_totals = _six_rank_totals(tuple(c.rank for c in cards))
    suits_seen = dict.fromkeys(SUITS, 0)
    for c in cards:
        suits_seen[c.suit] += 1
    for (i, j), rank_total in zip(_PAIRS, rank_totals, strict=True):
        pair = (cards[i], cards[j])
        kept = tuple(c for k, c in enumerate(cards) if k != i and k != j)
        total = rank_total
        suit = kept[0].suit
        if all(c.suit == suit for c in kept):
            total += 4 * 46 + 13 - suits_seen[suit]
        for card in kept:
            if card.rank == JACK:
                total += 13 - suits_seen[card.suit]
        crib = table.value(pair, dealer=dealer) if table is not None else 0.0
        values.append(DiscardValue(pair, kept, total / 46, crib, dealer))
    values.sort(key=lambda v: -v.net)
    return values


_PAIRS: Final = tuple(combinations(range(6), 2))


@cache
def _six_rank_totals(ranks: tuple[int, ...]) -> tuple[int, ...]:
    """For six sorted ranks, the rank part of each kept four summed over the 46 starters."""
    totals = []
    for i, j in _PAIRS:
        kept = tuple(r for k, r in enumerate(ranks) if k != i and k != j)
        others = (ranks[i], ranks[j])
        totals.append(_rank_total(kept, others))
    return tuple(totals)


# --- the play ----------------------------------------------------------------------------------


def play_points(pile: Sequence[int], count: int, rank: int) -> int:
    """Points for playing ``rank`` onto ``pile`` (ranks since the count restarted) at ``count``."""
    key = (tuple(pile), count, rank)
    points = _PLAY_CACHE.get(key)
    if points is None:
        points = _PLAY_CACHE[key] = _play_points(key[0], count, rank)
    return points


_PLAY_CACHE: dict[tuple[tuple[int, ...], int, int], int] = {}


def _play_points(pile: tuple[int, ...], count: int, rank: int) -> int:
    total = count + pip(rank)
    points = 2 if total in (15, 31) else 0
    same = 0
    for r in reversed(pile):
        if r != rank or same == 3:
            break
        same += 1
    points += (0, 2, 6, 12)[same]
    n = len(pile) + 1
    if n >= 3:
        tail = [*pile, rank]
        for length in range(n, 2, -1):
            window = tail[-length:]
            if len(set(window)) == length and max(window) - min(window) == length - 1:
                points += length
                break
    return points
