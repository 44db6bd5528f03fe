"""What ``muggins admin`` does over the protocol (see :mod:`client.commands.admin`)."""

from __future__ import annotations

import argparse
import asyncio
import time

from muggins.client.account_cli import sessions_for
from muggins.client.accounts import Link
from muggins.shared.protocol import Error, ServerMessage, encode
from muggins.shared.protocol.accounts import Account
from muggins.shared.protocol.moderation import (
    GetModeration,
    Moderate,
    Moderated,
    ModerationAction,
    ModerationView,
)

ACTIONS: dict[str, ModerationAction] = {
    "ban": "ban",
    "unban": "unban",
    "mute": "mute",
    "unmute": "unmute",
    "rename": "rename",
    "void": "void",
    "close": "close_room",
    "remove-line": "remove_line",
    "close-report": "close_report",
}


def run_admin(args: argparse.Namespace) -> int:
    if not args.server.startswith(("ws://", "wss://")):
        print(f"muggins admin: {args.server!r} is not a server address; write ws://HOST:PORT")
        return 2
    try:
        return asyncio.run(_run(args))
    except (OSError, TimeoutError) as error:
        reason = error.strerror or str(error) or "no answer in time"
        print(f"muggins admin: cannot reach {args.server}: {reason}")
        return 1


def message_for(args: argparse.Namespace) -> Moderate | GetModeration:
    if args.admin_action == "view":
        return GetModeration(name=args.name)
    return Moderate(
        action=ACTIONS[args.admin_action],
        name=getattr(args, "name", None),
        new_name=getattr(args, "new_name", None),
        reason=args.reason,
        minutes=getattr(args, "minutes", None),
        address=getattr(args, "address", False),
        game=getattr(args, "game", None),
        room=getattr(args, "room", None),
        line=getattr(args, "line", None),
        report=getattr(args, "report", None),
    )


async def _run(args: argparse.Namespace) -> int:
    async with Link(args.server, "admin") as link:
        signed = await link.resume(sessions_for(args))
        if not isinstance(signed, Account):
            print(
                "muggins admin: you are not signed in on this server; use "
                f"muggins account {args.server} sign-in NAME"
            )
            return 1
        reply = await link.ask(message_for(args))
    return show(reply, args)


def show(reply: ServerMessage, args: argparse.Namespace) -> int:
    if args.json:
        print(encode(reply))
    elif isinstance(reply, Moderated):
        print(reply.text)
    elif isinstance(reply, ModerationView):
        print("\n".join(view_lines(reply)))
    elif isinstance(reply, Error):
        print(f"muggins admin: {reply.message}")
    return 1 if isinstance(reply, Error) else 0


def when(at: float | None) -> str:
    return "for good" if at is None else time.strftime("%Y-%m-%d %H:%M", time.gmtime(at))


def view_lines(view: ModerationView) -> list[str]:
    lines = [f"Open reports ({len(view.reports)}), oldest first:"]
    for r in view.reports:
        where = f" in room {r.room}" if r.room else ""
        lines.append(f"  {r.id}  {when(r.at)}  {r.by} reports {r.name}{where}: {r.reason}")
        if r.line is not None:
            lines.append(f"      the line: {r.line.sender}: {r.line.text}  (line {r.line.id})")
    lines.append(f"Bans and mutes in force ({len(view.sanctions)}):")
    for s in view.sanctions:
        until = "for good" if s.until is None else f"until {when(s.until)}"
        lines.append(f"  {s.kind:<4} {s.name:<24} {until}  by {s.by}: {s.reason}")
    lines.append(f"Rooms live ({len(view.rooms)}):")
    for room in view.rooms:
        rated = " rated" if room.rated else ""
        lines.append(f"  {room.code:<8} {room.names[0]} v {room.names[1]}  {room.status}{rated}")
    lines.append(f"Online ({len(view.online)}): " + ", ".join(view.online))
    lines.append("The moderation log, newest first:")
    for e in view.log:
        why = f": {e.reason}" if e.reason else ""
        lines.append(f"  {when(e.at)}  {e.by} {e.action} {e.target}{why}")
    if view.account is not None:
        a = view.account
        lines.append(f"{a.name} ({a.role or 'player'}): {len(a.games)} recent games")
        for g in a.games:
            lines.append(f"  {g.game:<12} {g.result:<9} v {g.opponent}")
        for line in a.chat:
            lines.append(f"  chat in {line.room}: {line.text}")
    return lines
