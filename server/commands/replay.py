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

    from muggins.shared.replay_text import replay_steps

    steps = list(
        replay_steps(
            game_id=record.id,
            seed=record.seed,
            options=record.options,
            names=record.names,
            hand_overs=record.hand_overs,
            actions=record.actions,
            result=record.result,
            winner=record.winner,
        )
    )
    for number, lines in enumerate(steps):
        print("\n".join(lines))
        if delay and 0 < number < len(steps) - 1:
            time.sleep(delay)
