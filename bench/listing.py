"""Benchmark: what one ``list_rooms`` costs the server as the number of rooms grows.

    python bench/listing.py [--rooms 10000] [--calls 200]

Opens a real server with ``--rooms`` public rooms (a third of them full, so listed for
watching), then times ``list_rooms`` over one WebSocket: the first page, a page from the middle
(by cursor) and, for comparison, building every room's summary and sorting them as the server
did before the index (about 100 ms at 10,000 rooms in the audit that found it).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import time

from websockets.asyncio.client import connect

from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.server.room_index import section_of, summary
from muggins.shared.protocol import PROTOCOL_VERSION, RoomOptions


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
            for label, message in (
                ("first page (50)", {"type": "list_rooms"}),
                ("middle page (200)", {"type": "list_rooms", "after": middle, "limit": 200}),
            ):
                took = []
                for _ in range(calls):
                    start = time.perf_counter()
                    await ws.send(json.dumps(message))
                    await ws.recv()
                    took.append(time.perf_counter() - start)
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


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=10_000)
    parser.add_argument("--calls", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(main(args.rooms, args.calls))
