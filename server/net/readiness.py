"""Whether this node takes new players: ``/readyz``.

``/healthz`` says the process is alive; ``/readyz`` says its store answers (for a cluster node:
Redis) and it is not stopping, so a load balancer or an orchestrator sends players elsewhere
while it is not. The store is asked every :data:`PROBE_EVERY` seconds. One line is logged when
the node stops being ready and one when it is ready again; in between, the node's other log
lines (each failed Redis call would log its own) are held to one per :data:`OUTAGE_LOG_EVERY`
seconds (:class:`~muggins.server.runtime.logs.OutageFilter`), with a count of those held back.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, runtime_checkable

from muggins.server.runtime.logs import OUTAGE

log = logging.getLogger("muggins.readiness")

PROBE_EVERY = 1.0
"""Seconds between two questions to the store."""
PROBE_TIMEOUT = 2.0
"""Seconds the store has to answer before the node is not ready."""
OUTAGE_LOG_EVERY = 30.0
"""Seconds between two error lines while the store does not answer."""

Probe = Callable[[], Awaitable[float | None]]
"""Asks the store; returns how long the store took when it knows better than the clock here
(a cluster node's heartbeat answered for it), else None."""


@runtime_checkable
class Pingable(Protocol):
    """A store that can say it answers (SQLite's thread read from the file; Redis answered)."""

    async def ping(self) -> float | None: ...


class Readiness:
    """Asks ``probe`` (the store's ping) on a clock; :attr:`ready` says what it last answered."""

    def __init__(
        self,
        probe: Probe | None,
        *,
        what: str,
        observe: Callable[[float | None], None] | None = None,
    ) -> None:
        self.probe = probe
        self.observe = observe
        """Told each answer's time in seconds, or None for a failure (the metrics)."""
        self.what = what
        """What the probe asks, for the log ("Redis", "the store")."""
        self.ready = True
        self.stopping = False
        self.reason = ""
        self.down_since = 0.0
        self._said = 0.0
        """When the last error line about the outage was logged."""
        self._task: asyncio.Task[None] | None = None

    def answer(self) -> tuple[bool, str]:
        """``/readyz``'s answer: ready or not, and a line saying why."""
        if self.stopping:
            return False, "not ready: stopping\n"
        if not self.ready:
            return False, f"not ready: {self.what} does not answer ({self.reason})\n"
        return True, "ready\n"

    async def start(self) -> None:
        """Ask the store once now, then every :data:`PROBE_EVERY` seconds."""
        if self.probe is not None:
            await self.check()
            self._task = asyncio.get_running_loop().create_task(self._watch(self.probe))

    async def stop(self) -> None:
        self.stopping = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        OUTAGE.end()

    async def check(self) -> None:
        """Ask the store once and note the answer (logging a change)."""
        assert self.probe is not None
        began = time.perf_counter()
        try:
            async with asyncio.timeout(PROBE_TIMEOUT):
                took = await self.probe()
        except Exception as error:  # any failure to answer means: not ready
            if self.observe is not None:
                self.observe(None)
            self._failed(str(error) or type(error).__name__)
        else:
            if self.observe is not None:
                self.observe(took if took is not None else time.perf_counter() - began)
            self._answered()

    async def _watch(self, probe: Probe) -> None:
        while True:
            await asyncio.sleep(PROBE_EVERY)
            await self.check()

    def _failed(self, reason: str) -> None:
        self.reason = reason[:200]
        now = time.monotonic()
        if self.ready:
            self.ready, self.down_since, self._said = False, now, now
            log.error("not ready: %s does not answer (%s)", self.what, self.reason)
            OUTAGE.begin()
        elif now - self._said >= OUTAGE_LOG_EVERY:
            self._said = now
            held = OUTAGE.held_back()
            log.error(
                "still not ready: %s has not answered for %.0f s (%s); %d log lines held back",
                self.what,
                now - self.down_since,
                self.reason,
                held,
            )

    def _answered(self) -> None:
        if not self.ready:
            self.ready = True
            held = OUTAGE.end()
            log.warning(
                "ready again: %s answers after %.0f s (%d log lines held back)",
                self.what,
                time.monotonic() - self.down_since,
                held,
            )
