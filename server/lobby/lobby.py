"""The lobby: players, rooms by code, the public room list, start-up rebuild and clean-up."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from muggins.server.accounts.budget import ReadBudget
from muggins.server.accounts.credentials import RegistrationLimiter
from muggins.server.accounts.sanctions import Sanctions
from muggins.server.accounts.service import AccountService
from muggins.server.config import ServerConfig
from muggins.server.lobby.cluster_seam import LobbyCluster, NoLobbyCluster
from muggins.server.lobby.duplicate import DuplicateTables
from muggins.server.lobby.matchmaking import Matchmaker
from muggins.server.lobby.moderation import Moderation
from muggins.server.lobby.room_index import RoomIndex
from muggins.server.lobby.seat_holders import SeatHolders
from muggins.server.lobby.tournaments import Directing, TournamentDirector
from muggins.server.rooms.players import Peer, Player, Refusal
from muggins.server.rooms.room import Room
from muggins.server.rooms.seating import Table, random_seed
from muggins.server.rooms.story import KEPT_CHAT
from muggins.server.rooms.tokens import (
    new_player_id,
    new_room_code,
    new_token,
    normalise_code,
    token_matches,
    token_player,
)
from muggins.server.runtime.metrics import Metrics
from muggins.server.store.games import Store, StoreConflict, StoreError
from muggins.shared.bots import LEVELS
from muggins.shared.match import Match
from muggins.shared.names import clean_name, name_problem
from muggins.shared.protocol import ChatLine, RoomOptions, Rooms
from muggins.shared.token_bucket import TokenBucket

log = logging.getLogger("muggins.lobby")

CHAT_SWEEP_EVERY = 3600.0
"""Seconds between two sweeps of kept chat past its retention (the first is at the first sweep)."""


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
        self.cluster: LobbyCluster = NoLobbyCluster()
        """The cluster this lobby is one node's part of (none on one server)."""
        self.config = config
        self.metrics = metrics
        self.clock = clock
        self.new_seed: Callable[[], bytes] = random_seed
        """Where a new room's matches take their seeds (tests pin it to replay known deals)."""
        self.players: dict[str, Player[Room]] = {}
        self.rooms: dict[str, Room] = {}
        self.index = RoomIndex(self.rooms.get)
        self.holders = SeatHolders(self.rooms.get)
        """The rooms where each account holds a seat (for ``my_games`` and taking a seat over)."""
        self.rooms_by_address: dict[str, TokenBucket] = {}
        self.accounts = AccountService(store, players=lambda: list(self.players.values()))
        self.accounts.registrations = RegistrationLimiter(
            per_address=int(config.registrations_per_hour), clock=clock
        )
        self.sanctions = Sanctions(store, chat_days=config.chat_days)
        """Bans, mutes, reports, blocks, the moderation log and kept chat."""
        self.accounts.sanctions = self.sanctions
        self.moderation = Moderation(self, self.sanctions)
        self.accounts.budget = ReadBudget(
            per_connection=config.reads_per_second,
            per_address=2 * config.reads_per_second,
            clock=clock,
        )
        self.matchmaker = Matchmaker(self)
        self.duplicates: dict[str, DuplicateTables] = {}
        """Duplicate matches by their first table's code."""
        self.tournaments: Directing = TournamentDirector(self)
        """Tournaments (a cluster node's are the cluster's: server.cluster.tournaments)."""
        self.accounts.matchmaker = self.matchmaker
        self.chat_swept: float | None = None
        """When (wall clock) kept chat past its retention was last deleted."""

    # --- players -------------------------------------------------------------------------------

    def new_player(self, name: str) -> tuple[Player[Room], str]:
        cleaned = clean_name(name)
        problem = name_problem(cleaned)
        if problem is not None:
            raise Refusal("bad_name", f"Please pick another name: {problem}")
        player_id = new_player_id()
        token, token_hash = new_token(player_id)
        player = Player(id=player_id, name=cleaned, token_hash=token_hash)
        self.players[player_id] = player
        return player, token

    def resume(self, token: str) -> Player[Room]:
        """The player a token belongs to, or a refusal. The secret is compared in constant time.

        A seatless player's token expires as soon as they have been gone for the grace period.
        """
        player_id = token_player(token)
        player = self.players.get(player_id) if player_id else None
        if player is not None and self._expired(player):
            del self.players[player.id]
            player = None
        if player is None or not token_matches(token, player.token_hash):
            raise Refusal("bad_token", "That resume token is not valid here; say hello without it")
        return player

    def _expired(self, player: Player) -> bool:
        gone = player.gone_since
        roomless = player.peer is None and player.room is None
        return roomless and gone is not None and self.clock() - gone > self.config.grace

    async def rotate(self, player: Player, token: str) -> str:
        """Replace the resume token ``token`` of ``player`` with a new one, which is returned.

        The old token stops working. A seated player's new token hash is saved with the seats
        first (so a restart knows it); if that fails the old token stays valid and the resume is
        refused with ``storage``.
        """
        new, new_hash = new_token(player.id)
        room = player.room
        if room is None:
            player.token_hash = new_hash
        else:
            await room.rotate_token(player, token, new_hash)
        return new

    # --- rooms ---------------------------------------------------------------------------------

    def _make_bot(self, room: Room, seat: int, level: str) -> Peer:
        return self.cluster.make_bot(room, seat, level, delay=self.config.bot_delay)

    def make_room(self, code: str, options: RoomOptions, *, created: float | None = None) -> Room:
        room = Room(
            code,
            options,
            store=self.store,
            grace=self.config.grace,
            make_bot=self._make_bot,
            created=created,
            clock=self.clock,
            new_seed=self.new_seed,
            on_action=self.metrics.observe_action,
            on_change=self._changed,
        )
        room.rated_pair_max = self.config.rated_pair_per_day
        self.cluster.room_made(room)
        return room

    def _changed(self, room: Table) -> None:
        self.index.update(room)
        if isinstance(room, Room):
            self.holders.update(room)

    def allow_room(self, player: Player, address: str) -> None:
        """Refuse a room past the creation limits of the player and of its address."""
        now = self.clock()
        mine = player.rooms_made
        if mine is None:
            mine = player.rooms_made = TokenBucket.per_minute(self.config.rooms_per_minute, now=now)
        theirs = self.rooms_by_address.get(address)
        if theirs is None:
            if len(self.rooms_by_address) > 100_000:
                self._forget_full_buckets(now)
            theirs = self.rooms_by_address[address] = TokenBucket.per_minute(
                self.config.rooms_per_minute_per_address, now=now
            )
        mine.refill(now)
        if mine.tokens < 1 or not theirs.take(now):
            raise Refusal(
                "too_many_rooms", "You have created rooms too quickly; wait a minute and try again"
            )
        mine.take(now)

    def _forget_full_buckets(self, now: float) -> None:
        for address, bucket in list(self.rooms_by_address.items()):
            if bucket.full(now):
                del self.rooms_by_address[address]

    async def create_room(self, options: RoomOptions, *, second_table: bool = False) -> Room:
        """A new room; with ``options.duplicate`` the first table of a duplicate match (unless
        it is that match's ``second_table``)."""
        if len(self.rooms) >= self.config.max_rooms:
            raise Refusal("server_full", "The server has as many rooms as it can hold; try later")
        for _ in range(20):
            room = self.make_room(new_room_code(), options)
            if room.code in self.rooms:
                continue
            try:
                await self.store.create_room(room.record())
            except StoreConflict:
                continue
            except StoreError as error:
                raise Refusal("storage", "The server could not create the room") from error
            self.rooms[room.code] = room
            self.index.update(room)
            self.metrics.rooms.set(len(self.rooms))
            log.info("room created", extra={"room": room.code, "private": options.private})
            if options.duplicate and not second_table and not self.cluster.links_tables:
                self.duplicates[room.code] = DuplicateTables(self, room, on_result=None)
            return room
        raise Refusal("internal", "No free room code was found; try again")

    def find(self, code: str) -> Room:
        room = self.rooms.get(normalise_code(code))
        if room is None or room.closed:
            raise Refusal("no_room", f"There is no room {normalise_code(code)}")
        return room

    async def listing(self, after: str | None = None, limit: int = 50) -> Rooms:
        """A page of the public rooms (see :mod:`server.lobby.room_index`): the cost of a page does
        not grow with the number of rooms); a cluster node's list is the cluster's."""
        page = await self.cluster.listing(after, limit)
        return page if page is not None else self.index.page(after, limit)

    async def release(self, room: Room) -> None:
        """Close ``room`` at once if no person holds a seat in it and nobody watches it (in a
        cluster, as it is after catching up: a seat taken through another node keeps it open)."""
        if not room.closed and not await self.cluster.catch_up(room):
            return  # left for the abandoned-room sweep
        if room.closed or room.spectators or any(s.kind == "human" for s in room.seats):
            return
        if self.rooms.get(room.code) is room:
            await self._drop(room, "nobody is seated any more")

    async def close(self, room: Room, why: str) -> bool:
        """Close ``room`` now, whoever is in it (a moderator's action): its match is abandoned."""
        return await self._drop(room, why)

    async def _drop(self, room: Room, why: str) -> bool:
        """Close ``room`` for good and forget it; False if the store could not record it."""
        try:
            await room.finish_abandoned()
            await self.store.close_room(room.code)
        except StoreError as error:
            log.warning("room %s: could not close: %s", room.code, error)
            return False
        for seat in room.seats:
            if seat.player is not None and seat.player.room is room:
                seat.player.room = None
        self.rooms.pop(room.code, None)
        self.index.remove(room.code)
        self.metrics.rooms.set(len(self.rooms))
        log.info("room %s closed: %s", room.code, why)
        return True

    # --- start-up and clean-up -----------------------------------------------------------------

    async def stop(self) -> None:
        """Stop background work before the server closes (a cluster node's)."""
        await self.cluster.stop()

    async def restore(self) -> int:
        """Rebuild every open room from the store; seated people count as disconnected. (A cluster
        node rebuilds nothing: its rooms load on demand.)"""
        if await self.cluster.start():
            return 0
        now = self.clock()
        for snapshot in await self.store.open_rooms():
            record = snapshot.room
            room = self.make_room(record.code, record.options, created=record.created)
            for seat, saved in zip(room.seats, record.seats, strict=True):
                if saved.kind == "human" and saved.player and saved.token_hash:
                    player = self.players.get(saved.player) or Player(
                        id=saved.player, name=saved.name or "Player", token_hash=saved.token_hash
                    )
                    self.players[player.id] = player
                    player.account = player.account or saved.account
                    seat.kind, seat.player, seat.gone_since = "human", player, now
                    seat.account = saved.account
                    player.room = room
                elif saved.kind == "bot":
                    level = saved.level if saved.level in LEVELS else strongest_level()
                    seat.kind, seat.level = "bot", level
                    seat.bot = self._make_bot(room, seat.index, level)
            match = snapshot.match
            if match is not None:
                rebuilt = Match.replay(match.options, match.seed, match.actions, keep_events=False)
                room.restore(
                    rebuilt, match.number, snapshot.previous_actions, match.tags, match.final_names
                )
                if rebuilt.over and match.finished is None:  # its finish was not recorded
                    await self.store.finish_match(
                        match.room,
                        match.number,
                        finished=time.time(),
                        result="won",
                        winner=rebuilt.winner,
                    )
                if rebuilt.over:  # settled at most once, however often this runs
                    await room.settle()
            room.chat.extend(await self.kept_chat(room))
            self.rooms[room.code] = room
            self.index.update(room)
            self.holders.update(room)
            room.resume()
        self.metrics.rooms.set(len(self.rooms))
        log.info("restored %d open rooms", len(self.rooms))
        return len(self.rooms)

    async def kept_chat(self, room: Room) -> list[ChatLine]:
        """The latest chat lines said in ``room`` as the store keeps them (not those of an
        earlier room of the same code, nor lines a moderator removed): a room rebuilt after a
        restart tells them with its story, as before the restart."""
        try:
            lines = await self.sanctions.chat(room.code, now=time.time(), limit=KEPT_CHAT)
        except StoreError as error:
            log.warning("room %s: could not read its kept chat: %s", room.code, error)
            return []
        return [
            ChatLine(sender=k.sender, seat=k.seat, text=k.text, line=k.id)
            for k in lines
            if k.at >= room.created
        ]

    async def sweep(self) -> None:
        """Close rooms nobody has been in for ``abandon_after`` seconds; forget players who
        left without a seat more than ``grace`` seconds ago (their tokens stop working). A cluster
        node's clean-up is the cluster's. Kept chat past its retention is deleted once an hour
        (by one node of a cluster)."""
        await self.sweep_chat(time.time())
        if await self.cluster.sweep():
            return
        now = self.clock()
        for player in list(self.players.values()):
            if self._expired(player):
                del self.players[player.id]
        self._forget_full_buckets(now)
        for room in list(self.rooms.values()):
            if self._deserted(room, now):
                await self._drop(room, "nobody came back to a room without a match")
            elif not room.present() and now - room.last_activity >= self.config.abandon_after:
                await self._drop(room, f"{self.config.abandon_after:.0f} s without anyone")
        self.metrics.rooms.set(len(self.rooms))

    async def sweep_chat(self, now: float) -> int | None:
        """Delete kept chat past its retention, unless done less than an hour before ``now`` (or,
        in a cluster, by another node this hour); the number of lines deleted (None: not now)."""
        if self.chat_swept is not None and now - self.chat_swept < CHAT_SWEEP_EVERY:
            return None
        self.chat_swept = now
        try:
            if not await self.cluster.first_this_round("chat-sweep", CHAT_SWEEP_EVERY):
                return None  # another node's
            deleted = await self.sanctions.sweep_chat(now=now)
        except StoreError as error:
            log.info("kept chat not swept (%s); the next sweep does", error)
            self.chat_swept = None
            return None
        log.info(
            "kept chat swept: %d lines older than %g days deleted", deleted, self.config.chat_days
        )
        return deleted

    def _deserted(self, room: Room, now: float) -> bool:
        """A room whose match never started, left by every person for the grace period."""
        if room.match is not None or room.spectators:
            return False
        people = [s for s in room.seats if s.kind == "human"]
        return all(
            s.peer is None and s.gone_since is not None and now - s.gone_since > self.config.grace
            for s in people
        )
