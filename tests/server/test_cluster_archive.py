"""Finished matches move from Redis to PostgreSQL exactly once: real redis-server, real
PostgreSQL (initdb in a temporary folder), real nodes; a node killed in the middle of the move,
and PostgreSQL down while games are played."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
import time

import psycopg
import pytest
import redis.asyncio as aioredis
from cluster_nodes import Node, nodes
from pg_helpers import PostgresServer
from redis_helpers import RedisServer
from wire_client import WireClient, play_randomly

from muggins.server.cluster.archive import archive_finished
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.redis_store import RedisStore
from muggins.server.cluster.settling import settle_unsettled
from muggins.server.store.games import MatchRecord, RoomRecord, SeatRecord, StoreConflict
from muggins.server.store.postgres import MIGRATIONS, PostgresArchive, migrate
from muggins.shared.actions import Action, GameOptions, Seat
from muggins.shared.handover import HandOver
from muggins.shared.match import Match
from muggins.shared.protocol import RoomOptions

SEATS = (SeatRecord(0, "human", "Ann", player="p"), SeatRecord(1, "bot", "Bot", level="easy"))


def played(seed: int) -> tuple[bytes, list[tuple[Seat, Action]]]:
    """A whole 61-point match from ``seed``, each move chosen by a seeded draw."""
    rng = random.Random(seed)
    raw = rng.randbytes(32)
    match = Match(seed=raw, options=GameOptions(target=61))
    while not match.over:
        seat = match.waiting_for()[0]
        match.apply(seat, rng.choice(match.legal_actions(seat)))
    return raw, list(match.log)


async def finished_rooms(redis: RedisServer, count: int) -> dict[str, list[tuple[Seat, Action]]]:
    """``count`` closed rooms in Redis, each with one finished match (as nodes leave them)."""
    store = RedisStore(redis.url)
    logs = {}
    try:
        for i in range(count):
            code = f"A{i:05d}"
            seats = (
                SeatRecord(0, "human", "Ann", player=f"p{i}"),
                SeatRecord(1, "bot", "Bot", level="easy"),
            )
            await store.create_room(RoomRecord(code, RoomOptions(), time.time(), seats))
            seed, log = played(i)
            await store.start_match(
                MatchRecord(code, 1, seed, GameOptions(target=61), ("Ann", "Bot"), time.time())
            )
            for index, (seat, action) in enumerate(log):
                await store.append_action(code, 1, index, seat, action, seq=index + 1, key=f"k{i}")
            winner = Match.replay(GameOptions(target=61), seed, log).winner
            await store.finish_match(code, 1, finished=time.time(), result="won", winner=winner)
            await store.close_room(code)
            logs[code] = log
    finally:
        await store.close()
    return logs


async def redis_keys(redis: RedisServer, pattern: str) -> list[str]:
    """The keys of Redis that match ``pattern``."""
    client = aioredis.Redis.from_url(redis.url, decode_responses=True)
    try:
        return [str(key) for key in await client.keys(pattern)]
    finally:
        await client.aclose()


async def redis_matches(redis: RedisServer) -> tuple[int, int]:
    """Match hashes and logs left in Redis."""
    client = aioredis.Redis.from_url(redis.url, decode_responses=True)
    try:
        return len(await client.keys("muggins:match:*")), len(await client.keys("muggins:log:*"))
    finally:
        await client.aclose()


def archived_logs(postgres: PostgresServer) -> dict[str, list[tuple[Seat, Action]]]:
    from muggins.shared.actions import ACTION

    with psycopg.connect(postgres.url) as connection:
        rows = connection.execute(
            "SELECT m.room, a.seat, a.action FROM matches m JOIN actions a ON a.match_id = m.id"
            " ORDER BY m.room, a.index"
        ).fetchall()
    logs: dict[str, list[tuple[Seat, Action]]] = {}
    for room, seat, action in rows:
        logs.setdefault(room, []).append((seat, ACTION.validate_python(action)))
    return logs


def archived_count(postgres: PostgresServer) -> int:
    try:
        with psycopg.connect(postgres.url) as connection:
            row = connection.execute("SELECT count(*) FROM matches").fetchone()
    except psycopg.errors.UndefinedTable:
        return 0
    return int(row[0]) if row else 0


async def test_migrations_run_once_and_record_their_version(postgres: PostgresServer) -> None:
    """Two nodes migrating at once apply each migration once; the version table says which."""
    connections = [await psycopg.AsyncConnection.connect(postgres.url) for _ in range(2)]
    try:
        versions = await asyncio.gather(*(migrate(c) for c in connections))
        assert versions == [len(MIGRATIONS)] * 2
        rows = await (
            await connections[0].execute("SELECT version FROM schema_version ORDER BY version")
        ).fetchall()
        assert [r[0] for r in rows] == list(range(1, len(MIGRATIONS) + 1))
        assert await migrate(connections[1]) == len(MIGRATIONS)
    finally:
        for connection in connections:
            await connection.close()


async def test_a_finished_match_moves_to_postgres_and_leaves_redis(
    redis_server: RedisServer, postgres: PostgresServer
) -> None:
    """A match played on a node moves to PostgreSQL once its room closes: the archived log is the
    one the player was told, Redis keeps none of it, and the store still finds it."""
    async with nodes(
        redis_server, 1, postgres=postgres.url, sweep_interval=0.3, abandon_after=1.0
    ) as [node]:
        url = f"ws://127.0.0.1:{node.port}"
        ann = await WireClient.open(url, name="Ann")
        room = await ann.request(type="create_room", options={"game": {"target": 61}})
        await ann.send(type="seat_bot", level="random")
        await ann.expect("state")
        await play_randomly(ann, random.Random(1))
        seq = ann.state["seq"] if ann.state else 0
        await ann.close()
        while archived_count(postgres) < 1:
            await asyncio.sleep(0.1)
        assert await redis_matches(redis_server) == (0, 0)
        assert await redis_keys(redis_server, "muggins:owner:*") == []  # the room left with it
        found = await node.store.load_match(room["code"], 1)
        assert found is not None and found.finished is not None
        assert len(found.actions) + 1 == seq  # every move the player was told of, no more
        [(code, log)] = archived_logs(postgres).items()
        assert code == room["code"] and log == list(found.actions)
        assert Match.replay(found.options, found.seed, log).over


async def test_a_node_killed_mid_archive_loses_and_doubles_nothing(
    redis_server: RedisServer, postgres: PostgresServer
) -> None:
    """kill -9 of the node moving finished matches to PostgreSQL, part-way through: another node
    finishes the move; every match is archived once with its whole log and leaves Redis."""
    logs = await finished_rooms(redis_server, 300)
    first = Node(redis_server, "--postgres", postgres.url, "--sweep-interval", "0.2")
    try:
        while archived_count(postgres) == 0:
            await asyncio.sleep(0.01)
        first.kill()
    finally:
        first.stop()
    moved_before = archived_count(postgres)
    print(f"archived when the node was killed: {moved_before} of {len(logs)}")
    assert moved_before > 0
    second = Node(redis_server, "--postgres", postgres.url, "--sweep-interval", "0.2")
    try:
        while await redis_matches(redis_server) != (0, 0):
            await asyncio.sleep(0.1)
    finally:
        second.stop()
    assert archived_count(postgres) == len(logs)
    assert archived_logs(postgres) == logs


async def test_moves_are_acknowledged_while_postgres_is_down_and_the_archive_catches_up(
    redis_server: RedisServer, postgres: PostgresServer
) -> None:
    """PostgreSQL killed: a whole game is played (every move acknowledged, into Redis); when
    PostgreSQL is back the finished match moves there."""
    async with nodes(
        redis_server, 1, postgres=postgres.url, sweep_interval=0.3, abandon_after=1.0
    ) as [node]:
        postgres.kill()
        url = f"ws://127.0.0.1:{node.port}"
        ann = await WireClient.open(url, name="Ann")
        room = await ann.request(type="create_room", options={"game": {"target": 61}})
        await ann.send(type="seat_bot", level="random")
        await ann.expect("state")
        await play_randomly(ann, random.Random(2))
        assert [f for f in ann.frames if f["type"] == "error"] == []
        await ann.close()
        store = RedisStore(redis_server.url)
        try:
            told = await store.load_match(room["code"], 1)
            client = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
            rounds: set[str] = set()
            while len(rounds) < 3:  # sweeps ran (and failed to archive) while it was down
                rounds |= set(await client.keys("muggins:claim:sweep:*"))
                await asyncio.sleep(0.05)
            await client.aclose()
            assert await redis_matches(redis_server) == (1, 1)
            postgres.start()
            while archived_count(postgres) < 1:
                await asyncio.sleep(0.1)
            while await redis_matches(redis_server) != (0, 0):
                await asyncio.sleep(0.1)
        finally:
            await store.close()
        assert told is not None
        assert archived_logs(postgres) == {room["code"]: list(told.actions)}
        archive = PostgresArchive(postgres.url)
        try:
            again = await archive.load_match(room["code"], 1)
        finally:
            await archive.close()
        assert again is not None and again.actions == told.actions and again.tags == told.tags


async def test_to_postgres_moves_a_redis_only_clusters_games_once(
    redis_server: RedisServer, postgres: PostgresServer
) -> None:
    """``muggins to-postgres`` moves the finished games of a cluster that kept all in Redis;
    run again, it moves nothing more."""
    logs = await finished_rooms(redis_server, 20)
    command = [sys.executable, "-m", "muggins.client.cli", "to-postgres",
               "--redis", redis_server.url, "--postgres", postgres.url]  # fmt: skip
    first = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "moved 20 finished games;" in first.stdout, first.stdout
    assert await redis_matches(redis_server) == (0, 0)
    client = aioredis.Redis.from_url(redis_server.url, decode_responses=True)
    try:  # the rooms leave Redis; their codes are retired, never given out again
        assert await client.keys("muggins:player:*") == []
        assert await client.keys("muggins:room:*") == []
        assert 0 < len(await client.keys("muggins:retired:*")) <= 20
    finally:
        await client.aclose()
    store = RedisStore(redis_server.url)
    try:
        with pytest.raises(StoreConflict):
            await store.create_room(RoomRecord("A00000", RoomOptions(), time.time(), SEATS))
    finally:
        await store.close()
    again = subprocess.run(command, capture_output=True, text=True, check=True)
    assert "moved 0 finished games;" in again.stdout, again.stdout
    assert archived_logs(postgres) == logs


async def test_an_open_rooms_earlier_matches_stay_in_redis(
    redis_server: RedisServer, postgres: PostgresServer
) -> None:
    """A room still open keeps its finished matches in Redis (a node rebuilding it numbers the
    moves of its current match after them); once it closes they move."""
    store = ClusterStore(redis_server.url, archive=PostgresArchive(postgres.url))
    try:
        await store.create_room(RoomRecord("OPEN01", RoomOptions(), time.time(), SEATS))
        options = GameOptions(target=61)
        seed, log = played(1)
        await store.start_match(MatchRecord("OPEN01", 1, seed, options, ("Ann", "Bot"), 0.0))
        for index, (seat, action) in enumerate(log):
            await store.append_action("OPEN01", 1, index, seat, action, key="k")
        winner = Match.replay(options, seed, log).winner
        await store.finish_match("OPEN01", 1, finished=time.time(), result="won", winner=winner)
        second, log2 = played(2)
        await store.start_match(MatchRecord("OPEN01", 2, second, options, ("Ann", "Bot"), 0.0))
        for index, (seat, action) in enumerate(log2[:3]):
            await store.append_action("OPEN01", 2, index, seat, action, key="k")
        await settle_unsettled(store, quiet_for=0.0, pair_max=3)
        assert await archive_finished(store, store.archive) == 0  # type: ignore[arg-type]
        snapshot = await store.load_room("OPEN01")
        assert snapshot is not None and snapshot.previous_actions == len(log)
        await store.close_room("OPEN01")
        assert await archive_finished(store, store.archive) == 1  # type: ignore[arg-type]
        assert archived_logs(postgres) == {"OPEN01": log}
    finally:
        await store.close()


async def test_an_abandoned_match_is_not_waited_for_and_moves(
    redis_server: RedisServer, postgres: PostgresServer
) -> None:
    """A match abandoned half played (its room closed by the sweep) needs no settling: it leaves
    the unsettled list and moves to PostgreSQL."""
    store = ClusterStore(redis_server.url, archive=PostgresArchive(postgres.url))
    try:
        signed_in = (SeatRecord(0, "human", "Ann", player="p", account="a1"), SEATS[1])
        await store.create_room(RoomRecord("GONE01", RoomOptions(), time.time(), signed_in))
        seed, log = played(3)
        options = GameOptions(target=61)
        await store.start_match(MatchRecord("GONE01", 1, seed, options, ("Ann", "Bot"), 0.0))
        for index, (seat, action) in enumerate(log[:5]):
            await store.append_action("GONE01", 1, index, seat, action, key="k")
        await store.finish_match("GONE01", 1, finished=time.time(), result="abandoned", winner=None)
        await store.close_room("GONE01")
        await settle_unsettled(store, quiet_for=0.0, pair_max=3)
        assert not await store.is_unsettled("GONE01-1")
        assert await archive_finished(store, store.archive) == 1  # type: ignore[arg-type]
        assert archived_logs(postgres) == {"GONE01": log[:5]}
    finally:
        await store.close()


async def test_an_archived_match_reads_back_as_it_was_stored(postgres: PostgresServer) -> None:
    """Everything of a match record survives the archive: its log with each move's tags, its
    hand-overs, its result; a second save of it changes nothing."""
    seed, log = played(4)
    options = GameOptions(target=61)
    record = MatchRecord(
        "SAME01",
        2,
        seed,
        options,
        ("Ann", "Bob"),
        started=1.5,
        actions=tuple(log),
        tags=tuple((i + 7, f"key{i}") for i in range(len(log))),
        finished=99.25,
        result="won",
        winner=Match.replay(options, seed, log).winner,
        hand_overs=(HandOver(seat=1, at=3, before="Bob", after="Cy"),),
    )
    archive = PostgresArchive(postgres.url)
    try:
        assert await archive.save_match(record)
        assert not await archive.save_match(record)
        assert await archive.load_match("SAME01", 2) == record
        [listed] = await archive.finished_matches(limit=5)
        assert listed.id == record.id and listed.actions == ()
    finally:
        await archive.close()
