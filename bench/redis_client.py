"""CPU of one Lua script round trip to Redis from a node: its script connection against redis-py.

Starts its own redis-server (no persistence) on a free port and runs, in this process, a script
shaped like a move's (one PUBLISH to a channel nobody hears, an integer back) many times through
``server.cluster.redis_line.ScriptLine`` (one caller at a time, then ten at once on the one
connection) and through redis-py's registered script (one caller at a time), and prints the
process's CPU per call for each. Compare the figures within one run: the machine's load moves
them all.

    python bench/redis_client.py --calls 4000
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

import redis.asyncio as aioredis

sys.path.insert(0, str(Path(__file__).resolve().parent))

from processes import start_redis

from muggins.server.cluster.redis_line import ScriptLine

SCRIPT = "redis.call('PUBLISH', KEYS[1], ARGV[1]); return 5"
WAKE = (
    '{"kind":"action","room":"ABCDEF","number":1,"index":3,'
    '"entry":{"seat":0,"action":{"type":"play","card":"5H"},"seq":7,"key":"0:m7"}}'
)


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measure(url: str, calls: int) -> dict[str, float]:
    sha = hashlib.sha1(SCRIPT.encode()).hexdigest()
    line = ScriptLine(url, timeout=2.0)
    figures: dict[str, float] = {}

    async def caller(count: int) -> None:
        for _ in range(count):
            assert await line.evalsha(sha, SCRIPT, ["nobody"], [WAKE]) == 5

    await caller(10)
    start = cpu()
    await caller(calls)
    figures["script connection, one caller"] = (cpu() - start) / calls
    start = cpu()
    await asyncio.gather(*(caller(calls // 10) for _ in range(10)))
    figures["script connection, ten callers"] = (cpu() - start) / (calls // 10 * 10)
    await line.close()
    client = aioredis.Redis.from_url(url, decode_responses=True, socket_timeout=2.0)
    script = client.register_script(SCRIPT)
    await script(keys=["nobody"], args=[WAKE])
    start = cpu()
    for _ in range(calls):
        await script(keys=["nobody"], args=[WAKE])
    figures["redis-py, one caller"] = (cpu() - start) / calls
    await client.aclose()
    return figures


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=4000)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="redis-client-") as directory:
        process: subprocess.Popen[bytes]
        process, url = start_redis(directory, "no")
        try:
            figures = asyncio.run(measure(url, args.calls))
        finally:
            process.kill()
            process.wait()
    for name, seconds in figures.items():
        print(f"{name:32s} {seconds * 1e6:7.1f} µs of CPU a script round trip")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
