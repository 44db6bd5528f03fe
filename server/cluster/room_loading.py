"""A cluster node's rooms as caches: a room, a resume token or the room list is read from Redis
when a message needs it, so any node can serve any room or player.

A room is watched before it is read (so no change made after the reading goes unheard) and
rebuilt from its log; a wake-up heard while it loads makes it catch up once its copy is in place.
"""

from __future__ import annotations

import asyncio
from typing import Protocol

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.duplicate import ClusterDuplicates
from muggins.server.cluster.room import copy_of
from muggins.server.cluster.tournaments import ClusterTournaments
from muggins.server.lobby.lobby import Lobby
from muggins.server.rooms.players import Player, Refusal
from muggins.server.rooms.room import Room
from muggins.server.rooms.tokens import normalise_code, token_player
from muggins.server.store.games import SeatRecord, StoreError
from muggins.shared.match import Match
from muggins.shared.protocol import (
    ClientMessage,
    Hello,
    JoinRoom,
    Rooms,
    RoomSummary,
    Spectate,
)


class Node(Protocol):
    """What this module needs of its cluster node (server.cluster.lobby.ClusterNode)."""

    lobby: Lobby
    redis: ClusterStore
    duplicates: ClusterDuplicates
    tournaments: ClusterTournaments

    def wake(self, code: str) -> None:
        """Catch room ``code`` up with Redis."""


class RoomLoader:
    """Loads a node's rooms from Redis on demand (see the module doc)."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self._loading: dict[str, asyncio.Lock] = {}
        self._heard_loading: set[str] = set()
        """Rooms woken while being loaded here (before their copy could hear it)."""

    def ghost(self, saved: SeatRecord) -> Player[Room]:
        """The Player for a seat record: the local one if connected here, else a stand-in."""
        assert saved.player is not None
        player = self.node.lobby.players.get(saved.player)
        if player is None:
            player = Player(
                id=saved.player,
                name=saved.name or "Player",
                token_hash=saved.token_hash or "",
                account=saved.account,
            )
            self.node.lobby.players[player.id] = player
        return player

    async def load(self, code: str) -> Room | None:
        """The room ``code``, caught up with Redis (loaded and rebuilt from its log if new here)."""
        node = self.node
        code = normalise_code(code)
        lock = self._loading.setdefault(code, asyncio.Lock())
        async with lock:
            room = node.lobby.rooms.get(code)
            copy = copy_of(room) if room is not None else None
            if room is not None and copy is not None and not room.closed:
                await copy.sync()
                return room
            # Watched before it is read, so no change made after the reading goes unheard:
            # a wake-up that comes before the copy is in place is caught up once it is.
            self._heard_loading.discard(code)
            await node.redis.watch([code])
            snapshot = await node.redis.load_room(code)
            if snapshot is None:
                return None
            record = snapshot.room
            fresh = node.lobby.make_room(code, record.options, created=record.created)
            copy = copy_of(fresh)
            assert copy is not None
            if record.options.duplicate:
                await node.duplicates.loaded(fresh)  # a second table pins its seed first
            if record.options.private:
                await node.tournaments.loaded(fresh)  # so does a Swiss table on duplicate deals
            copy.take_seats(record.seats)
            match = snapshot.match
            if match is not None:
                rebuilt = Match.replay(match.options, match.seed, match.actions, keep_events=False)
                fresh.restore(
                    rebuilt, match.number, snapshot.previous_actions, match.tags, match.final_names
                )
                for index in (0, 1):
                    copy.tell_whole(index)  # a player here seated through another node
            node.lobby.rooms[code] = fresh
            node.lobby.metrics.rooms.set(len(node.lobby.rooms))
            if code in self._heard_loading:
                self._heard_loading.discard(code)
                node.wake(code)
            fresh.kick_bots()
            if fresh.match is not None and fresh.match.over:
                await fresh.settle()  # once per match: the node that finished it may have died
            return fresh

    def heard(self, code: str) -> None:
        """A wake-up for room ``code``, which has no copy here: caught up once it is in place
        if it is being loaded now."""
        loading = self._loading.get(code)
        if loading is not None and loading.locked():
            self._heard_loading.add(code)  # its copy catches up once it is in place

    def forget(self, code: str) -> None:
        """Room ``code`` is no longer cached here."""
        self._loading.pop(code, None)

    async def prepare(self, message: ClientMessage) -> None:
        """Fetch from Redis what handling ``message`` will look up: its room, player or list."""
        try:
            if isinstance(message, Hello) and message.token:
                player = token_player(message.token)
                code = await self.node.redis.player_room(player) if player else None
                if code is not None:
                    await self.load(code)
            elif isinstance(message, JoinRoom | Spectate):
                await self.load(message.code)
        except StoreError as error:
            raise Refusal(
                "storage", "The game store is unreachable for a moment; try again"
            ) from error

    async def listing(self, after: str | None = None, limit: int = 50) -> Rooms:
        """A page of every node's public rooms, read from the listing index in Redis (three
        commands, whatever the number of rooms); spectators are those watching on this node."""
        try:
            page = await self.node.redis.listing_page(after, limit)
        except StoreError as error:
            raise Refusal(
                "storage", "The game store is unreachable for a moment; try again"
            ) from error
        rooms = []
        for listed in page.rooms:
            local = self.node.lobby.rooms.get(listed.code)
            rooms.append(
                RoomSummary(
                    code=listed.code,
                    names=listed.names,
                    options=listed.options,
                    status=listed.status,
                    open_seat=listed.open_seat,
                    spectators=len(local.spectators) if local is not None else 0,
                )
            )
        return Rooms(rooms=tuple(rooms), next=page.next, total=page.total)

    async def catch_up(self, room: Room) -> bool:
        """Catch ``room`` up before the lobby releases it: a seat taken through another node
        meanwhile keeps the room open. False when Redis cannot be read now."""
        copy = copy_of(room)
        if copy is not None:
            try:
                await copy.sync()
            except StoreError:
                return False
        return True
