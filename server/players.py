"""Who is at the table: players, seats, the send interface and refusals.

A room talks to whoever sits in a seat through a :class:`Peer`: anything with a non-blocking
``send(message)``. A WebSocket connection is one; the computer player is another. So the room
logic runs and is tested without sockets.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from server.store import SeatKind, SeatRecord
from shared.protocol import ErrorCode, ServerMessage, encode

if TYPE_CHECKING:
    from server.room import Room


class Peer(Protocol):
    def send(self, message: ServerMessage) -> None:
        """Queue one message for this receiver. Never blocks, never raises."""


_shared: dict[int, tuple[ServerMessage, str]] = {}


@contextmanager
def encoded_once(messages: Iterable[ServerMessage]) -> Iterator[None]:
    """While sending one message to many receivers, encode it once (see :func:`encoded`)."""
    kept = [(message, encode(message)) for message in messages]
    for message, text in kept:
        _shared[id(message)] = (message, text)
    try:
        yield
    finally:
        for message, _ in kept:
            _shared.pop(id(message), None)


def encoded(message: ServerMessage) -> str:
    """The JSON text of a message, reused if it is being sent to many receivers right now."""
    hit = _shared.get(id(message))
    if hit is not None and hit[0] is message:
        return hit[1]
    return encode(message)


class Refusal(Exception):
    """A request the server turns down; it becomes an ``error`` message, and nothing changed."""

    def __init__(self, code: ErrorCode, message: str) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message


@dataclass(eq=False)
class Player:
    """A person known to the server. The token's hash is all the server keeps of the token."""

    id: str
    name: str
    token_hash: str
    peer: Peer | None = None
    room: Room | None = None
    """The room where this player holds a seat."""
    gone_since: float | None = None
    """When the last connection closed (monotonic); a roomless player is forgotten later."""


@dataclass(eq=False)
class SeatState:
    index: int
    kind: SeatKind = "empty"
    player: Player | None = None
    level: str | None = None
    bot: Peer | None = None
    gone_since: float | None = None
    """When a seated person disconnected or left (monotonic clock); None while present."""

    @property
    def name(self) -> str | None:
        if self.kind == "human" and self.player is not None:
            return self.player.name
        if self.kind == "bot":
            return f"Computer ({self.level})"
        return None

    @property
    def peer(self) -> Peer | None:
        if self.kind == "bot":
            return self.bot
        if self.kind == "human" and self.player is not None and self.player.room is not None:
            return self.player.peer
        return None

    def record(self) -> SeatRecord:
        player = self.player if self.kind == "human" else None
        return SeatRecord(
            seat=self.index,
            kind=self.kind,
            name=self.name,
            player=player.id if player else None,
            token_hash=player.token_hash if player else None,
            level=self.level,
        )
