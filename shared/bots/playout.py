"""The rest of the play solved exactly when both hands are known (ranks only; suits never peg).

:func:`solve` is the point balance (this seat's pegging points less the opponent's) of the rest of
the play when both sides play it perfectly, each maximising its own weighted balance. The expert
draws the opponent's hand from its belief many times and averages this over the draws, so the
search sees the whole play to its last card rather than one reply.

A state is both hands, the ranks played since the count restarted, the count, whose turn it is and
who played the last card. Everything is memoised on that state, so thousands of draws share their
common endings.

>>> solve((5,), (10,), (), 0, turn=1)  # their ten led, this seat's five: fifteen 2, last card 1
3.0
>>> solve((5,), (10,), (), 0, turn=0)  # leading the five gives them fifteen and last card
-3.0
"""

from __future__ import annotations

from muggins.shared.bots.evaluation import play_points

Ranks = tuple[int, ...]
Memo = dict[tuple[object, ...], tuple[float, int]]
INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2


def solve(
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    *,
    turn: int,
    last: int | None = None,
    weights: tuple[float, float] = (1.0, 1.0),
) -> float:
    """The weighted balance of the rest of the play, this seat being 0 and the opponent 1.

    ``mine`` and ``theirs`` are sorted ranks; ``last`` is who played the last card on ``pile``
    (``None`` when the count has just restarted); ``weights`` weigh this seat's and the opponent's
    points (near the end of a game a point can be worth more to one side than the other).
    """
    mine, theirs = tuple(sorted(mine)), tuple(sorted(theirs))
    return _solve(_memo(weights), mine, theirs, tuple(pile), count, turn, last, weights)


def best_moves(
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    *,
    weights: tuple[float, float] = (1.0, 1.0),
) -> dict[int, float]:
    """The balance after playing each rank this seat may play now, with the opponent to answer."""
    mine = tuple(sorted(mine))
    theirs = tuple(sorted(theirs))
    pile = tuple(pile)
    memo = _memo(weights)
    out: dict[int, float] = {}
    for rank in set(mine):
        if count + PIP[rank] <= 31:
            out[rank] = _after(memo, mine, theirs, pile, count, 0, rank, weights)
    return out


MEMO_LIMIT = 60_000
"""States remembered per pair of weights before that memo starts afresh (a decision needs a few
thousand; four memos of this size take about 100 MB)."""
PIP = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_MEMOS: dict[tuple[float, float], Memo] = {}


def clear() -> None:
    """Forget every remembered state."""
    _MEMOS.clear()


def _memo(weights: tuple[float, float]) -> Memo:
    memo = _MEMOS.get(weights)
    if memo is None or len(memo) > MEMO_LIMIT:
        if len(_MEMOS) >= 4:
            _MEMOS.clear()
        memo = _MEMOS[weights] = {}
    return memo


def _after(
    memo: Memo,
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    turn: int,
    rank: int,
    weights: tuple[float, float],
    alpha: float = -INF,
    beta: float = INF,
) -> float:
    """The balance when ``turn`` plays ``rank`` now (exact within ``alpha``..``beta``)."""
    points = play_points(pile, count, rank) * weights[turn]
    if turn == 0:
        i = mine.index(rank)
        mine = mine[:i] + mine[i + 1 :]
    else:
        i = theirs.index(rank)
        theirs = theirs[:i] + theirs[i + 1 :]
        points = -points
    count += PIP[rank]
    if count == 31:
        return points + _solve(
            memo, mine, theirs, (), 0, 1 - turn, None, weights, alpha - points, beta - points
        )
    pile = (*pile, rank)[-7:]  # no run is longer than seven cards
    return points + _solve(
        memo, mine, theirs, pile, count, 1 - turn, turn, weights, alpha - points, beta - points
    )


def _solve(
    memo: Memo,
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    turn: int,
    last: int | None,
    weights: tuple[float, float],
    alpha: float = -INF,
    beta: float = INF,
) -> float:
    """Alpha-beta search with a memo of exact values and bounds."""
    key = (mine, theirs, pile, count, turn, last)
    entry = memo.get(key)
    if entry is not None:
        value, kind = entry
        if kind == EXACT or (kind == LOWER and value >= beta) or (kind == UPPER and value <= alpha):
            return value
    value = _search(memo, mine, theirs, pile, count, turn, last, weights, alpha, beta)
    kind = UPPER if value <= alpha else LOWER if value >= beta else EXACT
    memo[key] = (value, kind)
    return value


def _search(
    memo: Memo,
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    turn: int,
    last: int | None,
    weights: tuple[float, float],
    alpha: float,
    beta: float,
) -> float:
    hand = mine if turn == 0 else theirs
    room = 31 - count
    playable = {r for r in hand if PIP[r] <= room}
    if playable:
        # Most points now first: the best move is usually among them, so more is cut off.
        order = sorted(playable, key=lambda r: -play_points(pile, count, r))
        if turn == 0:
            best = -INF
            for r in order:
                value = _after(memo, mine, theirs, pile, count, 0, r, weights, alpha, beta)
                if value > best:
                    best = value
                    if best > alpha:
                        alpha = best
                        if alpha >= beta:
                            break
            return best
        best = INF
        for r in order:
            value = _after(memo, mine, theirs, pile, count, 1, r, weights, alpha, beta)
            if value < best:
                best = value
                if best < beta:
                    beta = best
                    if alpha >= beta:
                        break
        return best
    other = theirs if turn == 0 else mine
    if any(PIP[r] <= room for r in other):
        return _solve(memo, mine, theirs, pile, count, 1 - turn, last, weights, alpha, beta)
    if last is None:  # the count has just restarted and nobody holds a card: the play is over
        return 0.0
    go = weights[0] if last == 0 else -weights[1]
    if not mine and not theirs:
        return go
    return go + _solve(memo, mine, theirs, (), 0, 1 - last, None, weights, alpha - go, beta - go)
