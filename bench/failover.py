"""Fail-over benchmark: how long players wait when the cluster node holding them is killed.

Starts redis-server (AOF, fsync always) and, for each round, two ``muggins serve --redis`` node
processes. Two players connect to node A, start a game and play until mid-pegging; A is killed
with SIGKILL; both players reconnect to node B with their resume tokens. It prints, per round and
as min/median/max, the time from the kill until both have their state back from B, and checks the
state is the one they had (same seq, same hand).

    python bench/failover.py --rounds 10
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until(check: Any, what: str, seconds: float = 20) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise SystemExit(f"{what} did not come up in {seconds:.0f} s")
        time.sleep(0.05)


def start_node(redis_url: str) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    command = [
        sys.executable, "-m", "muggins.client.cli", "serve",
        "--host", "127.0.0.1", "--port", str(port),
        "--redis", redis_url, "--rate", "10000", "--burst", "10000",
        "--max-per-address", "100000", "--rooms-per-minute-per-address", "100000",
    ]  # fmt: skip
    process = subprocess.Popen(
        command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )

    def healthy() -> bool:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    wait_until(healthy, "a node")
    return process, f"ws://127.0.0.1:{port}"


class Player:
    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.token = ""
        self.state: dict[str, Any] | None = None

    @classmethod
    async def open(cls, url: str, name: str, token: str | None = None) -> Player:
        player = cls(await connect(url))
        await player.send(type="hello", name=name, protocol=4, token=token)
        welcome = await player.until("welcome")
        player.token = welcome["token"]
        return player

    async def send(self, **message: Any) -> None:
        await self.ws.send(json.dumps(message))

    async def until(self, kind: str) -> dict[str, Any]:
        while True:
            frame: dict[str, Any] = json.loads(await asyncio.wait_for(self.ws.recv(), 10))
            if frame["type"] == "state":
                self.state = frame
            if frame["type"] == kind:
                return frame


async def one_round(redis_url: str, rng: random.Random) -> float:
    (node_a, url_a), (node_b, url_b) = start_node(redis_url), start_node(redis_url)
    try:
        alice = await Player.open(url_a, "Alice")
        bob = await Player.open(url_a, "Bob")
        await alice.send(type="create_room")
        room = await alice.until("room")
        await bob.send(type="join_room", code=room["code"])
        await bob.until("state")
        await alice.until("state")
        while True:
            assert alice.state is not None and bob.state is not None
            view = alice.state["view"]
            if view["phase"] == "play" and len(view["played"]) >= 3:
                break
            for player in (alice, bob):
                assert player.state is not None
                mine = player.state["view"]
                if mine["seat"] in mine["waiting_for"] and mine["legal"]:
                    await player.send(**rng.choice(mine["legal"]), seq=player.state["seq"])
                    seq = player.state["seq"]
                    for each in (alice, bob):
                        while each.state is None or each.state["seq"] <= seq:
                            await each.until("state")
                    break
        before = {"Alice": alice.state, "Bob": bob.state}
        killed = time.perf_counter()
        node_a.send_signal(signal.SIGKILL)
        node_a.wait()

        async def back(name: str, token: str) -> dict[str, Any]:
            player = await Player.open(url_b, name, token)
            return await player.until("state")

        states = await asyncio.gather(back("Alice", alice.token), back("Bob", bob.token))
        waited = time.perf_counter() - killed
        for name, state in zip(("Alice", "Bob"), states, strict=True):
            old = before[name]
            assert old is not None
            assert state["seq"] == old["seq"] and state["view"]["hand"] == old["view"]["hand"]
        return waited
    finally:
        for process in (node_a, node_b):
            if process.poll() is None:
                process.terminate()
                process.wait()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed")
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        redis = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", data,
             "--appendonly", "yes", "--appendfsync", "always", "--save", ""],
            stdout=subprocess.DEVNULL,
        )  # fmt: skip
        try:
            wait_until(lambda: _ping(port), "redis-server")
            rng = random.Random(args.seed)
            times = []
            for round in range(1, args.rounds + 1):
                waited = await one_round(f"redis://127.0.0.1:{port}/0", rng)
                times.append(waited)
                print(f"round {round}: both players back at the same state {waited * 1000:.0f} ms "
                      "after kill -9")  # fmt: skip
            print(
                f"time to resume over {len(times)} kills: min {min(times) * 1000:.0f} ms, "
                f"median {statistics.median(times) * 1000:.0f} ms, max {max(times) * 1000:.0f} ms"
            )
        finally:
            redis.terminate()
            redis.wait()


def _ping(port: int) -> bool:
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
            sock.sendall(b"PING\r\n")
            return sock.recv(16).startswith(b"+PONG")
    except OSError:
        return False


if __name__ == "__main__":
    asyncio.run(main())
