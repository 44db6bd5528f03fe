"""``muggins play``: the terminal client. Without a server address it plays the computer on an
embedded server; with ``ws://HOST:PORT`` it opens that server's lobby."""

from __future__ import annotations

import argparse
import getpass
from typing import Any


def default_name() -> str:
    try:
        return getpass.getuser() or "Player"
    except (KeyError, OSError):
        return "Player"


def level_help() -> str:
    from muggins.shared.bots import LEVELS
    from muggins.shared.bots.strength import level_ratings

    ratings = level_ratings()
    return ", ".join(f"{lv} {ratings[lv]}" if lv in ratings else lv for lv in LEVELS)


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "play",
        help="play cribbage in the terminal",
        description=(
            "Play cribbage. With no address: play the computer on a server embedded in this "
            "process (games are saved in your data directory, and an unfinished game carries on "
            "next time). With ws://HOST:PORT: open that server's lobby to create a room, join "
            "one by code, or watch."
        ),
        epilog="Examples: muggins play | muggins play ws://example.org:8765 --join KXPWTR | "
        "muggins play ws://node-a:8765 ws://node-b:8765",
    )
    parser.add_argument(
        "urls",
        nargs="*",
        metavar="ws://HOST:PORT",
        help="a Muggins server; give each node of a cluster to move to the next one when a "
        "node fails or stops answering",
    )
    parser.add_argument("--join", metavar="CODE", help="join the room with this code")
    parser.add_argument("--watch", metavar="CODE", help="watch the room with this code")
    parser.add_argument("--name", default=default_name(), help="your name (default: login name)")
    parser.add_argument(
        "--rated",
        type=int,
        choices=(1, 3),
        metavar="1|3",
        help="with a server: play a rated game against someone of about your rating (one game "
        "or best of three); needs a registered --name",
    )
    parser.add_argument(
        "--duplicate",
        action="store_true",
        help="with --rated: a duplicate match, two tables on the same deals with the seats "
        "swapped, won by the difference in points",
    )
    parser.add_argument(
        "--level",
        help="the computer's level (default: the strongest); on the rating scale " + level_help(),
    )
    parser.add_argument("--target", type=int, choices=(121, 61), default=121, help="game length")
    parser.add_argument(
        "--muggins", action="store_true", help="count your own hands; missed points can be taken"
    )
    parser.add_argument(
        "--plain",
        action="store_true",
        help="line mode: no full-screen drawing (scripts, screen readers, slow links)",
    )
    parser.add_argument(
        "--data-dir", metavar="DIR", help="where the embedded server keeps its games"
    )
    parser.add_argument(
        "--new", action="store_true", help="start a new game instead of resuming the saved one"
    )
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from muggins.client.play import play

    return play(args)
