"""``muggins review ID``: one seat's decisions in a finished game set against the expert's."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING, Any

from muggins.server.commands.archive import add_options, finished_match

if TYPE_CHECKING:
    from muggins.shared.bots.review import Review


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "review",
        help="review one seat's decisions in a finished game",
        description="Replay a finished game (see muggins history for ids) and, for each decision "
        "of one seat, show the expert's choice, the expected loss in points and in chance to "
        "win, and why for the biggest; then the points given away in discards and in the play, "
        "and the three worst moments. The expert sees only what that seat saw.",
    )
    parser.add_argument("id", metavar="ID", help="a game id such as ABCDEF-1")
    add_options(parser)
    parser.add_argument(
        "--seat", type=int, choices=(0, 1), help="the seat to review (default: the first human)"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from muggins.shared.bots.review import review_match

    record = finished_match(args, "review")
    if isinstance(record, int):
        return record
    seat = args.seat if args.seat is not None else default_seat(record.names)
    review = review_match(record.options, record.seed, record.actions, seat, record.names)
    if args.json:
        print(json.dumps({"id": record.id, **review.to_json()}))
        return 0
    print_review(record.id, review)
    return 0


def default_seat(names: tuple[str, str] | list[str]) -> int:
    """The first seat not held by the computer (its names start 'Computer'), else seat 0."""
    for seat, name in enumerate(names):
        if not name.startswith("Computer"):
            return seat
    return 0


def print_review(game_id: str, review: Review) -> None:
    from muggins.shared.bots.review import format_review

    print(format_review(review, title=f"Review of {game_id}"))
