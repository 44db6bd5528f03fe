"""Where rooms and their action logs are kept: the interface, and its plain records.

Room logic talks to storage only through :class:`Store`. Implementations: SQLite for one node
(:mod:`server.store.sqlite_games`), memory for ``--memory`` and tests
(:mod:`server.store.memory_games`);
a Redis one can slot in for a cluster. Every method is a coroutine and must not block the
event loop. The action log is the truth: a match is ``Match.replay(options, seed, actions)``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Literal, Protocol

from muggins.server.store.accounts import AccountStore
from muggins.server.store.moderation import ModerationStore
from muggins.shared.actions import Action, GameOptions, Seat
from muggins.shared.handover import HandOver, holders
from muggins.shared.protocol import RoomOptions

SeatKind = Literal["empty", "human", "bot"]
MoveTag = tuple[int | None, str | None]
"""Of a stored action: the seq the move named and its key (None for actions stored before)."""
MatchResult = Literal["won", "restarted", "abandoned"]


class StoreError(Exception):
    """Storage failed. For :meth:`Store.append_action` the write may still have run (a timeout):
    :meth:`Store.confirm_action` finds out."""


class StoreConflict(StoreError):
    """The write lost a race: the room or the action index already exists."""

    def __init__(self, message: str, *, length: int | None = None) -> None:
        super().__init__(message)
        self.length = length
        """For an append: how many actions the stored log holds (the index it was at)."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    seat: Seat
    kind: SeatKind = "empty"
    name: str | None = None
    player: str | None = None
    token_hash: str | None = None
    level: str | None = None
    account: str | None = None
    """The signed-in account of a person (see :mod:`server.store.accounts`)."""


@dataclass(frozen=True, slots=True)
class RoomRecord:
    code: str
    options: RoomOptions
    created: float
    seats: tuple[SeatRecord, SeatRecord]


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """One match of a room: the seed (secret while it runs) and every accepted action."""

    room: str
    number: int
    seed: bytes
    options: GameOptions
    names: tuple[str, str]
    started: float
    actions: tuple[tuple[Seat, Action], ...] = ()
    tags: tuple[MoveTag, ...] = ()
    """Per action (when loaded with them): the seq its move named and the move's key."""
    finished: float | None = None
    result: MatchResult | None = None
    winner: Seat | None = None
    hand_overs: tuple[HandOver, ...] = ()
    """Each time a seat changed hands during the match (the computer taking over), in order."""

    @property
    def id(self) -> str:
        return match_id(self.room, self.number)

    @property
    def final_names(self) -> tuple[str, str]:
        """Who held each seat at the end: ``names`` with the hand-overs applied."""
        return holders(self.names, self.hand_overs)


@dataclass(frozen=True, slots=True)
class RoomSnapshot:
    """An open room as stored: enough to rebuild it after a restart."""

    room: RoomRecord
    match: MatchRecord | None
    previous_actions: int
    """Actions in the room's earlier matches (so ``seq`` keeps rising)."""


def move_key(seat: int, id: int | str | None) -> str | None:
    """The key of a player's move: their seat and the message ``id`` (None without an id).

    A move sent again with the same key and ``seq`` is a retry, answered and never re-applied.
    The server's own moves use keys ``timer:…`` and ``computer:…``, one per move.
    """
    if id is None:
        return None
    return f"{seat}:{id}" if type(id) is int else f"{seat}:{json.dumps(id)}"  # int: the same text


def match_id(room: str, number: int) -> str:
    return f"{room}-{number}"


def parse_match_id(text: str) -> tuple[str, int]:
    code, _, number = text.strip().upper().rpartition("-")
    if not code or not number.isdigit():
        raise ValueError(f"{text!r} is not a game id; ids look like ABCDEF-1")
    return code, int(number)


class Store(AccountStore, ModerationStore, Protocol):
    """Durable rooms, action logs and accounts. Writes complete before the call returns."""

    async def open(self) -> None: ...

    async def close(self) -> None: ...

    async def create_room(self, room: RoomRecord) -> None:
        """Raise :class:`StoreConflict` if the code is taken (by an open or closed room)."""

    async def save_seats(self, code: str, seats: tuple[SeatRecord, SeatRecord]) -> None: ...

    async def start_match(self, match: MatchRecord) -> None:
        """Store a new match (its actions must be empty)."""

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
        """Append action ``index`` (0-based) of a match, tagged with the ``seq`` its move named
        and the move's ``key``; :class:`StoreConflict` if not next.

        Idempotent: if action ``index`` is already stored with this ``key`` (not None) and the
        same seat, action and seq, it returns as if it had stored it, so a write sent twice (a
        retry) stores it once. The same key with another action is a conflict.
        """

    async def confirm_action(self, code: str, number: int, index: int, key: str) -> bool:
        """After a failed :meth:`append_action`: whether action ``index`` is stored with ``key``.

        False is final: the action is not stored, and the failed call can no longer store it
        (a write still on its way is voided). Raises :class:`StoreError` if it cannot tell.
        """

    async def finish_match(
        self, code: str, number: int, *, finished: float, result: MatchResult, winner: Seat | None
    ) -> None: ...

    async def record_hand_over(self, code: str, number: int, hand_over: HandOver) -> None:
        """Keep that a seat of match ``number`` changed hands (see :mod:`shared.handover`);
        loaded matches carry their hand-overs in order. Idempotent: the same seat and ``at``
        again is kept once."""

    async def close_room(self, code: str) -> None:
        """The room is gone for good; its finished matches stay for history."""

    async def open_rooms(self) -> list[RoomSnapshot]: ...

    async def finished_matches(self, *, limit: int = 50) -> list[MatchRecord]:
        """Newest first, without their actions."""

    async def load_match(self, code: str, number: int) -> MatchRecord | None: ...
