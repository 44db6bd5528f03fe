"""Start the client the way ``muggins play`` was asked to: embedded server or remote lobby."""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

from platformdirs import user_data_dir

from client.session import Goal, Session
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
    data = Path(args.data_dir) if args.data_dir else Path(user_data_dir("muggins"))
    seats = Seats(data / "seats.json")
    if args.url:
        token = seats.token_for(args.url, goal, fresh=args.new)
        return start(args.url, args, goal, token=token, seats=seats, key=args.url)
    from client.embedded import EmbeddedServer

    token = seats.token_for(EMBEDDED, goal, fresh=args.new)
    try:
        data.mkdir(parents=True, exist_ok=True)
        server = EmbeddedServer(data / "games.sqlite3")
        url = server.start()
    except (OSError, RuntimeError) as error:
        print(f"muggins play: could not start the embedded server: {error}", file=sys.stderr)
        return 1
    try:
        return start(url, args, goal, token=token, seats=seats, key=EMBEDDED)
    finally:
        server.stop()


def start(
    url: str,
    args: argparse.Namespace,
    goal: Goal,
    *,
    token: str | None,
    seats: Seats,
    key: str,
) -> int:
    if args.plain:
        from client.plain import PlainClient, stdin_lines

        async def main() -> int:
            client = PlainClient(
                url=url, name=args.name, goal=goal, remember=lambda t, s: seats.save(key, t, s)
            )
            client.link.token = token
            try:
                return await client.run(stdin_lines(asyncio.get_running_loop()))
            finally:
                seats.save(key, client.link.token, client.session)

        return asyncio.run(main())
    from client.app import MugginsApp

    app = MugginsApp(
        url=url,
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


class Seats:
    """Resume tokens kept between runs, by server, so ``muggins play`` gets your seat back."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def load(self) -> dict[str, dict[str, str]]:
        try:
            data = json.loads(self.path.read_text())
        except (OSError, ValueError):
            return {}
        return data if isinstance(data, dict) else {}

    def token_for(self, key: str, goal: Goal, *, fresh: bool) -> str | None:
        """The saved token, unless a fresh start was asked for or it belongs to another room."""
        entry = self.load().get(key)
        if fresh or not isinstance(entry, dict) or not entry.get("token"):
            return None
        if goal.kind in ("join", "spectate") and entry.get("room") != goal.code:
            return None
        return str(entry["token"])

    def save(self, key: str, token: str | None, session: Session) -> None:
        if not token:
            return
        data = self.load()
        data[key] = {"token": token, "room": session.room.code if session.room else ""}
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(data, indent=1) + "\n")
            self.path.chmod(0o600)
        except OSError as error:
            print(f"muggins play: could not save your seat: {error}", file=sys.stderr)
