"""The play searched for the chance to win, not for points, when this deal can end the game.

Away from the end a point is worth about the same whatever else happens in the deal, so the
expert weighs the two sides' points by the board and adds them up (``board.point_weights``).
Near the end that sum misleads: at 118-118 the third point ends the game and a fourth is worth
nothing, and a pone within its hand of home wins in the show before the dealer counts. Here the
rest of the play is searched to its last card for each hand the opponent may hold, as in the
points search, but every line ends in a chance to win: 1 or 0 the moment either side reaches the
target, and otherwise the chance after the show, counted in the rules' order (the pone's hand,
then the dealer's hand and crib), then the win table from the next deal's scores.

>>> odds = ShowOdds(mine=(10,), theirs=((0, 1.0),), crib=((0, 1.0),), i_deal=False, target=121)
>>> odds.after_play(111, 120)  # the pone's ten counts first and reaches 121
1.0
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cache
from importlib import resources

from muggins.shared.bots.board import win_table
from muggins.shared.bots.evaluation import hand_points, play_points
from muggins.shared.bots.playout import PIP, _relevant
from muggins.shared.cards import Card

Ranks = tuple[int, ...]
Dist = tuple[tuple[int, float], ...]
"""Points and their chances."""

REACH = 30
"""Points from the target within which either side's score puts the game in this deal's reach:
then the play is searched for the chance to win."""


@cache
def show_tables() -> tuple[Dist, Dist]:
    """The pone's and the dealer's show points in a deal (hand; hand and crib), from the
    distributions the win table was made from (``tools/win_table.py``)."""
    text = resources.files("muggins.shared.bots").joinpath("data/win.json").read_text()
    data = json.loads(text)

    def dist(rows: list[list[int]]) -> Dist:
        total = sum(n for _, n in rows)
        return tuple((int(x), n / total) for x, n in rows)

    return dist(data["pone_show"]), dist(data["dealer_show"])


def crib_odds(discards: Iterable[Card], starter: Card, unseen: Iterable[Card]) -> Dist:
    """The dealer's crib: its own two cards and the starter with every pair of the unseen cards
    the pone may have laid away, each pair as likely."""
    mine = list(discards)
    cards = list(unseen)
    counts: dict[int, float] = {}
    n = 0
    for i, a in enumerate(cards):
        for b in cards[i + 1 :]:
            x = hand_points([*mine, a, b], starter, crib=True)
            counts[x] = counts.get(x, 0.0) + 1.0
            n += 1
    if n == 0:
        return ((0, 1.0),)
    return tuple(sorted((x, c / n) for x, c in counts.items()))


@dataclass
class ShowOdds:
    """What the show may bring after the play, from one seat's side.

    ``mine`` is this seat's show points, each as likely (one entry once its hand and the starter
    are known); ``theirs`` the opponent's show (its hand, and the crib when it deals); ``crib``
    this seat's crib when it deals.
    """

    mine: Ranks
    theirs: Dist
    crib: Dist
    i_deal: bool
    target: int
    _memo: dict[tuple[int, int], float] = field(default_factory=dict)

    def after_play(self, me: int, them: int) -> float:
        """This seat's chance to win from scores ``me`` and ``them`` when the play is over."""
        key = (me, them)
        value = self._memo.get(key)
        if value is None:
            value = self._memo[key] = self._after_play(me, them)
        return value

    def _after_play(self, me: int, them: int) -> float:
        target = self.target
        table = win_table(target)
        total = 0.0
        for h in self.mine:
            mine = me + h
            if self.i_deal:  # the pone counts first, then this seat's hand and crib
                value = 0.0
                for y, py in self.theirs:
                    if them + y >= target:
                        continue
                    for c, pc in self.crib:
                        value += py * pc * table.chance(mine + c, them + y, i_deal=False)
            elif mine >= target:
                value = 1.0
            else:
                value = sum(py * table.chance(mine, them + y, i_deal=True) for y, py in self.theirs)
            total += value
        return total / len(self.mine)


def in_reach(mine: int, theirs: int, *, target: int) -> bool:
    """Whether this deal may end the game (so the play is searched for the chance to win)."""
    return max(mine, theirs) >= target - REACH


class WinSearch:
    """The rest of the play for one hand of the opponent's, both hands in view, each side playing
    for its chance to win: this seat is 0 and maximises, the opponent minimises."""

    def __init__(self, odds: ShowOdds, *, scores: tuple[int, int]) -> None:
        self.odds = odds
        self.scores = scores
        self.memo: dict[tuple[object, ...], float] = {}

    def moves(
        self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, *, last: int | None
    ) -> dict[int, float]:
        """This seat's chance to win after playing each rank it may play now."""
        me, them = self.scores
        out: dict[int, float] = {}
        for rank in set(mine):
            if count + PIP[rank] <= 31:
                out[rank] = self._play(0, rank, mine, theirs, pile, count, last, me, them)
        return out

    def _play(
        self,
        side: int,
        rank: int,
        mine: Ranks,
        theirs: Ranks,
        pile: Ranks,
        count: int,
        last: int | None,
        me: int,
        them: int,
    ) -> float:
        target = self.odds.target
        points = play_points(pile, count, rank)
        if side == 0:
            i = mine.index(rank)
            mine = mine[:i] + mine[i + 1 :]
            me += points
            if me >= target:
                return 1.0
        else:
            i = theirs.index(rank)
            theirs = theirs[:i] + theirs[i + 1 :]
            them += points
            if them >= target:
                return 0.0
        count += PIP[rank]
        pile = _relevant((*pile, rank), count)
        return self._next(mine, theirs, pile, count, 1 - side, side, me, them)

    def _next(
        self,
        mine: Ranks,
        theirs: Ranks,
        pile: Ranks,
        count: int,
        turn: int,
        last: int | None,
        me: int,
        them: int,
    ) -> float:
        """The position after a card: go, 31 and last card as the rules score them (see
        ``Game._advance_play``), then the side to move chooses."""
        target = self.odds.target
        while True:
            if count == 31 and last is not None:
                pile, count = (), 0
                turn = 1 - last if (mine, theirs)[1 - last] else last
                last = None
                continue
            if not mine and not theirs:
                if last is not None:
                    if last == 0:
                        me += 1
                        if me >= target:
                            return 1.0
                    else:
                        them += 1
                        if them >= target:
                            return 0.0
                return self.odds.after_play(me, them)
            hand = mine if turn == 0 else theirs
            if any(count + PIP[r] <= 31 for r in hand):
                break
            other = mine if turn == 1 else theirs
            if any(count + PIP[r] <= 31 for r in other):
                turn = 1 - turn
                continue
            assert last is not None
            if last == 0:
                me += 1
                if me >= target:
                    return 1.0
            else:
                them += 1
                if them >= target:
                    return 0.0
            pile, count = (), 0
            turn = 1 - last if (mine, theirs)[1 - last] else last
            last = None
        key = (mine, theirs, pile, count, turn, last, me, them)
        value = self.memo.get(key)
        if value is not None:
            return value
        hand = mine if turn == 0 else theirs
        values = [
            self._play(turn, r, mine, theirs, pile, count, last, me, them)
            for r in set(hand)
            if count + PIP[r] <= 31
        ]
        value = max(values) if turn == 0 else min(values)
        self.memo[key] = value
        return value
