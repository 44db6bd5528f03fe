"""The review page's data: the reviewer's grades, summed per deal, ranked, and the chance to win
read from the expert's win table, all agreeing with the match as it was played."""

from __future__ import annotations

import random

import pytest

from muggins.shared.actions import GameOptions
from muggins.shared.bots.board import win_table
from muggins.shared.bots.review import review_match
from muggins.shared.bots.review_page import review_page
from muggins.shared.match import Match

SEED = bytes(range(32))


def played(options: GameOptions, rng: random.Random) -> Match:
    match = Match(seed=SEED, options=options)
    while not match.over:
        seat = match.waiting_for()[0]
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    return match


@pytest.mark.parametrize("seat", [0, 1])
def test_the_page_agrees_with_the_reviewer_and_the_win_table(seat: int) -> None:
    """Every graded decision is the reviewer's; the deals add up to the match's total; the worst
    are the costliest in order; the curve starts at the table's 0-0 chance, has a point per deal
    and ends each game at 1 or 0 by who won it."""
    options = GameOptions(target=61, match_to=3)
    match = played(options, random.Random(seat))
    page = review_page(
        game="ABCDEF-1", options=options, seed=SEED, log=match.log, seat=seat, names=("A", "B")
    )
    review = review_match(options, SEED, match.log, seat, ("A", "B"))
    assert [(d.kind, d.chosen, d.best) for d in page.decisions] == [
        (m.kind, m.chosen, m.best) for m in review.moments
    ]
    assert page.given_away[0] == pytest.approx(review.loss("discard"), abs=1e-3)
    assert page.given_away[1] == pytest.approx(review.loss("play"), abs=1e-3)
    assert sum(d.discards + d.play + d.counts for d in page.deals) == pytest.approx(
        sum(page.given_away), abs=0.01
    )
    losses = [page.decisions[i].loss for i in page.worst]
    assert losses == sorted(losses, reverse=True) and all(loss > 0 for loss in losses)
    assert page.agreed == sum(1 for d in page.decisions if d.loss == 0)
    first = page.win_chance[0]
    chance = win_table(61).chance(0, 0, i_deal=first.dealer)
    assert (first.game, first.deal, first.scores) == (1, 1, (0, 0))
    assert first.chance == pytest.approx(chance, abs=1e-4)
    ends = [p for p in page.win_chance if p.deal == 0]
    assert [(p.game, p.chance) for p in ends] == [
        (g.game_number, 1.0 if g.winner == seat else 0.0) for g in match.games
    ]
    deals = {(d.game, d.deal) for d in page.decisions}
    starts = {(p.game, p.deal) for p in page.win_chance if p.deal}
    assert deals <= starts
