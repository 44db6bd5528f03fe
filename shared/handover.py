"""A seat changing hands during a match: the computer taking over from a player who left (or
anyone sitting in a seat left empty). The match's names are those at its start; each hand-over
says from which action on the seat was someone else's, so records name who held each seat at
the end and a replay shows the moment.

>>> h = HandOver(seat=0, at=12, before="Ann", after="Computer (expert)")
>>> holders(("Ann", "Bob"), (h,))
('Computer (expert)', 'Bob')
>>> holders(("Ann", "Bob"), (h,), action=11)
('Ann', 'Bob')
>>> holders(("Ann", "Bob"), (h,), action=12)
('Computer (expert)', 'Bob')
>>> h.sentence()
'Computer (expert) takes over from Ann'
>>> players(("Ann", "Bob"), (h,))
'Computer (expert) (took over from Ann) v Bob'
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict, Field

from muggins.shared.actions import Seat


class HandOver(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: Seat
    at: int = Field(
        ge=0,
        description="the index of the first action of the match made by the new holder",
    )
    before: str = Field(description="who held the seat until then")
    after: str = Field(description="who holds it from then on")

    def sentence(self) -> str:
        return f"{self.after} takes over from {self.before}"


def holders(
    names: tuple[str, str], hand_overs: Iterable[HandOver], *, action: int | None = None
) -> tuple[str, str]:
    """Who held each seat when action ``action`` (0-based) was made; None: at the end."""
    held = list(names)
    for h in sorted(hand_overs, key=lambda h: h.at):
        if action is None or h.at <= action:
            held[h.seat] = h.after
    return (held[0], held[1])


def players(names: tuple[str, str], hand_overs: Iterable[HandOver]) -> str:
    """``"Ann v Bob"`` by who held each seat at the end, naming whom each newcomer followed."""
    hand_overs = tuple(hand_overs)
    end = holders(names, hand_overs)
    return " v ".join(
        f"{end[seat]} (took over from {names[seat]})" if end[seat] != names[seat] else end[seat]
        for seat in (0, 1)
    )
