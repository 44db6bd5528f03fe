"""The in-memory store keeps a bounded history, so a long-running --memory server stays bounded."""

from __future__ import annotations

from test_store_contract import match, moves, room

from muggins.server.store.memory_games import MemoryStore


async def play(store: MemoryStore, code: str, number: int, actions: int, finished: float) -> None:
    await store.start_match(match(code, number))
    for index, entry in enumerate(moves(b"\x01" * 32, actions)):
        await store.append_action(code, number, index, *entry)
    await store.finish_match(code, number, finished=finished, result="won", winner=0)


async def test_only_the_latest_finished_matches_are_kept() -> None:
    """Past keep_finished, the oldest finished matches go: history and their actions."""
    store = MemoryStore(keep_finished=3)
    for n, code in enumerate(("AAAAAA", "BBBBBB", "CCCCCC", "DDDDDD", "EEEEEE")):
        await store.create_room(room(code))
        await play(store, code, 1, 2, finished=3000.0 + n)
        await store.close_room(code)
    history = await store.finished_matches(limit=50)
    assert [m.room for m in history] == ["EEEEEE", "DDDDDD", "CCCCCC"]
    assert await store.load_match("AAAAAA", 1) is None
    assert len(store.actions) == 3
    # Closed rooms with nothing left are forgotten entirely.
    assert sorted(store.rooms) == ["CCCCCC", "DDDDDD", "EEEEEE"]


async def test_an_open_room_keeps_its_current_match_and_its_action_count() -> None:
    """An open room's current match outlives the limit; forgotten ones still count in seq."""
    store = MemoryStore(keep_finished=2)
    await store.create_room(room("ROOMAA"))
    for number in range(1, 6):  # five finished matches of 3 actions in one open room
        await play(store, "ROOMAA", number, 3, finished=3000.0 + number)
    [snapshot] = await store.open_rooms()
    assert snapshot.match is not None and snapshot.match.number == 5
    assert len(snapshot.match.actions) == 3
    assert snapshot.previous_actions == 12  # matches 1-4, forgotten or not
    await store.create_room(room("OTHERS"))
    for number in range(1, 4):  # others finish: room ROOMAA's match 5 stays, being current
        await play(store, "OTHERS", number, 1, finished=4000.0 + number)
    assert await store.load_match("ROOMAA", 5) is not None
    await play(store, "ROOMAA", 6, 2, finished=5000.0)  # now match 5 is old, and goes
    assert await store.load_match("ROOMAA", 5) is None
    [mine, _] = await store.open_rooms()
    assert mine.match is not None and mine.match.number == 6
    assert mine.previous_actions == 15
    assert len(store.actions) <= 2 + 2  # the limit, plus each open room's current match
