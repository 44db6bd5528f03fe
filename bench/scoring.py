"""Benchmark: score every hand and starter (12,994,800 of them) under hand and crib rules.

    python bench/scoring.py [--repeat N]

Prints the seconds per table and hands per second (goal: the whole table in 5 s or less in pure
Python), and for comparison how fast score_hand and the table-driven score_total go one hand at
a time.
"""

from __future__ import annotations

import argparse
import random
import time

from muggins.shared.cards import DECK
from muggins.shared.distribution import distribution, published_hand_table, rank_points, score_total
from muggins.shared.scoring import score_hand


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs of each table (best is shown)")
    parser.add_argument("--sample", type=int, default=20_000, help="hands for the per-hand rates")
    args = parser.parse_args()

    for crib in (False, True):
        times = []
        for _ in range(args.repeat):
            rank_points.cache_clear()  # time it cold, as the CLI runs it
            started = time.perf_counter()
            table = distribution(crib=crib)
            times.append(time.perf_counter() - started)
        best = min(times)
        rule = "crib" if crib else "hand"
        check = ""
        if not crib:
            check = (
                "  (matches published)" if table.counts == published_hand_table() else "  DIFFERS"
            )
        print(
            f"{rule} table: {table.hands:,} hands in {best:.3f} s best of {args.repeat} "
            f"= {table.hands / best:,.0f} hands/s; mean {table.mean:.4f}{check}"
        )

    rng = random.Random(0)
    hands = [rng.sample(DECK, 5) for _ in range(args.sample)]
    started = time.perf_counter()
    for *held, starter in hands:
        score_hand(held, starter)
    per_hand = (time.perf_counter() - started) / len(hands)
    print(f"score_hand one at a time: {1e6 * per_hand:.1f} µs/hand = {1 / per_hand:,.0f} hands/s")
    started = time.perf_counter()
    for *held, starter in hands:
        score_total(held, starter)
    per_total = (time.perf_counter() - started) / len(hands)
    print(
        f"score_total (table-driven): {1e6 * per_total:.1f} µs/hand = {1 / per_total:,.0f} hands/s"
    )


if __name__ == "__main__":
    main()
