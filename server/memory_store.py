"""A :class:`~server.store.Store` in memory, for ``muggins serve --memory`` and tests.

Nothing survives the process. Records are immutable, so handing them out shares nothing
that can change behind the caller's back.
"""

from __future__ import annotations

from dataclasses import replace

from server.store import (
    MatchRecord,
    MatchResult,
    RoomRecord,
    RoomSnapshot,
    SeatRecord,
    StoreConflict,
    StoreError,
)
from shared.actions import Action, Seat


class MemoryStore:
    def __init__(self) -> None:
        self.rooms: dict[str, RoomRecord] = {}
        self.closed: set[str] = set()
        self.matches: dict[str, list[MatchRecord]] = {}
        self.actions: dict[tuple[str, int], list[tuple[Seat, Action]]] = {}

    async def open(self) -> None:
        return None

    async def close(self) -> None:
        return None

    async def create_room(self, room: RoomRecord) -> None:
        if room.code in self.rooms:
            raise StoreConflict(f"room {room.code} exists")
        self.rooms[room.code] = room
        self.matches[room.code] = []

    def _room(self, code: str) -> RoomRecord:
        try:
            return self.rooms[code]
        except KeyError:
            raise StoreError(f"no room {code}") from None

    async def save_seats(self, code: str, seats: tuple[SeatRecord, SeatRecord]) -> None:
        self.rooms[code] = replace(self._room(code), seats=seats)

    async def start_match(self, match: MatchRecord) -> None:
        self._room(match.room)
        key = (match.room, match.number)
        if key in self.actions:
            raise StoreConflict(f"match {match.id} exists")
        self.matches[match.room].append(replace(match, actions=()))
        self.actions[key] = []

    async def append_action(
        self, code: str, number: int, index: int, seat: Seat, action: Action
    ) -> None:
        log = self.actions.get((code, number))
        if log is None:
            raise StoreError(f"no match {code}-{number}")
        if index != len(log):
            raise StoreConflict(f"action {index} of {code}-{number}: the log has {len(log)}")
        log.append((seat, action))

    async def finish_match(
        self, code: str, number: int, *, finished: float, result: MatchResult, winner: Seat | None
    ) -> None:
        matches = self.matches[code]
        for i, match in enumerate(matches):
            if match.number == number:
                matches[i] = replace(match, finished=finished, result=result, winner=winner)
                return
        raise StoreError(f"no match {code}-{number}")

    async def close_room(self, code: str) -> None:
        self._room(code)
        self.closed.add(code)

    def _with_actions(self, match: MatchRecord) -> MatchRecord:
        return replace(match, actions=tuple(self.actions[(match.room, match.number)]))

    async def open_rooms(self) -> list[RoomSnapshot]:
        snapshots = []
        for code, room in self.rooms.items():
            if code in self.closed:
                continue
            matches = self.matches[code]
            current = matches[-1] if matches else None
            earlier = sum(len(self.actions[(code, m.number)]) for m in matches[:-1])
            snapshots.append(
                RoomSnapshot(
                    room=room,
                    match=self._with_actions(current) if current else None,
                    previous_actions=earlier,
                )
            )
        return snapshots

    async def finished_matches(self, *, limit: int = 50) -> list[MatchRecord]:
        done = [m for ms in self.matches.values() for m in ms if m.finished is not None]
        done.sort(key=lambda m: m.finished or 0.0, reverse=True)
        return done[:limit]

    async def load_match(self, code: str, number: int) -> MatchRecord | None:
        for match in self.matches.get(code, []):
            if match.number == number:
                return self._with_actions(match)
        return None
