"""``muggins account URL ACTION``: your account on a server, ratings, records and history."""

from __future__ import annotations

import argparse
from typing import Any

ACTIONS = (
    "register", "sign-in", "sign-out", "password", "delete", "profile", "history",
    "leaderboard", "game", "games", "review",
)  # fmt: skip


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "account",
        help="your account on a server: register, sign in, profile, leaderboard, history",
        description=(
            "Keep a name on a server, see ratings and records. register NAME and sign-in NAME "
            "ask for the password and keep a session token (never the password) in your data "
            "directory, so later commands and 'muggins play URL' sign you in. sign-out ends "
            "this session (--everywhere: every session); password changes it; delete removes "
            "the account. profile/history [NAME]: a player's rating, record and finished games "
            "(yours without a name); leaderboard: the established ratings; game ID: a finished "
            "game step by step, every hand face up; games: your games in progress (the "
            "account's and the seats 'muggins play' kept), each with the command back to it; "
            "review ID [--seat N]: a finished game's decisions graded by the expert, the worst "
            "moments, the points given away per deal and the chance to win deal by deal."
        ),
        epilog="Example: muggins account ws://example.org:8765 register Alice",
    )
    parser.add_argument("url", metavar="ws://HOST:PORT", help="the server")
    parser.add_argument("action", choices=ACTIONS)
    parser.add_argument(
        "name", nargs="?", help="an account name (or a game id for 'game' and 'review')"
    )
    parser.add_argument(
        "--seat", type=int, choices=(0, 1), help="review: the seat (default: yours, else 0)"
    )
    parser.add_argument("--everywhere", action="store_true", help="sign-out: every session")
    parser.add_argument("--limit", type=int, default=20, help="history, leaderboard: how many")
    parser.add_argument(
        "--password-stdin",
        action="store_true",
        help="read passwords from standard input, one a line (for scripts)",
    )
    parser.add_argument("--json", action="store_true", help="print the server's answer as JSON")
    parser.add_argument("--data-dir", metavar="DIR", help="where the session token is kept")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from muggins.client.account_cli import run_account

    return run_account(args)
