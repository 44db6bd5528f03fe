"""The win table: dynamic programming checked by hand and against a simulation of its model."""

from __future__ import annotations

import json
import random
from importlib import resources

import pytest

from muggins.shared.bots.board import dealer_win_table, point_weights, win_per_point, win_table


def shipped() -> dict[str, object]:
    text = resources.files("muggins.shared.bots").joinpath("data/win.json").read_text()
    data: dict[str, object] = json.loads(text)
    return data


def simulate(dealer: int, pone: int, *, target: int, games: int, seed: int) -> float:
    """The dealer's share of wins from these scores, playing deals drawn from the stored
    distributions in the order the rules count them (an independent Monte Carlo)."""
    data = shipped()
    peg = data["pegging"]
    pone_show = data["pone_show"]
    dealer_show = data["dealer_show"]
    assert isinstance(peg, list) and isinstance(pone_show, list) and isinstance(dealer_show, list)
    rng = random.Random(seed)
    wins = 0.0
    for _ in range(games):
        scores = [dealer, pone]  # [first dealer, first pone]
        deals = 0  # the first dealer deals in even deals
        while True:
            d, p = (0, 1) if deals % 2 == 0 else (1, 0)
            xd, xp, _ = rng.choices(peg, weights=[row[2] for row in peg])[0]
            scores[d] += xd
            scores[p] += xp
            if scores[d] >= target or scores[p] >= target:
                both = scores[d] >= target and scores[p] >= target
                winner = (
                    (d if rng.random() < 0.5 else p) if both else d if scores[d] >= target else p
                )
                break
            scores[p] += rng.choices(pone_show, weights=[row[1] for row in pone_show])[0][0]
            if scores[p] >= target:
                winner = p
                break
            scores[d] += rng.choices(dealer_show, weights=[row[1] for row in dealer_show])[0][0]
            if scores[d] >= target:
                winner = d
                break
            deals += 1
        wins += winner == 0
    return wins / games


@pytest.mark.parametrize(("dealer", "pone"), [(0, 0), (90, 90), (110, 96), (100, 116)])
def test_shipped_entries_match_a_simulation(dealer: int, pone: int) -> None:
    """A few entries of the 121 table agree with 2,000 simulated games from the same deals."""
    table = win_table(121)
    expected = table.dealer_wins[dealer][pone]
    assert simulate(dealer, pone, target=121, games=2000, seed=dealer + pone) == pytest.approx(
        expected, abs=0.035
    )


def test_small_tables_by_hand() -> None:
    """With one point each in the play and one each in the show, the order of counting decides."""
    one = {"pegging": {(1, 1): 1.0}, "pone_show": {1: 1.0}, "dealer_show": {1: 1.0}}
    # To 4: 2-2 after a deal; in the next the first dealer is pone and counts out first.
    assert dealer_win_table(4, **one)[0][0] == 1.0  # type: ignore[arg-type]
    # To 5: 4-4 after two deals, and both peg out in the third play: half each.
    assert dealer_win_table(5, **one)[0][0] == 0.5  # type: ignore[arg-type]
    # A dealer one short wins in the play, which always scores... unless the pone gets there too.
    table = dealer_win_table(10, pegging={(1, 0): 0.5, (0, 1): 0.5}, pone_show={0: 1.0},
                             dealer_show={0: 1.0})  # fmt: skip
    assert table[9][0] == pytest.approx(0.5 + 0.5 * (1 - table[1][9]))


def test_a_point_matters_more_near_the_end() -> None:
    """A point is worth more win chance at 110-110 than at 0-0, and the table is symmetric-ish."""
    assert win_per_point(110, 110, i_deal=False, target=121) > win_per_point(
        0, 0, i_deal=False, target=121
    )
    assert 0.53 < win_table(121).dealer_wins[0][0] < 0.58
    mine, theirs = point_weights(112, 80, i_deal=True, target=121, expect=(0, 0))
    assert mine > theirs  # close to home and far ahead: my points matter more than theirs
