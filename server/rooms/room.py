"""A room: two seats, spectators, and the match between the seats.

:class:`Room` is put together from one class per job, each built on the one before, down to
:class:`~server.rooms.seating.Table` (who sits and watches, and what they are told). One line
of single inheritance, so that the compiled build (setup.py) can compile every layer:

- :mod:`server.rooms.referee`: each move checked, stored, then sent; a match started and ended.
- :mod:`server.rooms.presence`: connections dropped and back, leaving, the grace period.
- :mod:`server.rooms.turn_timer`: the computer nudged, a person's time counted out.
- :mod:`server.rooms.agreements`: restart, rematch and claim.
- :mod:`server.rooms.arrivals`: taking a seat.
"""

from __future__ import annotations

from muggins.server.rooms.arrivals import Arrivals


class Room(Arrivals):
    """A room of two seats: every change is checked, persisted, then sent (see module doc).

    Each change runs through :attr:`cluster` (see :mod:`server.rooms.cluster_seam`): on one
    server it just runs; on a cluster node it runs against the room as the cluster has it.
    """

    def resume(self) -> None:
        """After a rebuild: the computer moves if waited for, timers run, grace periods count."""
        self.kick_bots()
        self.arm_turn_timer()
        if self.status != "playing":
            return
        for seat in self.seats:
            if seat.kind == "human" and seat.gone_since is not None:
                self.count_grace(seat.index)
