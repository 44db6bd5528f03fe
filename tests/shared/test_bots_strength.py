"""The computer levels' calibrated strength: the Bradley-Terry fit and the shipped figures."""

from __future__ import annotations

import math

from muggins.shared.bots import LEVELS
from muggins.shared.bots.strength import SCALE, fit_ratings, level_ratings


def expected(a: float, b: float) -> float:
    return 1 / (1 + math.exp(-(a - b) / SCALE))


def test_the_fit_recovers_ratings_from_expected_results() -> None:
    """Results drawn at the expected rates of known ratings give those ratings back (±3)."""
    truth = {"w": 1100.0, "x": 1500.0, "y": 1650.0, "z": 1900.0}
    games = 100_000
    results = {
        (a, b): (games * expected(truth[a], truth[b]), games) for a in truth for b in truth if a < b
    }
    fitted = fit_ratings(results, anchor="x", anchor_rating=1500)
    assert all(abs(fitted[p] - truth[p]) <= 3 for p in truth), fitted


def test_the_shipped_ratings_order_the_levels_and_anchor_standard() -> None:
    """Every level is rated, standard is 1500 and the strongest level is rated highest."""
    ratings = level_ratings()
    assert set(ratings) == set(LEVELS)
    assert ratings["standard"] == 1500
    assert ratings["expert"] > ratings["standard"] > ratings["easy"]
    assert max(ratings, key=ratings.__getitem__) == list(LEVELS)[-1]
