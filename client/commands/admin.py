"""``muggins admin``: keep a server. ``grant``/``revoke`` write roles to the store on the server's
machine; the other actions are a moderator's, over the protocol (see docs/moderation.md)."""

from __future__ import annotations

import argparse
import importlib
from typing import Any

STORE_COMMANDS = "muggins.server.commands.admin"
"""grant and revoke: loaded by name, as the muggins command loads every command module."""


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "admin",
        help="keep a server: roles (on its machine), bans, mutes, reports (as a moderator)",
        description="grant/revoke NAME set roles in the server's store (on its machine). The "
        "other actions need a moderator's or an admin's session on the server (sign in with "
        "muggins account URL sign-in NAME): ban/unban, mute/unmute, rename, void, close, "
        "remove-line, close-report, and view (open reports, bans, rooms, the log).",
        epilog="Example: muggins admin ban Mallory --server ws://example.org:8765 --minutes 1440 "
        '--reason "abuse in chat"',
    )
    actions = parser.add_subparsers(dest="admin_action", metavar="ACTION", required=True)
    importlib.import_module(STORE_COMMANDS).add_store_parsers(actions)
    specs: dict[str, tuple[str, tuple[str, ...]]] = {
        "ban": ("ban an account (--minutes, else for good; --address: its address too)", ("name",)),
        "unban": ("lift a ban", ("name",)),
        "mute": ("mute an account in chat (--minutes, else for good)", ("name",)),
        "unmute": ("lift a mute", ("name",)),
        "rename": ("force a new name on an account", ("name", "new_name")),
        "void": ("void a rated result: both ratings as before it", ("game",)),
        "close": ("close a room: its match ends abandoned", ("room",)),
        "remove-line": ("remove a kept chat line", ("room", "line")),
        "close-report": ("close a report", ("report",)),
        "view": ("the moderation view (with NAME: that account too)", ()),
    }
    for action, (help, fields) in specs.items():
        sub = actions.add_parser(action, help=help, description=help)
        for field in fields:
            sub.add_argument(field, metavar=field.upper())
        if action == "view":
            sub.add_argument("name", nargs="?", metavar="NAME")
        sub.add_argument("--server", required=True, metavar="ws://HOST:PORT")
        sub.add_argument("--reason", default="", help="why (kept in the moderation log)")
        if action in ("ban", "mute"):
            sub.add_argument("--minutes", type=int, help="how long (default: for good)")
        if action == "ban":
            sub.add_argument("--address", action="store_true", help="ban its address too")
        sub.add_argument("--json", action="store_true", help="print the server's answer as JSON")
        sub.add_argument("--data-dir", metavar="DIR", help="where the session token is kept")
        sub.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from muggins.client.admin_cli import run_admin

    return run_admin(args)
