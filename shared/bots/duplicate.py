"""Duplicate deals: each seed played twice with the players' seats swapped (a level against
itself plays the seed once: its second game would be the first again, see :func:`mirrored`).

In the two games of a pair both players get exactly the same cards, starters and first dealer
(the deck of every deal comes from the match seed alone, whatever is played), so the luck of the
deal cancels and what is left is skill. A pair's win difference is the first player's wins in
the pair less one (-1, 0 or +1); its points margin is the first player's score less the second's,
capped at the target, summed over both games.

>>> pair = play_pair("standard", "random", seed=1, index=0)
>>> pair.deals_agree
True
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from muggins.shared.actions import GameOptions
from muggins.shared.bots.arena import GameRecord, game_seed, play_seated
from muggins.shared.match import Match

Z95 = 1.959964


def pair_seed(seed: int, index: int) -> int:
    """The match seed of pair ``index`` (both of its games use it)."""
    return game_seed(seed, index) ^ 0x6475706C  # "dupl": apart from ordinary tournament games


@dataclass(frozen=True)
class PairRecord:
    """The two games of one seed: in ``games[k]`` the first player sits in seat ``k``."""

    index: int
    games: tuple[GameRecord, GameRecord]
    target: int

    @property
    def win_difference(self) -> int:
        """The first player's wins in the pair less one: -1, 0 or +1."""
        return sum(1 for g in self.games if g.winner == 0) - 1

    @property
    def margin(self) -> int:
        """The first player's points less the second's, capped at the target, over both games."""
        cap = self.target
        return sum(min(g.scores[0], cap) - min(g.scores[1], cap) for g in self.games)

    @property
    def deals_agree(self) -> bool:
        """Whether both games dealt the same decks for as long as both lasted."""
        a, b = (g.commitments for g in self.games)
        n = min(len(a), len(b))
        return n > 0 and a[:n] == b[:n]


def play_pair(
    first: str, second: str, *, seed: int, index: int, options: GameOptions | None = None
) -> PairRecord:
    """Play pair ``index``: the same seed with ``first`` in seat 0, then in seat 1."""
    options = options or GameOptions()
    games = [
        play_seated(
            Match(seed=pair_seed(seed, index), options=options, keep_events=False),
            (first, second),
            (0, 1) if seat == 0 else (1, 0),
            index=2 * index + seat,
        )
        for seat in ((0,) if first == second else (0, 1))
    ]
    if first == second:  # the second game would be the first again, move for move
        games.append(mirrored(games[0], index=2 * index + 1))
    return PairRecord(index=index, games=(games[0], games[1]), target=options.target)


def mirrored(record: GameRecord, *, index: int) -> GameRecord:
    """``record`` with the two players' names swapped: the second game of a level's pair against
    itself. Every bot is seeded from the match seed and its seat alone (``play_seated``), so with
    the same level in both seats the second game deals the same cards to the same seeded bots and
    is the first game move for move; only which player sits where differs."""
    return GameRecord(
        index=index,
        winner=1 - record.winner,
        scores=(record.scores[1], record.scores[0]),
        skunk=record.skunk,
        double_skunk=record.double_skunk,
        first_dealer=1 - record.first_dealer,
        deals=(record.deals[1], record.deals[0]),
        points={(1 - p, role, source): n for (p, role, source), n in record.points.items()},
        commitments=record.commitments,
    )


def mean_ci(total: float, squares: float, n: int) -> tuple[float, float, float]:
    """Mean and normal 95% interval from a sum and a sum of squares of ``n`` values.

    >>> [round(x, 3) for x in mean_ci(2.0, 4.0, 4)]
    [0.5, -0.48, 1.48]
    """
    if n == 0:
        return (0.0, 0.0, 0.0)
    mean = total / n
    if n == 1:
        return (mean, mean, mean)
    variance = max(0.0, (squares - n * mean * mean) / (n - 1))
    half = Z95 * math.sqrt(variance / n)
    return (mean, mean - half, mean + half)


@dataclass
class DuplicateTally:
    """The running figures of a duplicate match-up, from the first player's side."""

    pairs: int = 0
    difference: float = 0.0
    difference_squares: float = 0.0
    margin: float = 0.0
    margin_squares: float = 0.0
    swept: list[int] = field(default_factory=lambda: [0, 0])
    """Pairs each player won both games of."""
    deals_disagree: int = 0
    """Pairs whose two games were not dealt the same cards (always 0 unless something is wrong)."""

    def add(self, pair: PairRecord) -> None:
        self.pairs += 1
        d, m = pair.win_difference, pair.margin
        self.difference += d
        self.difference_squares += d * d
        self.margin += m
        self.margin_squares += m * m
        if d == 1:
            self.swept[0] += 1
        elif d == -1:
            self.swept[1] += 1
        if not pair.deals_agree:
            self.deals_disagree += 1

    def win_difference(self) -> tuple[float, float, float]:
        """Mean win difference per pair with its 95% interval."""
        return mean_ci(self.difference, self.difference_squares, self.pairs)

    def points_margin(self) -> tuple[float, float, float]:
        """Mean points margin per pair with its 95% interval."""
        return mean_ci(self.margin, self.margin_squares, self.pairs)

    def to_json(self, names: tuple[str, str]) -> dict[str, object]:
        d, d_low, d_high = self.win_difference()
        m, m_low, m_high = self.points_margin()
        return {
            "pairs": self.pairs,
            "win_difference": d,
            "win_difference_ci95": [d_low, d_high],
            "points_margin": m,
            "points_margin_ci95": [m_low, m_high],
            "swept": {names[p]: self.swept[p] for p in (0, 1)},
            "split": self.pairs - self.swept[0] - self.swept[1],
            "deals_disagree": self.deals_disagree,
        }
