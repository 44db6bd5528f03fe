"""The turn clock of a timed room in words, counted down from what the latest state said.

Each ``state`` of a room with a turn timer says what each waited-for seat had left as it was
sent (:class:`~shared.protocol.SeatClock`); the client counts down from the moment it arrived,
so both players' tables show the same figures.
"""

from __future__ import annotations

from muggins.shared.protocol import Room, SeatClock


def seconds_text(seconds: float) -> str:
    """ "1:05" or "23 s" (whole seconds, rounded up; never below 0).

    >>> seconds_text(65), seconds_text(22.2), seconds_text(-3)
    ('1:05', '23 s', '0 s')
    """
    whole = max(0, -int(-seconds // 1))
    return f"{whole // 60}:{whole % 60:02d}" if whole >= 60 else f"{whole} s"


def seat_clock_text(left: SeatClock, spent: float, banked: bool) -> str:
    """One seat's time ``spent`` seconds after its state arrived: the move's own seconds, then
    its bank (in a room that has one).

    >>> seat_clock_text(SeatClock(move=20, bank=60), 5, True)
    '15 s + bank 1:00'
    >>> seat_clock_text(SeatClock(move=20, bank=60), 30, True)
    'bank 50 s'
    >>> seat_clock_text(SeatClock(move=20, bank=0), 5, False)
    '15 s'
    """
    move = left.move - spent
    if not banked:
        return seconds_text(move)
    bank = left.bank + min(0.0, move)
    if move > 0:
        return f"{seconds_text(move)} + bank {seconds_text(bank)}"
    return f"bank {seconds_text(bank)}"


def clock_text(
    room: Room | None,
    clock: tuple[SeatClock | None, SeatClock | None] | None,
    spent: float,
    names: tuple[str, str],
) -> str:
    """ "Clock: Your move 12 s + bank 3:00 · Bob 30 s", or "" when no clock runs."""
    if room is None or clock is None or room.status != "playing":
        return ""
    banked = room.bank is not None
    parts = [
        f"{'Your move' if seat == room.you else names[seat]}: "
        + seat_clock_text(left, spent, banked)
        for seat, left in enumerate(clock)
        if left is not None
    ]
    return "Clock: " + " · ".join(parts) if parts else ""
