"""Start the client the way ``muggins play`` was asked to: embedded server or remote lobby."""

from __future__ import annotations

import argparse
import asyncio
import sys
from dataclasses import replace
from pathlib import Path
from typing import Literal

from muggins.client.seats import Seats
from muggins.client.session import Goal
from muggins.server.embedded import data_dir, embedded_db
from muggins.shared.actions import GameOptions
from muggins.shared.bots import LEVELS
from muggins.shared.protocol import RoomOptions


def goal_from(args: argparse.Namespace) -> Goal:
    if args.join:
        return Goal("join", code=args.join.strip().upper())
    if args.watch:
        return Goal("spectate", code=args.watch.strip().upper())
    if args.url and getattr(args, "rated", None):
        duplicate = bool(getattr(args, "duplicate", False))
        return Goal("seek", best_of=3 if args.rated == 3 else 1, duplicate=duplicate)
    if args.url:
        return Goal("lobby")
    options = RoomOptions(game=GameOptions(target=args.target, muggins=args.muggins), private=True)
    return Goal("computer", level=args.level, options=options)


def remote_session(url: str, name: str, data: Path) -> str | Literal[False] | None:
    """The account session to play with: None as a guest, False if the sign-in was refused."""
    import getpass

    from muggins.client.accounts import AccountDenied, Sessions, sign_in_for_play

    try:
        return asyncio.run(
            sign_in_for_play(url, name, Sessions(data / "sessions.json"), getpass.getpass)
        )
    except AccountDenied as denied:
        print(f"muggins play: {denied}", file=sys.stderr)
        return False
    except (OSError, TimeoutError):
        return None  # the connection itself reports an unreachable server


def play(args: argparse.Namespace) -> int:
    if args.level is not None and args.level not in LEVELS:
        print(
            f"muggins play: unknown level {args.level!r}; choose from {', '.join(LEVELS)}",
            file=sys.stderr,
        )
        return 2
    urls: list[str] = list(getattr(args, "urls", None) or [])
    args.url = urls[0] if urls else None
    for url in urls:
        if not url.startswith(("ws://", "wss://")):
            print(
                f"muggins play: {url!r} is not a server address; write ws://HOST:PORT",
                file=sys.stderr,
            )
            return 2
    goal = goal_from(args)
    data = Path(args.data_dir) if args.data_dir else data_dir()
    seats = Seats(data / "seats.json")
    if args.url:
        session = remote_session(args.url, args.name, data)
        if session is False:
            return 1
        if session:
            goal = replace(goal, session=session)
        elif goal.kind == "seek":
            print(
                f"muggins play: rated games are for accounts; {args.name!r} is not registered "
                f"here (muggins account {args.url} register NAME)",
                file=sys.stderr,
            )
            return 1
        token = seats.token_for(args.url, goal, fresh=args.new, name=args.name)
        return start(urls, args, goal, token=token, seats=seats, key=args.url)
    from muggins.client.embedded import EmbeddedServer

    token = seats.token_for(EMBEDDED, goal, fresh=args.new, name=args.name)
    try:
        data.mkdir(parents=True, exist_ok=True)
        server = EmbeddedServer(embedded_db(data))
        url = server.start()
    except (OSError, RuntimeError) as error:
        print(f"muggins play: could not start the embedded server: {error}", file=sys.stderr)
        return 1
    try:
        return start([url], args, goal, token=token, seats=seats, key=EMBEDDED)
    finally:
        server.stop()


def start(
    urls: list[str],
    args: argparse.Namespace,
    goal: Goal,
    *,
    token: str | None,
    seats: Seats,
    key: str,
) -> int:
    if args.plain:
        from muggins.client.plain import PlainClient, stdin_lines

        async def main() -> int:
            client = PlainClient(
                url=urls[0],
                urls=urls,
                name=args.name,
                goal=goal,
                remember=lambda t, s: seats.save(key, t, s),
            )
            client.link.token = token
            try:
                return await client.run(stdin_lines(asyncio.get_running_loop()))
            finally:
                seats.save(key, client.link.token, client.session)

        return asyncio.run(main())
    from muggins.client.app import MugginsApp

    app = MugginsApp(
        url=urls[0],
        urls=urls,
        name=args.name,
        goal=goal,
        embedded=key == EMBEDDED,
        remember=lambda t, s: seats.save(key, t, s),
    )
    app.link.token = token
    try:
        app.run()
    finally:
        seats.save(key, app.link.token, app.session)
    return 0


EMBEDDED = "embedded"
"""The key of the embedded server's tokens in the saved seats."""

__all__ = ["EMBEDDED", "Seats", "goal_from", "play", "start"]
