"""``muggins replay ID``: print a finished game step by step, every card face up."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Any

from muggins.server.commands.archive import add_options, finished_match

if TYPE_CHECKING:
    from muggins.server.store.games import MatchRecord


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "replay",
        help="print a finished game step by step",
        description="Replay a finished game from the server's log, a SQLite file or a cluster's "
        "Redis with --redis (see muggins history for ids). "
        "The game is over, so every hand is shown.",
    )
    parser.add_argument("id", metavar="ID", help="a game id such as ABCDEF-1")
    add_options(parser)
    parser.add_argument(
        "--delay", type=float, default=0.0, metavar="SECONDS", help="pause between steps"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    record = finished_match(args, "replay")
    if isinstance(record, int):
        return record
    print_game(record, delay=args.delay)
    return 0


def print_game(record: MatchRecord, *, delay: float = 0.0) -> None:
    """Print a finished match step by step, every hand face up (it is over)."""
    import time

    from muggins.server.commands.results import match_words
    from muggins.shared.actions import DealStarted, Discard, Play
    from muggins.shared.cards import format_cards
    from muggins.shared.match import Match

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
        if delay:
            time.sleep(delay)
    print(f"Result: {match_words(record.result, record.winner, match.games, names)}")
