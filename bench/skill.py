"""Do the ratings measure skill? Players of known strength through the real matchmaking, in
plain best-of-three matches and in duplicate matches, and how well each rating orders them.

    nice -n 19 python bench/skill.py [--seeds 1-8] [--population levels|close]
                                     [--checkpoints 10 20 30 50] [--json FILE]
    python bench/skill.py --merge FILE... [--population ...]   (the table of split runs)

For each seed and each format a fresh server (in this process, memory store) takes a population
of bot accounts, each a WebSocket client on the wire protocol: the four levels (random, easy,
standard, expert) and the expert with noise (with probability p it makes a random legal move
instead of its own; ``levels``: p = 0.1, 0.2, 0.35, 0.5; ``close``: p = 0.05, 0.1, 0.15, 0.2,
neighbours nearer in strength, so harder to order). Every player seeks rated matches (``seek``,
with ``duplicate`` in the duplicate format) and plays them, again and again, until every player
has played the last checkpoint's number of rated matches; the queue pairs them by rating as it
pairs anyone. The server lifts its per-address limits and the rated-pair limit (the same eight
accounts meet again and again; a duplicate match keeps the server's limit too). A player's
rating after its m-th match comes from its history on the server. All the runs of one process
share its event loop, concurrently. A run lasts as long as its slowest player takes to reach the
last checkpoint: in the duplicate format the Expert, whose rating ends farthest from the rest,
waits in the queue for each match while the others play several (so they play 100-250 matches
to its 50; only their first 50 count). Every minute each run prints its players' matches so
far on stderr, and at its end its tau and the range of matches played.

**Known strengths** are a partial order: the levels by their measured ratings
(shared/bots/data/level_ratings.json: random < easy < standard < expert), and the noisy experts
by their noise (random < the noisiest expert < ... < the least noisy < expert). Kendall's tau is
taken over the pairs whose order is known: (agreeing - disagreeing) / known pairs, 1 when the
ratings order every known pair rightly. The table gives, after each checkpoint's number of
matches per player, tau's mean over the seeds and its standard deviation in each format, the
mean of duplicate's lead over plain (seed by seed) with its 95% interval (Student's t), and the
seeds where duplicate is ahead, level and behind.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from itertools import combinations

from muggins.client.bot_account import play_account
from muggins.client.remote_bot import RemoteResult
from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.server.store.games import Store
from muggins.shared.actions import Action
from muggins.shared.bots import Strategy, make_strategy
from muggins.shared.names import name_key
from muggins.shared.view import SeatView

CONFIG = ServerConfig(
    port=0, memory=True, bot_delay=0.0, grace=5.0, sweep_interval=3600, rate=10_000, burst=10_000,
    max_per_address=10_000, rooms_per_minute=1e6, rooms_per_minute_per_address=1e6,
    review_workers=0, registrations_per_hour=1e9, idle_timeout=1e9,
    rated_pair_per_day=10**9,  # eight players meet each other again and again, all rated
    # A player far from the others in rating may wait in the queue, silent, longer than the
    # idle limit: until its range reaches someone seeking (the pool is small).
)  # fmt: skip


@dataclass(frozen=True)
class Entrant:
    name: str
    level: str
    noise: float = 0.0


def population(noises: tuple[float, ...]) -> tuple[Entrant, ...]:
    """The four levels, and the expert at each of these noises."""
    levels = tuple(Entrant(level.capitalize(), level) for level in LEVEL_ORDER)
    return levels + tuple(Entrant(f"Expert n{round(p * 100):02}", "expert", p) for p in noises)


LEVEL_ORDER = ("random", "easy", "standard", "expert")
POPULATIONS = {
    "levels": population((0.1, 0.2, 0.35, 0.5)),
    "close": population((0.05, 0.1, 0.15, 0.2)),
}


def known_pairs(players: tuple[Entrant, ...]) -> list[tuple[str, str]]:
    """(weaker, stronger) for every pair whose order is known (see the module doc)."""
    pairs = set()
    plain = [e for e in players if e.noise == 0]
    for a, b in combinations(plain, 2):
        weak, strong = sorted((a, b), key=lambda e: LEVEL_ORDER.index(e.level))
        pairs.add((weak.name, strong.name))
    noisy = sorted(
        [e for e in players if e.level == "expert" or e.level == "random"],
        key=lambda e: -(1.0 if e.level == "random" else e.noise),
    )
    for i, weak in enumerate(noisy):
        for strong in noisy[i + 1 :]:
            pairs.add((weak.name, strong.name))
    return sorted(pairs)


def tau(ratings: dict[str, float], pairs: list[tuple[str, str]]) -> float:
    """Kendall's tau over the known pairs: (agreeing - disagreeing) / pairs (a tie is neither)."""
    score = sum((ratings[s] > ratings[w]) - (ratings[s] < ratings[w]) for w, s in pairs)
    return score / len(pairs)


class Noisy:
    """The expert, but with probability ``noise`` a random legal move instead of its own."""

    def __init__(self, noise: float, seed: int) -> None:
        self.inner = make_strategy("expert", seed=seed)
        self.level = "expert"
        self.noise = noise
        self.rng = random.Random(f"noise:{seed}")

    def choose(self, view: SeatView) -> Action:
        if view.legal and self.rng.random() < self.noise:
            return self.rng.choice(view.legal)
        return self.inner.choose(view)


def strategy_of(entrant: Entrant, seed: int) -> Strategy:
    return Noisy(entrant.noise, seed) if entrant.noise else make_strategy(entrant.level, seed=seed)


async def one_run(
    players: tuple[Entrant, ...], seed: int, duplicate: bool, matches: int
) -> dict[str, list[float]]:
    """Each player's rating after each of its matches, in one population on a fresh server."""
    async with running_server(replace(CONFIG)) as server:
        played = {e.name: 0 for e in players}
        enough = asyncio.Event()

        def counter(name: str) -> Callable[[RemoteResult], None]:
            def counted(_: RemoteResult) -> None:
                played[name] += 1
                if min(played.values()) >= matches:
                    enough.set()

            return counted

        tasks = [
            asyncio.create_task(
                play_account(
                    server.url,
                    level=e.level,
                    account=e.name,
                    password="a bench password",
                    register=True,
                    # Until the bench stops it: a player that stopped early would take itself
                    # out of the pool the others are paired from (the fastest reach any cap
                    # first: a far-rated player waits longer in the queue for each match).
                    matches=10**9,
                    best_of=1 if duplicate else 3,
                    duplicate=duplicate,
                    strategy=strategy_of(e, seed * 100 + i),
                    on_result=counter(e.name),
                    rate=10_000,
                    burst=10_000,
                )
            )
            for i, e in enumerate(players)
        ]
        waiting = asyncio.create_task(enough.wait())
        progress = asyncio.create_task(report_progress(seed, duplicate, played))
        done, _ = await asyncio.wait([waiting, *tasks], return_when=asyncio.FIRST_COMPLETED)
        for task in done - {waiting}:
            task.result()  # a player that stopped early: raise its error rather than wait for ever
            raise RuntimeError("a player stopped playing before the last checkpoint")
        store = server.lobby.store
        ratings = await rated_histories(store, players, matches)
        while min(len(after) for after in ratings.values()) < matches:
            await asyncio.sleep(0.5)  # the last results are being recorded
            ratings = await rated_histories(store, players, matches)
        waiting.cancel()
        progress.cancel()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        return ratings


async def report_progress(seed: int, duplicate: bool, played: dict[str, int]) -> None:
    """Each player's matches so far, every minute, on stderr (a slow run shows who it waits for)."""
    form = "duplicate" if duplicate else "plain"
    while True:
        await asyncio.sleep(60)
        counts = " ".join(f"{name}:{n}" for name, n in played.items())
        print(f"  seed {seed} {form}: {counts}", file=sys.stderr, flush=True)


async def rated_histories(
    store: Store, players: tuple[Entrant, ...], matches: int
) -> dict[str, list[float]]:
    """Each player's rating after each of its rated matches so far, oldest first."""
    ratings = {}
    for e in players:
        account = await store.find_account(key=name_key(e.name))
        assert account is not None
        history = await store.account_history(account.id, limit=10 * matches)
        ratings[e.name] = [h.rating_after for h in reversed(history) if h.rating_after is not None]
    return ratings


FORMATS = ("plain", "duplicate")
Taus = dict[str, dict[int, dict[int, float]]]
"""tau by format, then matches per player, then seed."""


def seed_range(text: str) -> list[int]:
    """``1-8`` or ``5``."""
    first, _, last = text.partition("-")
    return list(range(int(first), int(last or first) + 1))


async def run_seeds(
    players: tuple[Entrant, ...],
    seeds: list[int],
    checkpoints: list[int],
    out: str | None,
    formats: tuple[str, ...] = FORMATS,
) -> Taus:
    """Every seed in both formats at once, each on its own server in this event loop: most of a
    run's time is players waiting in the queue for the range to reach an opponent, which the
    other runs' play fills."""
    pairs = known_pairs(players)
    taus: Taus = {form: {m: {} for m in checkpoints} for form in FORMATS}

    async def run(seed: int, form: str) -> None:
        started = time.perf_counter()
        ratings = await one_run(players, seed, form == "duplicate", max(checkpoints))
        for m in checkpoints:
            taus[form][m][seed] = tau({name: r[m - 1] for name, r in ratings.items()}, pairs)
        line = " ".join(f"{m}:{taus[form][m][seed]:.2f}" for m in checkpoints)
        counts = sorted(len(r) for r in ratings.values())
        print(
            f"seed {seed} {form:9} tau {line}  (matches played {counts[0]}-{counts[-1]}, "
            f"{time.perf_counter() - started:.0f} s)",
            flush=True,
        )
        if out is not None:  # after each run, so a run cut short keeps what it finished
            with open(out, "w") as file:
                json.dump(taus, file)

    await asyncio.gather(*(run(seed, form) for seed in seeds for form in formats))
    return taus


# Two-sided 95% quantiles of Student's t by degrees of freedom (then 1.96).
T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26}
T95 |= {10: 2.23, 11: 2.20, 12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13}


def table(taus: Taus) -> list[str]:
    """Markdown rows: tau's mean (standard deviation over the seeds) in each format, the mean
    difference with its 95% interval (paired by seed), and the seeds duplicate is ahead / level
    / behind."""
    rows = [
        "| matches per player | plain: τ mean (sd) | duplicate: τ mean (sd) "
        "| duplicate − plain (95% CI) | seeds duplicate ahead / level / behind |",
        "|---|---|---|---|---|",
    ]
    for m in sorted(taus["plain"]):
        seeds = sorted(taus["plain"][m])
        plain = [taus["plain"][m][s] for s in seeds]
        dup = [taus["duplicate"][m][s] for s in seeds]
        diffs = [d - p for p, d in zip(plain, dup, strict=True)]
        cells = [f"{statistics.mean(v):.2f} ({sd(v):.2f})" for v in (plain, dup)]
        half = T95.get(len(diffs) - 1, 1.96) * sd(diffs) / len(diffs) ** 0.5
        ahead = sum(d > 0 for d in diffs), sum(d == 0 for d in diffs), sum(d < 0 for d in diffs)
        mean = statistics.mean(diffs)
        rows.append(
            f"| {m} | {cells[0]} | {cells[1]} | {mean:+.2f} ({mean - half:+.2f} to "
            f"{mean + half:+.2f}) | {ahead[0]} / {ahead[1]} / {ahead[2]} |"
        )
    return rows


def sd(values: list[float]) -> float:
    return statistics.stdev(values) if len(values) > 1 else 0.0


def merged(files: list[str]) -> Taus:
    """The figures of several runs (``--json FILE``), e.g. seeds split over two processes."""
    taus: Taus = {form: {} for form in FORMATS}
    for name in files:
        with open(name) as file:
            data = json.load(file)
        for form in FORMATS:
            for m, by_seed in data[form].items():
                taus[form].setdefault(int(m), {}).update({int(s): v for s, v in by_seed.items()})
    return taus


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", default="1-8", help="seeds to run: 1-8, or 5")
    parser.add_argument("--population", choices=sorted(POPULATIONS), default="levels")
    parser.add_argument("--checkpoints", type=int, nargs="+", default=[10, 20, 30, 50])
    parser.add_argument(
        "--formats", nargs="+", choices=FORMATS, default=list(FORMATS), help="formats to run"
    )
    parser.add_argument("--json", metavar="FILE", help="also write the figures to FILE")
    parser.add_argument(
        "--merge", nargs="+", metavar="FILE", help="run nothing: the table of these --json files"
    )
    args = parser.parse_args()
    players = POPULATIONS[args.population]
    if args.merge:
        taus = merged(args.merge)
    else:
        seeds = seed_range(args.seeds)
        started = time.perf_counter()
        taus = asyncio.run(
            run_seeds(players, seeds, args.checkpoints, args.json, tuple(args.formats))
        )
        elapsed = time.perf_counter() - started
        print(f"\n{len(seeds)} seeds, {elapsed:.0f} s")
    pairs = known_pairs(players)
    print(f"{args.population}: {len(players)} players, {len(pairs)} known pairs")
    if all(taus[form].get(m) for form in FORMATS for m in taus["plain"]):
        print("\n".join(table(taus)))


if __name__ == "__main__":
    main()
