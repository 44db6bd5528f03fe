"""Benchmark: what one ``list_rooms`` costs the server as the number of rooms grows.

    python bench/listing.py [--rooms 10000] [--calls 200] [--redis]

Opens a real server with ``--rooms`` public rooms (a third of them full, so listed for
watching), then times ``list_rooms`` over one WebSocket: the first page, a page from the middle
(by cursor) and, for comparison, building every room's summary and sorting them as the server
did before the index (about 100 ms at 10,000 rooms in the audit that found it).

With ``--redis`` it starts a ``redis-server`` of its own (on a free port, in a temporary
directory) and a cluster node on it, writes the rooms into Redis, and prints the same round
trips plus the Redis commands one page costs (``INFO commandstats``).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

from websockets.asyncio.client import ClientConnection, connect

from muggins.server.app import running_server
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.config import ServerConfig
from muggins.server.lobby.room_index import section_of, summary
from muggins.server.store.games import RoomRecord, SeatRecord
from muggins.shared.protocol import PROTOCOL_VERSION, RoomOptions

UPKEEP = ("cmdstat_info", "cmdstat_config|resetstat", "cmdstat_client|setinfo", "cmdstat_hello")
UPKEEP_TOO = ("cmdstat_ping", "cmdstat_hvals")
"""Commands not made for the listing: the counting's own, connection upkeep, the node's
matchmaking poll."""


async def main(rooms: int, calls: int) -> None:
    config = ServerConfig(
        port=0, memory=True, max_rooms=rooms + 10, sweep_interval=3600, rate=1e9, burst=10**9
    )
    async with running_server(config) as server:
        lobby = server.lobby
        for n in range(rooms):
            room = await lobby.create_room(RoomOptions())
            if n % 3 == 0:
                for seat in room.seats:
                    seat.kind = "human"
                lobby.index.update(room)
        async with connect(server.url, max_size=2**24) as ws:
            await ws.send(
                json.dumps({"type": "hello", "name": "Lister", "protocol": PROTOCOL_VERSION})
            )
            await ws.recv()
            middle = f"o:{lobby.index.codes['o'][len(lobby.index.codes['o']) // 2]}"
            for label, message in pages(middle):
                took = await rounds(ws, message, calls)
                print(
                    f"{rooms} rooms, {label}: median {statistics.median(took) * 1e3:.2f} ms, "
                    f"p90 {statistics.quantiles(took, n=10)[-1] * 1e3:.2f} ms a round trip"
                )
        took = []
        for _ in range(max(3, calls // 20)):
            start = time.perf_counter()
            listed = [summary(r) for r in lobby.rooms.values() if section_of(r) is not None]
            listed.sort(key=lambda r: (not r.open_seat, r.code))
            took.append(time.perf_counter() - start)
        old_way = statistics.median(took) * 1e3
        print(f"{rooms} rooms, full scan and sort (the old way): {old_way:.1f} ms")


def code_of(n: int) -> str:
    letters = ""
    for _ in range(6):
        n, digit = divmod(n, 26)
        letters = chr(ord("A") + digit) + letters
    return letters


def pages(middle: str) -> list[tuple[str, dict[str, object]]]:
    """The two requests timed: the first page, and a page from the cursor ``middle`` on."""
    return [
        ("first page (50)", {"type": "list_rooms"}),
        ("middle page (200)", {"type": "list_rooms", "after": middle, "limit": 200}),
    ]


async def rounds(ws: ClientConnection, message: dict[str, object], calls: int) -> list[float]:
    took = []
    for _ in range(calls):
        start = time.perf_counter()
        await ws.send(json.dumps(message))
        await ws.recv()
        took.append(time.perf_counter() - start)
    return took


async def main_redis(rooms: int, calls: int) -> None:
    import shutil
    import socket
    import subprocess
    import tempfile

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    directory = tempfile.mkdtemp()
    binary = shutil.which("redis-server") or "/usr/bin/redis-server"
    redis = subprocess.Popen(
        [binary, "--port", str(port), "--bind", "127.0.0.1", "--dir", directory, "--save", ""],
        stdout=subprocess.DEVNULL,
    )
    url = f"redis://127.0.0.1:{port}/0"
    store = ClusterStore(url)
    try:
        for _ in range(100):
            try:
                await store.redis.ping()
                break
            except Exception:
                await asyncio.sleep(0.05)
        for n in range(rooms):
            seats = (
                SeatRecord(0, "human", f"P{n}", f"p{n}"),
                SeatRecord(1, "human", f"Q{n}", f"q{n}") if n % 3 == 0 else SeatRecord(1),
            )
            await store.create_room(RoomRecord(code_of(n), RoomOptions(), time.time(), seats))
        config = ServerConfig(
            port=0, redis=url, sweep_interval=3600, rate=1e9, burst=10**9, max_per_address=10**6
        )
        async with running_server(config) as server, connect(server.url, max_size=2**24) as ws:
            await ws.send(
                json.dumps({"type": "hello", "name": "Lister", "protocol": PROTOCOL_VERSION})
            )
            await ws.recv()
            middle = f"o:{code_of(rooms // 2)}"
            for label, message in pages(middle):
                await store.redis.config_resetstat()
                await ws.send(json.dumps(message))
                await ws.recv()
                stats = await store.redis.info("commandstats")
                counted = {k: v["calls"] for k, v in stats.items() if k not in UPKEEP + UPKEEP_TOO}
                took = await rounds(ws, message, calls)
                print(
                    f"{rooms} rooms in Redis, {label}: {sum(counted.values())} Redis "
                    f"commands ({', '.join(k[8:] for k in sorted(counted))}); median "
                    f"{statistics.median(took) * 1e3:.2f} ms, "
                    f"p90 {statistics.quantiles(took, n=10)[-1] * 1e3:.2f} ms a round trip"
                )
    finally:
        await store.close()
        redis.terminate()
        redis.wait()
        shutil.rmtree(directory, ignore_errors=True)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument(
        "--redis", action="store_true", help="a cluster node on a redis-server of its own"
    )
    args = parser.parse_args()
    asyncio.run((main_redis if args.redis else main)(args.rooms, args.calls))
