"""What the reviewer costs: CPU seconds per seat per game, as a server's review workers spend it.

    python bench/review.py [--games 10] [--target 121] [--levels standard expert]

Plays ``--games`` single-game matches between two computer levels with the rules engine (no
server), then reviews each seat of each with the engine's reviewer exactly as a review worker
does (:func:`server.results.reviews.review_stats`), timing each with the process's CPU clock.
Prints the CPU per seat and game (mean, min, max), per decision, and the reviews one worker
process manages an hour.
"""

from __future__ import annotations

import argparse
import os
import statistics
import time

from muggins.server.results.reviews import review_stats
from muggins.shared.actions import GameOptions
from muggins.shared.bots import make_strategy
from muggins.shared.match import Match


def play(seed: bytes, options: GameOptions, levels: tuple[str, str]) -> Match:
    number = int.from_bytes(seed, "big")
    strategies = [make_strategy(level, seed=number * 2 + n) for n, level in enumerate(levels)]
    match = Match(seed=seed, options=options, keep_events=False)
    while not match.over:
        seat = match.waiting_for()[0]
        match.apply(seat, strategies[seat].choose(match.view(seat)))
    return match


def main(games: int, target: int, levels: tuple[str, str]) -> None:
    options = GameOptions(target=target)
    per_seat: list[float] = []
    deals = [0, 0]
    decisions = 0
    given: list[float] = [0.0, 0.0]
    for n in range(games):
        seed = (n + 1).to_bytes(32, "big")  # a server's matches have 32 random bytes
        match = play(seed, options, levels)
        decisions += sum(1 for _, action in match.log if action.type in ("discard", "play"))
        for seat in (0, 1):
            only = (seat == 0, seat == 1)
            started = time.process_time()
            stats = review_stats(options, seed, match.log, only)[seat]
            per_seat.append(time.process_time() - started)
            deals[seat] += stats["reviewed_deals"]
            given[seat] += (
                stats["given_away_discard_milli"] + stats["given_away_play_milli"]
            ) / 1000
    total = sum(per_seat)
    print(
        f"{games} games to {target}, {levels[0]} v {levels[1]}: review CPU per seat and game "
        f"mean {statistics.mean(per_seat):.2f} s (min {min(per_seat):.2f}, "
        f"max {max(per_seat):.2f}); {1000 * total / max(1, decisions):.1f} ms a decision"
    )
    print(
        f"  one worker process: about {3600 / statistics.mean(per_seat) / 2:.0f} two-player "
        f"games an hour; points given away per deal: {levels[0]} "
        f"{given[0] / max(1, deals[0]):.2f}, {levels[1]} {given[1] / max(1, deals[1]):.2f}"
    )
    print(f"load average {os.getloadavg()[0]:.2f} (a shared 2-core machine)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--target", type=int, choices=(61, 121), default=121)
    parser.add_argument("--levels", nargs=2, default=["standard", "expert"])
    args = parser.parse_args()
    main(args.games, args.target, (args.levels[0], args.levels[1]))
