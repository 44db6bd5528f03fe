"""``muggins backup`` and ``muggins restore``: copy a server's SQLite file while it serves, and
put a copy back while it is stopped."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    backup = commands.add_parser(
        "backup",
        help="copy the server's database while it runs",
        description="Copy the SQLite file of muggins serve into DEST with SQLite's online "
        "backup API: one consistent snapshot, taken while the server goes on serving, checked "
        "for integrity. A cluster keeps its games in Redis: back up Redis instead (see Backups "
        "in docs/hosting.md).",
    )
    backup.add_argument("dest", type=Path, metavar="DEST", help="the file to write (0600)")
    backup.add_argument(
        "--db", type=Path, metavar="PATH", help="the server's file (default: your data directory)"
    )
    backup.set_defaults(handler=run_backup)
    restore = commands.add_parser(
        "restore",
        help="put a backup back in place of the server's database (server stopped)",
        description="Replace the SQLite file of muggins serve by the backup SRC, after checking "
        "SRC's integrity. Refused while a server has the file open: stop it first. The file "
        "replaced is kept beside it as muggins.db.before-restore.",
    )
    restore.add_argument("source", type=Path, metavar="SRC", help="a file muggins backup wrote")
    restore.add_argument(
        "--db", type=Path, metavar="PATH", help="the server's file (default: your data directory)"
    )
    restore.set_defaults(handler=run_restore)


def _db(args: argparse.Namespace) -> Path:
    from muggins.server.store.datafiles import default_db

    path: Path = args.db or default_db()
    return path


def run_backup(args: argparse.Namespace) -> int:
    import time

    from muggins.server.store.games import StoreError
    from muggins.server.store.sqlite_file import backup

    source = _db(args)
    began = time.perf_counter()
    try:
        held = backup(source, args.dest)
    except StoreError as error:
        print(f"muggins backup: {error}")
        return 1
    took = time.perf_counter() - began
    size = args.dest.stat().st_size / 1024
    print(f"Backed up {source} to {args.dest} ({size:.0f} KiB, {took:.2f} s): {held}.")
    return 0


def run_restore(args: argparse.Namespace) -> int:
    from muggins.server.store.games import StoreError
    from muggins.server.store.sqlite_file import restore

    dest = _db(args)
    try:
        held, kept = restore(args.source, dest)
    except StoreError as error:
        print(f"muggins restore: {error}")
        return 1
    print(f"Restored {dest} from {args.source}: {held}.")
    if kept is not None:
        print(f"The file it replaced is kept as {kept}.")
    return 0
