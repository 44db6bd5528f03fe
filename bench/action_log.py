"""Benchmark helper: the complete action log of self-play games, to prove a speed-up changes no
decision.

    python bench/action_log.py OUT [--level expert] [--games N] [--start I] [--seed S]

Plays game ``I`` to ``I + N - 1`` of a level against itself, seeded as the first game of each
pair of ``muggins tournament LEVEL LEVEL --duplicate --seed S`` is, writes every action taken
(one line each: game, seat, action) to OUT and prints the games per CPU second. Run it on the
old and the new code with the same arguments and compare the two files (``cmp``): equal files
mean equal decisions.
"""

from __future__ import annotations

import argparse
import time

from muggins.shared.bots import make_strategy
from muggins.shared.bots.duplicate import pair_seed
from muggins.shared.match import Match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out")
    parser.add_argument("--level", default="expert")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    cpu = time.process_time()
    with open(args.out, "w") as out:
        for index in range(args.start, args.start + args.games):
            match = Match(seed=pair_seed(args.seed, index), keep_events=False)
            seed = (
                match.seed if isinstance(match.seed, int) else int.from_bytes(match.seed[:8], "big")
            )
            bots = [make_strategy(args.level, seed=seed ^ (s + 1)) for s in (0, 1)]
            games = len(match.games)
            while len(match.games) == games:
                seat = match.waiting_for()[0]
                action = bots[seat].choose(match.view(seat))
                out.write(f"{index} {seat} {action!r}\n")
                match.apply(seat, action)
    cpu = time.process_time() - cpu
    print(f"{args.games} {args.level} games in {cpu:.1f} s CPU: {args.games / cpu:.2f} games/s")


if __name__ == "__main__":
    main()
