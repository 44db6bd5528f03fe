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

from muggins.server.rooms.players import Refusal
from muggins.shared.bots import make_strategy
from muggins.shared.protocol import ServerMessage, State
from muggins.shared.protocol.unpack import Unpacker
from muggins.shared.view import SeatView

if TYPE_CHECKING:
    from muggins.server.rooms.room import Room

log = logging.getLogger("muggins.bot")

RETRIED = frozenset({"storage", "unconfirmed"})
"""Refusals after which the computer tries the same move again."""
RETRY_FIRST = 0.1
RETRY_MAX = 2.0
"""Seconds between tries of a move the store could not take: doubling, up to this."""


class BotPeer:
    def __init__(self, room: Room, seat: int, level: str, *, delay: float) -> None:
        self.room = room
        self.seat = seat
        self.level = level
        self.delay = delay
        self.strategy = make_strategy(level, seed=secrets.randbits(32))
        self._task: asyncio.Task[None] | None = None
        self._latest = -1
        self._views = Unpacker()

    def send(self, message: ServerMessage) -> None:
        if not isinstance(message, State):
            return
        view = self._views.whole(message)
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
        key = f"computer:{secrets.token_hex(6)}"  # this move's: a retry of it is stored once
        wait = RETRY_FIRST
        # A move the store could not take is tried again (at the same seq, so never twice)
        # until it is made, the game has moved on, or the room is gone.
        while seq == self._latest and not self.room.closed:
            try:
                await self.room.act(self.seat, action, origin=self, seq=seq, key=key)
                return
            except Refusal as refusal:
                if refusal.code not in RETRIED:
                    log.info("room %s: computer move refused: %s", self.room.code, refusal.message)
                    return
                log.warning(
                    "room %s: computer move not saved (%s); trying again in %.1f s",
                    self.room.code,
                    refusal.message,
                    wait,
                )
            except Exception:
                log.exception("room %s: computer move failed", self.room.code)
                return
            await asyncio.sleep(wait)
            wait = min(wait * 2, RETRY_MAX)

    def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
