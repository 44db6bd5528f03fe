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

    from shared.bots.arena import GameRecord, Tally

CHUNK = 25


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "tournament",
        help="play computer players against each other",
        description=(
            "Play computer players against each other and report wins with a 95%% confidence "
            "interval, skunks, points per deal by role and source, and the first dealer's win "
            "rate. Two levels play one match-up; more play a round robin with a cross-table. "
            "Example: muggins tournament expert standard --games 4000 --seed 1"
        ),
    )
    parser.add_argument("levels", nargs="+", metavar="LEVEL", help="levels to play, e.g. expert")
    parser.add_argument("--games", type=int, default=1000, help="games per pairing (1000)")
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


def _play_chunk(job: tuple[str, str, int, list[int], int, bool]) -> list[GameRecord]:
    from shared.actions import GameOptions
    from shared.bots.arena import play_game

    first, second, seed, indices, target, muggins = job
    options = GameOptions(target=target, muggins=muggins)
    return [play_game(first, second, seed=seed, index=i, options=options) for i in indices]


def run(args: argparse.Namespace) -> int:
    from rich.console import Console

    from shared.bots import LEVELS

    err = Console(stderr=True)
    unknown = [level for level in args.levels if level not in LEVELS]
    if unknown:
        err.print(
            f"muggins tournament: unknown level {unknown[0]!r}; choose from {', '.join(LEVELS)}"
        )
        return 2
    if len(args.levels) < 2:
        err.print("muggins tournament: name at least two levels (the same one twice for self-play)")
        return 2
    if args.games < 1:
        err.print("muggins tournament: --games must be at least 1")
        return 2
    if args.server:
        from shared.commands.bot import run_server_tournament

        code: int = run_server_tournament(args)
        return code
    levels: list[str] = args.levels
    pairs = list(combinations(levels, 2)) if len(levels) > 2 else [(levels[0], levels[1])]
    start = time.perf_counter()
    tallies = play_pairs(pairs, args, err)
    seconds = time.perf_counter() - start
    games = sum(t.games for t in tallies)
    if args.json:
        speed = {"seconds": round(seconds, 2), "workers": args.workers}
        if len(tallies) == 1:
            print(json.dumps({**tallies[0].to_json(), **speed}))
        else:
            pairings = [t.to_json() for t in tallies]
            print(json.dumps({"pairings": pairings, "cross": cross_rates(tallies), **speed}))
        return 0
    out = Console()
    for tally in tallies:
        print_tally(out, tally)
    if len(tallies) > 1:
        print_cross(out, tallies)
    workers = f"{args.workers} worker{'s' if args.workers != 1 else ''}"
    out.print(f"{games} games in {seconds:.1f} s: {games / seconds:.1f} games/s on {workers}.")
    return 0


def play_pairs(pairs: list[tuple[str, str]], args: argparse.Namespace, err: Console) -> list[Tally]:
    from multiprocessing import get_context

    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    from shared.bots.arena import Tally

    tallies = [Tally(players=(a, b)) for a, b in pairs]
    jobs: list[tuple[int, tuple[str, str, int, list[int], int, bool]]] = []
    for n, (a, b) in enumerate(pairs):
        for start in range(0, args.games, CHUNK):
            indices = list(range(start, min(start + CHUNK, args.games)))
            jobs.append((n, (a, b, args.seed, indices, args.target, args.muggins)))
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        MofNCompleteColumn(),
        "games",
        TimeRemainingColumn(),
        console=err,
        transient=args.json,
    )
    with progress:
        tasks = [progress.add_task(f"{a} v {b}", total=args.games) for a, b in pairs]
        if args.workers <= 1:
            for n, job in jobs:
                for record in _play_chunk(job):
                    tallies[n].add(record)
                progress.advance(tasks[n], len(job[3]))
        else:
            with get_context().Pool(args.workers) as pool:
                results = pool.imap(_play_chunk, [job for _, job in jobs])
                for (n, job), records in zip(jobs, results, strict=True):
                    for record in records:
                        tallies[n].add(record)
                    progress.advance(tasks[n], len(job[3]))
    return tallies


def cross_rates(tallies: list[Tally]) -> dict[str, dict[str, float]]:
    """Each player's win rate against each other player."""
    cross: dict[str, dict[str, float]] = {}
    for tally in tallies:
        a, b = tally.names()
        cross.setdefault(a, {})[b] = tally.win_rate(0)
        cross.setdefault(b, {})[a] = tally.win_rate(1)
    return cross


def print_tally(out: Console, tally: Tally) -> None:
    from rich.table import Table

    from shared.bots.arena import ROLES, wilson

    names = tally.names()
    table = Table(title=f"{names[0]} v {names[1]}: {tally.games} games")
    for column in ("player", "wins", "win %", "95% CI", "skunks"):
        table.add_column(column, justify="left" if column == "player" else "right")
    for p in (0, 1):
        low, high = wilson(tally.wins[p], tally.games)
        table.add_row(
            names[p],
            str(tally.wins[p]),
            f"{100 * tally.win_rate(p):.1f}",
            f"{100 * low:.1f}–{100 * high:.1f}",
            str(tally.skunks[p]),
        )
    out.print(table)
    sources = ["pegging", "hand", "crib"]
    if any(source == "muggins" and n for (_, _, source), n in tally.points.items()):
        sources.append("muggins")
    points = Table(title="Mean points per deal")
    for column in ("player", "role", "total", *sources):
        points.add_column(column, justify="left" if column in ("player", "role") else "right")
    for p in (0, 1):
        for role in ROLES:
            points.add_row(
                names[p],
                role,
                f"{tally.per_deal(p, role):.2f}",
                *(f"{tally.per_deal(p, role, s):.2f}" for s in sources),
            )
    out.print(points)
    rate = tally.first_dealer_wins / tally.games
    out.print(f"The first dealer won {100 * rate:.1f}% of games.\n")


def print_cross(out: Console, tallies: list[Tally]) -> None:
    from rich.table import Table

    cross = cross_rates(tallies)
    players = list(cross)
    table = Table(title="Cross-table: win % of the row against the column")
    table.add_column("")
    for p in players:
        table.add_column(p, justify="right")
    for row in players:
        table.add_row(
            row,
            *("—" if col == row else f"{100 * cross[row][col]:.1f}" for col in players),
        )
    out.print(table)
