"""Playing to the board: the chance to win from any score, by dynamic programming.

A deal is three stages in the order the rules count them: the play (dealer's and pone's pegging,
his heels included, drawn jointly), the pone's show, then the dealer's hand and crib. From the
per-deal distributions of those points measured in self-play (``tools/win_table.py``),
:func:`dealer_win_table` computes ``D[d][p]``, the chance that the dealer wins from dealer score
``d`` and pone score ``p`` at the start of a deal, for every score below the target: whoever
reaches the target first wins, and after the show the pone deals the next deal.

:func:`win_chance` reads it for either seat, and :func:`point_weights` turns it into what a point
is worth to each side now, so every decision can weigh its points by the board.

>>> table = dealer_win_table(4, pegging={(1, 1): 1.0}, pone_show={1: 1.0}, dealer_show={1: 1.0})
>>> table[0][0]  # 2-2 after one deal; in the next the first dealer, now pone, counts out first
1.0
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

Table = list[list[float]]


def dealer_win_table(
    target: int,
    *,
    pegging: Mapping[tuple[int, int], float],
    pone_show: Mapping[int, float],
    dealer_show: Mapping[int, float],
) -> Table:
    """``D[d][p]``: the dealer's chance to win from scores ``d`` (dealer) and ``p`` (pone).

    ``pegging`` maps (dealer's, pone's) points in the play to their chance; every outcome must
    give at least one point (the last card always scores). When both would reach the target in
    the play, each is taken to get there first half the time.
    """
    if any(a + b < 1 for a, b in pegging):
        raise ValueError("every play scores at least one point (the last card)")
    n = target
    dealer_wins = [[0.0] * n for _ in range(n)]
    after_play = [[0.0] * n for _ in range(n)]  # B: before the pone's show
    after_pone = [[0.0] * n for _ in range(n)]  # C: before the dealer's show
    peg = list(pegging.items())
    pone = list(pone_show.items())
    deal = list(dealer_show.items())
    for total in range(2 * n - 2, -1, -1):
        cells = [(d, total - d) for d in range(max(0, total - n + 1), min(n - 1, total) + 1)]
        for d, p in cells:
            value = 0.0
            for (xd, xp), chance in peg:
                dd, pp = d + xd, p + xp
                if dd >= n:
                    value += chance * (0.5 if pp >= n else 1.0)
                elif pp < n:
                    value += chance * after_play[dd][pp]
            dealer_wins[d][p] = value
        for d, p in cells:
            value = 0.0
            for x, chance in deal:
                dd = d + x
                value += chance * (1.0 if dd >= n else 1.0 - dealer_wins[p][dd])
            after_pone[d][p] = value
        for d, p in cells:
            value = 0.0
            for x, chance in pone:
                pp = p + x
                if pp < n:
                    value += chance * after_pone[d][pp]
            after_play[d][p] = value
    return dealer_wins


@dataclass(frozen=True)
class WinTable:
    """The dealer's chance to win from each pair of scores, for one target."""

    target: int
    dealer_wins: Table

    def chance(self, mine: int, theirs: int, *, i_deal: bool) -> float:
        """This seat's chance to win from these scores at the start of a deal."""
        n = self.target
        if mine >= n:
            return 1.0
        if theirs >= n:
            return 0.0
        if i_deal:
            return self.dealer_wins[mine][theirs]
        return 1.0 - self.dealer_wins[theirs][mine]


@cache
def win_table(target: int) -> WinTable:
    """The shipped table for ``target`` (made by ``tools/win_table.py``)."""
    text = resources.files("muggins.shared.bots").joinpath("data/win.json").read_text()
    data = json.loads(text)
    rows = data["tables"][str(target)]
    return WinTable(target, [[float(x) for x in row] for row in rows])


def point_weights(
    mine: int, theirs: int, *, i_deal: bool, target: int, expect: tuple[float, float]
) -> tuple[float, float]:
    """What a point is worth now to this seat and to the opponent, relative to the average.

    The table is read where this deal is expected to leave the scores (``expect``: the points each
    side should still make in it); a point's worth is the change in this seat's chance to win
    when that side gains two points more or fewer, and the pair is scaled to average one. Near the
    end the weights part: a point that brings this seat home, or stops the opponent's, weighs more.
    """
    table = win_table(target)
    # Read the table short of the target: past it every chance is 0 or 1 and says nothing.
    a = min(round(mine + expect[0]), target - 3)
    b = min(round(theirs + expect[1]), target - 3)

    def at(x: int, y: int) -> float:
        return table.chance(max(0, x), max(0, y), i_deal=not i_deal)

    gain = at(a + 2, b) - at(a - 2, b)
    loss = at(a, b - 2) - at(a, b + 2)
    if gain <= 1e-6 and loss <= 1e-6:
        return (1.0, 1.0)
    scale = 2.0 / (gain + loss)
    low, high = 0.5, 1.5
    return (min(high, max(low, gain * scale)), min(high, max(low, loss * scale)))


def win_per_point(mine: int, theirs: int, *, i_deal: bool, target: int) -> float:
    """About how much of the chance to win one average point is worth at these scores."""
    table = win_table(target)

    def at(x: int, y: int) -> float:
        return table.chance(max(0, x), max(0, y), i_deal=i_deal)

    return max(0.0, (at(mine + 2, theirs) - at(mine - 2, theirs)) / 4)
