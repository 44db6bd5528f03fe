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
        epilog="Examples: muggins play | muggins play ws://example.org:8765 --join KXPWTR",
    )
    parser.add_argument("url", nargs="?", metavar="ws://HOST:PORT", help="a Muggins server")
    parser.add_argument("--join", metavar="CODE", help="join the room with this code")
    parser.add_argument("--watch", metavar="CODE", help="watch the room with this code")
    parser.add_argument("--name", default=default_name(), help="your name (default: login name)")
    parser.add_argument("--level", help="the computer's level (default: the strongest)")
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
    from client.play import play

    return play(args)
