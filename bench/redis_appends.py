"""Benchmark: the CPU one move's append costs a cluster node and Redis, beside the SQLite store's.

    python bench/redis_appends.py [--rooms 50] [--depth 100] [--together 1,10] [--repeat 3]
        [--fsync always|everysec|no]

Starts a ``redis-server`` (AOF, ``appendfsync always`` as the cluster runs it, or ``--fsync``)
and a ``ClusterStore`` on it, starts a match in each of ``--rooms`` rooms, then appends
``--depth`` moves to each: ``--together K`` rooms' appends are made in one turn of the event
loop and awaited together (1: each awaited before the next, as at human pace; more: as a busy
node's loop turn holds several). The same moves go to a ``SqliteStore`` on a temporary file in
the same run. Prints the node's event loop thread CPU per append (the store's Python, its socket
calls and the wake-up for the answer), Redis's CPU per append (the script, the append-only
file's write and sync; read from /proc in clock ticks, so coarse), the time Redis spent running
the scripts and the commands it ran per append. The best of ``--repeat`` runs counts.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from processes import cpu_seconds, redis_commands, start_redis
from sqlite_appends import Appending, fill_rooms

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.actions import Play
from muggins.shared.cards import parse_card


async def _append(store: Appending, codes: list[str], depth: int, together: int) -> float:
    """Seconds of the loop thread's CPU for all the appends."""
    move = Play(card=parse_card("5H"))  # the store keeps what it is given
    started = time.thread_time()
    for index in range(depth):
        for low in range(0, len(codes), together):
            await asyncio.gather(
                *(
                    store.append_action(
                        code, 1, index, index % 2, move, seq=index, key=f"{index}:{code}"
                    )
                    for code in codes[low : low + together]
                )
            )
    return time.thread_time() - started


async def run_sqlite(codes: list[str], depth: int, together: int) -> float:
    with tempfile.TemporaryDirectory(prefix="redis-appends-") as folder:
        store = SqliteStore(Path(folder) / "muggins.db")
        await store.open()
        await fill_rooms(store, codes)
        spent = await _append(store, codes, depth, together)
        await store.close()
    return spent / len(codes) / depth * 1e6


async def run_redis(
    url: str, codes: list[str], depth: int, together: int, redis_cpu: Callable[[], float]
) -> tuple[float, float, dict[str, float]]:
    store = ClusterStore(url)
    await store.open()
    store.node = "bench"
    try:
        await fill_rooms(store, codes)
        await store.redis.config_resetstat()
        cpu0 = redis_cpu()
        spent = await _append(store, codes, depth, together)
        cpu1, (calls, usec) = redis_cpu(), redis_commands(url)
        await store.redis.flushdb()
    finally:
        await store.close()
    appends = len(codes) * depth
    counts = {name: n / appends for name, n in calls.most_common()}
    counts["µs in scripts"] = usec["evalsha"] / appends
    return spent / appends * 1e6, (cpu1 - cpu0) / appends * 1e6, counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--depth", type=int, default=100, help="moves appended to each match")
    parser.add_argument("--together", default="1,10", help="appends per loop turn, or a list")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--fsync",
        default="always",
        choices=("always", "everysec", "no"),
        help="Redis's appendfsync",
    )
    args = parser.parse_args()
    sizes = [int(n) for n in args.together.split(",")]
    with tempfile.TemporaryDirectory(prefix="redis-appends-") as folder:
        redis, url = start_redis(folder, args.fsync)
        try:
            for together in sizes:
                sqlite: list[float] = []
                cluster: list[tuple[float, float, dict[str, float]]] = []
                for attempt in range(args.repeat):
                    codes = [f"R{attempt}{together}x{n:04d}" for n in range(args.rooms)]
                    sqlite.append(asyncio.run(run_sqlite(codes, args.depth, together)))
                    cluster.append(
                        asyncio.run(
                            run_redis(
                                url, codes, args.depth, together, lambda: cpu_seconds(redis.pid)
                            )
                        )
                    )
                node, server, counts = min(cluster, key=lambda r: r[0] + r[1])
                print(
                    f"{together} append(s) a loop turn: SQLite {min(sqlite):.1f} µs; node "
                    f"{node:.1f} µs + Redis {server:.1f} µs = {node + server:.1f} µs "
                    f"(runs: {', '.join(f'{a:.0f}+{b:.0f}' for a, b, _ in cluster)})"
                )
                scripts = counts.pop("µs in scripts")
                print(
                    f"  Redis: {scripts:.1f} µs of it running the scripts; commands per append "
                    f"{sum(counts.values()):.2f}: "
                    + ", ".join(f"{name} {n:.2f}" for name, n in counts.items() if n >= 0.01)
                )
        finally:
            redis.kill()
            redis.wait()


if __name__ == "__main__":
    main()
