"""Benchmark: a level against a baseline from fixed endgame scores, on the same cards.

    nice -n 19 python bench/endgame.py expert expert-2 --pairs 1000 --seed 360000 --workers 2

For each fixture (the level's score first: 90-90, 100-110, 110-110, 115-115, 118-118, 120-120,
119-115) and each role (the level deals, or it is pone), pair ``i`` deals one seed twice from
those scores: once with the level in that seat against the baseline, once with the baseline in
that seat against itself. Both games get the same cards and the same seeded bots in the other
seat, so the difference of the two results (+1, 0 or -1 a pair) is what the level's own
decisions in that seat change. Prints the level's win rate, the baseline's in the same seat, the
difference with its 95 % interval, and how many pairs the level's seat won that the baseline's
lost (+1) and the reverse (-1), then all the fixtures played together: runs add up by those
counts. The seed chooses only the deals. ``--only 120-120:dealer`` (several, comma-separated)
plays only those fixtures and roles, with the same cards as a full run.
"""

from __future__ import annotations

import argparse
import sys
import time

from muggins.shared.bots.arena import game_seed
from muggins.shared.bots.base import make_strategy
from muggins.shared.bots.duplicate import mean_ci
from muggins.shared.match import Match

FIXTURES = ((90, 90), (100, 110), (110, 110), (115, 115), (118, 118), (120, 120), (119, 115))


def play_from(levels: tuple[str, str], scores: tuple[int, int], *, deals: bool, seed: int) -> bool:
    """Whether ``levels[0]`` wins from ``scores`` (its own first), dealing first or not, against
    ``levels[1]`` in the other seat; the match from ``seed`` decides the cards."""
    match = Match(seed=seed, keep_events=False)
    game = match.game
    mine = game.dealer if deals else 1 - game.dealer
    game.scores[mine], game.scores[1 - mine] = scores
    game.previous_scores = list(game.scores)
    seat_level = {mine: levels[0], 1 - mine: levels[1]}
    bots = [make_strategy(seat_level[s], seed=seed ^ (s + 1)) for s in (0, 1)]
    while not match.games:
        seat = match.waiting_for()[0]
        match.apply(seat, bots[seat].choose(match.view(seat)))
    return match.games[-1].winner == mine


def parse_only(text: str) -> set[tuple[int, int, bool]]:
    """The fixtures and roles named by ``--only``: ``A-B:dealer`` or ``A-B:pone``, separated by
    commas."""
    out: set[tuple[int, int, bool]] = set()
    for item in text.split(","):
        score, _, role = item.strip().partition(":")
        a, _, b = score.partition("-")
        if not (a.isdigit() and b.isdigit()) or (int(a), int(b)) not in FIXTURES:
            raise ValueError(f"{item!r} is not one of the fixtures (90-90 to 119-115)")
        if role not in ("dealer", "pone"):
            raise ValueError(f"{item!r} needs a role: add :dealer or :pone")
        out.add((int(a), int(b), role == "dealer"))
    return out


def _pair(job: tuple[str, str, int, int, int, bool, int]) -> tuple[int, int]:
    level, base, seed, a, b, deals, index = job
    s = game_seed(seed, index) ^ (a << 8 | b) ^ (0x454E44 if deals else 0x504F4E)
    return (
        int(play_from((level, base), (a, b), deals=deals, seed=s)),
        int(play_from((base, base), (a, b), deals=deals, seed=s)),
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("level")
    parser.add_argument("baseline")
    parser.add_argument("--pairs", type=int, default=500, help="pairs per fixture and role")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument(
        "--only", help="fixtures and roles to play, e.g. 120-120:dealer,110-110:pone"
    )
    args = parser.parse_args()
    try:
        only = parse_only(args.only) if args.only else None
    except ValueError as error:
        parser.error(str(error))
    start = time.perf_counter()
    print(f"{args.level} against {args.baseline}, {args.pairs} pairs each, seed {args.seed}")
    print("fixture  role    level wins  baseline wins  difference (95 % CI)        +1 / -1")
    pool = None
    if args.workers > 1:
        from multiprocessing import get_context

        pool = get_context().Pool(args.workers)
    swings = [0, 0]  # pairs at +1 and at -1 over every fixture played
    played = 0
    for a, b in FIXTURES:
        for deals in (True, False):
            if only is not None and (a, b, deals) not in only:
                continue
            jobs = [
                (args.level, args.baseline, args.seed, a, b, deals, i) for i in range(args.pairs)
            ]
            results = pool.map(_pair, jobs, chunksize=10) if pool else [_pair(job) for job in jobs]
            diffs = [x - y for x, y in results]
            up, down = diffs.count(1), diffs.count(-1)
            swings[0] += up
            swings[1] += down
            played += len(diffs)
            d, low, high = mean_ci(up - down, up + down, len(diffs))
            mine = sum(x for x, _ in results) / len(results)
            theirs = sum(y for _, y in results) / len(results)
            print(
                f"{a}-{b:<4} {'dealer' if deals else 'pone':<7} {mine:10.3f}  {theirs:13.3f}"
                f"  {d:+.4f} ({low:+.4f} to {high:+.4f})  {up:>5} / {down}",
                flush=True,
            )
    if played:
        d, low, high = mean_ci(swings[0] - swings[1], sum(swings), played)
        print(
            f"all {played} pairs{'':<20}  {d:+.4f} ({low:+.4f} to {high:+.4f})"
            f"  {swings[0]:>5} / {swings[1]}"
        )
    if pool is not None:
        pool.close()
    print(f"{time.perf_counter() - start:.0f} s on {args.workers} worker(s)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
