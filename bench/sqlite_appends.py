"""Benchmark: the CPU one move's append costs the SQLite store, by how far into its match it is.

    python bench/sqlite_appends.py [--rooms 50] [--depth 200] [--band 50]

Opens a ``SqliteStore`` on a temporary file, starts a match in each of ``--rooms`` rooms, then
appends ``--depth`` moves to each, one room after another and each append awaited before the
next, so every group commit holds one move (as at human pace, where moves seldom arrive in the
same turn of the loop). Prints the event loop thread's CPU time per append for each band of
``--band`` moves: the cost of an append must not grow with the length of the match's log.
The store's own thread (rooms, matches, checkpoints) is not counted.
"""

from __future__ import annotations

import argparse
import asyncio
import tempfile
import time
from pathlib import Path
from typing import Protocol

from muggins.server.store.games import MatchRecord, RoomRecord, SeatRecord
from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.actions import Action, GameOptions, Play, Seat
from muggins.shared.cards import parse_card
from muggins.shared.protocol import RoomOptions


class Appending(Protocol):
    async def create_room(self, room: RoomRecord) -> None: ...
    async def start_match(self, match: MatchRecord) -> None: ...
    async def append_action(
        self,
        code: str,
        number: int,
        index: int,
        seat: Seat,
        action: Action,
        *,
        seq: int | None = None,
        key: str | None = None,
    ) -> None: ...


async def fill_rooms(store: Appending, codes: list[str]) -> None:
    """A room for each of ``codes`` in ``store``, each with its first match started."""
    for code in codes:
        seats = (SeatRecord(seat=0), SeatRecord(seat=1))
        await store.create_room(
            RoomRecord(code=code, options=RoomOptions(), created=1.0, seats=seats)
        )
        await store.start_match(
            MatchRecord(
                room=code,
                number=1,
                seed=b"\x01" * 32,
                options=GameOptions(),
                names=("A", "B"),
                started=2.0,
            )
        )


async def run(rooms: int, depth: int) -> list[float]:
    """Seconds of the loop thread's CPU for each round of one append per room."""
    with tempfile.TemporaryDirectory(prefix="sqlite-appends-") as folder:
        store = SqliteStore(Path(folder) / "muggins.db")
        await store.open()
        codes = [f"R{n:05d}" for n in range(rooms)]
        await fill_rooms(store, codes)
        move = Play(card=parse_card("5H"))  # the store keeps what it is given
        rounds = []
        for index in range(depth):
            started = time.thread_time()
            for code in codes:
                await store.append_action(
                    code, 1, index, index % 2, move, seq=index, key=f"{index}:1"
                )
            rounds.append(time.thread_time() - started)
        await store.close()
    return rounds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--depth", type=int, default=200, help="moves appended to each match")
    parser.add_argument("--band", type=int, default=50, help="moves per printed figure")
    args = parser.parse_args()
    if args.rooms < 1 or args.depth < 1 or args.band < 1:
        parser.error("--rooms, --depth and --band must be at least 1")
    rounds = asyncio.run(run(args.rooms, args.depth))
    print(f"{args.rooms} rooms, {args.depth} moves each, one move per group commit")
    for low in range(0, args.depth, args.band):
        band = rounds[low : low + args.band]
        per_append = sum(band) / len(band) / args.rooms * 1e6
        print(f"  moves {low:4d}-{low + len(band) - 1:4d}: {per_append:6.1f} µs per append")


if __name__ == "__main__":
    main()
