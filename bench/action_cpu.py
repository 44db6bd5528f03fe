"""Benchmark: the server's Python work per game action, without sockets or an event loop's I/O.

    python bench/action_cpu.py [--rooms 50] [--actions 20000] [--seed 0] [--profile FILE]

Plays random legal moves in ``--rooms`` rooms of two seats, in one process, through the same
code a connection runs for a move: the client frame is framed by websockets' client protocol
and read by its server protocol, parsed (``parse_client``), counted in the metrics, applied by
``Room.act`` (engine, store, one ``state`` per seat) and each state is encoded and framed as
``Connection.send`` does. What is left out is the kernel (the
``send`` and ``recv`` calls) and asyncio's scheduling. It prints the thread CPU time per action
of that work: a figure far steadier on a shared machine than the load benchmark's, for
comparing two versions of the code (``bench/load.py`` remains the headline).

The workload is fixed by ``--seed``: the moves, and also the matches' seeds and the clients'
masks (``secrets.token_bytes`` draws from the seed while the bench runs), so two runs of one
version do the same work, and an instruction count (``valgrind --tool=callgrind``) of runs with
two ``--actions`` figures gives the instructions per action by difference.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import gc
import random
import secrets
import time
from typing import Any

from websockets.frames import Frame
from websockets.protocol import Protocol, Side

from muggins.server.rooms.players import Player
from muggins.server.rooms.room import Room
from muggins.server.runtime.metrics import Metrics
from muggins.server.store.games import Store
from muggins.server.store.memory_games import MemoryStore
from muggins.server.wire.frames import text_frame
from muggins.server.wire.send_cache import encoded
from muggins.shared.protocol import (
    GAME_MOVES,
    RoomOptions,
    ServerMessage,
    State,
    from_action,
    parse_client,
)


class Seat:
    """A connection's sending half: encodes and frames each message, keeps the last state."""

    def __init__(self) -> None:
        self.client = Protocol(Side.CLIENT)
        self.reader = Protocol(Side.SERVER, max_size=4096)
        self.last: State | None = None
        self.bytes = 0

    def send(self, message: ServerMessage) -> None:
        self.bytes += len(text_frame(encoded(message)))  # as Connection.send writes it
        if isinstance(message, State):
            self.last = message

    def frame(self, text: str) -> bytes:
        """The bytes a client sends for ``text`` (masked, as clients must)."""
        self.client.send_text(text.encode())
        return b"".join(self.client.data_to_send())

    def read(self, data: bytes) -> str:
        self.reader.receive_data(data)
        [frame] = self.reader.events_received()
        assert isinstance(frame, Frame)
        return bytes(frame.data).decode()


def no_bots(room: Room, seat: int, level: str) -> Any:
    raise AssertionError("no computer here")


async def seated_room(n: int, store: Store, metrics: Metrics, seats: tuple[Seat, Seat]) -> Room:
    """Room ``n`` on ``store``, with a player on each of ``seats``: its match has begun."""
    room = Room(
        f"ROOM{n:04d}",
        RoomOptions(),
        store=store,
        grace=60.0,
        make_bot=no_bots,
        on_action=metrics.observe_action,
    )
    await store.create_room(room.record())
    for i in (0, 1):
        await room.sit(Player(id=f"{n}-{i}", name=f"P{i}", token_hash="h", peer=seats[i]))
    return room


async def run(rooms: int, actions: int, seed: int) -> tuple[float, int, int]:
    store = MemoryStore()
    metrics = Metrics()
    rng = random.Random(seed)
    drawn = random.Random(seed + 1)

    def token_bytes(nbytes: int | None = None) -> bytes:  # match seeds and masks, seeded
        return drawn.randbytes(32 if nbytes is None else nbytes)

    secrets.token_bytes = token_bytes
    tables = []
    for n in range(rooms):
        seats = (Seat(), Seat())
        tables.append((await seated_room(n, store, metrics, seats), seats))
    spent = 0
    done = 0
    sent = 0
    counter = 0
    clock = time.thread_time_ns
    while done < actions:
        for room, seats in tables:
            match = room.match
            assert match is not None
            if match.over:
                await room.ask_rematch(0, origin=seats[0], id=None)
                await room.ask_rematch(1, origin=seats[1], id=None)
                continue
            index = rng.choice(match.waiting_for())
            seat = seats[index]
            state = seat.last
            assert state is not None
            counter += 1
            move = from_action(rng.choice(state.view.legal), seq=room.seq, id=counter)
            data = seat.frame(move.model_dump_json())
            before = seats[0].bytes + seats[1].bytes
            t0 = clock()
            # What Connection._read and _handle do for a move, short of the awaits on the socket.
            message = parse_client(seat.read(data))
            metrics.message(message.type)
            assert isinstance(message, GAME_MOVES)
            await room.act(index, message, origin=seat, id=message.id)
            spent += clock() - t0
            sent += seats[0].bytes + seats[1].bytes - before
            done += 1
    return spent / 1e3 / done, done, sent // done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--actions", type=int, default=20000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs; the best is printed")
    parser.add_argument("--profile", help="write a cProfile of one run to this file")
    args = parser.parse_args()
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        asyncio.run(run(args.rooms, args.actions, args.seed))
        profiler.disable()
        profiler.dump_stats(args.profile)
    # A count-based schedule (CPython's, with the first threshold the server used before it
    # collected on a clock): these loops never wait, so a clock-driven collector would never
    # run in them, and the figures stay comparable with the earlier ones.
    gc.set_threshold(20_000, *gc.get_threshold()[1:])
    results = [asyncio.run(run(args.rooms, args.actions, args.seed)) for _ in range(args.repeat)]
    best = min(r[0] for r in results)
    each = ", ".join(f"{r[0]:.1f}" for r in results)
    print(
        f"{args.actions:,} actions in {args.rooms} rooms: best {best:.1f} µs per action "
        f"(runs: {each}); {results[0][2]:,} bytes sent per action"
    )


if __name__ == "__main__":
    main()
