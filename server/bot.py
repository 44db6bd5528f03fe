"""The computer in a seat: a peer that reads its own seat's states and answers with moves.

It receives exactly what a remote player in that seat would (``state`` messages built from
``Match.view(seat)``) and moves through the same :meth:`Room.act` entry, after a short pause.
Strategies may think for a while, so ``choose`` runs in a worker thread, off the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import TYPE_CHECKING

from server.players import Refusal
from shared.bots import make_strategy
from shared.protocol import ServerMessage, State, from_action
from shared.view import SeatView

if TYPE_CHECKING:
    from server.room import Room

log = logging.getLogger("muggins.bot")


class BotPeer:
    def __init__(self, room: Room, seat: int, level: str, *, delay: float) -> None:
        self.room = room
        self.seat = seat
        self.level = level
        self.delay = delay
        self.strategy = make_strategy(level, seed=secrets.randbits(32))
        self._task: asyncio.Task[None] | None = None
        self._latest = -1

    def send(self, message: ServerMessage) -> None:
        if not isinstance(message, State):
            return
        view = message.view
        self._latest = max(self._latest, message.seq)
        if view.seat == self.seat and self.seat in view.waiting_for and view.legal:
            if self._task is not None and not self._task.done():
                self._task.cancel()
            self._task = asyncio.get_running_loop().create_task(self._move(message.seq, view))

    async def _move(self, seq: int, view: SeatView) -> None:
        await asyncio.sleep(self.delay)
        if seq != self._latest or self.room.closed:
            return
        action = await asyncio.to_thread(self.strategy.choose, view)
        if seq != self._latest or self.room.closed:
            return
        try:
            await self.room.act(self.seat, from_action(action), origin=self)
        except Refusal as refusal:
            log.info("room %s: computer move refused: %s", self.room.code, refusal.message)
        except Exception:
            log.exception("room %s: computer move failed", self.room.code)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
