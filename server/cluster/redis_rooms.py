"""A room in Redis: created, its seats saved (only if they are still those the writer saw),
closed, and read back with its current match. The room half of
:class:`~server.cluster.redis_store.RedisStore`, over its match half, since a room is read
with its match; keys in :mod:`server.cluster.redis_keys`."""

from __future__ import annotations

import time

import redis.asyncio as aioredis

from muggins.server.cluster.redis_matches import RedisMatches
from muggins.server.store.games import (
    RoomRecord,
    RoomSnapshot,
    SeatRecord,
    StoreConflict,
    StoreError,
)
from muggins.server.store.seats_json import seats_from_json, seats_json
from muggins.shared.protocol import RoomOptions


class RedisRooms(RedisMatches):
    """Rooms: their seats, the open set, and a room read with its current match."""

    async def create_room(self, room: RoomRecord) -> None:
        created = await self._script(
            "create_room",
            [
                self.room_key(room.code),
                self.open_key,
                self.watch_key(room.code),
                self.listed_key,
                self.summary_key,
                *self._player_keys(room.seats),
            ],
            [
                room.options.model_dump_json(),
                repr(room.created),
                seats_json(room.seats),
                room.code,
                self.node,
                self.prefix,
            ],
        )
        if not created:
            raise StoreConflict(f"room {room.code} exists")

    async def save_seats(
        self,
        code: str,
        seats: tuple[SeatRecord, SeatRecord],
        *,
        expected: tuple[SeatRecord, SeatRecord] | None = None,
    ) -> None:
        """Store the seats; with ``expected``, only if the stored seats are still those."""
        saved = await self._script(
            "save_seats",
            [
                self.room_key(code),
                self.watch_key(code),
                self.listed_key,
                self.summary_key,
                self.vacant_key,
                *self._player_keys(seats),
            ],
            [
                *self._waking(code, "seats"),
                seats_json(seats),
                code,
                "" if expected is None else seats_json(expected),
                repr(time.time()),
            ],
        )
        if saved == 0:
            raise StoreError(f"no room {code}")
        if saved < 0:
            raise StoreConflict(f"the seats of room {code} changed meanwhile")

    async def close_room(self, code: str) -> None:
        closed = await self._script(
            "close_room",
            [
                self.room_key(code),
                self.open_key,
                self.watch_key(code),
                self.presence_key(code, 0),
                self.presence_key(code, 1),
                self.listed_key,
                self.summary_key,
                self.vacant_key,
            ],
            [*self._waking(code, "closed"), code],
        )
        if not closed:
            raise StoreError(f"no room {code}")

    async def open_rooms(self) -> list[RoomSnapshot]:
        codes = await self._call("open rooms", lambda: self.redis.smembers(self.open_key))
        snapshots = []
        for code in sorted(codes):
            snapshot = await self.load_room(str(code))
            if snapshot is not None:
                snapshots.append(snapshot)
        return snapshots

    async def load_room(self, code: str) -> RoomSnapshot | None:
        """One open room with its current match, or None if there is none (or it is closed)."""
        fields = await self._call("room", lambda: self.redis.hgetall(self.room_key(code)))
        if not fields or fields.get("closed") == "1":
            return None
        room = RoomRecord(
            code=code,
            options=RoomOptions.model_validate_json(fields["options"]),
            created=float(fields["created"]),
            seats=seats_from_json(fields["seats"]),
        )
        number = int(fields.get("match", "0"))
        match = await self._match(code, number, with_actions=True) if number else None
        earlier = 0
        if number > 1:
            keys = [self.log_key(code, n) for n in range(1, number)]
            lengths = await self._call("log lengths", lambda: _pipeline_llen(self.redis, keys))
            earlier = sum(lengths)
        return RoomSnapshot(room=room, match=match, previous_actions=earlier)

    async def current_match(self, code: str) -> int:
        """The room's current match number (0: none yet)."""
        value = await self._call("match", lambda: self.redis.hget(self.room_key(code), "match"))
        return int(value or 0)


async def _pipeline_llen(redis: aioredis.Redis, keys: list[str]) -> list[int]:
    async with redis.pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.llen(key)
        return [int(n) for n in await pipe.execute()]
