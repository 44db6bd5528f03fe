"""Benchmark: do replays asked for as fast as the limits allow slow everyone else's games?

    nice -n -5 python bench/replay_flood.py [--seconds 20] [--games 20] [--flooders 5]

Starts ``muggins serve`` in a process of its own (published limits: 20 messages a second per
connection), plays a few matches against the computer to have finished games to replay, then
times ``--games`` tables of two people (each move answered by the next state; a move every
50 ms per table; a fresh match when one ends) for ``--seconds``, four ways:

1. alone (the baseline);
2. alone again (an A/A run: how far two runs of the same kind differ on this machine);
3. while ``--flooders`` connections from one address (in a process of their own) each ask for
   a finished game with its ``steps`` 18 times a second, within the message rate (the server's
   read budget on);
4. the same flood sent to another server (a second ``muggins serve``): the machine carries the
   same extra processes and work, but the bystanders' server sees none of the flood;

``--rounds`` times each, interleaved, then once more:

5. the flood with the read budget lifted (``--reads-per-second 1e9``): every request answered
   (from the cache of built answers).

It prints the bystanders' move round trips (p50 and p99) of each run, the CPU seconds of the
bystanders' server and of the flooding process; then, for each kind, the median of its runs'
p99s and the p99 of all its runs' moves together, each as a ratio to the runs alone. Run it at
high priority on a shared machine (``nice -n -5``): it measures the server's pace.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import statistics
import subprocess
import sys
import time
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from muggins.client.remote_bot import play_remote
from muggins.shared.protocol import PROTOCOL_VERSION, RoomOptions

MOVE_PAUSE = 0.05
FLOOD_RATE = 18.0


async def hello(url: str, name: str) -> ClientConnection:
    ws = await connect(url, max_size=2**24)
    await ws.send(json.dumps({"type": "hello", "name": name, "protocol": PROTOCOL_VERSION}))
    await ws.recv()
    return ws


def merge(view: dict[str, Any] | None, frame: dict[str, Any]) -> dict[str, Any]:
    return {**(view or {}), **frame["view"]} if frame.get("brief") else frame["view"]


async def finished_match(url: str, seed: int) -> str:
    """Two random computer players over the network play a match out; its id."""
    code: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    first = asyncio.create_task(
        play_remote(url, level="random", seed=seed, create=RoomOptions(), on_room=code.set_result)
    )
    await play_remote(url, level="random", seed=seed + 1, code=await code)
    result = await first
    return f"{result.code}-1"


async def player(ws: ClientConnection, until: float, took: list[float], seed: int) -> None:
    """Play random legal moves (a pause before each); time each move until its answer."""
    rng = random.Random(seed)
    view: dict[str, Any] | None = None
    latest: tuple[int, dict[str, Any]] | None = None
    sent: int | None = None
    sent_at = 0.0
    while time.monotonic() < until:
        try:
            async with asyncio.timeout(max(0.1, until - time.monotonic())):
                frame = json.loads(await ws.recv())
        except TimeoutError:
            return
        if frame["type"] == "error":
            sent = None  # stale: the opponent moved first; look again
        elif frame["type"] == "state":
            view = merge(view, frame)
            if latest is None or frame["seq"] >= latest[0]:
                latest = (frame["seq"], view)
            if sent is not None and frame.get("id") == sent:
                took.append(time.perf_counter() - sent_at)
                sent = None
            if view["phase"] == "match_over":
                return
        if latest is None or sent is not None:
            continue
        seq, now = latest
        if now["seat"] in now["waiting_for"] and now["legal"]:
            await asyncio.sleep(MOVE_PAUSE)
            sent, sent_at, latest = seq, time.perf_counter(), None
            await ws.send(json.dumps({**rng.choice(now["legal"]), "seq": seq, "id": seq}))


async def game(url: str, n: int, until: float, took: list[float]) -> None:
    """Two people play matches, one after another in fresh rooms, until ``until``."""
    match = 0
    while time.monotonic() < until:
        first, second = await hello(url, f"A{n}"), await hello(url, f"B{n}")
        await first.send(json.dumps({"type": "create_room", "id": 1}))
        while (frame := json.loads(await first.recv()))["type"] != "room":
            if frame["type"] == "error":
                raise RuntimeError(f"table {n} could not make a room: {frame}")
        await second.send(json.dumps({"type": "join_room", "code": frame["code"]}))
        seeds = 2 * (100 * match + n)
        await asyncio.gather(
            player(first, until, took, seeds), player(second, until, took, seeds + 1)
        )
        await first.close()
        await second.close()
        match += 1


async def flooder(url: str, games: list[str], until: float, counts: dict[str, int]) -> None:
    """Ask for replays at FLOOD_RATE until ``until``, counting the answers by type (or error
    code); a connection the server closes (a reader too slow) is opened again."""
    n = 0
    while time.monotonic() < until:
        ws = await hello(url, "Flood")

        async def read(ws: ClientConnection = ws) -> None:
            with contextlib.suppress(ConnectionClosed):
                while True:
                    frame = json.loads(await ws.recv())
                    key = frame.get("code", frame["type"])
                    counts[key] = counts.get(key, 0) + 1

        reading = asyncio.create_task(read())
        try:
            while time.monotonic() < until:
                message = {"type": "game", "game": games[n % len(games)], "steps": True}
                await ws.send(json.dumps(message))
                n += 1
                await asyncio.sleep(1 / FLOOD_RATE)
        except ConnectionClosed:
            counts["closed"] = counts.get("closed", 0) + 1
        reading.cancel()
        await ws.close()


def start_server(extra: list[str]) -> tuple[subprocess.Popen[str], str]:
    command = [sys.executable, "-m", "muggins.client.cli", "serve", "--memory", "--port", "0"]
    command += ["--bot-delay", "0", "--max-per-address", "1000", "--review-workers", "0"]
    # The tables start a fresh room for each match: lift the limits on making rooms (only).
    command += ["--rooms-per-minute", "1e6", "--rooms-per-minute-per-address", "1e6", *extra]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, env=os.environ.copy())
    assert server.stdout is not None
    for line in server.stdout:
        if "listening on" in line:
            return server, line.split("listening on", 1)[1].strip()
    raise RuntimeError("the server did not start")


def cpu_seconds(pid: int) -> float:
    """The CPU time (user and system) a process of this machine has used so far."""
    with open(f"/proc/{pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def run(
    label: str, extra: list[str], args: argparse.Namespace, flood: bool, *, elsewhere: bool = False
) -> list[float]:
    """One timed run; ``elsewhere``: the flood goes to a second server, not the bystanders'."""
    server, url = start_server(extra)
    other = None
    try:
        games = [await finished_match(url, seed) for seed in range(3)]
        flood_url = url
        if elsewhere:
            other, flood_url = start_server(extra)
            games = [await finished_match(flood_url, seed) for seed in range(3)]
        cpu_before = cpu_seconds(server.pid)
        until = time.monotonic() + args.seconds
        took: list[float] = []
        counts: dict[str, int] = {}
        flooding = None
        if flood:  # in a process of its own, so its client-side work never delays the timed games
            command = [
                sys.executable,
                __file__,
                "--flood-only",
                flood_url,
                "--seconds",
                str(args.seconds),
            ]
            command += ["--flooders", str(args.flooders), "--games-to-ask", ",".join(games)]
            flooding = await asyncio.create_subprocess_exec(*command, stdout=subprocess.PIPE)
        await asyncio.gather(*(game(url, n, until, took) for n in range(args.games)))
        if flooding is not None:
            out, _ = await flooding.communicate()
            counts = json.loads(out)
        cpu = cpu_seconds(server.pid) - cpu_before
    finally:
        for process in (server, other):
            if process is not None:
                process.terminate()
                process.wait()
    p50 = statistics.median(took) * 1e3
    p99 = statistics.quantiles(took, n=100)[98] * 1e3
    flood_cpu = counts.pop("cpu", None)
    print(
        f"{label:<34} moves {len(took):>6}  p50 {p50:6.2f} ms  p99 {p99:7.2f} ms  "
        f"server cpu {cpu:5.2f} s  flooder cpu {flood_cpu or 0:5.2f} s  {counts}",
        flush=True,
    )
    return took


async def flood_only(args: argparse.Namespace) -> None:
    """The child process of a flooded run: the flooders alone; their counts as JSON on stdout."""
    until = time.monotonic() + args.seconds
    cpu = time.process_time()
    counts: dict[str, int] = {}
    games = args.games_to_ask.split(",")
    await asyncio.gather(
        *(flooder(args.flood_only, games, until, counts) for _ in range(args.flooders))
    )
    print(json.dumps({**counts, "cpu": time.process_time() - cpu}))


def p99_ms(took: list[float]) -> float:
    return statistics.quantiles(took, n=100)[98] * 1e3


async def main(args: argparse.Namespace) -> None:
    kinds = (
        "alone",
        "alone again (A/A)",
        "replay flood, read budget on",
        "flood to another server",
    )
    runs: dict[str, list[list[float]]] = {kind: [] for kind in kinds}
    for _ in range(args.rounds):  # interleaved, so that a busy spell of the machine hits all
        runs[kinds[0]].append(await run(kinds[0], [], args, flood=False))
        runs[kinds[1]].append(await run(kinds[1], [], args, flood=False))
        runs[kinds[2]].append(await run(kinds[2], [], args, flood=True))
        runs[kinds[3]].append(await run(kinds[3], [], args, True, elsewhere=True))
    lifted = p99_ms(
        await run("replay flood, budget lifted", ["--reads-per-second", "1e9"], args, True)
    )
    base = statistics.median(p99_ms(took) for took in runs["alone"])
    pooled_base = p99_ms([t for took in runs["alone"] for t in took])
    print(
        f"over {args.rounds} rounds: the median of the runs' p99s, and the p99 of all their moves"
    )
    for kind in kinds:
        median = statistics.median(p99_ms(took) for took in runs[kind])
        pooled = p99_ms([t for took in runs[kind] for t in took])
        moves = sum(len(took) for took in runs[kind])
        print(
            f"{kind:<34} median p99 {median:6.2f} ms (x{median / base:.2f})   "
            f"all {moves:>6} moves p99 {pooled:6.2f} ms (x{pooled / pooled_base:.2f})"
        )
    print(f"{'flood, budget lifted (one run)':<34} p99 {lifted:6.2f} ms (x{lifted / base:.2f})")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--flooders", type=int, default=5)
    parser.add_argument("--rounds", type=int, default=3, help="alone and flooded runs, each")
    parser.add_argument("--flood-only", metavar="URL", help=argparse.SUPPRESS)
    parser.add_argument("--games-to-ask", default="", help=argparse.SUPPRESS)
    arguments = parser.parse_args()
    asyncio.run(flood_only(arguments) if arguments.flood_only else main(arguments))
