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
    pile = _relevant(tuple(pile))
    if not mine or not theirs or (len(mine) < 2 and len(theirs) < 2):
        pegged = _tail(mine, theirs, pile, count, turn, last)
        return pegged[0] * weights[0] - pegged[1] * weights[1]
    return _solve(_memo(weights), mine, theirs, pile, count, turn, last, weights)


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
    pile = _relevant(tuple(pile))  # the end that can still score scores the same
    memo = _memo(weights)
    out: dict[int, float] = {}
    for rank in set(mine):
        if count + PIP[rank] <= 31:
            out[rank] = _after(memo, mine, theirs, pile, count, rank, weights)
    return out


MEMO_LIMIT = 60_000
"""States remembered per pair of weights before that memo starts afresh (a decision needs a few
thousand; four memos of this size take about 100 MB)."""
PIP = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_MEMOS: dict[tuple[float, float], Memo] = {}


def clear() -> None:
    """Forget every remembered state."""
    _MEMOS.clear()
    _MOVES.clear()
    _TAILS.clear()
    _STEPS.clear()


def _memo(weights: tuple[float, float]) -> Memo:
    memo = _MEMOS.get(weights)
    if memo is None or len(memo) > MEMO_LIMIT:
        if len(_MEMOS) >= 4:
            _MEMOS.clear()
        memo = _MEMOS[weights] = {}
    return memo


def _points(pile: Ranks, count: int, rank: int) -> int:
    """``play_points`` through the module's own table (the solver's hottest call)."""
    key = (pile, count, rank)
    points = _POINTS.get(key)
    if points is None:
        points = _POINTS[key] = play_points(pile, count, rank)
    return points


_POINTS: dict[tuple[Ranks, int, int], int] = {}


def _relevant(pile: Ranks) -> Ranks:
    """The end of ``pile`` that can still score: the longest run of distinct ranks at its end
    (no later run can reach past a repeated rank), or the cards of the last card's rank (a pair
    royal needs them). Piles that agree on it score the same from here, so the memo serves both.
    """
    n = len(pile)
    if n <= 1:
        return pile
    last = pile[-1]
    if pile[-2] == last:
        same = 2
        while same < n and same < 3 and pile[-same - 1] == last:
            same += 1
        return pile[-same:]
    seen = {last}
    k = 1
    while k < n:
        r = pile[-k - 1]
        if r in seen:
            break
        seen.add(r)
        k += 1
    return pile if k == n else pile[-k:]


def _after(
    memo: Memo,
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    rank: int,
    weights: tuple[float, float],
) -> float:
    """The balance when this seat plays ``rank`` onto ``pile`` now (the roots of a search)."""
    scored, after_pile, after = _STEPS.get((pile, count, rank)) or _step(pile, count, rank)
    i = mine.index(rank)
    mine = mine[:i] + mine[i + 1 :]
    last = 0 if after else None
    if not mine or not theirs or (len(mine) < 2 and len(theirs) < 2):
        pegged = _tail(mine, theirs, after_pile, after, 1, last)
        return scored * weights[0] + (pegged[0] * weights[0] - pegged[1] * weights[1])
    return scored * weights[0] + _solve(
        memo, mine, theirs, after_pile, after, 1, last, weights, -INF, INF
    )


Move = tuple[int, int, Ranks, Ranks, int]
_MOVES: dict[tuple[Ranks, Ranks, int], tuple[Move, ...]] = {}
MOVES_LIMIT = 200_000
"""Move lists remembered before that cache starts afresh."""


def _new_moves(hand: Ranks, pile: Ranks, count: int) -> tuple[Move, ...]:
    """The distinct ranks of ``hand`` that fit under 31, most points first (the best move is
    usually among them, so more is cut off), then the lowest rank first, each as (points pegged,
    minus the rank, the hand left, the pile that can still score after it, the count after it:
    0 when it makes 31), remembered in ``_MOVES``: the search asks for the same few lists again
    and again, reads ``_MOVES`` itself and calls this when a list is not there. Put together
    from the hand's remembered splits and each rank's remembered step."""
    splits = _SPLITS.get(hand)
    if splits is None:
        splits = _SPLITS[hand] = _split(hand)
    found: list[Move] = []
    room = 31 - count
    for r, rest in splits:  # ascending, so the first rank that does not fit ends it
        if PIP[r] > room:
            break
        step = _STEPS.get((pile, count, r))
        if step is None:
            step = _step(pile, count, r)
        found.append((step[0], -r, rest, step[1], step[2]))
    if len(found) > 1:
        found.sort(reverse=True)  # ranks differ, so the comparison never reaches the hands
    if len(_MOVES) > MOVES_LIMIT:
        _MOVES.clear()
    moves = _MOVES[(hand, pile, count)] = tuple(found)
    return moves


def _split(hand: Ranks) -> tuple[tuple[int, Ranks], ...]:
    """Each distinct rank of the sorted ``hand`` with the hand left after playing it."""
    out: list[tuple[int, Ranks]] = []
    previous = 0
    for i, r in enumerate(hand):  # sorted, so repeats are adjacent
        if r != previous:
            out.append((r, hand[:i] + hand[i + 1 :]))
            previous = r
    return tuple(out)


def _step(pile: Ranks, count: int, rank: int) -> tuple[int, Ranks, int]:
    """Playing ``rank`` onto ``pile`` at ``count``: the points pegged, the pile that can still
    score after it and the count after it (an empty pile and 0 when it makes 31)."""
    after = count + PIP[rank]
    step = (
        (_points(pile, count, rank), (), 0)
        if after == 31
        else (_points(pile, count, rank), _relevant((*pile, rank)), after)
    )
    if len(_STEPS) > MOVES_LIMIT:
        _STEPS.clear()
    _STEPS[(pile, count, rank)] = step
    return step


_SPLITS: dict[Ranks, tuple[tuple[int, Ranks], ...]] = {}
_STEPS: dict[tuple[Ranks, int, int], tuple[int, Ranks, int]] = {}


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
    """Alpha-beta search with a memo of exact values and bounds, of a play that is not a tail
    (see ``_tail``: the callers read those whole)."""
    key = (mine, theirs, pile, count, turn, last)
    entry = memo.get(key)
    if entry is not None:
        value, kind = entry
        if kind == EXACT or (kind == LOWER and value >= beta) or (kind == UPPER and value <= alpha):
            return value
    a, b = alpha, beta
    w0, w1 = weights
    if turn == 0:
        moves = _MOVES.get((mine, pile, count))
        if moves is None:
            moves = _new_moves(mine, pile, count)
        if moves:
            # Every move leaves the same number of cards: a tail (see ``_tail``) is read whole.
            tails = len(mine) == 1 or (len(mine) == 2 and len(theirs) == 1)
            value = -INF
            for scored, _, rest, after_pile, after in moves:
                points = scored * w0
                if tails:
                    pegged = _TAILS.get(
                        (rest, theirs, after_pile, after, 1, 0 if after else None)
                    ) or _tail(rest, theirs, after_pile, after, 1, 0 if after else None)
                    v = points + (pegged[0] * w0 - pegged[1] * w1)
                elif after:
                    v = points + _solve(
                        memo, rest, theirs, after_pile, after, 1, 0, weights, a - points, b - points
                    )
                else:
                    v = points + _solve(
                        memo, rest, theirs, (), 0, 1, None, weights, a - points, b - points
                    )
                if v > value:
                    value = v
                    if value > a:
                        a = value
                        if a >= b:
                            break
            memo[key] = (value, UPPER if value <= alpha else LOWER if value >= beta else EXACT)
            return value
    else:
        moves = _MOVES.get((theirs, pile, count))
        if moves is None:
            moves = _new_moves(theirs, pile, count)
        if moves:
            tails = len(theirs) == 1 or (len(theirs) == 2 and len(mine) == 1)
            value = INF
            for scored, _, rest, after_pile, after in moves:
                points = -scored * w1
                if tails:
                    pegged = _TAILS.get(
                        (mine, rest, after_pile, after, 0, 1 if after else None)
                    ) or _tail(mine, rest, after_pile, after, 0, 1 if after else None)
                    v = points + (pegged[0] * w0 - pegged[1] * w1)
                elif after:
                    v = points + _solve(
                        memo, mine, rest, after_pile, after, 0, 1, weights, a - points, b - points
                    )
                else:
                    v = points + _solve(
                        memo, mine, rest, (), 0, 0, None, weights, a - points, b - points
                    )
                if v < value:
                    value = v
                    if value < b:
                        b = value
                        if a >= b:
                            break
            memo[key] = (value, UPPER if value <= alpha else LOWER if value >= beta else EXACT)
            return value
    value = _no_move(memo, mine, theirs, pile, count, turn, last, weights, alpha, beta)
    memo[key] = (value, UPPER if value <= alpha else LOWER if value >= beta else EXACT)
    return value


def _no_move(
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
    """The side to play has no card that fits: the other plays on, or a go ends the count."""
    other = theirs if turn == 0 else mine
    if other and PIP[other[0]] <= 31 - count:  # sorted: the lowest card fits or none does
        return _solve(memo, mine, theirs, pile, count, 1 - turn, last, weights, alpha, beta)
    if last is None:  # the count has just restarted and nobody holds a card: the play is over
        return 0.0
    go = weights[0] if last == 0 else -weights[1]
    if not mine and not theirs:
        return go
    return go + _solve(memo, mine, theirs, (), 0, 1 - last, None, weights, alpha - go, beta - go)


_TAILS: dict[tuple[object, ...], tuple[int, int]] = {}
TAILS_LIMIT = 200_000
"""Tails remembered before that cache starts afresh."""


def _tail(
    mine: Ranks, theirs: Ranks, pile: Ranks, count: int, turn: int, last: int | None
) -> tuple[int, int]:
    """The points each side pegs in the rest of a play that needs no weighing: one side holds
    no card (the other pegs all it can; the first go, if any, is already settled) or each holds
    at most one (every move is forced). Its value at any weights is ``w0 * a - w1 * b``, so one
    cache serves every pair of weights; with weights in eighths it is exactly what the search
    would find."""
    if not mine or not theirs:
        held = mine or theirs
        if not held:  # the last card played takes the go
            return (0, 0) if last is None else (1, 0) if last == 0 else (0, 1)
        if len(held) == 1:  # one card left, its holder's whatever the turn
            holder = 0 if mine else 1
            rank = held[0]
            if count + PIP[rank] <= 31:
                scored, _, after = _STEPS.get((pile, count, rank)) or _step(pile, count, rank)
                pegged = scored + 1 if after else scored  # the last card, unless it made 31
                return (pegged, 0) if holder == 0 else (0, pegged)
            # Too big: the go to the last card played (the count is not new), then the card
            # alone on a new count, the last card.
            return (int(holder == 0) + int(last == 0), int(holder == 1) + int(last == 1))
    key = (mine, theirs, pile, count, turn, last)
    found = _TAILS.get(key)
    if found is not None:
        return found
    hand = mine if turn == 0 else theirs
    moves = _MOVES.get((hand, pile, count))
    if moves is None:
        moves = _new_moves(hand, pile, count)
    if moves:
        best = -1
        out = (0, 0)
        for scored, _, rest, after_pile, after in moves:
            if turn == 0:
                if after:
                    a, b = _tail(rest, theirs, after_pile, after, 1, 0)
                else:
                    a, b = _tail(rest, theirs, (), 0, 1, None)
                a += scored
                if a > best:
                    best, out = a, (a, b)
            else:
                if after:
                    a, b = _tail(mine, rest, after_pile, after, 0, 1)
                else:
                    a, b = _tail(mine, rest, (), 0, 0, None)
                b += scored
                if b > best:
                    best, out = b, (a, b)
    else:
        other = theirs if turn == 0 else mine
        if other and PIP[other[0]] <= 31 - count:
            out = _tail(mine, theirs, pile, count, 1 - turn, last)
        elif last is None:
            out = (0, 0)
        elif not mine and not theirs:
            out = (1, 0) if last == 0 else (0, 1)
        else:
            a, b = _tail(mine, theirs, (), 0, 1 - last, None)
            out = (a + 1, b) if last == 0 else (a, b + 1)
    if len(_TAILS) > TAILS_LIMIT:
        _TAILS.clear()
    _TAILS[key] = out
    return out
