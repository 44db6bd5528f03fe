"""Where ``muggins history``, ``replay`` and ``review`` read finished games: SQLite, or Redis
(and the PostgreSQL its finished games moved to)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from muggins.server.store.games import MatchRecord, Store


def add_options(parser: Any, *, accounts: bool = False) -> None:
    """``--db PATH`` or ``--redis URL`` (one of them; the default reads both default files).
    ``accounts``: for a command that writes accounts (``muggins admin grant``), which uses the
    server's file alone."""
    where = parser.add_mutually_exclusive_group()
    where.add_argument(
        "--db",
        type=Path,
        metavar="PATH",
        help="the server's SQLite file (default: muggins.db in your data directory)"
        if accounts
        else "one SQLite file (default: both in your data directory)",
    )
    where.add_argument(
        "--redis",
        metavar="URL",
        help="a cluster's Redis (redis://HOST:6379/0)"
        if accounts
        else "read a cluster's games from its Redis (redis://HOST:6379/0)",
    )
    parser.add_argument(
        "--postgres",
        metavar="URL",
        help="with --redis: the cluster's PostgreSQL (its nodes' --postgres): finished games "
        "moved there, and the accounts kept there",
    )


def open_archives(args: argparse.Namespace) -> list[Store] | str:
    """The stores the arguments name (not yet opened), or a sentence saying why there is none.

    Without ``--db`` or ``--redis``: each default SQLite file that exists (``muggins serve``'s and
    the one ``muggins play`` embeds)."""
    if args.redis is not None:
        from muggins.server.cluster.redis_store import RedisStore

        if not args.redis.startswith(("redis://", "rediss://", "unix://")):
            return f"{args.redis} is not a Redis URL (redis://HOST:6379/0)"
        archive = accounts = None
        if getattr(args, "postgres", None):
            from muggins.server.store.postgres import PostgresArchive
            from muggins.server.store.postgres_accounts import PostgresAccounts

            archive = PostgresArchive(args.postgres)
            accounts = PostgresAccounts(args.postgres)
        return [RedisStore(args.redis, archive=archive, accounts=accounts)]
    from muggins.server.store.datafiles import game_files
    from muggins.server.store.sqlite_games import SqliteStore

    paths = game_files(args.db)
    missing = [path for path in paths if not path.exists()]
    if missing:
        return f"no games yet ({missing[0]} does not exist)"
    if not paths:
        return "no games yet (nothing kept in your data directory)"
    return [SqliteStore(path) for path in paths]


async def find_match(stores: list[Store], code: str, number: int) -> MatchRecord | None:
    """The match ``code``-``number`` from the first of ``stores`` that keeps it (each is opened
    and closed in turn), or None."""
    for store in stores:
        await store.open()
        try:
            record = await store.load_match(code, number)
        finally:
            await store.close()
        if record is not None:
            return record
    return None


def finished_match(args: argparse.Namespace, command: str) -> MatchRecord | int:
    """The finished game ``args.id`` names, from the stores the arguments name; or, having
    printed why not (``muggins COMMAND: ...``), the exit status: 2 for a malformed id, 1 for a
    game that is missing, unfinished or unreadable."""
    import asyncio

    from muggins.server.store.games import StoreError, parse_match_id

    try:
        code, number = parse_match_id(args.id)
    except ValueError as error:
        print(f"muggins {command}: {error}")
        return 2
    stores = open_archives(args)
    if isinstance(stores, str):
        print(f"muggins {command}: {stores}")
        return 1
    try:
        record = asyncio.run(find_match(stores, code, number))
    except StoreError as error:
        print(f"muggins {command}: {error}")
        return 1
    if record is None:
        print(f"muggins {command}: no game {args.id}; see muggins history")
        return 1
    if record.finished is None:
        print(f"muggins {command}: game {record.id} is still being played")
        return 1
    return record
