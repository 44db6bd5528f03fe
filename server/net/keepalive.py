"""Keepalive pings for all of a server's connections, sent in one batch a second.

The WebSocket keepalive is what closes a connection whose client vanished without closing it
(a phone that lost its network, a laptop put to sleep): every ``INTERVAL`` seconds each
connection is sent a ping, and one whose pong has not come ``INTERVAL`` seconds later is closed
(1011, "keepalive ping timeout"), as websockets' own keepalive does with ``ping_interval`` and
``ping_timeout`` of 20 s.

websockets runs that keepalive in a task per connection, each with its own timer, so with
connections opened at different moments every ping wakes the server on its own, and its pong
again, and an idle process's cost is its wake-ups far more than its work, so those wake-ups
were most of an idle player's cost. Here one loop ticks every ``TICK`` seconds on
the event loop's clock grid (:func:`muggins.server.runtime.ticks.tick`, shared with a cluster node's
heartbeat) and pings the connections of this tick's slot: each connection is in one of
``INTERVAL / TICK`` slots, so it is still pinged every ``INTERVAL`` seconds, and its timeout is
checked when its slot comes round again, at no extra wake-up. A connection's first ping comes
about ``INTERVAL`` seconds after it opened, as with websockets. The pongs of one slot come back
together, so a server wakes a few times a second for its keepalive whatever its connections.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from websockets.asyncio.server import ServerConnection
from websockets.exceptions import ConnectionClosed

from muggins.server.runtime.ticks import tick
from muggins.server.wire.ws_internals import fail_keepalive, send_ping

log = logging.getLogger("muggins.keepalive")

INTERVAL = 20.0
"""Seconds between pings of a connection, and that a ping may wait for its pong."""
TICK = 1.0
"""Seconds between batches of pings (each connection is in one batch of ``INTERVAL / TICK``)."""


class Keepalive:
    """Pings every registered connection every ``interval`` seconds, in batches."""

    def __init__(self, *, interval: float = INTERVAL, tick: float = TICK) -> None:
        self.interval = interval
        self.tick = tick
        self._slots: list[dict[ServerConnection, asyncio.Future[float] | None]] = [
            {} for _ in range(max(1, round(interval / tick)))
        ]
        """Each slot's connections, with the pong each awaits (None before its first ping)."""
        self._slot_of: dict[ServerConnection, int] = {}
        self._round = 0
        self._task: asyncio.Task[None] | None = None
        self._failing: set[asyncio.Task[None]] = set()
        self.timeouts = 0
        """Connections closed for a pong that did not come."""

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        for task in [self._task, *self._failing]:
            if task is not None:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
        self._task = None

    def __len__(self) -> int:
        return len(self._slot_of)

    def add(self, ws: ServerConnection) -> None:
        """Keep ``ws`` alive: pinged first about ``interval`` seconds from now (its slot is the
        one just pinged)."""
        slot = self._round % len(self._slots)
        self._slots[slot][ws] = None
        self._slot_of[ws] = slot

    def discard(self, ws: ServerConnection) -> None:
        slot = self._slot_of.pop(ws, None)
        if slot is not None:
            self._slots[slot].pop(ws, None)

    async def _run(self) -> None:
        while True:
            await tick(self.tick)
            try:
                self.round()
            except Exception:
                log.exception("keepalive round failed")

    def round(self) -> None:
        """Ping the next slot's connections; close those whose last ping had no pong."""
        self._round += 1
        slot = self._slots[self._round % len(self._slots)]
        for ws, waiting in list(slot.items()):
            if waiting is not None and not waiting.done():
                self.discard(ws)
                self._fail(ws)
                continue
            try:
                slot[ws] = self._ping(ws)
            except Exception:  # one connection's failure must not keep the rest unpinged
                log.exception("keepalive ping failed")
                slot[ws] = None

    @staticmethod
    def _ping(ws: ServerConnection) -> asyncio.Future[float] | None:
        """Send ``ws`` a ping now, without waiting for its buffer to drain (a ping is 6 bytes;
        a reader that does not read is the slow-reader check's)."""
        return send_ping(ws)

    def _fail(self, ws: ServerConnection) -> None:
        """Close ``ws`` as websockets' keepalive does when a pong does not come."""
        self.timeouts += 1
        log.info("closing a connection whose keepalive ping had no pong")

        async def fail() -> None:
            with contextlib.suppress(ConnectionClosed):
                await fail_keepalive(ws)

        task = asyncio.get_running_loop().create_task(fail())
        self._failing.add(task)
        task.add_done_callback(self._failing.discard)
