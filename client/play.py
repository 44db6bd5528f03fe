"""Start the client the way ``muggins play`` was asked to: embedded server or remote lobby."""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from platformdirs import user_data_dir

from client.session import Goal
from shared.actions import GameOptions
from shared.bots import LEVELS
from shared.protocol import RoomOptions


def goal_from(args: argparse.Namespace) -> Goal:
    if args.join:
        return Goal("join", code=args.join.strip().upper())
    if args.watch:
        return Goal("spectate", code=args.watch.strip().upper())
    if args.url:
        return Goal("lobby")
    options = RoomOptions(game=GameOptions(target=args.target, muggins=args.muggins), private=True)
    return Goal("computer", level=args.level, options=options)


def play(args: argparse.Namespace) -> int:
    if args.level is not None and args.level not in LEVELS:
        print(
            f"muggins play: unknown level {args.level!r}; choose from {', '.join(LEVELS)}",
            file=sys.stderr,
        )
        return 2
    if args.url and not args.url.startswith(("ws://", "wss://")):
        print(
            f"muggins play: {args.url!r} is not a server address; write ws://HOST:PORT",
            file=sys.stderr,
        )
        return 2
    goal = goal_from(args)
    if args.url:
        return start(args.url, args, goal, token=None, token_file=None)
    from client.embedded import EmbeddedServer

    data = Path(args.data_dir) if args.data_dir else Path(user_data_dir("muggins"))
    data.mkdir(parents=True, exist_ok=True)
    token_file = data / "last-game.token"
    token = None
    if token_file.exists() and not args.new:
        token = token_file.read_text().strip() or None
    try:
        server = EmbeddedServer(data / "games.sqlite3")
        url = server.start()
    except (OSError, RuntimeError) as error:
        print(f"muggins play: could not start the embedded server: {error}", file=sys.stderr)
        return 1
    try:
        return start(url, args, goal, token=token, token_file=token_file)
    finally:
        server.stop()


def start(
    url: str, args: argparse.Namespace, goal: Goal, *, token: str | None, token_file: Path | None
) -> int:
    if args.plain:
        from client.plain import PlainClient, stdin_lines

        async def main() -> int:
            client = PlainClient(url=url, name=args.name, goal=goal)
            if token is not None:
                client.link.token = token
            try:
                return await client.run(stdin_lines(asyncio.get_running_loop()))
            finally:
                save(token_file, client.link.token)

        return asyncio.run(main())
    from client.app import MugginsApp

    app = MugginsApp(url=url, name=args.name, goal=goal, embedded=token_file is not None)
    if token is not None:
        app.link.token = token
    try:
        app.run()
    finally:
        save(token_file, app.link.token)
    return 0


def save(token_file: Path | None, token: str | None) -> None:
    """Keep the resume token so the next ``muggins play`` carries on the same game."""
    if token_file is not None and token:
        token_file.write_text(token + "\n")
        token_file.chmod(0o600)
