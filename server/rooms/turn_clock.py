"""The turn clock of a timed room: each move's own seconds, then a bank per seat.

A room with ``turn_timer`` gives each move that many seconds; time beyond them comes out of the
player's bank (``turn_bank`` seconds per match; 180 s in a rated room, none in a casual room
that sets no bank). When both are spent the server moves for the player.

A seat's move time starts when a state first waits for it and runs until that seat moves: in the
discard, where both seats move at once, one seat laying away does not restart the other's time.
Each state carries what each waited-for seat has left as it is sent (:meth:`TurnClock.left_now`),
so both players' tables count down the same figures.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Final

from muggins.shared.protocol import RoomOptions, SeatClock

RATED_BANK_SECONDS: Final = 180.0
DUE: Final = 0.25
"""Seconds of slack when the timer runs out: a seat this close to its end has run out."""


def bank_seconds(options: RoomOptions) -> float:
    """The bank a room's options give each seat per match."""
    if options.turn_bank is not None:
        return float(options.turn_bank)
    return RATED_BANK_SECONDS if options.rated else 0.0


class TurnClock:
    """Per-move time plus a bank per seat, for a room with a turn timer."""

    def __init__(
        self,
        move: float,
        bank: float = RATED_BANK_SECONDS,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.move, self.bank, self.clock = move, bank, clock
        self.banks = [bank, bank]
        self.started: list[tuple[float, int] | None] = [None, None]
        """When each waited-for seat's move time started, and how many actions the match's log
        held then; None for a seat not waited for."""

    def reset(self) -> None:
        """A new match: full banks, nobody's time running."""
        self.banks = [self.bank, self.bank]
        self.started = [None, None]

    def wait(self, waiting: Sequence[int], log: Sequence[tuple[int, object]]) -> None:
        """A state waits for ``waiting`` after the actions of ``log``: start the time of a seat
        newly waited for, or one that moved since its time started; stop the others'."""
        now = self.clock()
        for seat in (0, 1):
            started = self.started[seat]
            if seat not in waiting:
                self.started[seat] = None
            elif started is None or any(mover == seat for mover, _ in log[started[1] :]):
                self.started[seat] = (now, len(log))

    def charge(self, seat: int) -> None:
        """``seat`` moved: time past the per-move limit comes out of its bank."""
        started = self.started[seat]
        self.started[seat] = None
        if started is None:
            return
        over = self.clock() - started[0] - self.move
        if over > 0:
            self.banks[seat] = max(0.0, self.banks[seat] - over)

    def remaining(self, seat: int) -> float:
        """Seconds until the server moves for ``seat`` (its move time and bank), from now."""
        started = self.started[seat]
        spent = self.clock() - started[0] if started is not None else 0.0
        return self.move + self.banks[seat] - spent

    def limit(self, waiting: Sequence[int]) -> float:
        """Seconds from now until the first of ``waiting`` runs out."""
        return max(0.0, min((self.remaining(s) for s in waiting), default=self.move))

    def due(self, seat: int) -> bool:
        """Whether ``seat``'s time (move and bank) has run out."""
        return self.remaining(seat) <= DUE

    def spent(self, seat: int) -> None:
        self.banks[seat] = 0.0

    def left(self) -> tuple[float, float]:
        """Each seat's bank as of its last move (the room message's ``bank``)."""
        return round(self.banks[0], 1), round(self.banks[1], 1)

    def left_now(self) -> tuple[SeatClock | None, SeatClock | None]:
        """What each waited-for seat has left at this moment: its move's own seconds, then its
        bank less what this move has taken from it; None for a seat not waited for."""
        now = self.clock()
        shown: list[SeatClock | None] = []
        for seat in (0, 1):
            started = self.started[seat]
            if started is None:
                shown.append(None)
                continue
            move = self.move - (now - started[0])
            bank = self.banks[seat] + min(0.0, move)
            shown.append(SeatClock(move=round(max(0.0, move), 1), bank=round(max(0.0, bank), 1)))
        return shown[0], shown[1]
