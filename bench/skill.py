"""Do the ratings measure skill? Players of known strength through the real matchmaking, in
plain best-of-three matches and in duplicate matches, and how well each rating orders them.

    nice -n 19 python bench/skill.py [--seeds 8] [--first-seed 1] [--checkpoints 10 20 30 50]
                                     [--json]

For each seed and each format a fresh server (in this process, memory store) takes a population
of bot accounts, each a WebSocket client on the wire protocol: the four levels (random, easy,
standard, expert) and the expert with noise (with probability p it makes a random legal move
instead of its own; p = 0.1, 0.2, 0.35, 0.5). Every player seeks rated matches (``seek``, with
``duplicate`` in the duplicate format) and plays them, again and again, until every player has
played the last checkpoint's number of matches; the queue pairs them by rating as it pairs
anyone. A player's rating after its m-th match comes from its history on the server.

**Known strengths** are a partial order: the levels by their measured ratings
(shared/bots/data/level_ratings.json: random < easy < standard < expert), and the noisy experts
by their noise (random < expert at 0.5 < 0.35 < 0.2 < 0.1 < expert). Kendall's tau is taken
over the pairs whose order is known: (agreeing - disagreeing) / known pairs, 1 when the ratings
order every known pair rightly. The table gives tau's mean over the seeds and its spread (the
standard deviation over the seeds) after each checkpoint's number of matches per player.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import time
from dataclasses import dataclass, replace
from itertools import combinations

from muggins.client.bot_account import play_account
from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.shared.actions import Action
from muggins.shared.bots import Strategy, make_strategy
from muggins.shared.names import name_key
from muggins.shared.view import SeatView

CONFIG = ServerConfig(
    port=0, memory=True, bot_delay=0.0, grace=5.0, sweep_interval=3600, rate=10_000, burst=10_000,
    max_per_address=10_000, rooms_per_minute=1e6, rooms_per_minute_per_address=1e6,
    review_workers=0,
)  # fmt: skip
NOISES = (0.1, 0.2, 0.35, 0.5)


@dataclass(frozen=True)
class Entrant:
    name: str
    level: str
    noise: float = 0.0


POPULATION = (
    Entrant("Random", "random"),
    Entrant("Easy", "easy"),
    Entrant("Standard", "standard"),
    Entrant("Expert", "expert"),
    *(Entrant(f"Expert n{int(p * 100):02}", "expert", p) for p in NOISES),
)
LEVEL_ORDER = ("random", "easy", "standard", "expert")


def known_pairs() -> list[tuple[str, str]]:
    """(weaker, stronger) for every pair whose order is known (see the module doc)."""
    pairs = set()
    plain = [e for e in POPULATION if e.noise == 0]
    for a, b in combinations(plain, 2):
        weak, strong = sorted((a, b), key=lambda e: LEVEL_ORDER.index(e.level))
        pairs.add((weak.name, strong.name))
    noisy = sorted(
        [e for e in POPULATION if e.level == "expert" or e.level == "random"],
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
        self.noise = noise
        self.rng = random.Random(f"noise:{seed}")

    def choose(self, view: SeatView) -> Action:
        if view.legal and self.rng.random() < self.noise:
            return self.rng.choice(view.legal)
        return self.inner.choose(view)


def strategy_of(entrant: Entrant, seed: int) -> Strategy:
    return Noisy(entrant.noise, seed) if entrant.noise else make_strategy(entrant.level, seed=seed)


async def one_run(seed: int, duplicate: bool, matches: int) -> dict[str, list[float]]:
    """Each player's rating after each of its matches, in one population on a fresh server."""
    async with running_server(replace(CONFIG)) as server:
        played = {e.name: 0 for e in POPULATION}
        enough = asyncio.Event()

        def counted(name: str) -> None:
            played[name] += 1
            if min(played.values()) >= matches:
                enough.set()

        tasks = [
            asyncio.create_task(
                play_account(
                    server.url,
                    level=e.level,
                    account=e.name,
                    password="a bench password",
                    register=True,
                    matches=10 * matches,
                    best_of=1 if duplicate else 3,
                    duplicate=duplicate,
                    strategy=strategy_of(e, seed * 100 + i),
                    on_result=lambda _, name=e.name: counted(name),
                    rate=10_000,
                    burst=10_000,
                )
            )
            for i, e in enumerate(POPULATION)
        ]
        await enough.wait()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        store = server.lobby.store
        ratings = {}
        for e in POPULATION:
            account = await store.find_account(key=name_key(e.name))
            assert account is not None
            history = await store.account_history(account.id, limit=10 * matches)
            after = [h.rating_after for h in reversed(history) if h.rating_after is not None]
            ratings[e.name] = after
        return ratings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=8)
    parser.add_argument(
        "--first-seed", type=int, default=1, help="run seeds from this one (to split a run)"
    )
    parser.add_argument("--checkpoints", type=int, nargs="+", default=[10, 20, 30, 50])
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    pairs = known_pairs()
    last = max(args.checkpoints)
    taus: dict[str, dict[int, list[float]]] = {"plain": {}, "duplicate": {}}
    started = time.perf_counter()
    for seed in range(args.first_seed, args.first_seed + args.seeds):
        for form in ("plain", "duplicate"):
            ratings = asyncio.run(one_run(seed, form == "duplicate", last))
            for m in args.checkpoints:
                at = {name: r[m - 1] for name, r in ratings.items()}
                taus[form].setdefault(m, []).append(tau(at, pairs))
            line = " ".join(f"{m}:{taus[form][m][-1]:.2f}" for m in args.checkpoints)
            print(f"seed {seed} {form:9} tau {line}", flush=True)
    elapsed = time.perf_counter() - started
    if args.json:
        print(json.dumps({f: {str(m): v for m, v in t.items()} for f, t in taus.items()}))
    size = f"{len(POPULATION)} players, {len(pairs)} known pairs, {args.seeds} seeds"
    print(f"\n{size}, {elapsed:.0f} s")
    print("| matches per player | plain best of three: tau (spread) | duplicate: tau (spread) |")
    print("|---|---|---|")
    for m in args.checkpoints:
        cells = []
        for form in ("plain", "duplicate"):
            values = taus[form][m]
            spread = statistics.stdev(values) if len(values) > 1 else 0.0
            cells.append(f"{statistics.mean(values):.2f} ({spread:.2f})")
        print(f"| {m} | {cells[0]} | {cells[1]} |")


if __name__ == "__main__":
    main()
