"""The server's collection schedule: young objects on a clock, a full pass on a longer one,
CPython's automatic collection off while it runs and back as it was after."""

from __future__ import annotations

import asyncio
import gc
import weakref
from collections.abc import Iterator
from typing import Any

import pytest

from muggins.server.runtime.collector import Collector, collecting


class Node:
    """A container that can hold itself (a reference cycle only the collector frees)."""

    def __init__(self) -> None:
        self.me: Any = None


@pytest.fixture
def collections() -> Iterator[list[int]]:
    """The generation of every collection from now on."""
    seen: list[int] = []

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "stop":
            seen.append(info["generation"])

    gc.callbacks.append(callback)
    try:
        yield seen
    finally:
        gc.callbacks.remove(callback)


async def test_young_collections_run_on_the_clock_and_a_full_one_on_the_longer_clock(
    collections: list[int],
) -> None:
    before = gc.get_threshold()
    async with collecting(young_every=0.02, full_every=0.3) as collector:
        assert gc.get_threshold()[0] == 0  # CPython's automatic collection is off
        await asyncio.sleep(0.5)
        young, full = collector.young, collector.full
    assert gc.get_threshold() == before
    assert young >= 10 and full >= 1
    assert collections.count(0) >= young and collections.count(2) >= full
    settled = len(collections)
    await asyncio.sleep(0.1)
    # Stopped: the schedule makes no more collections (any other would be CPython's own).
    assert collector.young == young and collector.full == full
    assert len(collections) - settled < 5


async def test_a_cycle_dropped_young_is_freed_within_a_tick() -> None:
    async with collecting(young_every=0.02, full_every=60.0):
        node = Node()
        node.me = node
        gone = weakref.ref(node)
        del node
        for _ in range(1000):  # up to 10 s
            if gone() is None:
                break
            await asyncio.sleep(0.01)
        assert gone() is None


async def test_a_cycle_that_dies_old_waits_for_the_full_collection() -> None:
    async with collecting(young_every=0.02, full_every=2.0) as collector:
        node = Node()
        node.me = node
        gone = weakref.ref(node)
        await asyncio.sleep(0.1)  # survives young collections: now in an older generation
        assert collector.full == 0
        del node
        await asyncio.sleep(0.1)
        assert gone() is not None  # young collections do not look at it
        for _ in range(500):  # up to 10 s
            if collector.full:
                break
            await asyncio.sleep(0.02)
        assert collector.full >= 1 and gone() is None


def test_the_schedule_is_checked() -> None:
    with pytest.raises(ValueError):
        Collector(young_every=0)
    with pytest.raises(ValueError):
        Collector(young_every=1.0, full_every=0.5)
