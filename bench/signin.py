"""How much the sign-in limits slow a password guesser, measured over a real socket.

    python bench/signin.py [--guesses 40]

Registers one account on an in-process server, then guesses its password as fast as the
server answers from one connection, and prints how many guesses were checked, how many were
refused unchecked, the time per checked guess (scrypt) and the rate this allows per name.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import time

from websockets.asyncio.client import connect

from muggins.server.accounts import hash_password, verify_password
from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.shared.protocol import PROTOCOL_VERSION, Error, Hello, encode, parse_server
from muggins.shared.protocol.accounts import Register, SignIn


async def main(guesses: int) -> None:
    config = ServerConfig(port=0, memory=True, rate=1e4, burst=10**4)
    async with running_server(config) as server, connect(server.url) as ws:

        async def ask(message: object, id: int) -> object:
            await ws.send(encode(message.model_copy(update={"id": id})))  # type: ignore[attr-defined]
            while True:
                reply = parse_server(await ws.recv())
                if reply.id == id:
                    return reply

        await ask(Hello(name="mallory", protocol=PROTOCOL_VERSION), 1)
        await ask(Register(name="victim", password="the right one"), 2)
        checked = refused = 0
        checked_time = refused_time = 0.0
        wait = ""
        for n in range(guesses):
            started = time.perf_counter()
            reply = await ask(SignIn(name="victim", password=f"guess {n:06}"), 10 + n)
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
    print(f"{guesses} guesses at one name from one connection:")
    print(f"  checked {checked} ({1000 * checked_time / max(1, checked):.0f} ms each), then")
    print(
        f"  refused unchecked {refused} "
        f"({1000 * refused_time / max(1, refused):.1f} ms each): {wait!r}"
    )
    print(f"  one scrypt check alone: {1000 * scrypt:.0f} ms")
    print(
        f"  unlimited, one core could test about {1 / scrypt:.0f} passwords a second; "
        "the limit allows 5 per name per 5 minutes (1,440 a day), and 20 per address"
    )
    print(f"load average {os.getloadavg()[0]:.2f} (a shared 2-core machine)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--guesses", type=int, default=40)
    asyncio.run(main(parser.parse_args().guesses))
