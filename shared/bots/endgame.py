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
from muggins.shared.bots.evaluation import play_points, rank_points
from muggins.shared.bots.playout import PIP, _relevant
from muggins.shared.cards import JACK, Card

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
    the pone may have laid away, each pair as likely.

    The pairs are counted by kind rather than one by one: a pair's points are its ranks'
    (fifteens, pairs and runs with the rest) plus a flush when all five cards share the
    starter's suit and his nobs for a jack of the starter's suit, so cards of the same rank that
    are alike in those two respects score the same with any partner."""
    mine = list(discards)
    kinds: dict[tuple[int, bool, bool], int] = {}  # (rank, of the flush suit, nobs): cards
    flush_suit = starter.suit
    for c in unseen:
        kind = (c.rank, c.suit == flush_suit, c.rank == JACK and c.suit == flush_suit)
        kinds[kind] = kinds.get(kind, 0) + 1
    cards = sum(kinds.values())
    n = cards * (cards - 1) // 2
    if n == 0:
        return ((0, 1.0),)
    ranks = [c.rank for c in mine]
    flush = all(c.suit == flush_suit for c in mine)  # the crib's own cards allow a flush
    nobs = sum(1 for c in mine if c.rank == JACK and c.suit == flush_suit)
    counts: dict[int, float] = {}
    rows = sorted(kinds.items())
    for i, ((ra, fa, na), ka) in enumerate(rows):
        for (rb, fb, nb), kb in rows[i:]:
            ways = ka * (ka - 1) // 2 if (rb, fb, nb) == (ra, fa, na) else ka * kb
            if ways == 0:
                continue
            x = rank_points([*ranks, ra, rb, starter.rank]) + nobs + na + nb
            if flush and fa and fb:
                x += 5
            counts[x] = counts.get(x, 0.0) + ways
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
    for its chance to win: this seat is 0 and maximises, the opponent minimises.

    The search is alpha-beta: a line that cannot change what a position is worth is cut off, and
    positions are remembered with whether their value is exact or a bound. A chance to win is
    picked from the ends of the lines, never added up along them, so the values found are the
    same as a full search's, to the last bit. One search serves every hand of the opponent's
    that shares its ``odds`` (a position names both hands, so their values never mix)."""

    def __init__(self, odds: ShowOdds, *, scores: tuple[int, int]) -> None:
        self.odds = odds
        self.scores = scores
        self.memo: dict[tuple[object, ...], tuple[float, int]] = {}

    def moves(
        self, mine: Ranks, theirs: Ranks, pile: Ranks, count: int, *, last: int | None
    ) -> dict[int, float]:
        """This seat's chance to win after playing each rank it may play now."""
        me, them = self.scores
        out: dict[int, float] = {}
        for rank in set(mine):
            if count + PIP[rank] <= 31:
                step = _STEPS.get((pile, count, rank)) or _step(pile, count, rank)
                out[rank] = self._play(0, rank, step, mine, theirs, me, them, -INF, INF)
        return out

    def _play(
        self,
        side: int,
        rank: int,
        step: Step,
        mine: Ranks,
        theirs: Ranks,
        me: int,
        them: int,
        alpha: float,
        beta: float,
    ) -> float:
        """``side`` plays ``rank``, which pegs and leaves the pile and count of ``step``."""
        target = self.odds.target
        points, pile, count = step
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
        return self._next(mine, theirs, pile, count, 1 - side, side, me, them, alpha, beta)

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
        alpha: float,
        beta: float,
    ) -> float:
        """The position after a card: go, 31 and last card as the rules score them (see
        ``Game._advance_play``), then the side to move chooses, its cards that peg most tried
        first (they settle the window soonest). The value is exact when it lies inside
        ``(alpha, beta)``, else a bound on the side of the window it fell."""
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
            if hand and count + PIP[min(hand)] <= 31:  # a card fits
                break
            other = mine if turn == 1 else theirs
            if other and count + PIP[min(other)] <= 31:
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
        if len(hand) == 1:  # one card, which fits: no choice, nothing worth remembering
            rank = hand[0]
            step = _STEPS.get((pile, count, rank)) or _step(pile, count, rank)
            return self._play(turn, rank, step, mine, theirs, me, them, alpha, beta)
        key = (mine, theirs, pile, count, turn, last, me, them)
        entry = self.memo.get(key)
        if entry is not None:
            value, kind = entry
            if (
                kind == EXACT
                or (kind == LOWER and value >= beta)
                or (kind == UPPER and value <= alpha)
            ):
                return value
        moves: list[tuple[int, int, Step]] = []
        for r in set(hand):
            if count + PIP[r] <= 31:
                step = _STEPS.get((pile, count, r)) or _step(pile, count, r)
                moves.append((step[0], r, step))
        if len(moves) > 1:
            moves.sort(reverse=True)  # ranks differ, so the steps are never compared
        a, b = alpha, beta
        if turn == 0:
            value = -INF
            for _, r, step in moves:
                v = self._play(0, r, step, mine, theirs, me, them, a, b)
                if v > value:
                    value = v
                    if value > a:
                        a = value
                        if a >= b:
                            break
        else:
            value = INF
            for _, r, step in moves:
                v = self._play(1, r, step, mine, theirs, me, them, a, b)
                if v < value:
                    value = v
                    if value < b:
                        b = value
                        if a >= b:
                            break
        self.memo[key] = (value, UPPER if value <= alpha else LOWER if value >= beta else EXACT)
        return value


INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2
"""What a remembered value is: the position's value, or a bound below or above it."""

STEPS_LIMIT = 100_000
"""Steps remembered before that memo starts afresh."""
Step = tuple[int, Ranks, int]
"""(points pegged, the end of the pile that can still score after it, the count after it)"""
_STEPS: dict[tuple[Ranks, int, int], Step] = {}


def _step(pile: Ranks, count: int, rank: int) -> Step:
    """``rank`` played on ``pile`` at ``count``: the points it pegs, the end of the pile that
    can still score after it and the count after it, remembered in ``_STEPS``."""
    after = count + PIP[rank]
    step = (play_points(pile, count, rank), _relevant((*pile, rank), after), after)
    if len(_STEPS) >= STEPS_LIMIT:
        _STEPS.clear()
    _STEPS[(pile, count, rank)] = step
    return step
