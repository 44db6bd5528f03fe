"""Benchmark: Redis's memory while finished games accumulate, with and without PostgreSQL.

    nice -n 19 python bench/redis_memory.py [--live 500] [--finished 10000] [--no-archive]

A fresh redis-server and a fresh PostgreSQL (``initdb`` and ``pg_ctl`` in a temporary folder,
as the tests start it) on free ports. ``--live`` rooms each hold a match half played (the live
load, constant throughout). Then ``--finished`` games are played to the end as a node stores
them (a room created, the match started, each action appended, the match finished, the room
closed), and every 250 of them a sweep round runs as a node's would (settle what is unsettled,
then move to PostgreSQL what nothing live needs: :mod:`server.cluster.archive`). It prints
Redis's ``used_memory`` after 1,000 and after all the finished games, and the ratio. With
``--no-archive`` the finished games stay in Redis (a cluster without ``--postgres``).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests" / "server"))
from pg_helpers import running_postgres
from processes import start_redis

from muggins.server.cluster.archive import archive_finished
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.settling import settle_unsettled
from muggins.server.store.games import MatchRecord, RoomRecord, SeatRecord
from muggins.server.store.postgres import PostgresArchive
from muggins.shared.actions import Action, GameOptions, Seat
from muggins.shared.match import Match
from muggins.shared.protocol import RoomOptions

OPTIONS = GameOptions()
ROUND = 250
"""Finished games between two sweep rounds."""


def played(rng: random.Random) -> tuple[bytes, list[tuple[Seat, Action]], Seat | None]:
    seed = rng.randbytes(32)
    match = Match(seed=seed, options=OPTIONS, keep_events=False)
    while not match.over:
        seat = match.waiting_for()[0]
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    return seed, list(match.log), match.winner


async def store_game(
    store: ClusterStore, code: str, rng: random.Random, *, finish: bool, player: str
) -> None:
    seats = (
        SeatRecord(0, "human", "Ann", player=player),
        SeatRecord(1, "bot", "Bot", level="easy"),
    )
    await store.create_room(RoomRecord(code, RoomOptions(), time.time(), seats))
    seed, log, winner = played(rng)
    await store.start_match(MatchRecord(code, 1, seed, OPTIONS, ("Ann", "Bot"), time.time()))
    if not finish:
        log = log[: len(log) // 2]
    for index, (seat, action) in enumerate(log):
        await store.append_action(
            code, 1, index, seat, action, seq=index + 1, key=f"{seat}:{index}"
        )
    if finish:
        await store.finish_match(code, 1, finished=time.time(), result="won", winner=winner)
        await store.close_room(code)


async def used_memory(store: ClusterStore) -> int:
    info = await store.redis.info("memory")
    return int(info["used_memory"])


async def run(args: argparse.Namespace, postgres_url: str | None) -> None:
    folder = tempfile.mkdtemp(prefix="muggins-bench-")
    redis_process, url = start_redis(folder, "everysec")
    archive = PostgresArchive(postgres_url) if postgres_url else None
    store = ClusterStore(url, archive=archive, timeout=60.0)  # a busy machine: never retry
    rng = random.Random(7)
    try:
        await store.open()
        for start in range(0, args.live, 50):
            await asyncio.gather(
                *(
                    store_game(store, f"L{i:05d}", rng, finish=False, player=f"l{i}")
                    for i in range(start, min(args.live, start + 50))
                )
            )
        print(f"live load: {args.live} rooms, each with a match half played", flush=True)
        marks: dict[int, int] = {}
        started = time.perf_counter()
        for done in range(0, args.finished, ROUND):
            for start in range(done, done + ROUND, 50):
                await asyncio.gather(
                    *(
                        store_game(store, f"F{i:06d}", rng, finish=True, player=f"f{i}")
                        for i in range(start, start + 50)
                    )
                )
            await settle_unsettled(store, quiet_for=0.0, pair_max=10**9, limit=10**9)
            if archive is not None:
                await archive_finished(store, archive)
            count = done + ROUND
            if count in (1000, args.finished) or count % 2500 == 0:
                marks[count] = await used_memory(store)
                print(
                    f"{count:6d} finished: used_memory {marks[count] / 1e6:.2f} MB"
                    f" ({time.perf_counter() - started:.0f} s)",
                    flush=True,
                )
        archived = await archive.count() if archive is not None else 0
        first, last = marks[1000], marks[args.finished]
        print(
            f"archive {'on' if archive else 'off'}: used_memory after 1,000 finished "
            f"{first / 1e6:.2f} MB, after {args.finished:,} {last / 1e6:.2f} MB: "
            f"{last / first:.3f}x ({(last - first) / first * 100:+.1f} %); "
            f"{archived} games in PostgreSQL"
        )
    finally:
        await store.close()
        redis_process.kill()
        redis_process.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--live", type=int, default=500, help="rooms with a match in play")
    parser.add_argument("--finished", type=int, default=10_000, help="games played to the end")
    parser.add_argument("--no-archive", action="store_true", help="keep finished games in Redis")
    args = parser.parse_args()
    if args.no_archive:
        asyncio.run(run(args, None))
        return
    with running_postgres() as postgres:
        asyncio.run(run(args, postgres.url))


if __name__ == "__main__":
    main()
