"""Benchmark: how fast the computer players decide, and games per second per level.

    python bench/bots.py [--games N] [--expert-games N] [--seed S]

Prints each expert's discard latency (p50, p99) and play latency over the decisions of real
self-play games, then how many complete in-process games each level plays against itself per
second on one core (the tournament command uses two worker processes), with the share of time
spent in the engine (``Match.apply`` and ``Match.view``) rather than in the strategies. The load
average is printed with the figures: on a shared machine they are slower than on a quiet one.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from muggins.shared.actions import Discard, Play
from muggins.shared.bots import BASELINES, LEVELS, make_strategy
from muggins.shared.bots.arena import game_seed
from muggins.shared.bots.evaluation import crib_table
from muggins.shared.bots.expert import lead_table, play_tables
from muggins.shared.match import Match


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def timed_games(
    level: str, *, games: int, seed: int
) -> tuple[float, float, dict[str, list[float]]]:
    """Play ``games`` self-play games; return wall time, engine time and per-kind decision times."""
    decisions: dict[str, list[float]] = {"discard": [], "play": [], "other": []}
    engine = 0.0
    start = time.perf_counter()
    for index in range(games):
        match = Match(seed=game_seed(seed, index))
        bots = [make_strategy(level, seed=index * 2 + s) for s in (0, 1)]
        while not match.over:
            seat = match.waiting_for()[0]
            t0 = time.perf_counter()
            view = match.view(seat)
            t1 = time.perf_counter()
            action = bots[seat].choose(view)
            t2 = time.perf_counter()
            match.apply(seat, action)
            t3 = time.perf_counter()
            engine += (t1 - t0) + (t3 - t2)
            kind = (
                "discard"
                if isinstance(action, Discard)
                else "play"
                if isinstance(action, Play)
                else "other"
            )
            decisions[kind].append(t2 - t1)
    return time.perf_counter() - start, engine, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="self-play games per level")
    parser.add_argument(
        "--expert-games", type=int, default=20, help="self-play games for the new expert"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    crib_table()  # load the tables before timing
    play_tables()
    lead_table()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    levels = [*LEVELS, *BASELINES]
    games = {level: args.expert_games if level == "expert" else args.games for level in levels}
    results = {}
    for level in levels:
        results[level] = timed_games(level, games=games[level], seed=args.seed)
    for level in ("expert-1", "expert"):
        ms = {k: [t * 1000 for t in v] for k, v in results[level][2].items()}
        print(f"{level} decisions over {games[level]} self-play games:")
        for kind in ("discard", "play"):
            times = ms[kind]
            print(
                f"  {kind:<8} n={len(times):>6}  p50 {statistics.median(times):7.3f} ms"
                f"  p99 {percentile(times, 0.99):7.3f} ms  max {max(times):7.3f} ms"
            )
    print("\nin-process self-play on one core:")
    for level in levels:
        wall, engine, _ = results[level]
        n = games[level]
        print(
            f"  {level:<9} {n / wall:7.2f} games/s"
            f"  ({1000 * wall / n:7.1f} ms a game,"
            f" {100 * engine / wall:4.1f}% in the engine)"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
