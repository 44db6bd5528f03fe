"""Scoring: the show (:func:`score_hand`) and the play (:func:`score_play`).

>>> from muggins.shared.cards import parse_cards, parse_card
>>> score_hand(parse_cards("5H 5S 5C JD"), parse_card("5D")).total
29
>>> score_hand(parse_cards("2H 4H 6H 8H"), parse_card("KS"), crib=True).total
0
>>> score_play(parse_cards("6H 8S 7D")).total
3
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations, product
from operator import attrgetter
from typing import Final, Literal

from muggins.shared.cards import JACK, Card, format_cards

PartKind = Literal[
    "fifteen", "pair", "run", "flush", "nobs", "thirty_one", "go", "last_card", "heels"
]

NUMBER_WORDS: Final = (  # noqa: SIM905
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen twenty twenty-one twenty-two twenty-three "
    "twenty-four twenty-five twenty-six twenty-seven twenty-eight twenty-nine thirty thirty-one"
).split()


def number_word(n: int) -> str:
    """``number_word(9) == "nine"``; numbers past 31 are written as digits."""
    return NUMBER_WORDS[n] if 0 <= n < len(NUMBER_WORDS) else str(n)


@dataclass(frozen=True, slots=True)
class ScorePart:
    """One scoring combination: what it is, what it is worth and the cards that make it."""

    kind: PartKind
    points: int
    cards: tuple[Card, ...] = ()

    def describe(self) -> str:
        if self.kind == "run":
            return f"a run of {number_word(len(self.cards))}"
        if self.kind == "pair":
            return {2: "a pair", 6: "three of a kind", 12: "four of a kind"}[self.points]
        if self.kind == "flush":
            return f"a {number_word(len(self.cards))}-card flush"
        return {
            "fifteen": "fifteen",
            "nobs": "one for his nobs",
            "thirty_one": "thirty-one",
            "go": "one for the go",
            "last_card": "one for last card",
            "heels": "two for his heels",
        }[self.kind]


RUN_MULTIPLES: Final = {1: "a run", 2: "a double run", 3: "a triple run", 4: "a double-double run"}


def run_name(runs: int, length: int) -> str:
    """How players name ``runs`` runs of ``length`` over the same ranks: "a double run of three"."""
    return f"{RUN_MULTIPLES.get(runs, f'{runs} runs')} of {number_word(length)}"


@dataclass(frozen=True, slots=True)
class HandScore:
    """The score of a hand or crib in the show, part by part."""

    hand: tuple[Card, ...]
    starter: Card
    crib: bool
    parts: tuple[ScorePart, ...] = field(default=())

    @property
    def total(self) -> int:
        return sum(map(_points_of, self.parts))

    def points_of(self, kind: PartKind) -> int:
        return sum(part.points for part in self.parts if part.kind == kind)

    def itemised(self) -> list[str]:
        """One line per scoring combination (what, the cards, the points), then the total: the
        breakdown ``muggins score`` prints and the show lays out."""
        lines = [
            f"{part.describe():<22} {format_cards(part.cards, pretty=True):<20} {part.points:>2}"
            for part in self.parts
        ]
        return [*lines, f"{'total':<43}{self.total:>2}"]

    def spoken(self) -> str:
        """The count as a player says it aloud.

        Runs over the same ranks are said together, as players say them: a double run (two runs,
        one rank paired), a triple run (one rank three times) or a double-double run (two ranks
        paired); the pairs are said on their own, before.

        >>> from muggins.shared.cards import parse_cards, parse_card
        >>> score_hand(parse_cards("5H 5S 4C 6D"), parse_card("KC")).spoken()
        'fifteen two, fifteen four, fifteen six, fifteen eight, a pair is ten, \
and a double run of three is sixteen'
        """
        phrases: list[str] = []
        running = 0
        pair_points: dict[int, int] = {}
        runs: dict[frozenset[int], list[ScorePart]] = {}
        for part in self.parts:
            if part.kind == "pair":
                rank = part.cards[0].rank
                pair_points[rank] = pair_points.get(rank, 0) + part.points
            elif part.kind == "run":
                runs.setdefault(frozenset(c.rank for c in part.cards), []).append(part)
        for part in self.parts:
            if part.kind == "run":
                group = runs.pop(frozenset(c.rank for c in part.cards), [])
                if not group:
                    continue
                running += sum(run.points for run in group)
                phrases.append(f"{run_name(len(group), len(part.cards))} is {number_word(running)}")
                continue
            if part.kind == "pair":
                # Pairs of one rank are said together: a pair, three or four of a kind.
                rank = part.cards[0].rank
                if rank not in pair_points:
                    continue
                points = pair_points.pop(rank)
                running += points
                grouped = ScorePart("pair", points, ())
                phrases.append(f"{grouped.describe()} is {number_word(running)}")
                continue
            running += part.points
            if part.kind == "fifteen":
                phrases.append(f"fifteen {number_word(running)}")
            else:
                phrases.append(f"{part.describe()} is {number_word(running)}")
        if not phrases:
            return "nineteen (no points)"
        if len(phrases) == 1:
            return phrases[0]
        return ", ".join(phrases[:-1]) + ", and " + phrases[-1]


_SUBSETS: Final = tuple(
    (sum(1 << i for i in indices), indices)
    for size in range(2, 6)
    for indices in combinations(range(5), size)
)
"""Each set of two to five of the five show cards as (bit mask, indices), in combinations order."""

_SUM_STEPS: Final = tuple(
    (mask, mask & (mask - 1), (mask & -mask).bit_length() - 1) for mask in range(1, 32)
)
"""For each bit mask: the mask without its lowest bit, and that bit's card index."""

_PAIRS: Final = tuple(combinations(range(5), 2))
_rank_and_suit: Final = attrgetter("rank", "suit")
_rank_of: Final = attrgetter("rank")
_points_of: Final = attrgetter("points")
_PIPS: Final = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
"""A card's pip value by its rank (face cards 10), read in C by map()."""


def score_hand(hand: Sequence[Card], starter: Card, *, crib: bool = False) -> HandScore:
    """Score four cards with the starter in the show.

    Fifteens 2 each, pairs 2 each, every distinct maximal run, a flush (4 in hand or 5 with the
    starter; a crib scores only the five-card flush) and his nobs (the jack of the starter's suit).
    """
    if len(hand) != 4:
        raise ValueError(f"a hand for the show has 4 cards, not {len(hand)}")
    cards = (*hand, starter)
    if len(set(map(_rank_and_suit, cards))) != 5:
        raise ValueError("a hand and its starter must be five different cards")
    parts: list[ScorePart] = []
    ranks = list(map(_rank_of, cards))
    values = list(map(_PIPS.__getitem__, ranks))
    sums = [0] * 32  # sums[mask]: the pip total of the cards whose bits are set in mask
    for mask, rest, index in _SUM_STEPS:
        sums[mask] = sums[rest] + values[index]
    for mask, indices in _SUBSETS:
        if sums[mask] == 15:
            parts.append(ScorePart("fifteen", 2, tuple([cards[i] for i in indices])))
    for i, j in _PAIRS:
        if ranks[i] == ranks[j]:
            parts.append(ScorePart("pair", 2, (cards[i], cards[j])))
    if len(set(ranks)) >= 3:
        parts.extend(_runs(cards))
    suit = hand[0].suit
    if all(card.suit == suit for card in hand):
        if starter.suit == suit:
            parts.append(ScorePart("flush", 5, cards))
        elif not crib:
            parts.append(ScorePart("flush", 4, tuple(hand)))
    parts.extend(
        ScorePart("nobs", 1, (card,))
        for card in hand
        if card.rank == JACK and card.suit == starter.suit
    )
    return HandScore(tuple(hand), starter, crib, tuple(parts))


def _runs(cards: Sequence[Card]) -> list[ScorePart]:
    by_rank: dict[int, list[Card]] = {}
    for card in sorted(cards, key=_rank_and_suit):
        by_rank.setdefault(card.rank, []).append(card)
    runs: list[ScorePart] = []
    rank = 1
    while rank <= 13:
        if rank not in by_rank:
            rank += 1
            continue
        end = rank
        while end + 1 in by_rank:
            end += 1
        if end - rank + 1 >= 3:
            groups = [by_rank[r] for r in range(rank, end + 1)]
            runs.extend(ScorePart("run", len(combo), combo) for combo in product(*groups))
        rank = end + 1
    return runs


@dataclass(frozen=True, slots=True)
class PlayScore:
    """Points for the card just played during the play (pegging)."""

    parts: tuple[ScorePart, ...]
    count: int

    @property
    def total(self) -> int:
        return sum(map(_points_of, self.parts))

    def spoken(self) -> str:
        """The classic announcement, e.g. ``fifteen for two`` or ``twenty for three``."""
        if self.total == 0:
            return number_word(self.count)
        return f"{number_word(self.count)} for {number_word(self.total)}"


def score_play(pile: Sequence[Card]) -> PlayScore:
    """Score the last card of ``pile``, the cards played since the count last restarted.

    The go and last-card point are the game's business, not this function's: they depend on
    whether anyone can still play.
    """
    if not pile:
        raise ValueError("score_play needs at least the card just played")
    if len(set(map(_rank_and_suit, pile))) != len(pile):
        raise ValueError("the cards played must all be different cards")
    ranks = list(map(_rank_of, pile))
    count = sum(map(_PIPS.__getitem__, ranks))
    if count > 31:
        raise ValueError(f"the count cannot pass 31 (it would be {count})")
    last = ranks[-1]
    parts: list[ScorePart] = []
    if count == 15:
        parts.append(ScorePart("fifteen", 2, tuple(pile)))
    elif count == 31:
        parts.append(ScorePart("thirty_one", 2, tuple(pile)))
    same = 1
    while same < len(ranks) and same < 4 and ranks[-same - 1] == last:
        same += 1
    if same >= 2:
        parts.append(ScorePart("pair", {2: 2, 3: 6, 4: 12}[same], tuple(pile[-same:])))
    for length in range(len(ranks), 2, -1):
        distinct = set(ranks[-length:])
        if len(distinct) == length and max(distinct) - min(distinct) == length - 1:
            parts.append(ScorePart("run", length, tuple(pile[-length:])))
            break
    return PlayScore(tuple(parts), count)
