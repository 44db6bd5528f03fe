"""The lobby: players, rooms by code, the public room list, start-up rebuild and clean-up."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from server.bot import BotPeer
from server.config import ServerConfig
from server.identity import (
    clean_name,
    new_player_id,
    new_room_code,
    new_token,
    normalise_code,
    token_matches,
    token_player,
)
from server.metrics import Metrics
from server.players import Peer, Player, Refusal
from server.room import Room
from server.store import Store, StoreConflict, StoreError
from shared.bots import LEVELS
from shared.match import Match
from shared.protocol import ClientMessage, RoomOptions, Rooms, RoomSummary

log = logging.getLogger("muggins.lobby")


def strongest_level() -> str:
    """The default computer: the last (strongest) level registered."""
    return list(LEVELS)[-1]


class Lobby:
    def __init__(
        self,
        store: Store,
        config: ServerConfig,
        metrics: Metrics,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.store = store
        self.config = config
        self.metrics = metrics
        self.clock = clock
        self.players: dict[str, Player] = {}
        self.rooms: dict[str, Room] = {}

    # --- players -------------------------------------------------------------------------------

    def new_player(self, name: str) -> tuple[Player, str]:
        player_id = new_player_id()
        token, token_hash = new_token(player_id)
        player = Player(id=player_id, name=clean_name(name), token_hash=token_hash)
        self.players[player_id] = player
        return player, token

    def resume(self, token: str) -> Player:
        """The player a token belongs to, or a refusal. The secret is compared in constant time."""
        player_id = token_player(token)
        player = self.players.get(player_id) if player_id else None
        if player is None or not token_matches(token, player.token_hash):
            raise Refusal("bad_token", "That resume token is not valid here; say hello without it")
        return player

    # --- rooms ---------------------------------------------------------------------------------

    def _make_bot(self, room: Room, seat: int, level: str) -> Peer:
        return BotPeer(room, seat, level, delay=self.config.bot_delay)

    def _room(self, code: str, options: RoomOptions, *, created: float | None = None) -> Room:
        return Room(
            code,
            options,
            store=self.store,
            grace=self.config.grace,
            make_bot=self._make_bot,
            created=created,
            clock=self.clock,
            on_action=self.metrics.action_latency.observe,
        )

    async def create_room(self, options: RoomOptions) -> Room:
        if len(self.rooms) >= self.config.max_rooms:
            raise Refusal("server_full", "The server has as many rooms as it can hold; try later")
        for _ in range(20):
            room = self._room(new_room_code(), options)
            if room.code in self.rooms:
                continue
            try:
                await self.store.create_room(room.record())
            except StoreConflict:
                continue
            except StoreError as error:
                raise Refusal("storage", "The server could not create the room") from error
            self.rooms[room.code] = room
            self.metrics.rooms.set(len(self.rooms))
            log.info("room created", extra={"room": room.code, "private": options.private})
            return room
        raise Refusal("internal", "No free room code was found; try again")

    async def prepare(self, message: ClientMessage) -> None:
        """Called before each message is handled. A cluster node fetches from Redis here."""
        return None

    def find(self, code: str) -> Room:
        room = self.rooms.get(normalise_code(code))
        if room is None or room.closed:
            raise Refusal("no_room", f"There is no room {normalise_code(code)}")
        return room

    def listing(self) -> Rooms:
        rooms = []
        for room in self.rooms.values():
            if room.options.private or room.closed:
                continue
            open_seat = any(s.kind == "empty" for s in room.seats)
            if not open_seat and not room.options.spectators:
                continue
            names = room.seats[0].name, room.seats[1].name
            rooms.append(
                RoomSummary(
                    code=room.code,
                    names=names,
                    options=room.options,
                    status=room.status,
                    open_seat=open_seat,
                    spectators=len(room.spectators),
                )
            )
        rooms.sort(key=lambda r: (not r.open_seat, r.code))
        return Rooms(rooms=tuple(rooms[:200]))

    # --- start-up and clean-up -----------------------------------------------------------------

    async def restore(self) -> int:
        """Rebuild every open room from the store; seated people count as disconnected."""
        now = self.clock()
        for snapshot in await self.store.open_rooms():
            record = snapshot.room
            room = self._room(record.code, record.options, created=record.created)
            for seat, saved in zip(room.seats, record.seats, strict=True):
                if saved.kind == "human" and saved.player and saved.token_hash:
                    player = self.players.get(saved.player) or Player(
                        id=saved.player, name=saved.name or "Player", token_hash=saved.token_hash
                    )
                    self.players[player.id] = player
                    seat.kind, seat.player, seat.gone_since = "human", player, now
                    player.room = room
                elif saved.kind == "bot":
                    level = saved.level if saved.level in LEVELS else strongest_level()
                    seat.kind, seat.level = "bot", level
                    seat.bot = self._make_bot(room, seat.index, level)
            match = snapshot.match
            if match is not None:
                rebuilt = Match.replay(match.options, match.seed, match.actions, keep_events=False)
                room.restore(rebuilt, match.number, snapshot.previous_actions)
                if rebuilt.over and match.finished is None:  # its finish was not recorded
                    await self.store.finish_match(
                        match.room,
                        match.number,
                        finished=time.time(),
                        result="won",
                        winner=rebuilt.winner,
                    )
            self.rooms[room.code] = room
            room.resume()
        self.metrics.rooms.set(len(self.rooms))
        log.info("restored %d open rooms", len(self.rooms))
        return len(self.rooms)

    async def sweep(self) -> None:
        """Close rooms nobody has been in for ``abandon_after`` seconds; forget players who
        left without a seat more than ``grace`` seconds ago (their tokens stop working)."""
        now = self.clock()
        for player in list(self.players.values()):
            gone = player.gone_since
            roomless = player.peer is None and player.room is None
            if roomless and gone is not None and now - gone > self.config.grace:
                del self.players[player.id]
        for room in list(self.rooms.values()):
            if room.present() or now - room.last_activity < self.config.abandon_after:
                continue
            try:
                await room.finish_abandoned()
                await self.store.close_room(room.code)
            except StoreError as error:
                log.warning("room %s: could not close: %s", room.code, error)
                continue
            for seat in room.seats:
                if seat.player is not None and seat.player.room is room:
                    seat.player.room = None
            del self.rooms[room.code]
            log.info(
                "room %s closed after %.0f s without anyone", room.code, self.config.abandon_after
            )
        self.metrics.rooms.set(len(self.rooms))
