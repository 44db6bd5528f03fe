"""``muggins to-postgres``: move a cluster's accounts and finished games from Redis into
PostgreSQL.

For a cluster that kept everything in Redis until now: its accounts, sessions, histories,
settled matches and review queue move (:mod:`server.cluster.accounts_to_postgres`), then what
nodes started with ``--postgres`` do in every sweep round is done at once for the finished games.
Each move is a copy keyed by its id, then a delete, so running it twice moves nothing twice.
Run it with the nodes stopped (for the accounts), then start them with ``--postgres``.
"""

from __future__ import annotations

import argparse
from typing import Any

from muggins.server.results.settle import PAIR_RATED_MAX


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "to-postgres",
        help="move a cluster's accounts and finished games from Redis into PostgreSQL",
        description="Move the accounts (with their sessions, histories and queued reviews) and "
        "every finished game that nothing live needs any more (settled, and its room closed) "
        "from the cluster's Redis into PostgreSQL, creating the tables if needed. Stop the "
        "nodes first, and start them with --postgres URL afterwards. Running it again moves "
        "nothing twice.",
    )
    parser.add_argument("--redis", required=True, metavar="URL", help="redis://HOST:6379/0")
    parser.add_argument(
        "--postgres", required=True, metavar="URL", help="postgresql://USER@HOST:5432/DB"
    )
    parser.add_argument(
        "--rated-pair-per-day",
        type=int,
        default=PAIR_RATED_MAX,
        metavar="N",
        help="as the nodes' own: rated matches two accounts may play each other in 24 hours "
        "that move their ratings, for the matches it settles (default: %(default)s)",
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from muggins.server.cluster.accounts_to_postgres import AccountsImport, move_accounts
    from muggins.server.cluster.archive import archive_finished
    from muggins.server.cluster.coordination import ClusterStore
    from muggins.server.cluster.settling import settle_unsettled
    from muggins.server.store.games import StoreError
    from muggins.server.store.postgres import PostgresArchive

    async def move() -> int:
        archive = PostgresArchive(args.postgres)
        store = ClusterStore(args.redis, archive=archive)
        target = AccountsImport(args.postgres)
        total = 0
        try:
            await store.open()
            accounts = await move_accounts(store, target)
            print(
                f"moved {accounts.accounts} accounts ({accounts.sessions} sessions, "
                f"{accounts.history} history entries), {accounts.settled} settled matches, "
                f"{accounts.reviews} queued reviews, {accounts.records} moderation records, "
                f"{accounts.lines} moderation log and chat lines",
                flush=True,
            )
            for name in accounts.clashes:
                print(
                    f"left in Redis: {name} (another account has that name in PostgreSQL; "
                    "nodes with --postgres will not start while it is there)"
                )
            await settle_unsettled(  # what is over and not settled yet
                store, quiet_for=0.0, pair_max=args.rated_pair_per_day, limit=10**9
            )
            while moved := await archive_finished(store, archive):
                total += moved
                print(f"moved {total} finished games so far", flush=True)
            left = len(await store.oldest_finished(limit=10**9))
        finally:
            await target.close()
            await store.close()
        print(f"moved {total} finished games; {left} stay in Redis while their rooms need them")
        return total

    try:
        asyncio.run(move())
    except StoreError as error:
        print(f"muggins to-postgres: {error}")
        return 1
    return 0
