"""Where the lobby meets a cluster: the points at which a cluster node's lobby differs.

A lobby on one server has :class:`NoLobbyCluster`: it rebuilds every open room at start-up,
lists and sweeps its own rooms, and its rooms do nothing at their cluster seam (see
:mod:`server.rooms.cluster_seam`). A cluster node (``server.cluster.lobby.ClusterNode``) loads
rooms from Redis when a message names them, gives each room its copy's seam, lists and sweeps
every node's rooms through Redis, and runs its heartbeat and wake-ups in the background.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

from muggins.server.rooms.computer import BotPeer
from muggins.server.rooms.players import Peer
from muggins.server.rooms.room import Room
from muggins.shared.protocol import ClientMessage, Rooms


class LobbyCluster(Protocol):
    """What the lobby asks of the cluster it is part of (see the module doc)."""

    links_tables: bool
    """Whether the cluster links a duplicate match's two tables (server.cluster.duplicate);
    False: the lobby does (server.lobby.duplicate)."""

    @property
    def prepare(self) -> Callable[[ClientMessage], Awaitable[None]] | None:
        """What fetches, before a message is handled, what handling it will look up (a room, a
        player); None when everything is here already (one server: nothing is awaited)."""
        ...

    def room_made(self, room: Room) -> None:
        """A room was made here (new, or loaded): give it its cluster seam."""
        ...

    def make_bot(self, room: Room, seat: int, level: str, *, delay: float) -> Peer:
        """The computer's peer for ``seat`` of ``room``."""
        ...

    async def load(self, code: str) -> Room | None:
        """The room ``code`` from the cluster, when it is not held here (None: there is none)."""
        ...

    async def route(self, code: str) -> str | None:
        """The address a connection naming room ``code`` is sent on to (the node that owns the
        room); None: this server serves it."""
        ...

    async def start(self) -> bool:
        """Start the cluster's background work. True when rooms load on demand (the lobby then
        rebuilds nothing at start-up)."""
        ...

    async def listing(self, after: str | None, limit: int) -> Rooms | None:
        """A page of the whole cluster's public rooms; None when the lobby's own index has them."""
        ...

    async def catch_up(self, room: Room) -> bool:
        """Bring ``room`` up to date before it is released; False when it cannot be now."""
        ...

    async def sweep(self) -> bool:
        """The cluster's clean-up; True when it replaces the lobby's own."""
        ...

    async def stop(self) -> None:
        """Stop the cluster's background work."""

    async def tell_nodes(self, message: dict[str, str]) -> None:
        """Send ``message`` to every other node (a moderator's ban or mute, so it takes effect
        for the players connected there); nothing on one server."""
        ...

    async def first_this_round(self, work: str, every: float) -> bool:
        """Whether this node does ``work`` in this round of ``every`` seconds (one node of a
        cluster does; StoreError when the claim cannot be asked)."""
        ...


class NoLobbyCluster:
    """A lobby on one server: nothing is fetched, nothing runs in the background."""

    prepare: Callable[[ClientMessage], Awaitable[None]] | None = None
    links_tables = False

    def room_made(self, room: Room) -> None:
        return None

    def make_bot(self, room: Room, seat: int, level: str, *, delay: float) -> Peer:
        return BotPeer(room, seat, level, delay=delay)

    async def load(self, code: str) -> Room | None:
        return None  # one server holds every room it has

    async def route(self, code: str) -> str | None:
        return None

    async def start(self) -> bool:
        return False

    async def listing(self, after: str | None, limit: int) -> Rooms | None:
        return None

    async def catch_up(self, room: Room) -> bool:
        return True

    async def sweep(self) -> bool:
        return False

    async def stop(self) -> None:
        return None

    async def tell_nodes(self, message: dict[str, str]) -> None:
        return None

    async def first_this_round(self, work: str, every: float) -> bool:
        return True
