"""``muggins to-postgres``: move a cluster's finished games from Redis into PostgreSQL.

What nodes started with ``--postgres`` do in every sweep round, done at once: for a cluster
that kept everything in Redis until now. The nodes may keep serving meanwhile (each move is a
copy keyed by the match id, then a delete), and running it twice moves nothing twice.
"""

from __future__ import annotations

import argparse
from typing import Any


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "to-postgres",
        help="move a cluster's finished games from Redis into PostgreSQL",
        description="Move every finished game that nothing live needs any more (settled, and "
        "its room closed) from the cluster's Redis into PostgreSQL, "
        "creating the tables if needed. Nodes may keep serving; start them with --postgres "
        "URL afterwards so later games follow.",
    )
    parser.add_argument("--redis", required=True, metavar="URL", help="redis://HOST:6379/0")
    parser.add_argument(
        "--postgres", required=True, metavar="URL", help="postgresql://USER@HOST:5432/DB"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from muggins.server.cluster.archive import archive_finished
    from muggins.server.cluster.coordination import ClusterStore
    from muggins.server.cluster.settling import settle_unsettled
    from muggins.server.store.games import StoreError
    from muggins.server.store.postgres import PostgresArchive

    async def move() -> int:
        archive = PostgresArchive(args.postgres)
        store = ClusterStore(args.redis, archive=archive)
        total = 0
        try:
            await store.open()
            await settle_unsettled(
                store, quiet_for=0.0, limit=10**9
            )  # what is over and not settled yet
            while moved := await archive_finished(store, archive):
                total += moved
                print(f"moved {total} finished games so far", flush=True)
            left = len(await store.oldest_finished(limit=10**9))
        finally:
            await store.close()
        print(f"moved {total} finished games; {left} stay in Redis while their rooms need them")
        return total

    try:
        asyncio.run(move())
    except StoreError as error:
        print(f"muggins to-postgres: {error}")
        return 1
    return 0
