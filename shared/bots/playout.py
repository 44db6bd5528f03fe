"""The rest of the play solved exactly when both hands are known (ranks only; suits never peg).

:func:`solve` is the point balance (this seat's pegging points less the opponent's) of the rest of
the play when both sides play it perfectly, each maximising its own weighted balance. The expert
draws the opponent's hand from its belief many times and averages this over the draws, so the
search sees the whole play to its last card rather than one reply.

A state is both hands, the end of the pile since the count restarted that can still score, the
count, whose turn it is and who played the last card. Move lists, the ends of the play where
nobody has a choice left (tails, the same at every weighting) and the larger positions are
remembered, so thousands of draws share their common endings.

>>> solve((5,), (10,), (), 0, turn=1)  # their ten led, this seat's five: fifteen 2, last card 1
3.0
>>> solve((5,), (10,), (), 0, turn=0)  # leading the five gives them fifteen and last card
-3.0
"""

from __future__ import annotations

from collections.abc import Callable

from muggins.shared.bots.evaluation import play_points

Ranks = tuple[int, ...]
INF = float("inf")
EXACT, LOWER, UPPER = 0, 1, 2


PIP = (0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10)
_CUMULATIVE = tuple(sum(PIP[: r + 1]) for r in range(14))
"""The pips of the ranks up to each rank."""
MEMO_LIMIT = 60_000
"""Positions remembered per pair of weights (six cards or more left, see ``_solve``) before that
memo starts afresh."""
MOVES_LIMIT = 200_000
"""Move lists (and steps) remembered before that cache starts afresh."""
TAILS_LIMIT = 200_000
"""Tails remembered before that cache starts afresh."""
STATES_LIMIT = 400_000
"""Pile states numbered before every cache starts afresh (checked between searches only)."""

# How a position is held. A hand is its sorted ranks packed four bits each, the lowest rank in
# the lowest bits (0 is the empty hand, ``hand & 15`` its lowest card, ``hand < 16`` at most one
# card, ``hand < 256`` at most two). Everything else about a position (the end of the pile that
# can still score, the count, who played the last card, whose turn it is) is one number, its
# pile state: ``2 * base + turn``, where ``base`` numbers (pile, count, last) in ``_BASES`` and
# base 0 is the new count (an empty pile at 0, nobody's last card). So a position is three small
# ints, cheap to hash, and a go or a 31 moves to state 0 or 1 without a look-up.
Memo = dict[tuple[int, int, int], tuple[float, int]]
Move = tuple[int, int, int, int]
"""(points pegged, minus the rank, the hand left, the pile state after it)"""
Step = tuple[int, int, int]
"""(points pegged, the pile state after it, the count after it: 0 when it makes 31)"""


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

    ``mine`` and ``theirs`` are ranks; ``last`` is who played the last card on ``pile``
    (``None`` when the count has just restarted); ``weights`` weigh this seat's and the opponent's
    points (near the end of a game a point can be worth more to one side than the other).
    """
    if len(_PILES) > STATES_LIMIT:
        clear()
    m, t = _hand(tuple(mine)), _hand(tuple(theirs))
    ps = _base(_relevant(tuple(pile), count), count, last) * 2 + turn
    if not m or not t or (m < 16 and t < 16):
        pegged = _tail(m, t, ps)
        return pegged[0] * weights[0] - pegged[1] * weights[1]
    return _solve(_memo(weights), m, t, ps, weights, -INF, INF)


def best_moves(
    mine: Ranks,
    theirs: Ranks,
    pile: Ranks,
    count: int,
    *,
    weights: tuple[float, float] = (1.0, 1.0),
) -> dict[int, float]:
    """The balance after playing each rank this seat may play now, with the opponent to answer."""
    return searcher(mine, pile, count, weights=weights)(theirs)


def searcher(
    mine: Ranks, pile: Ranks, count: int, *, weights: tuple[float, float] = (1.0, 1.0)
) -> Callable[[Ranks], dict[int, float]]:
    """``best_moves`` for many hands of the opponent's: ``searcher(mine, pile, count)(theirs)``
    is ``best_moves(mine, theirs, pile, count)``, with what does not depend on ``theirs`` worked
    out once (and again if :func:`clear` has been called since)."""
    if len(_PILES) > STATES_LIMIT:
        clear()
    generation = _generation
    m = _hand(tuple(mine))
    # The end of the pile that can still score scores the same; who played last does not change
    # this seat's moves.
    ps = _base(_relevant(tuple(pile), count), count, None) * 2
    rests = _SPLITS.get(m)
    if rests is None:
        rests = _SPLITS[m] = _split(m)
    rest_of = dict(rests)
    memo = _memo(weights)
    w0, w1 = weights
    roots: list[tuple[int, float, int, int]] = []
    for rank in set(mine):
        if count + PIP[rank] <= 31:
            scored, after, _ = _STEPS.get(ps * 16 + rank) or _step(ps, rank)
            roots.append((rank, scored * w0, rest_of[rank], after))

    def search(theirs: Ranks) -> dict[int, float]:
        if _generation != generation:  # the pile states numbered above are gone
            return searcher(mine, pile, count, weights=weights)(theirs)
        t = _hand(tuple(theirs))
        out: dict[int, float] = {}
        for rank, points, rest, after in roots:
            if not rest or not t or (rest < 16 and t < 16):
                pegged = _TAILS.get((rest, t, after)) or _tail(rest, t, after)
                out[rank] = points + (pegged[0] * w0 - pegged[1] * w1)
            else:
                out[rank] = points + _solve(memo, rest, t, after, weights, -INF, INF)
        return out

    return search


_MEMOS: dict[tuple[float, float], Memo] = {}


_generation = 0
"""How many times :func:`clear` has run (a searcher made before then starts again)."""


def clear() -> None:
    """Forget every remembered state."""
    global _generation
    _generation += 1
    _MEMOS.clear()
    _MOVES.clear()
    _TAILS.clear()
    _STEPS.clear()
    _BASES.clear()
    _PILES.clear()
    _COUNTS.clear()
    _LASTS.clear()
    _ROOMS.clear()
    _base((), 0, None)  # base 0: the new count


def _memo(weights: tuple[float, float]) -> Memo:
    memo = _MEMOS.get(weights)
    if memo is None or len(memo) > MEMO_LIMIT:
        if memo is None and len(_MEMOS) >= 4:
            del _MEMOS[next(iter(_MEMOS))]  # the oldest pair of weights goes
        memo = _MEMOS[weights] = {}
    return memo


def _hand(ranks: Ranks) -> int:
    """``ranks`` packed as a hand (see above), remembered in ``_HANDS``."""
    hand = _HANDS.get(ranks)
    if hand is None:
        hand = 0
        for r in sorted(ranks, reverse=True):
            hand = hand << 4 | r
        _HANDS[ranks] = hand
    return hand


_HANDS: dict[Ranks, int] = {}


def _base(pile: Ranks, count: int, last: int | None) -> int:
    """The number of (pile, count, last), given one the first time it is seen."""
    key = (pile, count, last)
    base = _BASES.get(key)
    if base is None:
        base = _BASES[key] = len(_PILES)
        _PILES.append(pile)
        _COUNTS.append(count)
        _LASTS.append(last)
        _ROOMS.append(31 - count)
    return base


_BASES: dict[tuple[Ranks, int, int | None], int] = {}
_PILES: list[Ranks] = []
_COUNTS: list[int] = []
_LASTS: list[int | None] = []
_ROOMS: list[int] = []


def _points(pile: Ranks, count: int, rank: int) -> int:
    """``play_points`` through the module's own table (the solver's hottest call)."""
    key = (pile, count, rank)
    points = _POINTS.get(key)
    if points is None:
        points = _POINTS[key] = play_points(pile, count, rank)
    return points


_POINTS: dict[tuple[Ranks, int, int], int] = {}


def _relevant(pile: Ranks, count: int) -> Ranks:
    """The end of ``pile`` (at ``count``) that can still score: the cards of the last card's rank
    (a pair royal needs them), or else the longest end of distinct ranks that a run may still
    take in. No run reaches past a repeated rank, and one that takes in the last ``j`` cards
    needs every rank missing between their lowest and highest played later, so ``j`` cards whose
    missing ranks would pass 31 never score again. Piles that agree on this end score the same
    from here, so the memo serves both.
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
    room = 31 - count
    held = 1 << last
    low = high = last
    missing = 0  # the pips of the ranks missing between low and high
    keep = 1
    k = 1
    while k < n:
        r = pile[-k - 1]
        if held >> r & 1:
            break
        held |= 1 << r
        k += 1
        if r < low:
            missing += _CUMULATIVE[low - 1] - _CUMULATIVE[r]
            low = r
        elif r > high:
            missing += _CUMULATIVE[r - 1] - _CUMULATIVE[high]
            high = r
        else:
            missing -= PIP[r]
        if missing <= room:
            keep = k
    return pile if keep == n else pile[-keep:]


_MOVES: dict[tuple[int, int], tuple[Move, ...]] = {}


def _new_moves(hand: int, ps: int) -> tuple[Move, ...]:
    """The distinct ranks of ``hand`` that fit under 31 in pile state ``ps``, most points first
    (the best move is usually among them, so more is cut off), then the lowest rank first, each
    as (points pegged, minus the rank, the hand left, the pile state after it), remembered in
    ``_MOVES``: the search asks for the same few lists again and again, reads ``_MOVES`` itself
    and calls this when a list is not there. Put together from the hand's remembered splits and
    each rank's remembered step."""
    splits = _SPLITS.get(hand)
    if splits is None:
        splits = _SPLITS[hand] = _split(hand)
    found: list[Move] = []
    room = _ROOMS[ps >> 1]
    for r, rest in splits:  # ascending, so the first rank that does not fit ends it
        if PIP[r] > room:
            break
        step = _STEPS.get(ps * 16 + r)
        if step is None:
            step = _step(ps, r)
        found.append((step[0], -r, rest, step[1]))
    if len(found) > 1:
        found.sort(reverse=True)  # ranks differ, so the comparison never reaches the hands
    if len(_MOVES) > MOVES_LIMIT:
        _MOVES.clear()
    moves = _MOVES[(hand, ps)] = tuple(found)
    return moves


def _split(hand: int) -> tuple[tuple[int, int], ...]:
    """Each distinct rank of ``hand`` (ascending) with the hand left after playing it."""
    out: list[tuple[int, int]] = []
    previous = 0
    shift = 0
    rest = hand
    while rest:
        r = rest & 15
        if r != previous:  # sorted, so repeats are adjacent
            out.append((r, (hand >> (shift + 4)) << shift | (hand & ((1 << shift) - 1))))
            previous = r
        rest >>= 4
        shift += 4
    return tuple(out)


_SPLITS: dict[int, tuple[tuple[int, int], ...]] = {}


def _step(ps: int, rank: int) -> Step:
    """The side to play in pile state ``ps`` plays ``rank``: the points pegged, the pile state
    after it (the other side to play; the new count when it makes 31) and the count after it."""
    base = ps >> 1
    pile, count = _PILES[base], _COUNTS[base]
    mover = ps & 1
    after = count + PIP[rank]
    scored = _points(pile, count, rank)
    if after == 31:
        step = (scored, 1 - mover, 0)
    else:
        step = (scored, _base(_relevant((*pile, rank), after), after, mover) * 2 + 1 - mover, after)
    if len(_STEPS) > MOVES_LIMIT:
        _STEPS.clear()
    _STEPS[ps * 16 + rank] = step
    return step


_STEPS: dict[int, Step] = {}


def _solve(
    memo: Memo,
    mine: int,
    theirs: int,
    ps: int,
    weights: tuple[float, float],
    alpha: float,
    beta: float,
) -> float:
    """Alpha-beta search of a play that is not a tail (see ``_tail``: the callers read those
    whole). Positions with six cards or more left are remembered in ``memo`` (exact values and
    bounds); smaller ones are searched again when met again: few are (fewer than one in five in
    the expert's searches, which draw a new opponent's hand each time), and remembering every one
    cost more than it saved."""
    if (mine >= 256 and theirs >= 256) or mine >= 4096 or theirs >= 4096:
        key = (mine, theirs, ps)
        entry = memo.get(key)
        if entry is not None:
            value, kind = entry
            if (
                kind == EXACT
                or (kind == LOWER and value >= beta)
                or (kind == UPPER and value <= alpha)
            ):
                return value
        value = _search(memo, mine, theirs, ps, weights, alpha, beta)
        memo[key] = (value, UPPER if value <= alpha else LOWER if value >= beta else EXACT)
        return value
    return _search(memo, mine, theirs, ps, weights, alpha, beta)


def _search(
    memo: Memo,
    mine: int,
    theirs: int,
    ps: int,
    weights: tuple[float, float],
    alpha: float,
    beta: float,
) -> float:
    """The body of ``_solve``: the moves searched in order, cut off when they fall outside
    (alpha, beta)."""
    a, b = alpha, beta
    w0, w1 = weights
    if not ps & 1:
        moves = _MOVES.get((mine, ps))
        if moves is None:
            moves = _new_moves(mine, ps)
        if moves:
            value = -INF
            if mine < 16 or (mine < 256 and theirs < 16):
                # Every move leaves a tail (see ``_tail``): read whole.
                for scored, _, rest, after in moves:
                    pegged = _TAILS.get((rest, theirs, after)) or _tail(rest, theirs, after)
                    v = scored * w0 + (pegged[0] * w0 - pegged[1] * w1)
                    if v > value:
                        value = v
                        if value >= b:
                            break
            elif mine < 4096 and theirs < 4096 and (mine < 256 or theirs < 256):
                # Five cards or fewer left: the children are not remembered, so search them
                # here without going through ``_solve``.
                for scored, _, rest, after in moves:
                    points = scored * w0
                    v = points + _search(memo, rest, theirs, after, weights, a - points, b - points)
                    if v > value:
                        value = v
                        if value > a:
                            a = value
                            if a >= b:
                                break
            else:
                for scored, _, rest, after in moves:
                    points = scored * w0
                    v = points + _solve(memo, rest, theirs, after, weights, a - points, b - points)
                    if v > value:
                        value = v
                        if value > a:
                            a = value
                            if a >= b:
                                break
            return value
    else:
        moves = _MOVES.get((theirs, ps))
        if moves is None:
            moves = _new_moves(theirs, ps)
        if moves:
            value = INF
            if theirs < 16 or (theirs < 256 and mine < 16):
                for scored, _, rest, after in moves:
                    pegged = _TAILS.get((mine, rest, after)) or _tail(mine, rest, after)
                    v = -scored * w1 + (pegged[0] * w0 - pegged[1] * w1)
                    if v < value:
                        value = v
                        if value <= a:
                            break
            elif mine < 4096 and theirs < 4096 and (mine < 256 or theirs < 256):
                for scored, _, rest, after in moves:
                    points = -scored * w1
                    v = points + _search(memo, mine, rest, after, weights, a - points, b - points)
                    if v < value:
                        value = v
                        if value < b:
                            b = value
                            if a >= b:
                                break
            else:
                for scored, _, rest, after in moves:
                    points = -scored * w1
                    v = points + _solve(memo, mine, rest, after, weights, a - points, b - points)
                    if v < value:
                        value = v
                        if value < b:
                            b = value
                            if a >= b:
                                break
            return value
    return _no_move(memo, mine, theirs, ps, weights, alpha, beta)


def _no_move(
    memo: Memo,
    mine: int,
    theirs: int,
    ps: int,
    weights: tuple[float, float],
    alpha: float,
    beta: float,
) -> float:
    """The side to play has no card that fits: the other plays on, or a go ends the count."""
    other = mine if ps & 1 else theirs
    if other and PIP[other & 15] <= _ROOMS[ps >> 1]:  # the lowest card fits or none does
        return _solve(memo, mine, theirs, ps ^ 1, weights, alpha, beta)
    last = _LASTS[ps >> 1]
    if last is None:  # the count has just restarted and nobody holds a card: the play is over
        return 0.0
    go = weights[0] if last == 0 else -weights[1]
    if not mine and not theirs:
        return go
    return go + _solve(memo, mine, theirs, 1 - last, weights, alpha - go, beta - go)


_TAILS: dict[tuple[int, int, int], tuple[int, int]] = {}


def _tail(mine: int, theirs: int, ps: int) -> tuple[int, int]:
    """The points each side pegs in the rest of a play that needs no weighing: one side holds
    no card (the other pegs all it can; the first go, if any, is already settled) or each holds
    at most one (every move is forced). Its value at any weights is ``w0 * a - w1 * b``, so one
    cache serves every pair of weights; with weights in eighths it is exactly what the search
    would find."""
    if not mine or not theirs:
        held = mine or theirs
        if not held:  # the last card played takes the go
            last = _LASTS[ps >> 1]
            return (0, 0) if last is None else (1, 0) if last == 0 else (0, 1)
        if held < 16:  # one card left, its holder's whatever the turn
            holder = 0 if mine else 1
            if PIP[held] <= _ROOMS[ps >> 1]:
                scored, _, after = _STEPS.get(ps * 16 + held) or _step(ps, held)
                pegged = scored + 1 if after else scored  # the last card, unless it made 31
                return (pegged, 0) if holder == 0 else (0, pegged)
            # Too big: the go to the last card played (the count is not new), then the card
            # alone on a new count, the last card.
            last = _LASTS[ps >> 1]
            return (int(holder == 0) + int(last == 0), int(holder == 1) + int(last == 1))
    key = (mine, theirs, ps)
    found = _TAILS.get(key)
    if found is not None:
        return found
    turn = ps & 1
    hand = theirs if turn else mine
    moves = _MOVES.get((hand, ps))
    if moves is None:
        moves = _new_moves(hand, ps)
    if moves:
        best = -1
        out = (0, 0)
        for scored, _, rest, after in moves:
            if turn == 0:
                a, b = _tail(rest, theirs, after)
                a += scored
                if a > best:
                    best, out = a, (a, b)
            else:
                a, b = _tail(mine, rest, after)
                b += scored
                if b > best:
                    best, out = b, (a, b)
    else:
        other = mine if turn else theirs
        last = _LASTS[ps >> 1]
        if other and PIP[other & 15] <= _ROOMS[ps >> 1]:
            out = _tail(mine, theirs, ps ^ 1)
        elif last is None:
            out = (0, 0)
        elif not mine and not theirs:
            out = (1, 0) if last == 0 else (0, 1)
        else:
            a, b = _tail(mine, theirs, 1 - last)
            out = (a + 1, b) if last == 0 else (a, b + 1)
    if len(_TAILS) > TAILS_LIMIT:
        _TAILS.clear()
    _TAILS[key] = out
    return out


clear()
