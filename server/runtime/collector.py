"""When a server collects its garbage: young objects on a clock, everything on a longer one.

CPython collects its young generation after a count of allocations *less deallocations* of
tracked objects (``gc.set_threshold``). A server at human pace allocates about as much as it
frees, so the count hardly moves while the young list grows with everything a move leaves alive
(each socket's waiting state, until that player's next move): young collections then come
seldom and walk a large list, and every tenth walks the older generation too: pauses that grow
with the number of sockets, every game waiting meanwhile (docs/BENCHMARKS.md, goal 2).

Here automatic collection is off and the young generation is collected every ``young_every``
seconds (0.25): the list then holds only what the last quarter of a second left alive, so a
young collection stays short whatever the number of rooms. Survivors move to the older
generations, where reference counting frees almost all of them; the few reference cycles that
die there (a closed connection's websockets protocol is one) wait for the full collection every
``full_every`` seconds (600), which walks every object and pauses the server for as long as
that takes. CPython's own schedule also walks everything every few
minutes at that size, and its older collections in between are what this removes. The ticks
fall on the event loop's clock grid (:func:`muggins.server.runtime.ticks.tick`), shared with the
keepalive's, so an idle server wakes no more often for them than it must.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
from collections.abc import AsyncIterator

from muggins.server.runtime.ticks import tick

YOUNG_EVERY = 0.25
"""Seconds between collections of the young generation."""
FULL_EVERY = 600.0
"""Seconds between full collections."""


class Collector:
    """Runs the collections on a schedule while started; CPython's own schedule is off."""

    def __init__(
        self,
        *,
        young_every: float = YOUNG_EVERY,
        full_every: float = FULL_EVERY,
    ) -> None:
        if young_every <= 0 or full_every < young_every:
            raise ValueError("young_every must be positive and full_every at least young_every")
        self.young_every = young_every
        self.full_every = full_every
        self.young = 0
        """Young collections made."""
        self.full = 0
        """Full collections made."""
        self._task: asyncio.Task[None] | None = None
        self._thresholds: tuple[int, int, int] | None = None

    def start(self) -> None:
        """Turn CPython's automatic collection off and collect on the schedule instead."""
        if self._task is not None:
            return
        self._thresholds = gc.get_threshold()
        gc.set_threshold(0)  # a first threshold of 0: no automatic collection at all
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        """Stop the schedule and give CPython its own thresholds back."""
        task, self._task = self._task, None
        if task is not None:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self._thresholds is not None:
            gc.set_threshold(*self._thresholds)
            self._thresholds = None

    async def _run(self) -> None:
        loop = asyncio.get_running_loop()  # its clock is the one the ticks fall on
        last_full = loop.time()
        while True:
            await tick(self.young_every)
            if loop.time() - last_full >= self.full_every:
                gc.collect()
                self.full += 1
                last_full = loop.time()
            else:
                gc.collect(0)
                self.young += 1


@contextlib.asynccontextmanager
async def collecting(
    *, young_every: float = YOUNG_EVERY, full_every: float = FULL_EVERY
) -> AsyncIterator[Collector]:
    """The collector schedule for the body of an ``async with`` (what ``muggins serve`` runs
    its server in)."""
    collector = Collector(young_every=young_every, full_every=full_every)
    collector.start()
    try:
        yield collector
    finally:
        await collector.stop()
