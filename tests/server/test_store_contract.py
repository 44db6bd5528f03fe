"""The one contract every Store keeps, run against memory, SQLite and a real redis-server."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from redis_helpers import RedisServer, running_redis

from muggins.server.cluster.redis_store import RedisStore
from muggins.server.store.games import (
    MatchRecord,
    RoomRecord,
    SeatRecord,
    Store,
    StoreConflict,
    StoreError,
)
from muggins.server.store.memory_games import MemoryStore
from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.actions import Action, GameOptions, Seat
from muggins.shared.match import Match
from muggins.shared.protocol import RoomOptions


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with running_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    made: Store
    if request.param == "memory":
        made = MemoryStore()
    elif request.param == "sqlite":
        made = SqliteStore(tmp_path / "muggins.db")
    else:
        server: RedisServer = request.getfixturevalue("redis_server")
        made = RedisStore(server.url, prefix=f"t{secrets.token_hex(4)}:")
    await made.open()
    yield made
    await made.close()


def room(code: str = "ABCDEF", *, created: float = 1000.0) -> RoomRecord:
    return RoomRecord(
        code=code,
        options=RoomOptions(game=GameOptions(target=61), private=True, turn_timer=30),
        created=created,
        seats=(
            SeatRecord(seat=0, kind="human", name="Alice", player="p1", token_hash="h1"),
            SeatRecord(seat=1),
        ),
    )


def match(code: str = "ABCDEF", number: int = 1, *, seed: bytes = b"\x01" * 32) -> MatchRecord:
    return MatchRecord(
        room=code,
        number=number,
        seed=seed,
        options=GameOptions(target=61),
        names=("Alice", "Bob"),
        started=2000.0 + number,
    )


def moves(seed: bytes, count: int) -> list[tuple[Seat, Action]]:
    """The first ``count`` legal moves of a real match (each seat's first legal action)."""
    played = Match(seed=seed, options=GameOptions(target=61))
    for _ in range(count):
        seat = played.waiting_for()[0]
        played.apply(seat, played.legal_actions(seat)[0])
    return list(played.log)


async def test_created_room_is_open_with_its_record(store: Store) -> None:
    """A created room comes back from open_rooms with the same record and no match."""
    await store.create_room(room())
    [snapshot] = await store.open_rooms()
    assert snapshot.room == room()
    assert snapshot.match is None
    assert snapshot.previous_actions == 0


async def test_room_code_is_taken_once(store: Store) -> None:
    """Creating a room under a code in use raises StoreConflict and keeps the first record."""
    await store.create_room(room())
    with pytest.raises(StoreConflict):
        await store.create_room(room(created=5.0))
    [snapshot] = await store.open_rooms()
    assert snapshot.room.created == 1000.0


async def test_saved_seats_replace_the_old_ones(store: Store) -> None:
    """save_seats stores both seats exactly."""
    await store.create_room(room())
    seats = (
        SeatRecord(seat=0, kind="human", name="Alice", player="p1", token_hash="h1"),
        SeatRecord(seat=1, kind="bot", name="Computer (easy)", level="easy"),
    )
    await store.save_seats("ABCDEF", seats)
    [snapshot] = await store.open_rooms()
    assert snapshot.room.seats == seats


async def test_actions_come_back_in_order_and_replay(store: Store) -> None:
    """Appended actions load in order, and the match replays from the stored seed and log."""
    seed = secrets.token_bytes(32)
    log = moves(seed, 6)
    await store.create_room(room())
    await store.start_match(match(seed=seed))
    for index, (seat, action) in enumerate(log):
        await store.append_action("ABCDEF", 1, index, seat, action)
    loaded = await store.load_match("ABCDEF", 1)
    assert loaded is not None
    assert loaded.seed == seed
    assert loaded.names == ("Alice", "Bob")
    assert loaded.options == GameOptions(target=61)
    assert list(loaded.actions) == log
    replayed = Match.replay(loaded.options, loaded.seed, loaded.actions)
    assert replayed.view(0) == Match.replay(GameOptions(target=61), seed, log).view(0)
    [snapshot] = await store.open_rooms()
    assert snapshot.match == loaded


async def test_append_out_of_turn_index_conflicts_and_changes_nothing(store: Store) -> None:
    """An append at any index but the log's length raises StoreConflict; the log is unchanged."""
    log = moves(b"\x01" * 32, 3)
    await store.create_room(room())
    await store.start_match(match())
    await store.append_action("ABCDEF", 1, 0, *log[0])
    for wrong in (0, 2, 5):
        with pytest.raises(StoreConflict):
            await store.append_action("ABCDEF", 1, wrong, *log[1])
    loaded = await store.load_match("ABCDEF", 1)
    assert loaded is not None
    assert list(loaded.actions) == log[:1]


async def test_append_to_a_match_never_started_fails_and_stores_nothing(store: Store) -> None:
    """An append to a match that was not started raises StoreError (not a lost race), whether
    the room has no match or another number; nothing is stored."""
    [move] = moves(b"\x01" * 32, 1)
    await store.create_room(room())
    for index in (0, 1):
        with pytest.raises(StoreError) as raised:
            await store.append_action("ABCDEF", 1, index, *move)
        assert not isinstance(raised.value, StoreConflict)
    await store.start_match(match())
    with pytest.raises(StoreError) as raised:
        await store.append_action("ABCDEF", 2, 0, *move)
    assert not isinstance(raised.value, StoreConflict)
    assert await store.load_match("ABCDEF", 2) is None
    loaded = await store.load_match("ABCDEF", 1)
    assert loaded is not None and loaded.actions == ()


async def test_concurrent_appends_at_one_index_exactly_one_wins(store: Store) -> None:
    """Two appends racing for the same index: one is stored, the other raises StoreConflict."""
    log = moves(b"\x01" * 32, 2)
    await store.create_room(room())
    await store.start_match(match())
    results = await asyncio.gather(
        store.append_action("ABCDEF", 1, 0, *log[0]),
        store.append_action("ABCDEF", 1, 0, *log[1]),
        return_exceptions=True,
    )
    assert sorted(type(r).__name__ for r in results) == ["NoneType", "StoreConflict"]
    loaded = await store.load_match("ABCDEF", 1)
    assert loaded is not None
    [stored] = loaded.actions
    assert stored == log[results.index(None)]


async def test_match_number_is_taken_once(store: Store) -> None:
    """Starting match n of a room twice raises StoreConflict."""
    await store.create_room(room())
    await store.start_match(match())
    with pytest.raises(StoreConflict):
        await store.start_match(match(seed=b"\x02" * 32))
    loaded = await store.load_match("ABCDEF", 1)
    assert loaded is not None
    assert loaded.seed == b"\x01" * 32


async def test_open_room_carries_its_latest_match_and_earlier_action_count(store: Store) -> None:
    """open_rooms gives the newest match and counts the actions of the earlier ones."""
    first, second = moves(b"\x01" * 32, 4), moves(b"\x02" * 32, 2)
    await store.create_room(room())
    await store.start_match(match())
    for index, entry in enumerate(first):
        await store.append_action("ABCDEF", 1, index, *entry)
    await store.finish_match("ABCDEF", 1, finished=3000.0, result="restarted", winner=None)
    await store.start_match(match(number=2, seed=b"\x02" * 32))
    for index, entry in enumerate(second):
        await store.append_action("ABCDEF", 2, index, *entry)
    [snapshot] = await store.open_rooms()
    assert snapshot.previous_actions == 4
    assert snapshot.match is not None
    assert snapshot.match.number == 2
    assert list(snapshot.match.actions) == second


async def test_finished_matches_are_history_newest_first(store: Store) -> None:
    """finish_match records result and winner; history lists newest first, without actions."""
    for code, finished in (("AAAAAA", 3000.0), ("BBBBBB", 4000.0), ("CCCCCC", 3500.0)):
        await store.create_room(room(code))
        await store.start_match(match(code))
        await store.append_action(code, 1, 0, *moves(b"\x01" * 32, 1)[0])
        await store.finish_match(code, 1, finished=finished, result="won", winner=1)
    history = await store.finished_matches(limit=2)
    assert [m.room for m in history] == ["BBBBBB", "CCCCCC"]
    assert all(m.actions == () for m in history)
    loaded = await store.load_match("AAAAAA", 1)
    assert loaded is not None
    assert (loaded.finished, loaded.result, loaded.winner) == (3000.0, "won", 1)
    assert len(loaded.actions) == 1


async def test_closed_room_leaves_the_open_list_but_keeps_history(store: Store) -> None:
    """A closed room is no longer open; its finished match stays loadable and listed."""
    await store.create_room(room("AAAAAA"))
    await store.create_room(room("BBBBBB"))
    await store.start_match(match("AAAAAA"))
    await store.finish_match("AAAAAA", 1, finished=3000.0, result="abandoned", winner=None)
    await store.close_room("AAAAAA")
    assert [s.room.code for s in await store.open_rooms()] == ["BBBBBB"]
    [done] = await store.finished_matches()
    assert (done.room, done.result, done.winner) == ("AAAAAA", "abandoned", None)
    assert await store.load_match("AAAAAA", 1) is not None


async def test_unknown_match_loads_as_none(store: Store) -> None:
    """load_match of a match that does not exist returns None."""
    assert await store.load_match("ZZZZZZ", 1) is None


async def test_each_action_keeps_the_seq_its_move_named_and_its_key(store: Store) -> None:
    """Stored actions load with their tags: the seq the move named and the move's key."""
    seed = secrets.token_bytes(32)
    log = moves(seed, 3)
    await store.create_room(room())
    await store.start_match(match(seed=seed))
    for index, (seat, action) in enumerate(log):
        await store.append_action("ABCDEF", 1, index, seat, action, seq=index + 1, key=f"k{index}")
    loaded = await store.load_match("ABCDEF", 1)
    assert loaded is not None and loaded.actions == tuple(log)
    assert loaded.tags == ((1, "k0"), (2, "k1"), (3, "k2"))
    [snapshot] = await store.open_rooms()
    assert snapshot.match is not None and snapshot.match.tags == loaded.tags


async def test_appending_the_same_move_twice_stores_it_once(store: Store) -> None:
    """append_action is idempotent: the same entry again returns quietly; any other conflicts."""
    seed = secrets.token_bytes(32)
    log = moves(seed, 2)
    await store.create_room(room())
    await store.start_match(match(seed=seed))
    (seat, action), (seat2, action2) = log
    await store.append_action("ABCDEF", 1, 0, seat, action, seq=1, key="0:7")
    await store.append_action("ABCDEF", 1, 0, seat, action, seq=1, key="0:7")
    with pytest.raises(StoreConflict):
        await store.append_action("ABCDEF", 1, 0, seat, action, seq=1, key="0:8")
    with pytest.raises(StoreConflict):  # the same key for another move is no retry
        await store.append_action("ABCDEF", 1, 0, seat2, action2, seq=1, key="0:7")
    await store.append_action("ABCDEF", 1, 1, seat2, action2, seq=2, key="1:1")
    loaded = await store.load_match("ABCDEF", 1)
    assert loaded is not None and loaded.actions == tuple(log)
    assert loaded.tags == ((1, "0:7"), (2, "1:1"))


async def test_confirm_action_tells_whether_a_move_is_stored(store: Store) -> None:
    """confirm_action: True for the stored key at that index, False for another or none."""
    seed = secrets.token_bytes(32)
    [(seat, action)] = moves(seed, 1)
    await store.create_room(room())
    await store.start_match(match(seed=seed))
    assert await store.confirm_action("ABCDEF", 1, 0, "0:7") is False
    await store.append_action("ABCDEF", 1, 0, seat, action, seq=1, key="0:7")
    assert await store.confirm_action("ABCDEF", 1, 0, "0:7") is True
    assert await store.confirm_action("ABCDEF", 1, 0, "0:8") is False
    assert await store.confirm_action("ABCDEF", 1, 1, "0:7") is False


async def test_a_hand_over_is_kept_once_in_order_with_its_match(store: Store) -> None:
    """record_hand_over keeps who took a seat from whom and from which action; the match loads
    with its hand-overs in order (in history too), the same one twice is kept once, and a match
    that does not exist is an error."""
    from muggins.shared.handover import HandOver

    await store.create_room(room())
    await store.start_match(match())
    for index, entry in enumerate(moves(b"\x01" * 32, 3)):
        await store.append_action("ABCDEF", 1, index, *entry)
    later = HandOver(seat=1, at=3, before="Computer (expert)", after="Cy")
    first = HandOver(seat=1, at=2, before="Bob", after="Computer (expert)")
    for hand_over in (later, first, first):
        await store.record_hand_over("ABCDEF", 1, hand_over)
    loaded = await store.load_match("ABCDEF", 1)
    assert loaded is not None and loaded.hand_overs == (first, later)
    assert loaded.names == ("Alice", "Bob") and loaded.final_names == ("Alice", "Cy")
    [snapshot] = await store.open_rooms()
    assert snapshot.match is not None and snapshot.match.hand_overs == (first, later)
    await store.finish_match("ABCDEF", 1, finished=3000.0, result="won", winner=1)
    [done] = await store.finished_matches()
    assert done.hand_overs == (first, later)
    with pytest.raises(StoreError):
        await store.record_hand_over("ABCDEF", 9, first)
