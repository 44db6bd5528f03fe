"""``muggins history``: the finished games kept by a server."""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "history",
        help="list finished games kept by the server",
        description="List the finished games in a server's SQLite file, newest first. "
        "Print one step by step with: muggins replay ID",
    )
    parser.add_argument("--db", type=Path, metavar="PATH", help="default: the server's default")
    parser.add_argument("--limit", type=int, default=30, help="how many (default 30)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from server.app import default_db
    from server.sqlite_store import SqliteStore
    from server.store import MatchRecord, StoreError
    from shared.match import Match

    path = args.db or default_db()
    if not path.exists():
        print(f"muggins history: no games yet ({path} does not exist)")
        return 1

    async def load() -> list[MatchRecord]:
        store = SqliteStore(path)
        await store.open()
        try:
            found = []
            for summary in await store.finished_matches(limit=args.limit):
                full = await store.load_match(summary.room, summary.number)
                if full is not None:
                    found.append(full)
            return found
        finally:
            await store.close()

    try:
        matches = asyncio.run(load())
    except StoreError as error:
        print(f"muggins history: {error}")
        return 1
    if not matches:
        print("No finished games yet.")
        return 0
    if not args.json:
        print(f"{'ID':<12} {'finished (UTC)':<17} {'players':<36} result")
    for record in matches:
        match = Match.replay(record.options, record.seed, record.actions)
        names = record.names
        games = [f"{o.scores[0]}-{o.scores[1]}" for o in match.games]
        if record.result == "won" and record.winner is not None:
            result = f"{names[record.winner]} won {'/'.join(games)}"
        else:
            result = record.result or "?"
        finished = time.strftime("%Y-%m-%d %H:%M", time.gmtime(record.finished or 0))
        if args.json:
            row = {
                "id": record.id,
                "finished": record.finished,
                "names": names,
                "result": record.result,
                "winner": record.winner,
                "games": [o.model_dump() for o in match.games],
                "actions": len(record.actions),
            }
            print(json.dumps(row))
        else:
            players = f"{names[0]} v {names[1]}"
            print(f"{record.id:<12} {finished:<17} {players:<36} {result}")
    return 0
