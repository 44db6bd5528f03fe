"""Sleeping to a shared grid of the event loop's clock, so periodic loops wake together.

An idle server's CPU goes mostly to waking up, not to the work it wakes for: each wake-up of an
idle asyncio process costs it far more than the little it then does (docs/BENCHMARKS.md,
goal 5). Loops that each sleep ``period`` from their own
last round wake the process once each; loops that sleep to the next multiple of a period on the
loop's clock (:func:`tick`) all wake in one turn of the event loop.
"""

from __future__ import annotations

import asyncio


def _wake(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_result(None)


def next_tick(now: float, period: float) -> float:
    """The first multiple of ``period`` after ``now``."""
    return (now // period + 1) * period


async def tick(period: float) -> None:
    """Sleep until the event loop's clock next reaches a multiple of ``period`` seconds.

    Every loop that ticks at the same period (or at a multiple of a shorter one it shares a
    grid with: 0.5 s and 1 s) is woken in the same turn of the event loop: the timers fall due
    at exactly the same time.
    """
    loop = asyncio.get_running_loop()
    when = next_tick(loop.time(), period)
    future = loop.create_future()
    handle = loop.call_at(when, _wake, future)
    try:
        await future
    finally:
        handle.cancel()
