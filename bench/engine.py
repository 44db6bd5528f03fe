"""Benchmark: the engine's ``Match.apply`` in random games.

    python bench/engine.py [--games N] [--seed S]

Plays whole games with uniformly random legal actions and prints the average time of one
``apply``, the time of ``legal_actions`` and ``view`` (what a server calls around each move), and
how many complete random games the engine plays per second.
"""

from __future__ import annotations

import argparse
import random
import time

from muggins.shared.actions import GameOptions
from muggins.shared.match import Match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games to play")
    parser.add_argument("--seed", type=int, default=0, help="first seed")
    parser.add_argument("--muggins", action="store_true", help="play in muggins mode")
    args = parser.parse_args()
    options = GameOptions(muggins=args.muggins)

    applies = 0
    apply_time = legal_time = view_time = 0.0
    views = 0
    started = time.perf_counter()
    for game in range(args.games):
        match = Match(seed=args.seed + game, options=options)
        rng = random.Random(args.seed + game)
        while not match.over:
            seat = rng.choice(match.waiting_for())
            t0 = time.perf_counter()
            legal = match.legal_actions(seat)
            t1 = time.perf_counter()
            match.apply(seat, rng.choice(legal))
            t2 = time.perf_counter()
            legal_time += t1 - t0
            apply_time += t2 - t1
            applies += 1
            if applies % 10 == 0:
                t3 = time.perf_counter()
                match.view(seat)
                view_time += time.perf_counter() - t3
                views += 1
    elapsed = time.perf_counter() - started - view_time

    print(f"{args.games} random games, {applies:,} applies ({applies / args.games:.0f} per game)")
    print(f"apply: {1e6 * apply_time / applies:.1f} µs on average")
    print(f"legal_actions: {1e6 * legal_time / applies:.1f} µs on average")
    print(f"view: {1e6 * view_time / views:.1f} µs on average ({views:,} sampled)")
    print(f"{args.games / elapsed:.1f} random games per second (apply + legal_actions)")


if __name__ == "__main__":
    main()
