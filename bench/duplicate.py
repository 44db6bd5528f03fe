"""Benchmark: one level against another on duplicate deals, with the parts of the difference.

    nice -n 19 python bench/duplicate.py expert expert-2 --pairs 20000 --seed 350000 --workers 2

Each pair plays one seed twice with the players' seats swapped (``shared/bots/duplicate.py``), so
both get the same cards and the luck of the deal cancels. Prints the first player's win
difference per pair and points margin per pair with 95 % intervals, the pairs each swept, and
each player's points per completed deal by role and part (pegging, hand, crib) with the
difference between them. The seed chooses only the deals: pick one that no table or setting was
tuned on. Every ``--every`` pairs the report so far goes to stderr with its running sums, so
runs over disjoint ranges of pairs (``--start``) of one seed can be added together.
"""

from __future__ import annotations

import argparse
import sys
import time

from muggins.shared.bots.arena import ROLES, Tally
from muggins.shared.bots.duplicate import DuplicateTally, PairRecord, play_pair

PARTS = ("pegging", "hand", "crib")


def _pair(job: tuple[str, str, int, int]) -> PairRecord:
    first, second, seed, index = job
    return play_pair(first, second, seed=seed, index=index)


def report(first: str, second: str, tally: Tally, duplicate: DuplicateTally) -> str:
    d, d_low, d_high = duplicate.win_difference()
    m, m_low, m_high = duplicate.points_margin()
    lines = [
        f"{first} v {second}: {duplicate.pairs} pairs",
        f"  win difference per pair {d:+.4f} (95 % CI {d_low:+.4f} to {d_high:+.4f})",
        f"  points margin per pair  {m:+.3f} (95 % CI {m_low:+.3f} to {m_high:+.3f})",
        f"  pairs swept: {first} {duplicate.swept[0]}, {second} {duplicate.swept[1]};"
        f" deals that disagree: {duplicate.deals_disagree}",
        "  points per deal    " + "  ".join(f"{p:>8}" for p in PARTS) + "     total",
    ]
    for role in ROLES:
        for player, name in enumerate((first, second)):
            parts = [tally.per_deal(player, role, s) for s in PARTS]
            lines.append(
                f"  {name:<9} {role:<6} "
                + "  ".join(f"{x:8.3f}" for x in parts)
                + f"  {tally.per_deal(player, role):8.3f}"
            )
        diff = [tally.per_deal(0, role, s) - tally.per_deal(1, role, s) for s in PARTS]
        total = tally.per_deal(0, role) - tally.per_deal(1, role)
        lines.append(
            f"  {'difference':<9} {role:<6} "
            + "  ".join(f"{x:+8.3f}" for x in diff)
            + f"  {total:+8.3f}"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("first")
    parser.add_argument("second")
    parser.add_argument("--pairs", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--start", type=int, default=0, help="first pair index (to extend a run)")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--every", type=int, default=1000, help="progress every N pairs")
    args = parser.parse_args()
    tally = Tally(players=(args.first, args.second))
    duplicate = DuplicateTally()
    jobs = [
        (args.first, args.second, args.seed, i) for i in range(args.start, args.start + args.pairs)
    ]
    start = time.perf_counter()

    def add(pair: PairRecord) -> None:
        duplicate.add(pair)
        for game in pair.games:
            tally.add(game)
        if duplicate.pairs % args.every == 0:  # the whole report so far, so a stopped run counts
            print(
                f"{report(args.first, args.second, tally, duplicate)}\n"
                f"  sums: difference {duplicate.difference:g}, squares"
                f" {duplicate.difference_squares:g}; margin {duplicate.margin:g}, squares"
                f" {duplicate.margin_squares:g}; {time.perf_counter() - start:.0f} s",
                file=sys.stderr,
                flush=True,
            )

    if args.workers > 1:
        from multiprocessing import get_context

        with get_context().Pool(args.workers) as pool:
            for pair in pool.imap(_pair, jobs, chunksize=20):
                add(pair)
    else:
        for job in jobs:
            add(_pair(job))
    print(report(args.first, args.second, tally, duplicate))
    print(
        f"  seed {args.seed}, pairs {args.start}..{args.start + args.pairs - 1},"
        f" {time.perf_counter() - start:.0f} s on {args.workers} worker(s)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
