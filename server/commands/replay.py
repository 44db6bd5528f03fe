"""``muggins replay ID``: print a finished game step by step, every card face up."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "replay",
        help="print a finished game step by step",
        description="Replay a finished game from the server's log (see muggins history for ids). "
        "The game is over, so every hand is shown.",
    )
    parser.add_argument("id", metavar="ID", help="a game id such as ABCDEF-1")
    parser.add_argument("--db", type=Path, metavar="PATH", help="default: the server's default")
    parser.add_argument(
        "--delay", type=float, default=0.0, metavar="SECONDS", help="pause between steps"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import asyncio
    import time

    from server.app import default_db
    from server.sqlite_store import SqliteStore
    from server.store import MatchRecord, StoreError, parse_match_id
    from shared.actions import DealStarted, Discard, Play
    from shared.cards import format_cards
    from shared.match import Match

    try:
        code, number = parse_match_id(args.id)
    except ValueError as error:
        print(f"muggins replay: {error}")
        return 2
    path = args.db or default_db()
    if not path.exists():
        print(f"muggins replay: {path} does not exist")
        return 1

    async def load() -> MatchRecord | None:
        store = SqliteStore(path)
        await store.open()
        try:
            return await store.load_match(code, number)
        finally:
            await store.close()

    try:
        record = asyncio.run(load())
    except StoreError as error:
        print(f"muggins replay: {error}")
        return 1
    if record is None:
        print(f"muggins replay: no game {args.id}; see muggins history")
        return 1
    if record.finished is None:
        print(f"muggins replay: game {record.id} is still being played")
        return 1
    names = record.names
    match = Match(seed=record.seed, options=record.options)

    def show(events: list[Any]) -> None:
        for event in events:
            print(f"  {event.describe(names)}")
            if isinstance(event, DealStarted):
                for seat in (0, 1):
                    hand = format_cards(sorted(match.game.hands[seat]), pretty=True)
                    print(f"    {names[seat]} holds {hand}")

    print(f"Game {record.id}: {names[0]} v {names[1]}")
    show(list(match.events))
    for seat, action in record.actions:
        if isinstance(action, Discard):
            print(f"{names[seat]} lays away {format_cards(action.cards, pretty=True)}")
        elif not isinstance(action, Play):
            print(f"{names[seat]}: {action.type}")
        show(match.apply(seat, action))
        if args.delay:
            time.sleep(args.delay)
    print(f"Result: {record.result}")
    return 0
