"""The figures ``/metrics`` reads from the store rather than from this node: open rooms of every
node, the rated queue's length and the review backlog. They are counted when Prometheus scrapes,
at most every :data:`CENSUS_EVERY` seconds, in the background (a scrape shows the count the one
before it started): a node nobody scrapes asks its store nothing."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Protocol, runtime_checkable

from muggins.server.lobby.lobby import Lobby
from muggins.server.runtime.metrics import Metrics
from muggins.server.store.games import Store, StoreError

log = logging.getLogger("muggins.census")

CENSUS_EVERY = 15.0
"""Seconds between two counts at most (Prometheus scrapes every 15 s by default)."""


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
        self.counted = -CENSUS_EVERY
        """When (monotonic clock) the latest count was started."""
        self._task: asyncio.Task[None] | None = None

    def read(self) -> Census:
        """The latest counts; a new count starts if they are :data:`CENSUS_EVERY` old."""
        now = time.monotonic()
        if (self._task is None or self._task.done()) and now - self.counted >= CENSUS_EVERY:
            self.counted = now
            with contextlib.suppress(RuntimeError):  # no running loop: no count
                self._task = asyncio.get_running_loop().create_task(self.count())
        return self

    async def count(self) -> None:
        """Count once, now."""
        try:
            self.queue_length = len(await self.store.queue_entries())
            if isinstance(self.store, Counting):
                counts = await self.store.census()
                self.rooms_open = counts["rooms_open"]
                self.review_backlog = counts["review_backlog"]
        except StoreError as error:
            log.debug("census not taken: %s", error)

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def publish(metrics: Metrics, lobby: Lobby, census: Census, ready: Callable[[], bool]) -> None:
    """The gauges ``/metrics`` reads when Prometheus scrapes: this node's games and players,
    the store's counts, and whether the node is ready."""
    figure = metrics.figure
    figure(
        "muggins_games_in_progress",
        "Matches under way in the rooms this node holds",
        lambda: sum(
            1 for r in list(lobby.rooms.values()) if r.match is not None and not r.match.over
        ),
    )
    figure(
        "muggins_players_connected", "Players connected (said hello)", lambda: len(lobby.players)
    )
    figure(
        "muggins_players_signed_in",
        "Players connected and signed in to an account",
        lambda: sum(1 for p in list(lobby.players.values()) if p.account),
    )
    figure(
        "muggins_stored_rooms_open",
        "Rooms open in the store (every node's, in a cluster)",
        lambda: census.read().rooms_open,
    )
    figure("muggins_queue_length", "Players in the rated queue", lambda: census.read().queue_length)
    figure(
        "muggins_review_backlog",
        "Finished matches waiting for their review",
        lambda: census.read().review_backlog,
    )
    figure(
        "muggins_ready",
        "1 while /readyz answers 200 (the store answers, not stopping), else 0",
        lambda: float(ready()),
    )
