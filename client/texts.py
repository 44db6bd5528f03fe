"""The app's lines of text built from the session: the status line, room facts, the waiting note."""

from __future__ import annotations

from rich.text import Text

from muggins.client.connection import LinkStatus
from muggins.client.lobby import describe_options
from muggins.client.prompts import turn_prompt
from muggins.client.session import Session, friend_url
from muggins.shared.invocation import join_command
from muggins.shared.protocol import Room


def waiting_text(session: Session, room: Room, url: str) -> Text:
    """While the room waits for a second player: its code and what the friend types."""
    if session.goal.kind == "computer":
        return Text("Seating the computer…", style="bold")
    text = Text("Waiting for an opponent in room ", style="bold")
    text.append(room.code, style="bold reverse")
    text.append(f"\n\nRules: {describe_options(room.options)}\n\n")
    text.append("A friend joins with:\n\n")
    text.append(f"    {join_command(friend_url(session, url), room.code)}\n\n", style="bold green")
    text.append("Or press B to play the computer instead.", style="dim")
    return text


def room_text(session: Session) -> Text:
    """The room, its rules, the game and deal, and the match score."""
    room, view = session.room, session.view
    info = Text()
    if room is not None:
        info.append(f"Room {room.code}", style="bold")
        info.append(f"  {describe_options(room.options)}\n", style="dim")
        if room.you is None:
            info.append("You are watching\n", style="italic")
        for seat in room.seats:
            rating = session.level_ratings.get(seat.level or "")
            if seat.kind == "bot" and rating:
                info.append(f"{seat.name} plays at about {rating}\n", style="dim")
    if view is not None:
        me = session.seat if session.seat is not None else 0
        info.append(f"Game {view.game_number}, deal {view.deal_number}  ")
        info.append(f"match {view.match_points[me]}–{view.match_points[1 - me]}\n")
    return info


def status_text(session: Session, link: LinkStatus, error: str) -> Text:
    """The link (unless connected), the refusal or the prompt, the opponent, the deal check."""
    status = Text()
    if link.state != "connected":
        status.append(f" {link.sentence()} ", style="bold black on yellow")
        status.append("  ")
    if error:
        status.append(error, style="bold red")
    else:
        status.append(turn_prompt(session.view, session.names), style="bold")
    clock = session.clock_text()
    if clock:
        status.append(f"   · {clock}", style="bold")
    opponent = session.opponent_status()
    if opponent:
        status.append(f"   · {opponent}", style="red" if "DISCONNECTED" in opponent else "dim")
    fair = session.fair
    if fair is not None:
        mark = f"   ✓ fair deal {fair.deal_number}" if fair.ok else "   ✗ UNFAIR DEAL!"
        status.append(mark, style="green" if fair.ok else "bold white on red")
    return status
