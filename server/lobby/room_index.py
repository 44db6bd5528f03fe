"""The public room list, kept sorted as rooms change, so a page of it costs the same whatever
the number of rooms: rooms with an open seat first, then full games one may watch, each by code.

A page starts after a cursor (``"o:CODE"`` in the open section, ``"w:CODE"`` in the watchable
one) found by bisection, and only the rooms on the page are summarised.
"""

from __future__ import annotations

from bisect import bisect_right, insort
from collections.abc import Callable
from typing import Literal

from muggins.server.rooms.seating import Table
from muggins.shared.protocol import Rooms, RoomSummary

Section = Literal["o", "w"]


def section_of(room: Table) -> Section | None:
    """Where ``room`` is listed: "o" with an open seat, "w" full but watchable, else None."""
    if room.options.private or room.closed:
        return None
    if any(s.kind == "empty" for s in room.seats):
        return "o"
    return "w" if room.options.spectators else None


def summary(room: Table) -> RoomSummary:
    return RoomSummary(
        code=room.code,
        names=(room.seats[0].name, room.seats[1].name),
        options=room.options,
        status=room.status,
        open_seat=any(s.kind == "empty" for s in room.seats),
        spectators=len(room.spectators),
    )


class RoomIndex:
    def __init__(self, lookup: Callable[[str], Table | None]) -> None:
        self.lookup = lookup
        self.codes: dict[Section, list[str]] = {"o": [], "w": []}
        self.where: dict[str, Section] = {}

    def __len__(self) -> int:
        return len(self.where)

    def update(self, room: Table) -> None:
        """Put ``room`` where it belongs now (called whenever its seats or state change)."""
        now = section_of(room)
        before = self.where.get(room.code)
        if now == before:
            return
        if before is not None:
            codes = self.codes[before]
            del codes[bisect_right(codes, room.code) - 1]
            del self.where[room.code]
        if now is not None:
            insort(self.codes[now], room.code)
            self.where[room.code] = now

    def remove(self, code: str) -> None:
        before = self.where.pop(code, None)
        if before is not None:
            codes = self.codes[before]
            del codes[bisect_right(codes, code) - 1]

    def page(self, after: str | None, limit: int) -> Rooms:
        """Up to ``limit`` rooms after the cursor ``after``, and the cursor of the next page."""
        start, code = ("o", "") if after is None else (after[0], after[2:])
        found: list[tuple[Section, Table]] = []
        for section in ("o", "w") if start == "o" else ("w",):
            codes = self.codes[section]
            at = bisect_right(codes, code) if section == start else 0
            for listed in codes[at : at + limit + 1 - len(found)]:
                room = self.lookup(listed)
                if room is not None:
                    found.append((section, room))
            if len(found) > limit:
                break
        more = len(found) > limit
        found = found[:limit]
        cursor = f"{found[-1][0]}:{found[-1][1].code}" if more else None
        return Rooms(rooms=tuple(summary(r) for _, r in found), next=cursor, total=len(self))
