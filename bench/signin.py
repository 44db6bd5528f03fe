"""How much the sign-in limits slow a password guesser, measured over real sockets.

    python bench/signin.py [--guesses 40] [--cluster]

Registers one account on an in-process server, then guesses its password as fast as the
server answers, and prints how many guesses were checked, how many were refused unchecked, the
time per checked guess (scrypt) and per refusal, and the rate this allows per name. With
``--cluster`` it starts a redis-server and two cluster nodes on it, and the guesses alternate
between the nodes (one connection to each): the limits are the cluster's, not a node's.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator

from pydantic import BaseModel
from websockets.asyncio.client import ClientConnection, connect

from muggins.server.accounts.credentials import hash_password, verify_password
from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.shared.protocol import (
    PROTOCOL_VERSION,
    Error,
    Hello,
    ServerMessage,
    encode,
    parse_server,
)
from muggins.shared.protocol.accounts import Register, SignIn


async def ask(ws: ClientConnection, message: BaseModel, id: int) -> ServerMessage:
    await ws.send(encode(message.model_copy(update={"id": id})))
    while True:
        reply = parse_server(await ws.recv())
        if reply.id == id:
            return reply


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@contextlib.contextmanager
def redis_server() -> Iterator[str]:
    binary = shutil.which("redis-server")
    if binary is None:
        raise SystemExit("redis-server is not installed")
    port = free_port()
    with tempfile.TemporaryDirectory() as data:
        process = subprocess.Popen(
            [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", data, "--save", ""],
            stdout=subprocess.DEVNULL,
        )
        try:
            deadline = time.monotonic() + 20
            while True:
                try:
                    with socket.create_connection(("127.0.0.1", port), timeout=0.2) as sock:
                        sock.sendall(b"PING\r\n")
                        if sock.recv(16).startswith(b"+PONG"):
                            break
                except OSError:
                    pass
                if time.monotonic() > deadline:
                    raise SystemExit("redis-server did not come up")
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            process.terminate()
            process.wait()


@contextlib.asynccontextmanager
async def servers(cluster: bool) -> AsyncIterator[list[str]]:
    base = ServerConfig(
        port=0, memory=True, rate=1e4, burst=10**4, sweep_interval=3600, registrations_per_hour=1e9
    )
    if not cluster:
        async with running_server(base) as server:
            yield [server.url]
        return
    with redis_server() as url:
        node = ServerConfig(
            port=0,
            redis=url,
            rate=1e4,
            burst=10**4,
            sweep_interval=3600,
            registrations_per_hour=1e9,
        )
        async with running_server(node) as a, running_server(node) as b:
            yield [a.url, b.url]


async def main(guesses: int, cluster: bool) -> None:
    async with servers(cluster) as urls, contextlib.AsyncExitStack() as stack:
        sockets = [await stack.enter_async_context(connect(url)) for url in urls]
        for n, ws in enumerate(sockets):
            await ask(ws, Hello(name="mallory", protocol=PROTOCOL_VERSION), 1 + n)
        await ask(sockets[0], Register(name="victim", password="the right one"), 5)
        checked = refused = 0
        checked_time = refused_time = 0.0
        wait = ""
        for n in range(guesses):
            ws = sockets[n % len(sockets)]
            started = time.perf_counter()
            reply = await ask(ws, SignIn(name="victim", password=f"guess {n:06}"), 10 + n)
            spent = time.perf_counter() - started
            assert isinstance(reply, Error)
            if reply.code == "bad_credentials":
                checked += 1
                checked_time += spent
            else:
                refused += 1
                refused_time += spent
                wait = reply.message
    stored = hash_password("x" * 12)
    started = time.perf_counter()
    for _ in range(5):
        verify_password("y" * 12, stored)
    scrypt = (time.perf_counter() - started) / 5
    where = "alternating between two cluster nodes" if cluster else "from one connection"
    print(f"{guesses} guesses at one name, {where}:")
    print(f"  checked {checked} ({1000 * checked_time / max(1, checked):.0f} ms each), then")
    print(
        f"  refused unchecked {refused} "
        f"({1000 * refused_time / max(1, refused):.1f} ms each): {wait!r}"
    )
    print(f"  one scrypt check alone: {1000 * scrypt:.0f} ms")
    print(
        f"  unlimited, one core could test about {1 / scrypt:.0f} passwords a second; "
        "the limit allows 5 per name per 5 minutes (1,440 a day), and 20 per address"
        + (", counted over the whole cluster" if cluster else "")
    )
    print(f"load average {os.getloadavg()[0]:.2f} (a shared 2-core machine)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guesses", type=int, default=40)
    parser.add_argument(
        "--cluster", action="store_true", help="two cluster nodes on a new redis-server"
    )
    args = parser.parse_args()
    asyncio.run(main(args.guesses, args.cluster))
