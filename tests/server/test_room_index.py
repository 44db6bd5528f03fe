"""The room index: whatever rooms come, fill, empty and close, its pages equal a full sort."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from muggins.server.lobby.room_index import RoomIndex, section_of
from muggins.server.rooms.seating import Table
from muggins.server.store.memory_games import MemoryStore
from muggins.shared.protocol import RoomOptions

CODES = [f"{a}{b}CODE" for a in "ABCDEFGH" for b in "JKLM"]
STEPS = st.lists(
    st.tuples(
        st.sampled_from(CODES),
        st.sampled_from(["open", "private", "quiet", "sit0", "sit1", "bot1", "empty0", "close"]),
    ),
    max_size=60,
)


def naive(rooms: dict[str, Table]) -> list[str]:
    """The listing as a full scan and sort: open seats first, then watchable, each by code."""
    listed = [r for r in rooms.values() if section_of(r) is not None]
    return [r.code for r in sorted(listed, key=lambda r: (section_of(r) == "w", r.code))]


def apply(rooms: dict[str, Table], code: str, step: str) -> Table | None:
    room = rooms.get(code)
    if room is None or room.closed:
        if step not in ("open", "private", "quiet"):
            return None
        options = RoomOptions(private=step == "private", spectators=step != "quiet")
        room = rooms[code] = Table(code, options, store=MemoryStore(), grace=1, make_bot=_no_bot)
    elif step == "close":
        room.closed = True
    elif step.startswith(("sit", "bot", "empty")):
        seat = room.seats[int(step[-1])]
        seat.kind = "human" if step.startswith("sit") else "bot" if step[0] == "b" else "empty"
    return room


def _no_bot(*_: Any) -> Any:
    raise AssertionError("no bot in this test")


@settings(max_examples=150, deadline=None)
@given(steps=STEPS, limit=st.integers(1, 7))
def test_pages_of_the_index_equal_a_full_sort(steps: list[tuple[str, str]], limit: int) -> None:
    """Following next from the first page lists exactly the sorted listable rooms, once each."""
    rooms: dict[str, Table] = {}
    index = RoomIndex(rooms.get)
    for code, step in steps:
        room = apply(rooms, code, step)
        if room is not None:
            index.update(room)
    walked: list[str] = []
    after = None
    while True:
        page = index.page(after, limit)
        assert len(page.rooms) <= limit and page.total == len(naive(rooms))
        walked.extend(r.code for r in page.rooms)
        if page.next is None:
            break
        assert len(page.rooms) == limit
        after = page.next
    assert walked == naive(rooms)
