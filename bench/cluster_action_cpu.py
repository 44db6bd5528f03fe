"""Benchmark: a cluster node's CPU per game action, against one plain server's, in one process.

    python bench/cluster_action_cpu.py [--rooms 20] [--actions 4000] [--spread plain,same,both]
        [--repeat 3] [--profile DIR] [--redis URL]

Plays random legal moves in ``--rooms`` rooms through ``Room.act`` as a connection would (the
move parsed from its frame, each ``state`` encoded and framed as ``Connection.send`` does, the
sockets to the players left out) on: one plain server (in memory: ``plain``; in a fresh SQLite
file, as ``muggins serve`` keeps its games by default: ``plain-sqlite``); a cluster node on a
fresh ``redis-server`` with both players of each room (``same``: what a room routed to its
owner node costs that node); or two cluster nodes in this process with one player each
(``both``: the other node applies each move from its wake-up and tells its player). ``--redis
URL`` plays the cluster kinds on a Redis already running (``bench/instructions.py`` counts its
instructions too) instead of starting one. A move counts as done once both players have its
``state``. It prints the thread CPU time per action of all of it, the event loop and the Redis
connections included (the kernel's part of the Redis calls too; not SQLite's worker thread, where
its checkpoints run): steadier on a shared machine than ``bench/load.py`` (the headline), for
comparing two versions of the cluster's code. ``--profile DIR`` writes a cProfile of one more
run of each kind (CPU time) to ``DIR/KIND.prof``. ``--last SECONDS`` keeps each run's event
loop going, idle, until SECONDS after its first move, so that two runs of different lengths do
the same clock-driven work (heartbeats, polls, Redis's own clock): ``bench/instructions.py`` uses
it to take that work out of its difference.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import gc
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from action_cpu import Seat, seated_room
from processes import start_redis

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.lobby import cluster_lobby
from muggins.server.config import ServerConfig
from muggins.server.rooms.players import Player
from muggins.server.rooms.room import Room
from muggins.server.runtime.metrics import Metrics
from muggins.server.store.memory_games import MemoryStore
from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.protocol import (
    GAME_MOVES,
    RoomOptions,
    ServerMessage,
    from_action,
    parse_client,
)


class Waiter(Seat):
    """A seat that tells when it has a state at least as new as the one waited for."""

    def __init__(self) -> None:
        super().__init__()
        self.wanted = 0
        self.arrived: asyncio.Event = asyncio.Event()

    def send(self, message: ServerMessage) -> None:
        super().send(message)
        if self.last is not None and self.last.seq >= self.wanted:
            self.arrived.set()

    async def wait(self, seq: int) -> None:
        while self.last is None or self.last.seq < seq:
            self.wanted = seq
            self.arrived.clear()
            await self.arrived.wait()


Table = tuple[tuple[Room, Room], tuple[Waiter, Waiter]]
"""A room of two seats: (its room on seat 0's node, on seat 1's node), (seat 0, seat 1)."""


async def _tables(
    kind: str, rooms: int, url: str | None, stack: contextlib.AsyncExitStack
) -> list[Table]:
    """``rooms`` rooms of two seats."""
    tables: list[Table] = []
    if kind in ("plain", "plain-sqlite"):
        kept: MemoryStore | SqliteStore = MemoryStore()
        if kind == "plain-sqlite":
            folder = stack.enter_context(tempfile.TemporaryDirectory(prefix="cluster-cpu-sqlite-"))
            kept = SqliteStore(Path(folder) / "games.db")
            await kept.open()
            stack.push_async_callback(kept.close)
        metrics = Metrics()
        for n in range(rooms):
            seats = (Waiter(), Waiter())
            room = await seated_room(n, kept, metrics, seats)
            tables.append(((room, room), seats))
        return tables
    assert url is not None
    lobbies = []
    for _ in range(2 if kind == "both" else 1):
        store = ClusterStore(url)
        await store.open()
        stack.push_async_callback(store.close)
        config = ServerConfig(port=0, redis=url, bot_delay=0.0)
        lobby = cluster_lobby(store, config, Metrics())
        await lobby.restore()
        stack.push_async_callback(lobby.stop)
        lobbies.append(lobby)
    guest_lobby = lobbies[-1]
    for n in range(rooms):
        host = await lobbies[0].create_room(RoomOptions())
        seats = (Waiter(), Waiter())
        players = [
            Player(id=f"{n}-{i}", name=f"P{i}", token_hash="h", peer=seats[i]) for i in (0, 1)
        ]
        lobbies[0].players[players[0].id] = players[0]  # as a hello on that node does
        guest_lobby.players[players[1].id] = players[1]
        await host.sit(players[0])
        guest = host if guest_lobby is lobbies[0] else await guest_lobby.cluster.load(host.code)
        assert guest is not None
        await guest.sit(players[1])
        await seats[0].wait(0)
        await seats[1].wait(0)
        tables.append(((host, guest), seats))
    return tables


async def run(
    kind: str, rooms: int, actions: int, seed: int, url: str | None, last: float = 0.0
) -> tuple[float, float]:
    """Thread CPU µs per action of ``actions`` moves in ``rooms`` rooms of ``kind``, and the
    seconds the moves took; the loop runs on idle until ``last`` seconds after the first move."""
    async with contextlib.AsyncExitStack() as stack:
        tables = await _tables(kind, rooms, url, stack)
        await asyncio.sleep(0.2)  # the nodes settle (subscriptions, catch-ups)
        rng = random.Random(seed)
        counter = 0
        done = 0
        clock = time.thread_time_ns
        t0 = clock()
        began = time.monotonic()
        while done < actions:
            for (host, guest), seats in tables:
                match = host.match
                assert match is not None
                if match.over:
                    await host.ask_rematch(0, origin=seats[0], id=None)
                    await guest.ask_rematch(1, origin=seats[1], id=None)
                    seq = host.seq
                    for seat in seats:
                        await seat.wait(seq)
                    continue
                index = rng.choice(match.waiting_for())
                room, seat = (host, guest)[index], seats[index]
                state = seat.last
                assert state is not None
                counter += 1
                move = from_action(rng.choice(state.view.legal), seq=room.seq, id=counter)
                message = parse_client(seat.read(seat.frame(move.model_dump_json())))
                assert isinstance(message, GAME_MOVES)
                await room.act(index, message, origin=seat, id=message.id)
                seq = room.seq
                for other in seats:
                    await other.wait(seq)
                done += 1
        cpu, took = (clock() - t0) / 1e3 / done, time.monotonic() - began
        await asyncio.sleep(max(0.0, last - took))  # the clock-driven work goes on meanwhile
        return cpu, took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--actions", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=3, help="runs of each kind; the best counts")
    parser.add_argument("--spread", default="plain,same,both")
    parser.add_argument("--profile", type=Path, help="cProfile one more run of each kind here")
    parser.add_argument("--redis", metavar="URL", help="a running Redis for the cluster kinds")
    parser.add_argument(
        "--last",
        type=float,
        default=0.0,
        metavar="SECONDS",
        help="keep each run's event loop going, idle, until SECONDS after its first move",
    )
    args = parser.parse_args()
    # A count-based schedule (CPython's, with the first threshold the server used before it
    # collected on a clock): these loops never wait, so a clock-driven collector would never
    # run in them, and the figures stay comparable with the earlier ones.
    gc.set_threshold(20_000, *gc.get_threshold()[1:])
    kinds = args.spread.split(",")
    with tempfile.TemporaryDirectory(prefix="cluster-cpu-") as directory:
        redis: subprocess.Popen[bytes] | None = None
        url = args.redis
        if url is None:
            redis, url = start_redis(directory, "everysec")
        try:
            best: dict[str, list[float]] = {kind: [] for kind in kinds}
            walls: dict[str, list[float]] = {kind: [] for kind in kinds}
            for _ in range(args.repeat):
                for kind in kinds:  # alternated, so a busy spell of the machine hits all kinds
                    cpu, took = asyncio.run(
                        run(kind, args.rooms, args.actions, args.seed, url, args.last)
                    )
                    best[kind].append(cpu)
                    walls[kind].append(took)
            if args.profile:
                args.profile.mkdir(parents=True, exist_ok=True)
                for kind in kinds:
                    profiler = cProfile.Profile(time.thread_time)
                    profiler.enable()
                    asyncio.run(run(kind, args.rooms, args.actions, args.seed, url))
                    profiler.disable()
                    profiler.dump_stats(args.profile / f"{kind}.prof")
        finally:
            if redis is not None:
                redis.kill()
                redis.wait()
    first = min(best[kinds[0]])
    for kind in kinds:
        runs = ", ".join(f"{c:.0f}" for c in best[kind])
        ratio = f" = {min(best[kind]) / first:.2f}x {kinds[0]}" if kind != kinds[0] else ""
        print(
            f"{kind:>12}: best {min(best[kind]):.0f} µs per action{ratio} (runs: {runs}); "
            f"the moves took {max(walls[kind]):.3f} s"
        )


if __name__ == "__main__":
    main()
