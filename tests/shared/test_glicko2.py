"""Glicko-2 against Glickman's worked example, and its invariants."""

from __future__ import annotations

import math

from hypothesis import given
from hypothesis import strategies as st

from muggins.shared.glicko2 import (
    PROVISIONAL_DEVIATION,
    SCALE,
    Rating,
    rate_game,
    update,
    win_probability,
)

PLAYER = Rating(1500, 200, 0.06)
OPPONENTS = [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)]


def test_worked_example_of_the_paper() -> None:
    """The paper's example: mu' -0.2069, phi' 0.8722, sigma' 0.05999, r' 1464.06, RD' 151.52."""
    new = update(PLAYER, OPPONENTS)
    mu = (new.rating - 1500) / SCALE
    phi = new.deviation / SCALE
    assert round(mu, 4) == -0.2069
    assert round(phi, 4) == 0.8722
    assert abs(new.volatility - 0.05999) < 0.00001  # 0.0599960 exactly; the paper cuts it
    assert round(new.deviation, 2) == 151.52
    assert round(SCALE * round(mu, 4) + 1500, 2) == 1464.06  # the paper's r', from mu' rounded
    assert abs(new.rating - 1464.06) < 0.011


def test_no_games_only_widens_the_deviation() -> None:
    """Step 6 alone for a player who did not play: phi* = sqrt(phi^2 + sigma^2)."""
    new = update(PLAYER, [])
    assert new.rating == PLAYER.rating
    assert math.isclose(new.deviation / SCALE, math.sqrt((200 / SCALE) ** 2 + 0.06**2))


def test_new_players_are_provisional_until_the_deviation_falls() -> None:
    """A rating is provisional while its deviation is above the threshold (110)."""
    assert Rating().provisional
    assert not Rating(1500, PROVISIONAL_DEVIATION).provisional


ratings = st.builds(
    Rating,
    st.floats(800, 2400),
    st.floats(30, 350),
    st.floats(0.03, 0.09),
)


@given(ratings, ratings)
def test_a_win_never_lowers_a_rating(first: Rating, second: Rating) -> None:
    """The winner gains, the loser drops, and both deviations shrink or stay."""
    won, lost = rate_game(first, second, 1.0)
    assert won.rating > first.rating
    assert lost.rating < second.rating
    assert won.deviation <= max(first.deviation, 350) + 1e-9
    assert 0 < win_probability(first, second) < 1
