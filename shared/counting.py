"""Muggins mode: how a claimed count is settled (Hoyle's rule, and what a wrong call costs).

The owner of a hand or crib claims any number of points from 0 to 29, and the claim is shown
to both players. The opponent answers it, once, without having been told the true total:

- **accept**: the claim stands as counted, whatever the cards make;
- **muggins** (the count is short): the owner pegs the claim and the caller the points missed;
- **challenge** (the count is over): the owner is put back to the true total and the caller
  pegs the excess.

A call that turns out wrong (muggins on a count that was not short, a challenge of one that was
not over) lets the claim stand and gives the owner :data:`WRONG_CALL_PENALTY` more points.
Pegs never go back: nothing is pegged for a hand until its claim is answered.

>>> settle(7, 9, "muggins")
Settlement(credited=7, taken=2, penalty=0)
>>> settle(12, 8, "challenge")
Settlement(credited=8, taken=4, penalty=0)
>>> settle(9, 9, "challenge")
Settlement(credited=9, taken=0, penalty=2)
>>> settle(12, 8, "accept")
Settlement(credited=12, taken=0, penalty=0)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final, Literal

Answer = Literal["accept", "muggins", "challenge"]

WRONG_CALL_PENALTY: Final = 2
"""Points the owner of a hand pegs when the opponent's muggins call or challenge is wrong."""

MAX_CLAIM: Final = 29
"""The most any hand or crib can make, so the most anyone may claim."""


@dataclass(frozen=True)
class Settlement:
    """What an answered claim pegs: the owner's points first, then the taker's or the penalty."""

    credited: int
    """Points the owner pegs for the hand: the claim, or the true total when put back."""
    taken: int
    """Points the opponent pegs: the missed points (muggins) or the excess (challenge)."""
    penalty: int
    """Points the owner pegs on top for the opponent's wrong call."""

    @property
    def owner_points(self) -> int:
        return self.credited + self.penalty


def call_is_right(claimed: int, total: int, answer: Answer) -> bool | None:
    """Whether a muggins call or challenge was right (None for an acceptance)."""
    if answer == "muggins":
        return claimed < total
    if answer == "challenge":
        return claimed > total
    return None


def settle(claimed: int, total: int, answer: Answer) -> Settlement:
    """The points an answered claim of ``claimed`` pegs for a hand that makes ``total``."""
    if not 0 <= claimed <= MAX_CLAIM or not 0 <= total <= MAX_CLAIM:
        raise ValueError(f"a count is from 0 to {MAX_CLAIM}, not {claimed} (true {total})")
    right = call_is_right(claimed, total, answer)
    if right is None:
        return Settlement(credited=claimed, taken=0, penalty=0)
    if not right:
        return Settlement(credited=claimed, taken=0, penalty=WRONG_CALL_PENALTY)
    if answer == "muggins":
        return Settlement(credited=claimed, taken=total - claimed, penalty=0)
    return Settlement(credited=total, taken=claimed - total, penalty=0)
