"""What ``bench/load.py --abuse`` runs beside the fleet: flooders and slow readers.

A flooder sends pings far past the rate limit and never reads; a slow reader asks for answers
within the limit and never reads them. Both reconnect when the server drops them, and the count of
drops is reported, so the run can show how the other rooms' latency moves under abuse.
"""

from __future__ import annotations

import asyncio
import json
from multiprocessing.synchronize import Event as MpEvent
from typing import Any

from fleet import PROTOCOL, raise_nofile
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed


async def _flooder(url: str, stop: MpEvent, closed: list[int]) -> None:
    """Pings at 1,000 a second (50 times the limit), never reading; reconnects when thrown out.

    Not faster: the load generator shares the machine's cores with the server under test."""
    while not stop.is_set():
        try:
            ws = await connect(url, compression=None, ping_interval=None, max_queue=1)
            await ws.send(json.dumps({"type": "hello", "name": "Flood", "protocol": PROTOCOL}))
            ping = json.dumps({"type": "ping"})
            while not stop.is_set():
                for _ in range(50):
                    await ws.send(ping)
                await asyncio.sleep(0.05)
            ws.transport.abort()
        except (ConnectionClosed, OSError):
            closed[0] += 1
            await asyncio.sleep(0.05)


async def _slow_reader(url: str, stop: MpEvent, closed: list[int]) -> None:
    """Asks for answers within the rate limit and never reads them; reconnects when dropped."""
    import socket

    host, port = url.removeprefix("ws://").rsplit(":", 1)
    while not stop.is_set():
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        sock.setblocking(False)
        try:
            await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
            ws = await connect(url, sock=sock, compression=None, ping_interval=None, max_queue=1)
            await ws.send(json.dumps({"type": "hello", "name": "Slow", "protocol": PROTOCOL}))
            await ws.send(json.dumps({"type": "create_room"}))
            ask = json.dumps({"type": "list_rooms"})
            while not stop.is_set():
                await ws.send(ask)
                await asyncio.sleep(0.06)
            ws.transport.abort()
        except (ConnectionClosed, OSError):
            closed[0] += 1
            await asyncio.sleep(0.05)


def abuse_main(url: str, count: int, stop: MpEvent, queue: Any) -> None:
    """``count`` flooders and ``count`` slow readers until ``stop``; report how often dropped."""
    raise_nofile()
    floods, slows = [0], [0]

    async def run() -> None:
        tasks = [asyncio.ensure_future(_flooder(url, stop, floods)) for _ in range(count)]
        tasks += [asyncio.ensure_future(_slow_reader(url, stop, slows)) for _ in range(count)]
        while not stop.is_set():
            await asyncio.sleep(0.2)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    asyncio.run(run())
    queue.put(("abuse", floods[0], slows[0]))
