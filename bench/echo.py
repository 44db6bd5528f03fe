"""The baseline: a bare ``websockets`` server that parses each JSON text frame and sends it back.

``bench/load.py`` runs it in a child process and drives it flat out, so the server CPU per
round trip of the simplest possible JSON-over-WebSocket service on this machine is known, and
Muggins' CPU per action can be given as a ratio of it (absolute figures drift on a shared box).

    python bench/echo.py serve [--port 0] [--uvloop]   # prints "listening PORT", then serves
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sys
import time
from array import array
from collections.abc import Callable
from typing import Any

from websockets.asyncio.client import connect
from websockets.asyncio.server import ServerConnection, serve

MESSAGE = {"type": "play", "card": "10S", "id": 0}
"""Shaped like a client's move, so both servers parse and write frames of similar size."""


async def _echo(ws: ServerConnection) -> None:
    async for text in ws:
        await ws.send(json.dumps(json.loads(text)))


async def serve_forever(port: int) -> None:
    async with serve(
        _echo, "127.0.0.1", port, compression=None, ping_interval=20, max_queue=16
    ) as server:
        bound = next(iter(server.sockets)).getsockname()[1]
        print(f"listening {bound}", flush=True)
        await asyncio.Future()


async def drive(
    url: str,
    *,
    connections: int,
    seconds: float,
    warmup: float = 1.0,
    on_start: Callable[[], None] = lambda: None,
    on_end: Callable[[], None] = lambda: None,
) -> dict[str, Any]:
    """Round trips flat out on ``connections`` sockets; ``on_start``/``on_end`` bracket the
    timed part (after ``warmup``), whose round trips and latencies (ms) are returned."""
    sockets = [
        await connect(url, compression=None, ping_interval=None, max_size=2**16)
        for _ in range(connections)
    ]
    latencies = array("d")
    counting = False
    running = True

    async def one(ws: Any) -> None:
        n = random.getrandbits(20)
        while running:
            n += 1
            sent = time.perf_counter()
            await ws.send(json.dumps({**MESSAGE, "id": n}))
            answer = json.loads(await ws.recv())
            assert answer["id"] == n, "the echo answered another frame"
            if counting:
                latencies.append((time.perf_counter() - sent) * 1000)

    async def clock() -> None:
        nonlocal counting, running
        await asyncio.sleep(warmup)
        on_start()
        counting = True
        await asyncio.sleep(seconds)
        counting = False
        on_end()
        running = False

    await asyncio.gather(clock(), *(one(ws) for ws in sockets))
    for ws in sockets:
        await ws.close()
    return {"round_trips": len(latencies), "latencies": latencies}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("serve", help="run the echo server (prints 'listening PORT')")
    run.add_argument("--port", type=int, default=0)
    run.add_argument("--uvloop", action="store_true", help="run on uvloop")
    args = parser.parse_args(argv)
    if args.uvloop:
        import uvloop

        uvloop.run(serve_forever(args.port))
    else:
        asyncio.run(serve_forever(args.port))
    return 0


if __name__ == "__main__":
    sys.exit(main())
