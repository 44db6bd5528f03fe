"""``muggins history``: the finished games kept by a server."""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from muggins.server.commands.archive import add_options, open_archives


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "history",
        help="list finished games kept by the server",
        description="List finished games, newest first: those of muggins serve and of "
        "muggins play against the computer, from your data directory (or --db PATH, or a "
        "cluster's Redis with --redis URL). Print one step by step with: muggins replay ID",
    )
    add_options(parser)
    parser.add_argument("--limit", type=int, default=30, help="how many (default 30)")
    parser.add_argument("--json", action="store_true", help="one JSON object per line")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import asyncio

    from muggins.server.store.games import MatchRecord, StoreError
    from muggins.shared.handover import players as players_text
    from muggins.shared.match import Match
    from muggins.shared.replay_text import match_words

    stores = open_archives(args)
    if isinstance(stores, str):
        print(f"muggins history: {stores}")
        return 1

    async def load() -> list[MatchRecord]:
        found = []
        for store in stores:
            await store.open()
            try:
                for summary in await store.finished_matches(limit=args.limit):
                    full = await store.load_match(summary.room, summary.number)
                    if full is not None:
                        found.append(full)
            finally:
                await store.close()
        found.sort(key=lambda record: record.finished or 0, reverse=True)
        return found[: args.limit]

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
        names = record.final_names  # who held each seat at the end
        result = match_words(record.result, record.winner, match.games, names)
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
                "hand_overs": [h.model_dump() for h in record.hand_overs],
            }
            print(json.dumps(row))
        else:
            players = players_text(record.names, record.hand_overs)
            print(f"{record.id:<12} {finished:<17} {players:<36} {result}")
    return 0
