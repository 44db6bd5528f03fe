"""Benchmark: how long the cluster's sweep over the open rooms holds Redis up.

    python bench/sweep_hold.py [--rooms 3000,30000] [--step 500] [--rounds 3]

Starts a fresh ``redis-server`` (append-only file, ``appendfsync always``, as the cluster runs
it), writes ``--rooms`` open rooms in play (a match started, written to lately: the sweep reads
each and closes none), and runs the sweep a node runs every ``--sweep-interval``
(``ClusterStore.sweep_rooms``) while a second connection sends ``PING`` after ``PING``. Redis
runs one script at a time, so the longest a ``PING`` waited is the longest every node's moves
waited on the sweep. ``--step 0`` reads every room in one script, as the sweep did before it
went in steps.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from pathlib import Path

import redis.asyncio as redis_async

sys.path.insert(0, str(Path(__file__).resolve().parent))
from processes import kill_and_wait, start_redis

from muggins.server.cluster.coordination import ClusterStore


async def fill(store: ClusterStore, rooms: int) -> None:
    """``rooms`` open rooms, each in its first match and written to now."""
    now = repr(time.time())
    for start in range(0, rooms, 1000):
        async with store.redis.pipeline(transaction=False) as pipe:
            for i in range(start, min(rooms, start + 1000)):
                code = f"R{i:06d}"
                pipe.hset(
                    store.room_key(code),
                    mapping={"touched": now, "created": now, "match": "1", "closed": "0"},
                )
                pipe.sadd(store.open_key, code)
            await pipe.execute()


async def pings(pinger: redis_async.Redis, waits: list[float], done: asyncio.Event) -> None:
    """``PING`` after ``PING`` until ``done``, noting how long each waited for its answer."""
    while not done.is_set():
        sent = time.perf_counter()
        await pinger.ping()
        waits.append(time.perf_counter() - sent)


async def one_size(url: str, rooms: int, step: int, rounds: int) -> None:
    store = ClusterStore(url)
    pinger = redis_async.Redis.from_url(url)
    try:
        await store.redis.flushall()
        await fill(store, rooms)
        for _ in range(rounds):
            waits: list[float] = []
            done = asyncio.Event()
            pinging = asyncio.create_task(pings(pinger, waits, done))
            await asyncio.sleep(0.05)
            began = time.perf_counter()
            idle, vacant = await store.sweep_rooms(since=time.time() - 3600, step=step or rooms)
            took = time.perf_counter() - began
            done.set()
            await pinging
            assert not idle and not vacant
            print(
                f"{rooms:,} rooms, {'one script' if not step else f'steps of {step}'}: sweep "
                f"{took * 1000:.1f} ms; a PING beside it waited at most {max(waits) * 1000:.1f} ms "
                f"({len(waits):,} PINGs)",
                flush=True,
            )
    finally:
        await pinger.aclose()
        await store.close()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", default="3000,30000", help="open rooms, or a list")
    parser.add_argument("--step", default="0,500", help="rooms a script (0: all), or a list")
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="sweep-hold-") as folder:
        process, url = start_redis(folder, "always")
        try:
            for rooms in (int(n) for n in args.rooms.split(",")):
                for step in (int(n) for n in args.step.split(",")):
                    asyncio.run(one_size(url, rooms, step, args.rounds))
        finally:
            kill_and_wait(process)
    return 0


if __name__ == "__main__":
    sys.exit(main())
