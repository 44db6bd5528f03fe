"""Where a room meets a cluster: the few points at which a node's copy of a room agrees with the
copies on the other nodes.

A room on one server is given :data:`NO_CLUSTER`, which does nothing. A cluster node gives each
room it holds its own object (``server.cluster.room.RoomCopy``) that catches the room up before a
change, tries a change again when another node won the race, relays notices and chat, claims
timers in Redis, and says whether a player gone from this node is connected to another. The
room's writes that a cluster checks against the other nodes' (seats, a new match, an action) go
through :class:`RoomWrites`: the store itself on one server.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

from muggins.server.store.games import MatchRecord, SeatRecord
from muggins.shared.actions import Action, Seat
from muggins.shared.match import Match
from muggins.shared.protocol import ChatLine

T = TypeVar("T")


class RoomWrites(Protocol):
    """The store writes of a room that a cluster makes compare-and-set."""

    async def save_seats(self, code: str, seats: tuple[SeatRecord, SeatRecord]) -> None: ...

    async def start_match(self, match: MatchRecord) -> None: ...

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
    ) -> None: ...

    async def confirm_action(self, code: str, number: int, index: int, key: str) -> bool: ...


class RoomCluster(Protocol):
    """What a room asks of the cluster it is part of (see the module doc)."""

    async def change(
        self,
        what: str,
        run: Callable[[], Awaitable[T]],
        *,
        seats: bool = False,
        agreement: bool = False,
        cached: bool = False,
    ) -> T:
        """Run the change ``run`` (``what`` names it in a refusal) against the room as the
        cluster has it. ``seats``: the change may write the seats (undone if refused);
        ``agreement``: it may change a restart proposal or rematch wish (saved after it);
        ``cached``: the room's copy may be used as it is (a move: its write is versioned)."""
        ...

    def store_first(self, match: Match, seat: int, action: Action) -> bool:
        """Whether ``action`` is stored before it is applied here rather than after."""
        ...

    async def settling(self, match: Match) -> None:
        """The finished ``match`` is about to be settled: record its finish if nobody did."""
        ...

    def present(self, seat: int, *, here: bool) -> None:
        """``seat``'s player connected to this server (``here``), or left it."""
        ...

    async def addresses(
        self, known: tuple[str | None, str | None]
    ) -> tuple[str | None, str | None]:
        """Each seat's player's address: ``known`` here, completed with what the cluster knows
        of players connected elsewhere (for the rule of one address)."""
        ...

    def relay_notice(self, code: str, text: str) -> None:
        """A notice told here, for the room's people on other servers."""
        ...

    def relay_chat(self, line: ChatLine) -> None:
        """A chat line said here, for the room's people on other servers."""
        ...

    async def take_timer(self, seq: int) -> bool:
        """Whether this server moves for the player whose turn timer ran out at ``seq``."""
        ...

    async def connected(self, seat: int) -> bool:
        """Whether ``seat``'s player is connected to another server (so not gone)."""
        ...


class NoCluster:
    """A room on one server: every point of the seam does nothing."""

    async def change(
        self,
        what: str,
        run: Callable[[], Awaitable[T]],
        *,
        seats: bool = False,
        agreement: bool = False,
        cached: bool = False,
    ) -> T:
        return await run()

    def store_first(self, match: Match, seat: int, action: Action) -> bool:
        return False  # one server: no write is refused, so nothing is ever undone

    async def settling(self, match: Match) -> None:
        return None

    def present(self, seat: int, *, here: bool) -> None:
        return None

    async def addresses(
        self, known: tuple[str | None, str | None]
    ) -> tuple[str | None, str | None]:
        return known  # one server: every player is connected here

    def relay_notice(self, code: str, text: str) -> None:
        return None

    def relay_chat(self, line: ChatLine) -> None:
        return None

    async def take_timer(self, seq: int) -> bool:
        return True

    async def connected(self, seat: int) -> bool:
        return False


NO_CLUSTER: RoomCluster = NoCluster()
"""The seam of every room on one server."""
