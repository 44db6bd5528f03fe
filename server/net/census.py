"""The figures ``/metrics`` reads from the store rather than from this node: open rooms of every
node, the rated queue's length and the review backlog, counted every :data:`CENSUS_EVERY` s."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Protocol, runtime_checkable

from muggins.server.store.games import Store, StoreError

log = logging.getLogger("muggins.census")

CENSUS_EVERY = 15.0
"""Seconds between two counts (Prometheus scrapes every 15 s by default)."""


@runtime_checkable
class Counting(Protocol):
    """A store that counts what it holds: ``rooms_open`` (of every node), ``review_backlog``."""

    async def census(self) -> dict[str, int]: ...


class Census:
    """The store's latest counts; each stays at its last value while the store fails."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.rooms_open = 0
        self.queue_length = 0
        self.review_backlog = 0
        self._task: asyncio.Task[None] | None = None

    async def count(self) -> None:
        """Count once (what the clock does every :data:`CENSUS_EVERY` seconds)."""
        try:
            self.queue_length = len(await self.store.queue_entries())
            if isinstance(self.store, Counting):
                counts = await self.store.census()
                self.rooms_open = counts["rooms_open"]
                self.review_backlog = counts["review_backlog"]
        except StoreError as error:
            log.debug("census not taken: %s", error)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task

    async def _run(self) -> None:
        while True:
            await self.count()
            await asyncio.sleep(CENSUS_EVERY)
