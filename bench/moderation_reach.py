"""How soon a ban or a mute from a moderator on one cluster node reaches a player on another.

    python bench/moderation_reach.py [--rounds 20]

Starts a redis-server and two cluster nodes on it (``muggins serve --redis``, each its own
process), an admin connected to node A, and for each round a new player connected to node B.
The admin bans the player (even rounds) or mutes them (odd rounds); the figure is the time from
the admin reading the ``moderated`` answer to the player reading ``sanctioned`` on B (negative:
B told the player first), and for a ban to B closing the player's connection; also from the
moderator's request to the player told, and to the answer. What a sanction
forbids is refused on every node from the answer on: it is in the store before the answer is
sent (tests/server/test_moderation_cluster.py).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).parent))
from signin import free_port, redis_server

from muggins.server.accounts.roles import grant
from muggins.server.cluster.redis_store import RedisStore
from muggins.shared.protocol import PROTOCOL_VERSION, Hello, ServerMessage, encode, parse_server
from muggins.shared.protocol.accounts import Account, Register
from muggins.shared.protocol.moderation import Moderate, Moderated, Sanctioned


async def ask(ws: ClientConnection, message: BaseModel, id: int) -> ServerMessage:
    await ws.send(encode(message.model_copy(update={"id": id})))
    while True:
        reply = parse_server(await ws.recv())
        if reply.id == id:
            return reply


async def told(ws: ClientConnection) -> tuple[float, float]:
    """When ``ws`` reads its ``sanctioned``, and when it is closed (inf: not)."""
    while True:
        if isinstance(parse_server(await ws.recv()), Sanctioned):
            at = time.perf_counter()
            break
    try:
        async with asyncio.timeout(0.5):
            await ws.wait_closed()
        return at, time.perf_counter()
    except TimeoutError:
        return at, float("inf")


@contextmanager
def node(redis: str) -> Iterator[str]:
    """``muggins serve`` on ``redis`` in its own process; its URL once it answers /healthz."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "muggins.client.cli", "serve", "--host", "127.0.0.1",
         "--port", str(port), "--redis", redis, "--rate", "10000", "--burst", "10000",
         "--registrations-per-hour", "1000000"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline or process.poll() is not None:
                    raise SystemExit("a node did not start") from None
                time.sleep(0.05)
        yield f"ws://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait()


async def registered(url: str, name: str) -> ClientConnection:
    ws = await connect(url)
    await ask(ws, Hello(name=name, protocol=PROTOCOL_VERSION), 1)
    reply = await ask(ws, Register(name=name, password="correct horse"), 2)
    assert isinstance(reply, Account), reply
    return ws


async def main(rounds: int) -> None:
    with redis_server() as url, node(url) as a, node(url) as b:
        boss = await registered(a, "Boss")
        store = RedisStore(url)
        await grant(store, "Boss", "admin")
        await store.close()
        reach: dict[str, list[float]] = {
            "ban": [],
            "mute": [],
            "closed": [],
            "sent": [],
            "answered": [],
        }
        for n in range(rounds):
            kind = "ban" if n % 2 == 0 else "mute"
            player = await registered(b, f"Player{n}")
            telling = asyncio.ensure_future(told(player))
            sent = time.perf_counter()
            answer = await ask(boss, Moderate(action=kind, name=f"Player{n}"), 10 + n)
            acknowledged = time.perf_counter()
            assert isinstance(answer, Moderated), answer
            at, closed = await telling
            reach[kind].append(1000 * (at - acknowledged))
            reach["sent"].append(1000 * (at - sent))
            reach["answered"].append(1000 * (acknowledged - sent))
            if kind == "ban":
                reach["closed"].append(1000 * (closed - acknowledged))
            await player.close()
        await boss.close()
    print(f"{rounds} rounds, moderator on node A, player on node B (one redis-server):")
    what = {
        "ban": "ban, to the player told on B",
        "mute": "mute, to the player told on B",
        "closed": "ban, to B closing the player's connection",
    }
    for kind, words in (("sent", "the player told on B"), ("answered", "its answer on A")):
        spans = sorted(reach.pop(kind))
        print(
            f"  from the moderator's request to {words}: median "
            f"{statistics.median(spans):.1f} ms, worst {spans[-1]:.1f} ms"
        )
    for kind, spans in reach.items():
        spans.sort()
        print(
            f"  from the answer to the {what[kind]}: median {statistics.median(spans):.1f} ms, "
            f"worst {spans[-1]:.1f} ms, best {spans[0]:.1f} ms"
        )
    print(f"load average {os.getloadavg()[0]:.2f} (a shared 2-core machine)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    asyncio.run(main(parser.parse_args().rounds))
