"""Moving a match on when a seat is waited for: the computer is sent its view, a person's turn
timer is armed, and when it runs out the server moves for them.

The timer is armed again after every state sent, for as long as the room's
:class:`~server.rooms.turn_clock.TurnClock` gives the seats waited for (their move's seconds,
then their bank). In a cluster only the node that claims the timer moves.
"""

from __future__ import annotations

import asyncio
import secrets

from muggins.server.rooms.players import Refusal
from muggins.server.rooms.presence import Presence


class TurnTimer(Presence):
    """The computer's seats nudged, and each person's time counted out, after every state."""

    def kick_bots(self) -> None:
        """Send each computer seat its view, so it moves if it is waited for."""
        for seat in self.seats:
            if seat.kind == "bot" and seat.bot is not None:
                state = self.state_for(seat.index)
                if state is not None:
                    seat.bot.send(state)

    def arm_turn_timer(self) -> None:
        if self._turn_timer is not None:
            self._turn_timer.cancel()
            self._turn_timer = None
        limit = self.turn_limit
        if limit is None or self.match is None or self.match.over or self.closed:
            return
        if self.turn_clock is not None:
            waiting = self.match.waiting_for()
            self.turn_clock.wait(waiting, self.match.log)
            people = [i for i in waiting if self.seats[i].kind == "human"]
            limit = self.turn_clock.limit(people or waiting)
        seq = self.seq
        self._turn_timer = asyncio.get_running_loop().call_later(
            limit, lambda: asyncio.ensure_future(self.time_out(seq))
        )

    async def time_out(self, seq: int) -> None:
        """The turn timer armed at state ``seq`` ran out: move for the player, at ``seq`` only
        (in a cluster, on the one node that claims the timer)."""
        from muggins.shared.bots.base import stand_in_move

        if not await self.cluster.take_timer(seq):
            return
        if self.match is None or self.seq != seq or self.closed:
            return
        for index in self.match.waiting_for():
            seat = self.seats[index]
            if seat.kind != "human" or self.seq != seq:
                continue
            if self.turn_clock is not None and not self.turn_clock.due(index):
                continue  # the other seat's time ran out; this one's runs on
            action = stand_in_move(self.match.view(index))
            sentence = f"Time is up for {seat.name}: the server moves for them"

            def timed_out(index: int = index, sentence: str = sentence) -> None:
                self.notice("timeout", sentence)
                if self.turn_clock is not None:
                    self.turn_clock.spent(index)

            try:
                key = f"timer:{secrets.token_hex(6)}"
                await self.act(index, action, origin=None, seq=seq, key=key, applied=timed_out)
            except Refusal:
                return
