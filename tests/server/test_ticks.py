"""Ticks on the event loop's clock grid: loops of periods on one grid fall due together."""

from __future__ import annotations

import asyncio
import random

from muggins.server.runtime.ticks import next_tick, tick


def test_ticks_of_periods_on_one_grid_fall_due_at_exactly_the_same_time() -> None:
    """From any two moments, a 1 s tick falls due exactly (to the bit) when a tick of a loop
    ticking every 0.5 s does: their timers fire in one turn of the event loop."""
    rng = random.Random(5)
    for _ in range(10_000):
        start = rng.uniform(0, 1e6)
        second = next_tick(start + rng.random(), 1.0)
        halves = [next_tick(start, 0.5)]
        while halves[-1] < second:
            halves.append(next_tick(halves[-1], 0.5))
        assert halves[-1] == second
        assert start < halves[0] <= start + 0.5


async def test_a_tick_returns_at_its_grid_point_not_before() -> None:
    loop = asyncio.get_running_loop()
    for period in (0.05, 0.1):
        due = next_tick(loop.time(), period)
        await tick(period)
        assert loop.time() >= due
