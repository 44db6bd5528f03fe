"""What sending a connection on to its room's owner costs, with ``muggins serve --procs 2``.

Starts redis-server (AOF, fsync always) and ``muggins serve --procs 2``, makes a room on process
0 (through its own port), then opens ``--connections`` connections naming that room on process
1's own port: each is closed with 4001 (the redirect a client landing on the wrong process gets).
Then as many that say hello and are welcomed by process 1 naming no room (any connection's own
cost, for scale). It prints process 1's and Redis's CPU per connection for each, and what the
redirects add to a move: with N processes a guest lands on the wrong one (N-1)/N of the time,
once per connection, and a match has the number of actions printed (random legal moves to 121,
``--games`` matches played by the engine here).

    python bench/redirect_cost.py --connections 2000
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Awaitable, Callable
from pathlib import Path

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

sys.path.insert(0, str(Path(__file__).resolve().parent))
from failover import free_port, wait_until
from load_report import machine
from processes import cpu_seconds, start_redis

ROOT = Path(__file__).resolve().parents[1]
LISTENING = re.compile(r"Process (\d+) \(pid (\d+)\) listening on ws://127\.0\.0\.1:(\d+)")
HELLO = json.dumps({"type": "hello", "name": "Bench", "protocol": 4})


def start_procs(redis_url: str, log: Path) -> tuple[subprocess.Popen[bytes], dict[int, int]]:
    """``muggins serve --procs 2``; returns it and each process's pid by index."""
    port = free_port()
    first = free_port()
    while port in (first, first + 1):
        first = free_port()
    command = [
        sys.executable, "-m", "muggins.client.cli", "serve", "--procs", "2", "--port", str(port),
        "--first-proc-port", str(first), "--redis", redis_url, "--rate", "10000",
        "--burst", "10000", "--max-per-address", "100000", "--review-workers", "0",
        "--rooms-per-minute-per-address", "100000",
    ]  # fmt: skip
    process = subprocess.Popen(command, cwd=ROOT, stdout=log.open("wb"), stderr=subprocess.STDOUT)

    def both() -> bool:
        return len(set(LISTENING.findall(log.read_text()))) >= 2

    wait_until(both, "muggins serve --procs 2")
    found = {int(i): (int(pid), int(p)) for i, pid, p in LISTENING.findall(log.read_text())}
    for _, own in found.values():
        url = f"http://127.0.0.1:{own}/healthz"
        wait_until(lambda url=url: urllib.request.urlopen(url, timeout=1).status == 200, url)
    return process, {i: pid for i, (pid, _) in found.items()} | {
        -1 - i: own for i, (_, own) in found.items()
    }


async def make_room(url: str) -> tuple[str, ClientConnection]:
    ws = await connect(url)
    await ws.send(HELLO)
    await ws.recv()
    await ws.send(json.dumps({"type": "create_room", "options": {}, "id": 1}))
    while True:
        frame = json.loads(await ws.recv())
        if frame.get("id") == 1:
            return str(frame["code"]), ws


async def redirected(url: str) -> bool:
    """Connect naming the room; True when closed with 4001 before anything is said."""
    async with connect(url) as ws:
        try:
            await ws.recv()
        except ConnectionClosed as closed:
            return closed.rcvd is not None and closed.rcvd.code == 4001
    return False


async def welcomed(url: str) -> bool:
    async with connect(url) as ws:
        await ws.send(HELLO)
        return bool(json.loads(await ws.recv())["type"] == "welcome")


async def many(job: Callable[[str], Awaitable[bool]], url: str, count: int, at_once: int) -> int:
    gate = asyncio.Semaphore(at_once)

    async def one() -> bool:
        async with gate:
            return await job(url)

    return sum(await asyncio.gather(*(one() for _ in range(count))))


def actions_per_match(games: int) -> float:
    from muggins.shared.match import Match

    total = 0
    for seed in range(games):
        rng = random.Random(seed)
        match = Match(seed=seed, keep_events=False)
        while not match.over:
            seat = match.waiting_for()[0]
            match.apply(seat, rng.choice(match.view(seat).legal))
        total += len(match.log)
    return total / games


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--connections", type=int, default=2000)
    parser.add_argument("--at-once", type=int, default=20, help="connections opening at once")
    parser.add_argument("--games", type=int, default=50, help="matches for actions per match")
    args = parser.parse_args(argv)
    info = machine()
    print(
        f"{info['date']}: {info['cores']} cores ({info['cpu']}), Python {info['python']}, "
        f"load average {os.getloadavg()[0]:.1f}",
        flush=True,
    )
    with tempfile.TemporaryDirectory(prefix="redirect-") as directory:
        redis, redis_url = start_redis(directory, "always")
        procs, found = start_procs(redis_url, Path(directory) / "procs.log")
        try:
            owner_url, other_url = (f"ws://127.0.0.1:{found[-1 - i]}" for i in (0, 1))
            other_pid = found[1]

            async def run() -> dict[str, tuple[int, float, float]]:
                code, keep = await make_room(owner_url)
                await asyncio.sleep(0.5)
                figures = {}
                for name, job, url in (
                    ("redirected", redirected, f"{other_url}/?room={code}"),
                    ("welcomed", welcomed, other_url),
                ):
                    cpu0, redis0 = cpu_seconds(other_pid), cpu_seconds(redis.pid)
                    done = await many(job, url, args.connections, args.at_once)
                    cpu1, redis1 = cpu_seconds(other_pid), cpu_seconds(redis.pid)
                    figures[name] = (done, cpu1 - cpu0, redis1 - redis0)
                await keep.close()
                return figures

            started = time.perf_counter()
            figures = asyncio.run(run())
            print(f"  {time.perf_counter() - started:.1f} s of connections", flush=True)
        finally:
            procs.terminate()
            procs.wait(60)
            redis.kill()
            redis.wait()
    for name, (done, cpu, redis_cpu) in figures.items():
        print(
            f"  {name}: {done:,} of {args.connections:,}; the process "
            f"{cpu / max(done, 1) * 1e6:,.0f} µs per connection, Redis "
            f"{redis_cpu / max(done, 1) * 1e6:,.0f} µs",
            flush=True,
        )
    per_match = actions_per_match(args.games)
    done, cpu, redis_cpu = figures["redirected"]
    each = (cpu + redis_cpu) / max(done, 1) * 1e6
    print(f"  a match to 121 with random moves: {per_match:.1f} actions", flush=True)
    for n in (2, 4, 8):
        share = (n - 1) / n  # of guests land on a process that does not own the room
        print(
            f"  with {n} processes: {share:.2f} redirects per room's guest connection = "
            f"{each * share / per_match:.2f} µs per action (one connection per match)",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
