"""Glicko-2 ratings, from Mark Glickman's paper "Example of the Glicko-2 system" (2013).

Pure and deterministic. A :class:`Rating` is on the Glicko scale (1500 / 350 / 0.06 for a new
player); :func:`update` applies one rating period's results for one player, steps 1-8 of the
paper, with the Illinois algorithm for the new volatility (step 5).

>>> me = Rating(1500, 200, 0.06)
>>> new = update(me, [(Rating(1400, 30), 1.0), (Rating(1550, 100), 0.0), (Rating(1700, 300), 0.0)])
>>> round(new.rating, 2), round(new.deviation, 2), round(new.volatility, 6)
(1464.05, 151.52, 0.059996)

(The paper prints r' = 1464.06 because it rounds mu' to -0.2069 before converting back.)
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final

SCALE: Final = 173.7178
"""Glicko-2's factor between the Glicko scale and its own (400 / ln 10)."""
DEFAULT_RATING: Final = 1500.0
DEFAULT_DEVIATION: Final = 350.0
DEFAULT_VOLATILITY: Final = 0.06
TAU: Final = 0.5
"""The system constant: how much volatility may change (the paper suggests 0.3 to 1.2)."""
EPSILON: Final = 0.000001
"""Convergence tolerance of the volatility iteration (the paper's value)."""
PROVISIONAL_DEVIATION: Final = 110.0
"""A rating is provisional while its deviation is above this (lichess's threshold)."""
MAX_DEVIATION: Final = DEFAULT_DEVIATION


@dataclass(frozen=True, slots=True)
class Rating:
    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def provisional(self) -> bool:
        return self.deviation > PROVISIONAL_DEVIATION


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def _new_volatility(sigma: float, phi: float, v: float, delta: float, tau: float) -> float:
    """Step 5: the Illinois algorithm on f(x) = 0, x = ln(sigma'^2)."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        bottom = 2.0 * (phi * phi + v + ex) ** 2
        return top / bottom - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def update(player: Rating, results: Iterable[tuple[Rating, float]], *, tau: float = TAU) -> Rating:
    """The player's rating after one rating period of ``(opponent, score)`` results.

    A score is 1 for a win, 0.5 for a draw, 0 for a loss. With no results only the deviation
    grows (step 6 alone), as the paper prescribes for a player who did not compete.
    """
    mu = (player.rating - DEFAULT_RATING) / SCALE
    phi = player.deviation / SCALE
    sigma = player.volatility
    games = [
        ((opp.rating - DEFAULT_RATING) / SCALE, opp.deviation / SCALE, s) for opp, s in results
    ]
    if not games:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Rating(player.rating, min(MAX_DEVIATION, phi_star * SCALE), sigma)
    v_inverse = 0.0
    improvement = 0.0
    for mu_j, phi_j, score in games:
        e = _expected(mu, mu_j, phi_j)
        g = _g(phi_j)
        v_inverse += g * g * e * (1.0 - e)
        improvement += g * (score - e)
    v = 1.0 / v_inverse
    delta = v * improvement
    sigma_new = _new_volatility(sigma, phi, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * improvement
    return Rating(
        rating=SCALE * mu_new + DEFAULT_RATING,
        deviation=min(MAX_DEVIATION, SCALE * phi_new),
        volatility=sigma_new,
    )


def rate_game(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both players' ratings after one game (a rating period of its own), ``score`` for first."""
    return update(first, [(second, score)]), update(second, [(first, 1.0 - score)])


def win_probability(player: Rating, opponent: Rating) -> float:
    """The expected score of ``player`` against ``opponent`` (Glicko-2's E with both RDs)."""
    mu = (player.rating - DEFAULT_RATING) / SCALE
    mu_j = (opponent.rating - DEFAULT_RATING) / SCALE
    phi = math.hypot(player.deviation, opponent.deviation) / SCALE
    return _expected(mu, mu_j, phi)
