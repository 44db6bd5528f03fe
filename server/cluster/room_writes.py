"""A room's writes to Redis from one node: versioned (compare-and-set) writes, and changes tried
again after a catch-up when they lose a race to another node.

A move is a versioned write made straight from the cache while the cache is current (one round
trip to Redis): if another node got there first the write is refused, the node catches up and
tries the move again against the new state, so a move that has become illegal gets the ordinary
clean error. Other changes catch up first.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from muggins.server.cluster import room_agreement
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.room_agreement import save_agreement
from muggins.server.rooms.players import Refusal
from muggins.server.store.games import MatchRecord, SeatRecord, StoreConflict, StoreError
from muggins.shared.actions import Action, Seat

T = TypeVar("T")

log = logging.getLogger("muggins.cluster")

RETRIES = 3
"""Versioned writes lost to another node before the move is refused."""


class Copy(room_agreement.Copy, Protocol):
    """What this module needs of a room's copy (server.cluster.room.RoomCopy)."""

    stored_seats: tuple[SeatRecord, SeatRecord]
    """The seats as last read from or written to Redis (a seat write's expected value)."""
    ahead: bool
    """Whether Redis answered a write with a log shorter than this cache's (lost writes)."""
    stale: bool
    """Whether the cache may have missed a change."""

    async def sync(self) -> None:
        """Catch up with Redis."""

    def restore_seats(self) -> None:
        """Undo local seat changes a refused write made."""


class GuardedStore:
    """A room's writes to the Redis store: seat writes are compare-and-set, conflicts are noted."""

    def __init__(self, copy: Copy, store: ClusterStore) -> None:
        self.copy = copy
        self.store = store

    async def save_seats(self, code: str, seats: tuple[SeatRecord, SeatRecord]) -> None:
        try:
            await self.store.save_seats(code, seats, expected=self.copy.stored_seats)
        except StoreConflict:
            self.copy.conflicted = True
            raise
        self.copy.stored_seats = seats

    async def start_match(self, match: MatchRecord) -> None:
        try:
            await self.store.start_match(match)
        except StoreConflict:
            self.copy.conflicted = True
            raise

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
        try:
            await self.store.append_action(code, number, index, seat, action, seq=seq, key=key)
        except StoreConflict as conflict:
            self.copy.conflicted = True
            if conflict.length is not None and conflict.length < index:
                # Redis holds fewer actions than this node has applied: it lost some.
                self.copy.ahead = True
            raise

    async def confirm_action(self, code: str, number: int, index: int, key: str) -> bool:
        return await self.store.confirm_action(code, number, index, key)


async def versioned_change(
    copy: Copy,
    what: str,
    run: Callable[[], Awaitable[T]],
    *,
    seats: bool = False,
    agreement: bool = False,
    cached: bool = False,
) -> T:
    """Run ``run`` after catching up ``copy``; on a lost race catch up and run it again.

    ``cached``: the first try skips the catch-up if the cache is current (a move: the
    write itself is refused if the log or the match moved on, and then it catches up).
    ``seats``: a refused change's local seat changes are undone. ``agreement``: the room's
    restart proposal and rematch wishes are saved after the change (compare-and-set).
    """
    for attempt in range(RETRIES):
        if not (cached and attempt == 0 and not copy.stale):
            try:
                await copy.sync()
            except StoreError as error:
                raise Refusal(
                    "storage", f"The game store is unreachable; {what} was not saved"
                ) from error
        copy.conflicted = False
        try:
            try:
                result = await run()
            except Refusal:
                if seats:
                    copy.restore_seats()
                raise
            if agreement:
                await save_agreement(copy)
            return result
        except Refusal as refusal:
            if not copy.conflicted:
                if refusal.code in ("storage", "unconfirmed"):
                    copy.stale = True
                raise
            log.info("room %s: lost a race for %s; catching up", copy.room.code, what)
        except BaseException:
            copy.stale = True
            raise
    raise Refusal("storage", f"The room kept changing; {what} was not saved, try again")
