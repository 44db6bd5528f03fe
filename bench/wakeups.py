"""Benchmark: the CPU an idle process pays each time it wakes up, doing nothing else.

    python bench/wakeups.py [--seconds 5] [--rates 10,50,200]

For each rate, an asyncio loop that sleeps ``1/rate`` seconds at a time (one timer, nothing to
do when it fires), then a plain ``time.sleep`` loop, and prints the process's CPU per wake-up.
An idle server's cost is mostly this (docs/BENCHMARKS.md, goal 5): on the machines measured an
asyncio wake-up cost 150-200 µs of CPU, so what matters for idle players is how many times a
second the server wakes, not how little it does each time.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time


async def asyncio_wakeups(rate: float, seconds: float) -> tuple[int, float]:
    started, cpu = time.perf_counter(), time.process_time()
    count = 0
    while time.perf_counter() - started < seconds:
        await asyncio.sleep(1 / rate)
        count += 1
    return count, time.process_time() - cpu


def sleep_wakeups(rate: float, seconds: float) -> tuple[int, float]:
    started, cpu = time.perf_counter(), time.process_time()
    count = 0
    while time.perf_counter() - started < seconds:
        time.sleep(1 / rate)
        count += 1
    return count, time.process_time() - cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--rates", default="10,50,200")
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.1f}")
    for rate in (float(r) for r in args.rates.split(",")):
        count, cpu = asyncio.run(asyncio_wakeups(rate, args.seconds))
        print(f"asyncio, {rate:g} a second: {cpu / count * 1e6:6.0f} µs of CPU per wake-up")
        count, cpu = sleep_wakeups(rate, args.seconds)
        print(f"time.sleep, {rate:g} a second: {cpu / count * 1e6:6.0f} µs of CPU per wake-up")


if __name__ == "__main__":
    main()
