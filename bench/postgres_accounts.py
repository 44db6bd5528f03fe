"""Sign-in lookups and settlements a second on a node's PostgreSQL link, by pool size.

    nice -n 19 python bench/postgres_accounts.py [--callers 8] [--lookups 3000] [--settlements 600]

Starts its own PostgreSQL (initdb into a temporary folder, a free port; as root it runs as the
``postgres`` user: tests/server/pg_helpers.py), creates 200 accounts, then for a pool of one
connection and one of the default size (``--postgres-pool``) measures with 1 caller and with
``--callers`` callers at once: name lookups (a guest's ``hello``, ``find_account``),
settlements (``record_result``, a rated match between two random accounts, each match once),
and lookups while as many settlements run beside them (with each lookup's median and 99th
percentile time). Prints the figures.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
from pg_helpers import running_postgres

from muggins.server.results.settle import rate
from muggins.server.store.accounts import AccountRecord, MatchResult
from muggins.server.store.postgres import POOL_SIZE
from muggins.server.store.postgres_accounts import PostgresAccounts
from muggins.shared.glicko2 import Rating

ACCOUNTS = 200


def account(n: int) -> AccountRecord:
    return AccountRecord(
        id=f"a{n}",
        name=f"Player{n}",
        key=f"player{n}",
        password_hash="scrypt$x",
        created=1.0,
        rating=Rating(),
    )


class Matches:
    """Fresh match ids, each with two different random accounts."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed)
        self.count = 0

    def next(self) -> MatchResult:
        self.count += 1
        first, second = self.random.sample(range(ACCOUNTS), 2)
        return MatchResult(
            match=f"m{self.random.getrandbits(64):x}-{self.count}",
            finished=float(self.count),
            accounts=(f"a{first}", f"a{second}"),
            names=(f"Player{first}", f"Player{second}"),
            rated=True,
            score=1.0,
            match_points=(1, 0),
            stats=({"games": 1, "wins": 1}, {"games": 1, "losses": 1}),
        )


async def spread(
    total: int, callers: int, one: Callable[[], Awaitable[object]], took: list[float] | None = None
) -> float:
    """Run ``one`` ``total`` times over ``callers`` concurrent callers; calls a second (and each
    call's seconds appended to ``took``)."""

    async def caller(share: int) -> None:
        for _ in range(share):
            began = time.perf_counter()
            await one()
            if took is not None:
                took.append(time.perf_counter() - began)

    shares = [total // callers + (1 if i < total % callers else 0) for i in range(callers)]
    start = time.perf_counter()
    await asyncio.gather(*(caller(s) for s in shares))
    return total / (time.perf_counter() - start)


async def measure(url: str, pool: int, callers: int, args: argparse.Namespace) -> None:
    link = PostgresAccounts(url, pool_size=pool)
    names = random.Random(pool * 100 + callers)
    matches = Matches(pool * 1000 + callers)
    try:

        async def lookup() -> object:
            found = await link.find_account(key=f"player{names.randrange(ACCOUNTS)}")
            assert found is not None
            return found

        async def settlement() -> object:
            done = await link.record_result(matches.next(), rate)
            assert done
            return done

        await spread(pool * 20, pool * 2, lookup)  # the pool's connections made before timing
        lookups = await spread(args.lookups, callers, lookup)
        settlements = await spread(args.settlements, callers, settlement)
        # lookups while settlements run beside them (as many settling callers)
        mixed = asyncio.ensure_future(spread(args.settlements, callers, settlement))
        took: list[float] = []
        beside = await spread(args.lookups, callers, lookup, took)
        await mixed
        took.sort()
        median, p99 = took[len(took) // 2] * 1000, took[len(took) * 99 // 100] * 1000
        print(
            f"pool {pool:>2}, {callers:>2} caller(s): {lookups:6.0f} lookups/s, "
            f"{settlements:5.0f} settlements/s; beside settling {beside:6.0f} lookups/s, "
            f"each median {median:.2f} ms, p99 {p99:.2f} ms",
            flush=True,
        )
    finally:
        await link.close()


async def run(url: str, args: argparse.Namespace) -> None:
    setup = PostgresAccounts(url)
    try:
        for n in range(ACCOUNTS):
            await setup.create_account(account(n))
    finally:
        await setup.close()
    for pool in (1, args.pool):
        for callers in (1, args.callers):
            await measure(url, pool, callers, args)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--callers", type=int, default=8, help="concurrent callers (default 8)")
    parser.add_argument("--pool", type=int, default=POOL_SIZE, help="the larger pool's size")
    parser.add_argument("--lookups", type=int, default=3000, help="lookups per measurement")
    parser.add_argument("--settlements", type=int, default=600, help="settlements per measurement")
    args = parser.parse_args()
    with running_postgres() as postgres:
        print(f"PostgreSQL at {postgres.url}; {ACCOUNTS} accounts", flush=True)
        asyncio.run(run(postgres.url, args))


if __name__ == "__main__":
    main()
