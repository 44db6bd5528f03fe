"""Benchmark: what a connection that never reads costs the server, and how soon it is cut.

    python bench/slow_reader.py [--readers 20] [--seconds 40]

Opens a server with the default limits, seats a game, then ``--readers`` raw connections that
say hello and then ask, again and again, to watch the game (each answer is a room and a state,
about 5 KiB) without ever reading. For each it tracks the bytes held for it: frames queued in
the process, the transport's write buffer and the kernel's send queue (TIOCOUTQ), and prints the
worst of each, how long each reader lived, and the server's resident memory before and after.
"""

from __future__ import annotations

import argparse
import asyncio
import fcntl
import json
import resource
import socket
import struct
import termios
import time

from websockets.asyncio.client import connect

from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.server.net.connection import Connection
from muggins.shared.protocol import PROTOCOL_VERSION, ServerMessage


def outq(sock: socket.socket) -> int:
    return int(struct.unpack("i", fcntl.ioctl(sock.fileno(), termios.TIOCOUTQ, b"\0" * 4))[0])


def rss_mib() -> float:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * resource.getpagesize() / 2**20


async def reader(url: str, code: str, seconds: float) -> None:
    """A client that never reads, asking to watch every 50 ms for ``seconds``."""
    host, port = url.removeprefix("ws://").rsplit(":", 1)
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    ws = await connect(url, sock=sock, max_queue=1, compression=None)
    await ws.send(json.dumps({"type": "hello", "name": "Slow", "protocol": PROTOCOL_VERSION}))
    started = time.monotonic()
    try:
        while time.monotonic() - started < seconds:
            await ws.send(json.dumps({"type": "spectate", "code": code}))
            await asyncio.sleep(0.05)
    except Exception:
        pass
    finally:
        ws.transport.abort()


async def main(readers: int, seconds: float) -> None:
    worst = {"queued": 0, "transport": 0, "kernel": 0, "total": 0}
    send = Connection.send

    def watched(self: Connection, message: ServerMessage) -> None:
        send(self, message)
        transport = self.ws.transport
        sock = transport.get_extra_info("socket") if transport is not None else None
        if sock is None:
            return
        held = {
            "queued": self.queued,
            "transport": transport.get_write_buffer_size(),
            "kernel": outq(sock),
        }
        held["total"] = sum(held.values())
        for key, value in held.items():
            worst[key] = max(worst[key], value)

    # mypy refuses any assignment to a method; wrapping the server's is what this bench does.
    Connection.send = watched  # type: ignore[method-assign]
    lives: list[float] = []
    run = Connection.run

    async def timed(self: Connection) -> None:
        started = time.monotonic()
        await run(self)
        if self.player is not None and self.player.name == "Slow":
            lives.append(time.monotonic() - started)

    Connection.run = timed  # type: ignore[method-assign]  # wrapped to time it, as send above
    async with running_server(ServerConfig(port=0, memory=True, bot_delay=0.0)) as server:
        owner = await connect(server.url)
        await owner.send(json.dumps({"type": "hello", "name": "Owner", "protocol": 4}))
        await owner.recv()
        await owner.send(json.dumps({"type": "create_room"}))
        code = json.loads(await owner.recv())["code"]
        before = rss_mib()
        await asyncio.gather(*(reader(server.url, code, seconds) for _ in range(readers)))
        after = rss_mib()
    print(
        f"{readers} readers that never read: worst held for one "
        f"{worst['total'] / 1024:.0f} KiB (queued {worst['queued'] / 1024:.0f} KiB, transport "
        f"{worst['transport'] / 1024:.0f} KiB, kernel {worst['kernel'] / 1024:.0f} KiB); the "
        f"server kept them {min(lives):.1f}-{max(lives):.1f} s; "
        f"process RSS {before:.0f} -> {after:.0f} MiB "
        "(server and clients in one process)"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--readers", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=40.0)
    args = parser.parse_args()
    asyncio.run(main(args.readers, args.seconds))
