"""Benchmark: how fast the computer players decide, and games per second per level.

    python bench/bots.py [--games N] [--expert-games N] [--seed S]

Prints each expert's discard latency (p50, p99) and play latency over the decisions of real
self-play games, then how many complete in-process games each level plays against itself per
second on one core (the tournament command uses two worker processes), with the share of time
spent in the engine (``Match.apply`` and ``Match.view``) rather than in the strategies. Each
figure is given in wall time and in CPU time of this process: on a shared machine the wall
figures depend on what else runs (the load average is printed with them), the CPU ones much
less. Last, how long 10,000 duplicate pairs of each level against itself would take on two
workers at the CPU rate, beside the 15 minutes the project aims for: 10,000 games, since the
tournament plays a level's pair against itself once and mirrors it (``duplicate.mirrored``).
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
from muggins.shared.bots.expert import play_tables
from muggins.shared.bots.opening_tables import lead_table, reply_table
from muggins.shared.match import Match


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


Times = dict[str, list[tuple[float, float]]]


def timed_games(level: str, *, games: int, seed: int) -> tuple[float, float, float, Times]:
    """Play ``games`` self-play games; return wall time, CPU time, engine (wall) time and each
    kind of decision's (wall, CPU) times."""
    decisions: Times = {"discard": [], "play": [], "other": []}
    engine = 0.0
    start = time.perf_counter()
    cpu = time.process_time()
    for index in range(games):
        match = Match(seed=game_seed(seed, index))
        bots = [make_strategy(level, seed=index * 2 + s) for s in (0, 1)]
        while not match.over:
            seat = match.waiting_for()[0]
            t0 = time.perf_counter()
            view = match.view(seat)
            t1 = time.perf_counter()
            c1 = time.process_time()
            action = bots[seat].choose(view)
            c2 = time.process_time()
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
            decisions[kind].append((t2 - t1, c2 - c1))
    return time.perf_counter() - start, time.process_time() - cpu, engine, decisions


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="self-play games per level")
    parser.add_argument(
        "--expert-games", type=int, default=20, help="self-play games for the experts"
    )
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    crib_table()  # load the tables before timing
    play_tables()
    lead_table()
    reply_table()
    print(f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")
    levels = [*LEVELS, *BASELINES]
    slow = ("expert", "expert-2", "expert-3")
    games = {level: args.expert_games if level in slow else args.games for level in levels}
    results = {}
    for level in levels:
        results[level] = timed_games(level, games=games[level], seed=args.seed)
    for level in ("expert-1", "expert-2", "expert-3", "expert"):
        print(f"{level} decisions over {games[level]} self-play games (wall | CPU):")
        for kind in ("discard", "play"):
            walls = [w * 1000 for w, _ in results[level][3][kind]]
            cpus = [c * 1000 for _, c in results[level][3][kind]]
            print(
                f"  {kind:<8} n={len(walls):>6}  p50 {statistics.median(walls):7.3f}"
                f" | {statistics.median(cpus):7.3f} ms  p99 {percentile(walls, 0.99):7.3f}"
                f" | {percentile(cpus, 0.99):7.3f} ms  max {max(walls):7.3f} | {max(cpus):7.3f} ms"
            )
    print("\nin-process self-play on one core (wall | CPU):")
    for level in levels:
        wall, cpu, engine, _ = results[level]
        n = games[level]
        pairs = 10_000 / (2 * n / cpu) / 60  # two workers at the CPU rate, one game a pair
        print(
            f"  {level:<9} {n / wall:7.2f} | {n / cpu:7.2f} games/s"
            f"  ({1000 * cpu / n:7.1f} CPU ms a game, {100 * engine / wall:4.1f}% in the engine);"
            f" 10,000 duplicate pairs on two workers: {pairs:6.1f} min (aim: 15)"
        )
    print(f"load average {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
