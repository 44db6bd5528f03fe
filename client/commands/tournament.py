"""``muggins tournament``: computer players against each other, with the figures that matter."""

from __future__ import annotations

import argparse
import json
import os
import time
from itertools import combinations
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rich.console import Console

    from muggins.shared.bots.arena import GameRecord, Tally
    from muggins.shared.bots.duplicate import DuplicateTally, PairRecord

Job = tuple[str, str, int, list[int], int, bool, bool]

CHUNK = 25


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "tournament",
        help="play computer players against each other",
        description=(
            "Play computer players against each other and report wins with a 95% confidence "
            "interval, skunks, points per deal by role and source, and the first dealer's win "
            "rate. Two levels play one match-up; more play a round robin with a cross-table. "
            "With --duplicate each seed is played twice with the seats swapped, and the report "
            "adds the win difference and points margin per pair with 95% intervals. "
            "Example: muggins tournament expert standard --games 4000 --seed 1"
        ),
    )
    parser.add_argument(
        "levels",
        nargs="+",
        metavar="LEVEL",
        help=(
            "levels to play, e.g. expert, or a baseline: expert-3 (the previous expert), "
            "expert-2 or expert-1 (the first-generation expert)"
        ),
    )
    parser.add_argument(
        "--games", type=int, default=1000, help="games per pairing (pairs with --duplicate)"
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="play each seed twice with the seats swapped: both players get the same cards",
    )
    parser.add_argument("--seed", type=int, default=1, help="tournament seed (1)")
    parser.add_argument("--target", type=int, choices=(121, 61), default=121)
    parser.add_argument("--muggins", action="store_true", help="players count their own hands")
    parser.add_argument(
        "--workers",
        type=int,
        default=min(2, os.cpu_count() or 1),
        help="worker processes (default: up to 2)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--server", metavar="URL", help="play over real sockets on a server, e.g. ws://HOST:PORT"
    )
    parser.add_argument(
        "--rooms", type=int, default=4, help="with --server: games played at once (4)"
    )
    parser.set_defaults(handler=run)


def _play_chunk(job: Job) -> list[GameRecord] | list[PairRecord]:
    from muggins.shared.actions import GameOptions
    from muggins.shared.bots.arena import play_game
    from muggins.shared.bots.duplicate import play_pair

    first, second, seed, indices, target, muggins, duplicate = job
    options = GameOptions(target=target, muggins=muggins)
    if duplicate:
        return [play_pair(first, second, seed=seed, index=i, options=options) for i in indices]
    return [play_game(first, second, seed=seed, index=i, options=options) for i in indices]


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from muggins.shared.bots import BASELINES, LEVELS

    err = Console(stderr=True)
    known = [*LEVELS, *BASELINES]
    unknown = [level for level in args.levels if level not in known]
    if unknown:
        err.print(
            f"muggins tournament: unknown level {unknown[0]!r}; choose from {', '.join(known)}"
        )
        return 2
    if len(args.levels) < 2:
        err.print("muggins tournament: name at least two levels (the same one twice for self-play)")
        return 2
    if args.games < 1:
        err.print("muggins tournament: --games must be at least 1")
        return 2
    if args.workers < 1:
        err.print("muggins tournament: --workers must be at least 1")
        return 2
    if args.server and args.duplicate:
        err.print("muggins tournament: --duplicate needs the seeds, so it cannot run with --server")
        return 2
    if args.server:
        from muggins.client.commands.bot import run_server_tournament

        code: int = run_server_tournament(args)
        return code
    levels: list[str] = args.levels
    pairs = list(combinations(levels, 2)) if len(levels) > 2 else [(levels[0], levels[1])]
    start = time.perf_counter()
    tallies, duplicates = play_pairs(pairs, args, err)
    seconds = time.perf_counter() - start
    games = sum(t.games for t in tallies)
    if args.json:
        speed = {"seconds": round(seconds, 2), "workers": args.workers}
        objects = [
            {**t.to_json(), **({"duplicate": d.to_json(t.names())} if args.duplicate else {})}
            for t, d in zip(tallies, duplicates, strict=True)
        ]
        if len(tallies) == 1:
            print(json.dumps({**objects[0], **speed}))
        else:
            from muggins.shared.commands.tallies import cross_rates

            print(json.dumps({"pairings": objects, "cross": cross_rates(tallies), **speed}))
        return 0
    from muggins.shared.commands.tallies import cross_rates, print_cross, print_tally

    out = Console()
    for tally, duplicate in zip(tallies, duplicates, strict=True):
        print_tally(out, tally)
        if args.duplicate:
            print_duplicate(out, tally, duplicate)
    if len(tallies) > 1:
        print_cross(out, tallies)
    workers = f"{args.workers} worker{'s' if args.workers != 1 else ''}"
    out.print(f"{games} games in {seconds:.1f} s: {games / seconds:.1f} games/s on {workers}.")
    return 0


def play_pairs(
    pairs: list[tuple[str, str]], args: argparse.Namespace, err: Console
) -> tuple[list[Tally], list[DuplicateTally]]:
    from multiprocessing import get_context

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from muggins.shared.bots.arena import GameRecord, Tally
    from muggins.shared.bots.duplicate import DuplicateTally

    tallies = [Tally(players=(a, b)) for a, b in pairs]
    duplicates = [DuplicateTally() for _ in pairs]
    jobs: list[tuple[int, Job]] = []
    for n, (a, b) in enumerate(pairs):
        for start in range(0, args.games, CHUNK):
            indices = list(range(start, min(start + CHUNK, args.games)))
            jobs.append((n, (a, b, args.seed, indices, args.target, args.muggins, args.duplicate)))

    def add(n: int, records: list[GameRecord] | list[PairRecord]) -> None:
        for record in records:
            if isinstance(record, GameRecord):
                tallies[n].add(record)
            else:
                duplicates[n].add(record)
                for game in record.games:
                    tallies[n].add(game)

    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        "pairs" if args.duplicate else "games",
        TimeRemainingColumn(),
        console=err,
        transient=args.json,
    )
    unit = "pairs" if args.duplicate else "games"
    report = ProgressLines(err, sum(len(job[3]) for _, job in jobs), unit)
    with progress:
        tasks = [progress.add_task(f"{a} v {b}", total=args.games) for a, b in pairs]
        if args.workers <= 1:
            for n, job in jobs:
                add(n, _play_chunk(job))
                progress.advance(tasks[n], len(job[3]))
                report.advance(len(job[3]))
        else:
            with get_context().Pool(args.workers) as pool:
                results = pool.imap(_play_chunk, [job for _, job in jobs])
                for (n, job), records in zip(jobs, results, strict=True):
                    add(n, records)
                    progress.advance(tasks[n], len(job[3]))
                    report.advance(len(job[3]))
    return tallies, duplicates


class ProgressLines:
    """Progress as plain lines on stderr when it is not a terminal (a log, a CI job), where the
    live bar is not drawn: one line per tenth of the work, with the time taken and left."""

    def __init__(self, err: Console, total: int, unit: str) -> None:
        self.err, self.total, self.unit = err, total, unit
        self.done = 0
        self.start = time.perf_counter()
        self.next_tenth = 1
        self.quiet = err.is_terminal

    def advance(self, amount: int) -> None:
        self.done += amount
        if self.quiet or self.done * 10 < self.next_tenth * self.total:
            return
        while self.done * 10 >= self.next_tenth * self.total:
            self.next_tenth += 1
        elapsed = time.perf_counter() - self.start
        left = elapsed * (self.total - self.done) / self.done
        self.err.print(
            f"{self.done:,}/{self.total:,} {self.unit} in {elapsed:,.0f} s, "
            f"about {left:,.0f} s left",
            highlight=False,
        )


def print_duplicate(out: Console, tally: Tally, duplicate: DuplicateTally) -> None:
    names = tally.names()
    d, d_low, d_high = duplicate.win_difference()
    m, m_low, m_high = duplicate.points_margin()
    out.print(
        f"Duplicate deals, {duplicate.pairs} pairs (each seed played twice, seats swapped), "
        f"from {names[0]}'s side:\n"
        f"  win difference per pair {d:+.4f} (95% CI {d_low:+.4f} to {d_high:+.4f})\n"
        f"  points margin per pair {m:+.2f} (95% CI {m_low:+.2f} to {m_high:+.2f})\n"
        f"  pairs won both games: {names[0]} {duplicate.swept[0]}, {names[1]} "
        f"{duplicate.swept[1]}; split {duplicate.pairs - sum(duplicate.swept)}"
    )
    if duplicate.deals_disagree:
        out.print(f"[red]{duplicate.deals_disagree} pairs were not dealt the same cards![/red]")
    out.print()
