"""What the nodes of a cluster share besides the games: presence, claims, agreements, relays.

:class:`ClusterStore` is the Redis store plus the reads and writes only a cluster needs. Keys
(under the same prefix as the store's):

- ``here:{code}:{seat}``: the node a seated player is connected to, renewed while they are, so it
  lapses a few seconds after its node dies; ``gone`` for a while after a clean disconnect.
- ``claim:{name}``: a short-lived ``SET NX PX`` claim, so a timer, a computer move or a clean-up
  runs on one node only.
- the room hash's ``agreement`` field: a pending restart proposal and rematch wishes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from muggins.server.cluster.redis_store import RedisStore
from muggins.server.sqlite_store import seats_from_json
from muggins.server.store import RoomRecord, SeatRecord
from muggins.shared.actions import Seat
from muggins.shared.protocol import RoomOptions


@dataclass(frozen=True, slots=True)
class RoomState:
    """What a node checks on each catch-up."""

    seats: tuple[SeatRecord, SeatRecord]
    match: int
    present: tuple[bool, bool]
    """Whether each seat has a live connection on some node."""
    left: tuple[bool, bool] = (False, False)
    """Whether each seat's player disconnected cleanly (not merely a presence that lapsed)."""
    agreement: str | None = None
    """The pending restart proposal and rematch wishes, as JSON."""


GONE = "gone"
"""A presence key's value after a clean disconnect (a missing key may only have lapsed)."""


class ClusterStore(RedisStore):
    """The Redis store with the coordination of the nodes that share it."""

    async def open_room_records(self) -> list[tuple[RoomRecord, int, bool]]:
        """Every open room's record, current match number and whether that match is finished."""
        codes = sorted(await self._call("open rooms", lambda: self.redis.smembers(self.open_key)))

        async def read() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                for code in codes:
                    pipe.hgetall(self.room_key(code))
                return list(await pipe.execute())

        rows = await self._call("open rooms", read)
        found: list[tuple[RoomRecord, int]] = []
        for code, fields in zip(codes, rows, strict=True):
            if fields and fields.get("closed") != "1":
                record = RoomRecord(
                    code=code,
                    options=RoomOptions.model_validate_json(fields["options"]),
                    created=float(fields["created"]),
                    seats=seats_from_json(fields["seats"]),
                )
                found.append((record, int(fields.get("match", "0"))))

        async def finished() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                for record, number in found:
                    pipe.hexists(self.match_key(record.code, number), "finished")
                return list(await pipe.execute())

        done = await self._call("open rooms", finished)
        return [(r, n, bool(d)) for (r, n), d in zip(found, done, strict=True)]

    async def idle_rooms(self, *, since: float) -> list[str]:
        """Open rooms with no write since ``since`` (wall clock) and nobody connected anywhere."""
        codes = sorted(await self._call("open rooms", lambda: self.redis.smembers(self.open_key)))

        async def read() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                for code in codes:
                    pipe.hmget(self.room_key(code), ["touched", "created"])
                    pipe.mget([self.presence_key(code, 0), self.presence_key(code, 1)])
                return list(await pipe.execute())

        rows = await self._call("idle rooms", read)
        idle = []
        for i, code in enumerate(codes):
            (touched, created), holders = rows[2 * i], rows[2 * i + 1]
            last = float(touched or created or 0)
            present = any(h is not None and h != GONE for h in holders)
            if last < since and not present:
                idle.append(code)
        return idle

    async def player_room(self, player: str) -> str | None:
        """The code of the room where ``player`` was last seated (to resume on any node)."""
        code = await self._call("player", lambda: self.redis.get(self.player_key(player)))
        return None if code is None else str(code)

    async def claim(self, name: str, *, owner: str, ttl: float) -> bool:
        """True for one ``owner`` per ``name`` until ``ttl`` seconds pass (``SET NX PX``).

        The owner that holds the claim gets True again (a node re-checking its own timer).
        """
        result = await self._script(
            "claim", [f"{self.prefix}claim:{name}"], [owner, max(1, int(ttl * 1000))]
        )
        return result == 1

    async def release(self, name: str, *, owner: str) -> None:
        """Give up a claim ``owner`` holds (a node stopping hands its work to the others)."""
        await self._script("release", [f"{self.prefix}claim:{name}"], [owner])

    async def room_state(self, code: str) -> RoomState | None:
        """An open room's seats, current match number and which seats are connected somewhere."""

        async def read() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.hmget(self.room_key(code), ["seats", "closed", "match", "agreement"])
                pipe.mget([self.presence_key(code, 0), self.presence_key(code, 1)])
                return list(await pipe.execute())

        (seats, closed, number, agreement), holders = await self._call("room", read)
        if seats is None or closed == "1":
            return None
        present = (holders[0] not in (None, GONE), holders[1] not in (None, GONE))
        left = (holders[0] == GONE, holders[1] == GONE)
        return RoomState(
            seats_from_json(seats), int(number or 0), present, left=left, agreement=agreement
        )

    async def save_agreement(self, code: str, text: str) -> None:
        """A room's pending restart proposal and rematch wishes (JSON), for every node."""

        async def write() -> None:
            async with self.redis.pipeline(transaction=True) as pipe:
                pipe.hset(self.room_key(code), "agreement", text)
                pipe.publish(self.channel(code), self.wake("agreement"))
                await pipe.execute()

        await self._call("agreement", write)

    async def relay(self, code: str, *, node: str, payload: dict[str, Any]) -> None:
        """Pass a passing message (a notice, a chat line) to the room's people on other nodes."""
        message = self.wake("relay", node=node, payload=payload)
        await self._call("relay", lambda: self.redis.publish(self.channel(code), message))

    def presence_key(self, code: str, seat: Seat) -> str:
        return f"{self.prefix}here:{code}:{seat}"

    async def set_presence(self, code: str, seat: Seat, *, node: str, ttl: float) -> None:
        """Seat ``seat`` has a connection on ``node`` (for ``ttl`` seconds unless renewed)."""
        key = self.presence_key(code, seat)
        fresh = await self._call(
            "presence", lambda: self.redis.set(key, node, px=int(ttl * 1000), get=True)
        )
        if fresh is None or fresh == GONE:
            await self._call(
                "presence", lambda: self.redis.publish(self.channel(code), self.wake("presence"))
            )

    async def clear_presence(self, code: str, seat: Seat, *, node: str, ttl: float) -> None:
        """The connection ``node`` had for ``seat`` is gone (another node's is left alone): the
        key says so for ``ttl`` seconds, so other nodes tell it from a lapse."""
        await self._script(
            "clear_presence",
            [self.presence_key(code, seat)],
            [node, self.channel(code), self.wake("presence"), max(1, int(ttl * 1000))],
        )

    async def renew_presence(self, seats: list[tuple[str, Seat]], *, node: str, ttl: float) -> None:
        """Renew the presence of every ``(room, seat)`` connected to ``node``, in one step."""
        if not seats:
            return
        await self._script(
            "renew_presence",
            [self.presence_key(code, seat) for code, seat in seats],
            [
                node,
                max(1, int(ttl * 1000)),
                self.wake("presence"),
                *(self.channel(code) for code, _ in seats),
            ],
        )
