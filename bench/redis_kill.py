"""Benchmark: acknowledged writes a ``kill -9`` of Redis loses, under each ``appendfsync``.

    python bench/redis_kill.py [--fsync always,everysec,no] [--rounds 20] [--writers 16]

Each round starts a fresh ``redis-server`` (append-only file on, as the cluster runs it, with the
round's ``appendfsync``), has ``--writers`` connections each ``INCR`` a key of its own as fast as
Redis answers, remembering the last value Redis acknowledged, kills Redis with SIGKILL after a
random 0.5-2.5 s, starts it again on the same folder and counts the acknowledged increments its
log did not keep. It measures what docs/hosting.md ("Redis durability") says of each policy: a
kill of Redis loses nothing acknowledged when every write is handed to the kernel before its
answer goes out (``always``, ``no``); ``everysec`` postpones that write while a background sync is
still running and answers anyway, so a kill in that moment loses what was answered. A power cut
is not simulated: ``no`` and ``everysec`` leave the last writes in the kernel's cache.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path

import redis as redis_py
import redis.asyncio as redis_async

sys.path.insert(0, str(Path(__file__).resolve().parent))
from processes import kill_and_wait, start_redis


async def write(url: str, writers: int, acknowledged: dict[int, int], stop: asyncio.Event) -> None:
    """``INCR`` key ``k<n>`` from each writer until ``stop`` or Redis goes away."""
    client = redis_async.Redis.from_url(url)

    async def writer(n: int) -> None:
        while not stop.is_set():
            try:
                acknowledged[n] = await client.incr(f"k{n}")
            except (redis_py.ConnectionError, OSError):
                return

    try:
        await asyncio.gather(*(writer(n) for n in range(writers)))
    finally:
        await client.aclose()


async def one_round(fsync: str, writers: int, rng: random.Random) -> tuple[int, int]:
    """Acknowledged increments of one round, and how many of them the restarted Redis lacks."""
    with tempfile.TemporaryDirectory(prefix="redis-kill-") as folder:
        process, url = start_redis(folder, fsync)
        acknowledged: dict[int, int] = {}
        stop = asyncio.Event()
        task = asyncio.create_task(write(url, writers, acknowledged, stop))
        await asyncio.sleep(rng.uniform(0.5, 2.5))
        kill_and_wait(process)
        stop.set()
        await task
        process, url = start_redis(folder, fsync)
        try:
            client = redis_py.Redis.from_url(url)
            kept = {n: int(client.get(f"k{n}") or 0) for n in acknowledged}
            client.close()
        finally:
            process.terminate()
            process.wait()
    lost = sum(max(0, value - kept[n]) for n, value in acknowledged.items())
    return sum(acknowledged.values()), lost


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fsync", default="always,everysec,no", help="appendfsync policies")
    parser.add_argument("--rounds", type=int, default=20, help="kills for each policy")
    parser.add_argument("--writers", type=int, default=16, help="connections writing at once")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    for fsync in args.fsync.split(","):
        if fsync not in ("always", "everysec", "no"):
            parser.error(f"--fsync: always, everysec or no, not {fsync!r}")
        rounds = [asyncio.run(one_round(fsync, args.writers, rng)) for _ in range(args.rounds)]
        lost = [n for _, n in rounds]
        print(
            f"appendfsync {fsync}: {args.rounds} kills, {sum(a for a, _ in rounds):,} writes "
            f"acknowledged, {sum(lost):,} of them lost, in {sum(1 for n in lost if n)} of the "
            f"kills (lost in each: {', '.join(map(str, lost))})",
            flush=True,
        )


if __name__ == "__main__":
    main()
