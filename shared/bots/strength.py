"""The computer levels' strength on the rating scale players have.

Ratings are fitted to the levels' games against each other (a Bradley-Terry model on the
Glicko/Elo scale: a 400-point gap means 10 to 1 odds) and anchored so that ``standard`` sits at
1500, where every new account starts. So "beating standard" means holding your own at the
rating a newcomer is given; the other levels are placed by their results against it. The
figures come from ``python tools/level_ratings.py`` (a seeded round robin; the file records how
many games) and are kept in ``shared/bots/data/level_ratings.json``.

>>> fit_ratings({("a", "b"): (750, 1000)}, anchor="b", anchor_rating=1500)["a"]
1691
"""

from __future__ import annotations

import json
import math
from functools import cache
from importlib.resources import files
from typing import Any

SCALE = 400 / math.log(10)


def fit_ratings(
    results: dict[tuple[str, str], tuple[float, int]],
    *,
    anchor: str,
    anchor_rating: float = 1500.0,
    rounds: int = 2000,
) -> dict[str, int]:
    """Ratings from ``(a, b) -> (a's wins, games)``, by the MM iteration of Bradley-Terry.

    Half a win is added to each side of every pairing so that a level that never lost (or
    never won) still gets a finite rating.
    """
    players = sorted({p for pair in results for p in pair})
    wins = dict.fromkeys(players, 0.0)
    games: dict[tuple[str, str], float] = {}
    for (a, b), (won, played) in results.items():
        wins[a] += won + 0.5
        wins[b] += played - won + 0.5
        games[(a, b)] = games.get((a, b), 0) + played + 1
    strength = dict.fromkeys(players, 1.0)
    for _ in range(rounds):
        new = {}
        for p in players:
            total = 0.0
            for (a, b), n in games.items():
                if p in (a, b):
                    other = b if p == a else a
                    total += n / (strength[p] + strength[other])
            new[p] = wins[p] / total
        norm = new[anchor]
        strength = {p: v / norm for p, v in new.items()}
    return {p: round(anchor_rating + SCALE * math.log(strength[p])) for p in players}


@cache
def level_ratings() -> dict[str, int]:
    """The shipped calibration: level -> rating (empty if the data file is missing)."""
    try:
        text = files("muggins.shared.bots").joinpath("data/level_ratings.json").read_text()
    except (FileNotFoundError, OSError):
        return {}
    data: dict[str, Any] = json.loads(text)
    return {str(k): int(v) for k, v in data["ratings"].items()}
