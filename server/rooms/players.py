"""Who is at the table: players, seats, the send interface and refusals.

A room talks to whoever sits in a seat through a :class:`Peer`: anything with a non-blocking
``send(message)``. A WebSocket connection is one; the computer player is another. So the room
logic runs and is tested without sockets.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Generic, Protocol

from typing_extensions import TypeVar

from muggins.server.store.games import SeatKind, SeatRecord
from muggins.shared.protocol import ErrorCode, ServerMessage
from muggins.shared.token_bucket import TokenBucket

R = TypeVar("R", default=Any)
"""The room type a player sits in (server.rooms.room.Room): a parameter, so this module needs
no room."""


class Peer(Protocol):
    def send(self, message: ServerMessage) -> None:
        """Queue one message for this receiver. Never blocks, never raises."""


class Refusal(Exception):
    """A request the server turns down; it becomes an ``error`` message, and nothing changed."""

    def __init__(self, code: ErrorCode, message: str, *, seq: int | None = None) -> None:
        super().__init__(message)
        self.code: ErrorCode = code
        self.message = message
        self.seq = seq
        """For ``stale``: the seq the room is at now."""


@dataclass(eq=False)
class Player(Generic[R]):
    """A person known to the server. The token's hash is all the server keeps of the token.

    ``Player[Room]`` where the room's methods are called; the rooms only ever seat players in
    themselves, so ``room`` is always the room whose seat holds this player.
    """

    id: str
    name: str
    token_hash: str
    peer: Peer | None = None
    room: R | None = None
    """The room where this player holds a seat."""
    gone_since: float | None = None
    """When the last connection closed (monotonic); a roomless player is forgotten later."""
    rooms_made: TokenBucket | None = None
    """How many more rooms this player may create now (see ServerConfig.rooms_per_minute)."""
    account: str | None = None
    """The account this player is signed in to (None: a guest)."""
    session_hash: str | None = None
    """The hash of this player's session token, to end it on sign-out."""
    hidden: set[str] = field(default_factory=set)
    """Accounts whose chat this player hides (``block`` with ``hide_chat``)."""
    reads: TokenBucket | None = None
    """How many more expensive reads this player may ask for now (server.accounts.budget)."""
    address: str | None = None
    """The client address of this player's latest connection (for the rated-result rule)."""


@dataclass(eq=False)
class SeatState:
    index: int
    kind: SeatKind = "empty"
    player: Player | None = None
    level: str | None = None
    bot: Peer | None = None
    gone_since: float | None = None
    """When a seated person disconnected or left (monotonic clock); None while present."""
    table: object = None
    """The room this seat is in: its person hears from it only while that is their room."""
    account: str | None = None
    """The seated person's account, kept for the match even if they sign out meanwhile."""

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
        if self.kind == "human" and self.player is not None and self.player.room is self.table:
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
            account=self.account if player else None,
        )
