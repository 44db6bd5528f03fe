"""The exact solver of the play: its value is what the rules engine really pegs."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from muggins.shared.actions import CardPlayed, Discard, Play, Scored
from muggins.shared.bots.evaluation import play_points
from muggins.shared.bots.playout import _relevant, best_moves, clear, searcher, solve
from muggins.shared.cards import DECK, Card
from muggins.shared.fairness import StackedRandom, arrange_deal
from muggins.shared.match import Match
from tests.shared.stacked import CUT_SEAT0_DEALS


def play_out_in_the_engine(pone: list[Card], dealer: list[Card], starter: Card) -> tuple[int, int]:
    """Both seats play the solver's move; the engine's pegging points (pone's, dealer's)."""
    deck = arrange_deal(pone, dealer, starter)
    match = Match(seed=0, rng=StackedRandom([CUT_SEAT0_DEALS, deck]))  # seat 0 deals
    match.apply(1, Discard(cards=(pone[4], pone[5])))
    match.apply(0, Discard(cards=(dealer[4], dealer[5])))
    pegged = [0, 0]
    while match.game.phase == "play":
        seat = match.waiting_for()[0]
        view = match.view(seat)
        mine = tuple(c.rank for c in view.hand)
        theirs = tuple(c.rank for c in match.game.hands[1 - seat])
        pile = tuple(p.card.rank for p in view.pile)
        values = best_moves(mine, theirs, pile, view.count)
        rank = max(values, key=lambda r: values[r])
        card = next(c for c in view.hand if c.rank == rank)
        for event in match.apply(seat, Play(card=card)):
            scored = isinstance(event, Scored) and event.reason in ("go", "last_card")
            if isinstance(event, CardPlayed) or scored:
                pegged[event.seat] += event.points
    return pegged[1], pegged[0]


@settings(max_examples=25, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_solved_value_is_what_the_engine_pegs(rng: random.Random) -> None:
    """Played out in the real engine by the solver's moves, the pone's balance is solve()'s."""
    cards = rng.sample(DECK, 13)
    pone, dealer, starter = cards[:6], cards[6:12], cards[12]
    predicted = solve(
        tuple(c.rank for c in pone[:4]), tuple(c.rank for c in dealer[:4]), (), 0, turn=0
    )
    pone_points, dealer_points = play_out_in_the_engine(pone, dealer, starter)
    assert predicted == pone_points - dealer_points


def test_small_positions_by_hand() -> None:
    """A lone five against a lone ten: leading it gives 15-2 and last card; answering takes them."""
    assert solve((5,), (10,), (), 0, turn=0) == -3.0
    assert solve((5,), (10,), (), 0, turn=1) == 3.0
    # 31 for two ends the count and the last card is not scored on top of it.
    assert solve((1,), (), (10, 10), 30, turn=0, last=1) == 2.0
    # Nobody can play: the last card played scores the go.
    assert solve((), (), (10, 10), 20, turn=0, last=1) == -1.0
    # Weights scale each side's points.
    assert solve((5,), (10,), (), 0, turn=0, weights=(1.0, 2.0)) == -6.0


def brute(mine: tuple[int, ...], theirs: tuple[int, ...], pile: tuple[int, ...], count: int,
          turn: int, last: int | None, w: tuple[float, float] = (1.0, 1.0)) -> float:  # fmt: skip
    """The play by plain minimax, no memo and no pruning, straight from the rules; ``w`` weighs
    seat 0's points and seat 1's."""
    hands = [list(mine), list(theirs)]
    playable = sorted({r for r in hands[turn] if count + min(r, 10) <= 31})
    if playable:
        values = []
        for r in playable:
            points = play_points(pile, count, r) * (w[0] if turn == 0 else -w[1])
            rest = [list(h) for h in hands]
            rest[turn].remove(r)
            c = count + min(r, 10)
            a, b = tuple(rest[0]), tuple(rest[1])
            if c == 31:
                values.append(points + brute(a, b, (), 0, 1 - turn, None, w))
            else:
                values.append(points + brute(a, b, (*pile, r), c, 1 - turn, turn, w))
        return max(values) if turn == 0 else min(values)
    if any(count + min(r, 10) <= 31 for r in hands[1 - turn]):
        return brute(mine, theirs, pile, count, 1 - turn, last, w)
    if last is None:
        return 0.0
    go = w[0] if last == 0 else -w[1]
    if not mine and not theirs:
        return go
    return go + brute(mine, theirs, (), 0, 1 - last, None, w)


@settings(max_examples=40, deadline=None)
@given(st.randoms(use_true_random=False))
def test_pruned_search_equals_plain_minimax(rng: random.Random) -> None:
    """Alpha-beta with its memo gives every root move the value plain minimax gives it."""
    ranks = [r for r in range(1, 14) for _ in range(4)]
    rng.shuffle(ranks)
    n = rng.randint(1, 4)
    mine, theirs = tuple(sorted(ranks[:n])), tuple(sorted(ranks[4 : 4 + rng.randint(0, 4)]))
    clear()
    for rank, value in best_moves(mine, theirs, (), 0).items():
        rest = list(mine)
        rest.remove(rank)
        expected = play_points((), 0, rank) + brute(
            tuple(rest), theirs, (rank,), min(rank, 10), 1, 0
        )
        assert value == expected


@settings(max_examples=60, deadline=None)
@given(st.randoms(use_true_random=False))
def test_weighted_search_on_a_pile_equals_plain_minimax(rng: random.Random) -> None:
    """At weights in eighths, on a pile already started, every root move and every position
    (tails read whole from their weight-free cache among them) has plain minimax's value."""
    ranks = [r for r in range(1, 14) for _ in range(4)]
    rng.shuffle(ranks)
    pile: tuple[int, ...] = ()
    count = 0
    for r in ranks[:3]:
        if count + min(r, 10) > 31 or rng.random() < 0.2:
            break
        pile, count = (*pile, r), count + min(r, 10)
    mine = tuple(sorted(ranks[3 : 3 + rng.randint(1, 4)]))
    theirs = tuple(sorted(ranks[7 : 7 + rng.randint(0, 4)]))
    w = (rng.randint(0, 16) / 8, rng.randint(0, 16) / 8)
    for rank, value in best_moves(mine, theirs, pile, count, weights=w).items():
        rest = list(mine)
        rest.remove(rank)
        after = count + min(rank, 10)
        if after == 31:
            below = brute(tuple(rest), theirs, (), 0, 1, None, w)
        else:
            below = brute(tuple(rest), theirs, (*pile, rank), after, 1, 0, w)
        assert value == play_points(pile, count, rank) * w[0] + below
    turn = rng.randint(0, 1)
    last = None if not pile else rng.randint(0, 1)
    got = solve(mine, theirs, pile, count, turn=turn, last=last, weights=w)
    assert got == brute(mine, theirs, pile, count, turn, last, w)


@settings(max_examples=500, deadline=None)
@given(st.randoms(use_true_random=False))
def test_the_end_of_the_pile_kept_scores_every_later_card_the_same(rng: random.Random) -> None:
    """The solver keeps only the end of the pile that can still score (``_relevant``): after it
    and after the whole pile, later cards under 31 peg the same points, card by card. The later
    cards try hardest to make a run: the ranks missing from some end of the pile, then ranks
    beside it."""
    pile: tuple[int, ...] = ()
    count = 0
    for r in rng.choices(range(1, 14), k=rng.randint(1, 7)):
        if count + min(r, 10) >= 31:
            break
        pile, count = (*pile, r), count + min(r, 10)
    kept = _relevant(pile, count)
    assert pile[len(pile) - len(kept) :] == kept
    end = pile[-rng.randint(1, len(pile)) :]
    later = [r for r in range(min(end), max(end) + 1) if r not in end]
    beside = [r for r in (min(end) - 1, max(end) + 1) if 1 <= r <= 13]
    rng.shuffle(later)
    rng.shuffle(beside)
    later += beside
    full, short, total = pile, kept, count
    for r in later:
        if total + min(r, 10) > 31:
            break
        assert play_points(full, total, r) == play_points(short, total, r)
        full, short, total = (*full, r), (*short, r), total + min(r, 10)


def test_a_searcher_made_before_clear_gives_the_same_values() -> None:
    """``searcher`` numbers the pile once; after ``clear`` forgets the numbers it starts again
    instead of searching from a state that now means another pile."""
    search = searcher((2, 5, 7), (3, 4), 7, weights=(1.0, 0.5))
    before = search((6, 8, 9))
    clear()
    best_moves((10, 10, 13), (1, 1, 2), (9, 9), 18)  # numbers other piles first
    assert (
        search((6, 8, 9))
        == before
        == best_moves((2, 5, 7), (6, 8, 9), (3, 4), 7, weights=(1.0, 0.5))
    )
