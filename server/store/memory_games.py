"""A :class:`~server.store.games.Store` in memory, for ``muggins serve --memory`` and tests.

Nothing survives the process. Records are immutable, so handing them out shares nothing
that can change behind the caller's back. So that a server left running for weeks does not
grow without end, only the latest ``keep_finished`` finished matches are kept as history (each
open room keeps its current match whatever its age), and a closed room is forgotten with its
last match.
"""

from __future__ import annotations

from collections import deque
from dataclasses import replace

from muggins.server.store.games import (
    MatchRecord,
    MatchResult,
    MoveTag,
    RoomRecord,
    RoomSnapshot,
    SeatRecord,
    StoreConflict,
    StoreError,
)
from muggins.server.store.memory_accounts import MemoryAccounts
from muggins.server.store.memory_moderation import MemoryModeration
from muggins.shared.actions import Action, Seat
from muggins.shared.handover import HandOver


class MemoryStore(MemoryAccounts, MemoryModeration):
    def __init__(self, *, keep_finished: int = 10_000) -> None:
        MemoryAccounts.__init__(self)
        MemoryModeration.__init__(self)
        self.rooms: dict[str, RoomRecord] = {}
        self.closed: set[str] = set()
        self.matches: dict[str, list[MatchRecord]] = {}
        self.actions: dict[tuple[str, int], list[tuple[Seat, Action]]] = {}
        self.tags: dict[tuple[str, int], list[MoveTag]] = {}
        self.keep_finished = keep_finished
        self._finished: deque[tuple[str, int]] = deque()
        """Finished matches still kept, oldest first."""
        self._held: set[tuple[str, int]] = set()
        """Finished matches past the limit that stay while they are an open room's current one."""
        self._forgotten_actions: dict[str, int] = {}
        """Per room, the actions of its forgotten matches (they still count in ``seq``)."""

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
        matches = self.matches[match.room]
        previous = (match.room, matches[-1].number) if matches else None
        matches.append(replace(match, actions=()))
        self.actions[key] = []
        self.tags[key] = []
        if previous in self._held:  # no longer the room's current match: it may go now
            self._held.discard(previous)
            self._forget(*previous)

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
    ) -> None:
        log = self.actions.get((code, number))
        if log is None:
            raise StoreError(f"no match {code}-{number}")
        tags = self.tags[(code, number)]
        same = index < len(tags) and tags[index] == (seq, key) and log[index] == (seat, action)
        if key is not None and same:
            return  # the same move again: stored once
        if index != len(log):
            raise StoreConflict(
                f"action {index} of {code}-{number}: the log has {len(log)}", length=len(log)
            )
        log.append((seat, action))
        tags.append((seq, key))

    async def confirm_action(self, code: str, number: int, index: int, key: str) -> bool:
        tags = self.tags.get((code, number), [])
        return index < len(tags) and tags[index][1] == key

    async def finish_match(
        self, code: str, number: int, *, finished: float, result: MatchResult, winner: Seat | None
    ) -> None:
        matches = self.matches[code]
        for i, match in enumerate(matches):
            if match.number == number:
                if match.finished is None:
                    self._finished.append((code, number))
                matches[i] = replace(match, finished=finished, result=result, winner=winner)
                self._trim()
                return
        raise StoreError(f"no match {code}-{number}")

    async def record_hand_over(self, code: str, number: int, hand_over: HandOver) -> None:
        matches = self.matches.get(code, [])
        for i, match in enumerate(matches):
            if match.number == number:
                if all((h.seat, h.at) != (hand_over.seat, hand_over.at) for h in match.hand_overs):
                    kept = sorted((*match.hand_overs, hand_over), key=lambda h: (h.at, h.seat))
                    matches[i] = replace(match, hand_overs=tuple(kept))
                return
        raise StoreError(f"no match {code}-{number}")

    def _trim(self) -> None:
        while len(self._finished) > self.keep_finished:
            code, number = self._finished.popleft()
            matches = self.matches[code]
            if code not in self.closed and matches[-1].number == number:
                self._held.add((code, number))  # the open room's current match stays for now
            else:
                self._forget(code, number)

    def _forget(self, code: str, number: int) -> None:
        matches = self.matches[code]
        self.matches[code] = [m for m in matches if m.number != number]
        gone = len(self.actions.pop((code, number)))
        self.tags.pop((code, number), None)
        self._forgotten_actions[code] = self._forgotten_actions.get(code, 0) + gone
        self._drop_if_done(code)

    def _drop_if_done(self, code: str) -> None:
        """Forget a closed room entirely once none of its matches is kept."""
        if code in self.closed and not self.matches[code]:
            del self.rooms[code], self.matches[code]
            self.closed.discard(code)
            self._forgotten_actions.pop(code, None)

    async def close_room(self, code: str) -> None:
        self._room(code)
        self.closed.add(code)
        held = [key for key in self._held if key[0] == code]
        for key in held:
            self._held.discard(key)
            self._forget(*key)
        self._drop_if_done(code)

    def _with_actions(self, match: MatchRecord) -> MatchRecord:
        key = (match.room, match.number)
        return replace(match, actions=tuple(self.actions[key]), tags=tuple(self.tags[key]))

    async def open_rooms(self) -> list[RoomSnapshot]:
        snapshots = []
        for code, room in self.rooms.items():
            if code in self.closed:
                continue
            matches = self.matches[code]
            current = matches[-1] if matches else None
            earlier = self._forgotten_actions.get(code, 0)
            earlier += sum(len(self.actions[(code, m.number)]) for m in matches[:-1])
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
