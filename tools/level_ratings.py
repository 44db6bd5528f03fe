"""Calibrate the computer levels on the players' rating scale: a seeded round robin between the
levels, fitted with Bradley-Terry and anchored at standard = 1500 (see shared/bots/strength.py).

    python tools/level_ratings.py [--games 500] [--seed 1] [--workers 2]

Writes shared/bots/data/level_ratings.json (the ratings, the cross-table and how they were
made). The games are seeded, so the same arguments give the same file.
"""

from __future__ import annotations

import argparse
import json
import time
from itertools import combinations
from pathlib import Path

from rich.console import Console

from muggins.client.commands.tournament import play_pairs
from muggins.shared.bots import LEVELS
from muggins.shared.bots.strength import fit_ratings

OUT = Path(__file__).resolve().parents[1] / "shared" / "bots" / "data" / "level_ratings.json"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500, help="games per pairing")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    tournament = argparse.Namespace(
        games=args.games,
        seed=args.seed,
        workers=args.workers,
        target=121,
        muggins=False,
        json=True,
        duplicate=False,
    )
    levels = list(LEVELS)
    started = time.perf_counter()
    tallies, _ = play_pairs(list(combinations(levels, 2)), tournament, Console(stderr=True))
    results = {(t.players[0], t.players[1]): (float(t.wins[0]), t.games) for t in tallies}
    ratings = fit_ratings(results, anchor="standard", anchor_rating=1500)
    data = {
        "ratings": ratings,
        "anchor": {"level": "standard", "rating": 1500},
        "games_per_pairing": args.games,
        "seed": args.seed,
        "target": 121,
        "wins": {f"{a} v {b}": [w, n] for (a, b), (w, n) in results.items()},
        "seconds": round(time.perf_counter() - started, 1),
    }
    OUT.write_text(json.dumps(data, indent=1) + "\n")
    print(json.dumps(ratings))


if __name__ == "__main__":
    main()
