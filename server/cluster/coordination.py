"""What the nodes of a cluster share besides the games: presence, claims, agreements, relays.

:class:`ClusterStore` is the Redis store plus the reads and writes only a cluster needs. Keys
(under the same prefix as the store's):

- ``here:{code}:{seat}``: the node a seated player is connected to; ``gone`` for a while after a
  clean disconnect. It counts only while that node runs: its heartbeat lives and it is subscribed
  to its wake-up channel (a process that died has lost its subscription with its connections).
- ``alive:{node}``: a node's heartbeat, renewed every second (one write per node, however
  many players it holds), so it lapses a few seconds after the node dies.
- ``owner:{code}``: the node that owns a room (a lease that holds while that node runs, its
  key renewed now and then so the leases of rooms long gone expire), and
  ``address:{node}``: where clients reach that node directly (``--node-url``), renewed with it;
  see :mod:`server.cluster.ownership`.
- ``claim:{name}``: a short-lived ``SET NX PX`` claim, so a timer, a computer move or a clean-up
  runs on one node only.
- the room hash's ``agreement`` field: a pending restart proposal and rematch wishes.
- ``unsettled`` sorted set: matches started and not settled (see :mod:`server.cluster.settling`).
- ``rooms:vacant`` hash: waiting rooms seen with nobody connected, and since when; a room still
  so after the grace period is closed (:meth:`ClusterStore.close_vacant`), as a single server
  closes a waiting room its creator left.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Literal

from muggins.server.cluster.redis_store import RedisStore
from muggins.server.cluster.scripts import RENEW_OWNED
from muggins.server.store.games import SeatRecord, StoreConflict
from muggins.server.store.seats_json import seats_from_json
from muggins.shared.actions import Seat
from muggins.shared.protocol import RoomOptions


@dataclass(frozen=True, slots=True)
class RoomState:
    """What a node checks on each catch-up."""

    seats: tuple[SeatRecord, SeatRecord]
    match: int
    present: tuple[bool, bool]
    """Whether each seat has a live connection on some node."""
    holders: tuple[str | None, str | None] = (None, None)
    """The node that holds each seat's connection, as Redis says (alive or not)."""
    left: tuple[bool, bool] = (False, False)
    """Whether each seat's player disconnected cleanly (not merely a presence that lapsed)."""
    agreement: str | None = None
    """The pending restart proposal and rematch wishes, as JSON."""
    ended: tuple[bool, bool] = (False, False)
    """Whether each seat's holder has no subscription to its wake-ups: its process has ended
    (killed or crashed: its connections were closed), not merely stalled."""


@dataclass(frozen=True, slots=True)
class ListedRoom:
    """A room as the listing index shows it (the spectators are counted by each node)."""

    code: str
    names: tuple[str | None, str | None]
    options: RoomOptions
    status: Literal["waiting", "playing", "over"]
    open_seat: bool


@dataclass(frozen=True, slots=True)
class ListingPage:
    rooms: list[ListedRoom]
    next: str | None
    """The cursor of the page after this one (None: no more)."""
    total: int


@dataclass(frozen=True, slots=True)
class SettlingRoom:
    """What the sweep of unsettled matches reads of a room (open or closed)."""

    touched: float
    """The time of the room's last write (wall clock)."""
    seats: tuple[SeatRecord, SeatRecord]
    options: RoomOptions
    match: int
    """The room's current match number."""
    closed: bool = False


GONE = "gone"
"""A presence key's value after a clean disconnect (a missing key may only have lapsed)."""


def _holder(value: str | None) -> str | None:
    return None if value is None or value == GONE else str(value)


HEARD_LATELY = 2.5
"""Seconds after an answered heartbeat during which readiness takes Redis as answering."""
SWEEP_STEP = 500
"""Open rooms the sweep reads in one script: a few milliseconds of Redis's time, so a sweep over
many rooms does not hold up every node's moves while it runs."""


class ClusterStore(RedisStore):
    """The Redis store with the coordination of the nodes that share it."""

    answered = 0.0
    """When (monotonic clock) Redis last answered this node's heartbeat."""
    heartbeat_seconds = 0.0
    """How long that heartbeat's round trip took."""

    async def ping(self) -> float | None:
        """Answer once Redis has: at once if the node's heartbeat (every second) was answered
        lately, so readiness costs Redis no round trip of its own while all is well; then the
        heartbeat's time is Redis's answer time."""
        if time.monotonic() - self.answered < HEARD_LATELY:
            return self.heartbeat_seconds
        return await super().ping()

    async def census(self) -> dict[str, int]:
        """Rooms open (of every node) and matches waiting for their review (``/metrics``)."""

        async def count() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.scard(self.open_key)
                pipe.zcard(self._k("review-queue"))
                return list(await pipe.execute())

        rooms, backlog = await self._call("census", count)
        if self.accounts is not None:
            backlog = await self.accounts.review_backlog()
        return {"rooms_open": int(rooms), "review_backlog": int(backlog)}

    async def listing_page(self, after: str | None, limit: int) -> ListingPage:
        """The listed rooms after cursor ``after`` (``"o:CODE"`` or ``"w:CODE"``), ``limit`` at
        most, from the listing index: three commands whatever the number of rooms."""
        low = "-" if after is None else f"({after}"

        async def read() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zrangebylex(self.listed_key, low, "+", start=0, num=limit + 1)
                pipe.zcard(self.listed_key)
                return list(await pipe.execute())

        members, total = await self._call("listing", read)
        page = [str(m) for m in members[:limit]]
        codes = [m[2:] for m in page]
        texts: list[str | None] = (
            await self._call("listing", lambda: self.redis.hmget(self.summary_key, codes))
            if codes
            else []
        )
        rooms = []
        for code, text in zip(codes, texts, strict=True):
            if text is None:
                continue  # closed between the two reads
            shown, _, options = text.partition("\n")
            data = json.loads(shown)
            first, second = data["names"]
            rooms.append(
                ListedRoom(
                    code=code,
                    names=(first, second),
                    options=RoomOptions.model_validate_json(options),
                    status=data["status"],
                    open_seat=bool(data["open_seat"]),
                )
            )
        cursor = page[-1] if len(members) > limit and page else None
        return ListingPage(rooms=rooms, next=cursor, total=int(total))

    async def index_rooms(self) -> int:
        """Put every open room in the listing index, once for the cluster (the first node to
        start with this code does it, for rooms stored before the index existed); the number
        of rooms indexed. Idempotent."""
        marker = f"{self.prefix}rooms:indexed"
        if not await self._call("index", lambda: self.redis.set(marker, "1", nx=True)):
            return 0
        codes = await self._call("open rooms", lambda: self.redis.smembers(self.open_key))
        for code in codes:
            await self._script(
                "relist_room",
                [self.room_key(str(code)), self.listed_key, self.summary_key],
                [str(code)],
            )
        return len(codes)

    async def sweep_rooms(
        self, *, since: float, step: int = SWEEP_STEP
    ) -> tuple[list[str], list[tuple[str, str]]]:
        """One pass over the open rooms, ``step`` rooms or so a script (no room is read out to
        the node, and Redis is never held for the whole pass): those with no write since
        ``since`` (wall clock) and nobody connected on a live node (abandoned), and the waiting
        rooms (no match started) with nobody connected for them, each with since when (Redis's
        clock) they have been so. A room open throughout the pass is seen (once, though the
        scan may return it twice); one opened or closed meanwhile may or may not be."""
        idle: set[str] = set()
        vacant: dict[str, str] = {}
        cursor = "0"
        while True:
            cursor, found_idle, found = await self._script_raw(
                "sweep_rooms",
                [self.open_key, self.vacant_key],
                [self.prefix, self.alive_prefix, repr(since), self.node_prefix, cursor, step],
            )
            idle.update(str(code) for code in found_idle)
            vacant.update((str(found[i]), str(found[i + 1])) for i in range(0, len(found), 2))
            if str(cursor) == "0":
                return sorted(idle), list(vacant.items())

    async def close_vacant(self, code: str, *, since: str, grace: float) -> int:
        """Close waiting room ``code`` if it has stayed vacant since ``since`` for ``grace``
        seconds: 1 closed, 0 not yet, -1 no longer vacant."""
        return await self._script(
            "close_vacant",
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
            [*self._waking(code, "closed"), code, since, repr(grace), self.alive_prefix],
        )

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

        row = await self._script_raw(
            "room_state",
            [self.room_key(code), self.presence_key(code, 0), self.presence_key(code, 1)],
            [self.alive_prefix, self.node_prefix],
        )
        seats, closed, number, agreement = row[:4]
        first, first_alive, first_subscribed, second, second_alive, second_subscribed = row[4:]
        if seats is None or closed == "1":
            return None
        holders = (_holder(first), _holder(second))
        return RoomState(
            seats_from_json(seats),
            int(number or 0),
            (bool(first_alive), bool(second_alive)),
            holders=holders,
            left=(first == GONE, second == GONE),
            agreement=agreement,
            ended=(
                holders[0] is not None and not first_subscribed,
                holders[1] is not None and not second_subscribed,
            ),
        )

    async def save_agreement(self, code: str, text: str, *, expected: str) -> None:
        """A room's pending restart proposal and rematch wishes (JSON), for every node; only if
        the stored agreement is still ``expected`` ('' for none), else :class:`StoreConflict`."""
        saved = await self._script(
            "save_agreement",
            [self.room_key(code), self.watch_key(code)],
            [*self._waking(code, "agreement"), text, expected],
        )
        if saved < 0:
            raise StoreConflict(f"the agreement of room {code} changed meanwhile")

    async def relay(self, code: str, *, node: str, payload: dict[str, Any]) -> None:
        """Pass a passing message (a notice, a chat line) to the room's people on other nodes."""
        await self._script(
            "wake_room", [self.watch_key(code)], self._waking(code, "relay", payload=payload)
        )

    async def set_presence(self, code: str, seat: Seat) -> None:
        """Seat ``seat`` has a connection on this node (while this node runs)."""
        await self._script(
            "set_presence",
            [self.presence_key(code, seat), self.watch_key(code)],
            self._waking(code, "presence"),
        )

    async def clear_presence(self, code: str, seat: Seat, *, ttl: float) -> None:
        """The connection this node had for ``seat`` is gone (another node's is left alone): the
        key says so for ``ttl`` seconds, so other nodes tell it from a lapse."""
        await self._script(
            "clear_presence",
            [self.presence_key(code, seat), self.watch_key(code)],
            [*self._waking(code, "presence"), max(1, int(ttl * 1000))],
        )

    # --- nodes ---------------------------------------------------------------------------------

    @property
    def alive_prefix(self) -> str:
        return f"{self.prefix}alive:"

    def owner_key(self, code: str) -> str:
        return f"{self.prefix}owner:{code}"

    @property
    def address_prefix(self) -> str:
        return f"{self.prefix}address:"

    async def own_room(
        self, code: str, *, ttl: float, stored: bool = True
    ) -> tuple[str | None, str | None]:
        """The node that owns room ``code`` and its address (None: none given): this node
        (its lease kept ``ttl`` seconds unless renewed), unless another node that runs holds
        the lease. With
        ``stored``, (None, None) for a room that is not stored (a room being made is not yet)."""
        holder, address = await self._script_raw(
            "own_room",
            [self.owner_key(code), self.room_key(code)],
            [
                self.node,
                max(1, int(ttl * 1000)),
                self.node_prefix,
                self.address_prefix,
                "1" if stored else "0",
                self.alive_prefix,
            ],
        )
        return (
            None if holder is None else str(holder),
            None if address is None else str(address),
        )

    async def disown(self, code: str) -> None:
        """Give up this node's lease on room ``code`` (stopping, or the room is gone here)."""
        await self._script("release", [self.owner_key(code)], [self.node])

    async def heartbeat(
        self,
        *,
        ttl: float,
        others: list[str],
        owned: list[str] | None = None,
        address: str | None = None,
    ) -> list[bool]:
        """This node lives for ``ttl`` seconds more; whether each of ``others`` runs, in the
        same round trip: its heartbeat lives and it listens for its wake-ups (a node whose
        process ended has lost its subscription at once; one that stalls keeps it). The
        leases of the rooms it ``owned`` and its ``address`` are renewed in the same trip."""
        ms = max(1, int(ttl * 1000))
        keys = [self.owner_key(code) for code in owned or ()]

        async def beat() -> list[Any]:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.set(self.alive_prefix + self.node, "1", px=ms)
                if keys:
                    pipe.eval(RENEW_OWNED, len(keys), *keys, self.node, ms)
                if address:
                    pipe.set(self.address_prefix + self.node, address, px=ms)
                if others:
                    pipe.mget([self.alive_prefix + n for n in others])
                    pipe.pubsub_numsub(*[self.node_prefix + n for n in others])
                return list(await pipe.execute())

        began = time.monotonic()
        answers = await self._call("heartbeat", beat)
        self.answered = time.monotonic()
        self.heartbeat_seconds = self.answered - began
        if not others:
            return []
        beats, listeners = answers[-2], answers[-1]
        return [
            beat is not None and int(count) > 0
            for beat, (_, count) in zip(beats, listeners, strict=True)
        ]

    async def watch(self, codes: list[str]) -> None:
        """This node keeps these rooms cached: wake it when they change."""
        if not codes:
            return

        async def add() -> None:
            async with self.redis.pipeline(transaction=False) as pipe:
                for code in codes:
                    pipe.sadd(self.watch_key(code), self.node)
                await pipe.execute()

        await self._call("watch", add)

    async def unwatch(self, code: str) -> None:
        """This node no longer keeps room ``code`` cached."""
        await self._call("watch", lambda: self.redis.srem(self.watch_key(code), self.node))

    # --- matches not settled yet (see server.cluster.settling) ---------------------------------

    async def unsettled(self, *, before: float, limit: int) -> list[str]:
        """Up to ``limit`` matches (``{code}-{n}``) listed before ``before``, oldest first."""
        found = await self._call(
            "unsettled",
            lambda: self.redis.zrangebyscore(
                self.unsettled_key, "-inf", repr(before), start=0, num=limit
            ),
        )
        return [str(member) for member in found]

    async def settling_room(self, code: str) -> SettlingRoom | None:
        """A room's seats, options, current match and last write, open or closed."""
        fields = await self._call(
            "room",
            lambda: self.redis.hmget(
                self.room_key(code), ["touched", "created", "seats", "options", "match", "closed"]
            ),
        )
        touched, created, seats, options, match, closed = fields
        if seats is None or options is None:
            return None
        return SettlingRoom(
            touched=float(touched or created or 0),
            seats=seats_from_json(seats),
            options=RoomOptions.model_validate_json(options),
            match=int(match or 0),
            closed=closed == "1",
        )

    async def drop_unsettled(self, member: str) -> None:
        """A match that needs no settling (any more)."""
        await self._call("unsettled", lambda: self.redis.zrem(self.unsettled_key, member))

    async def recheck_unsettled(self, member: str, *, at: float) -> None:
        """A match still unfinished: the sweep looks at it again after ``at``."""
        await self._call(
            "unsettled", lambda: self.redis.zadd(self.unsettled_key, {member: at}, xx=True)
        )

    async def is_settled(self, match: str) -> bool:
        """Whether match ``{code}-{n}`` has been settled (by any node)."""
        if self.accounts is not None:
            return await self.accounts.is_settled(match)
        found = await self._call("settled", lambda: self.redis.exists(self._k("settled", match)))
        return bool(found)

    async def is_unsettled(self, match: str) -> bool:
        """Whether match ``{code}-{n}`` is listed as not settled yet."""
        score = await self._call("unsettled", lambda: self.redis.zscore(self.unsettled_key, match))
        return score is not None

    # --- the move to PostgreSQL (see server.cluster.archive) -----------------------------------

    async def oldest_finished(self, *, start: int = 0, limit: int) -> list[str]:
        """Up to ``limit`` finished matches still in Redis (``{code}-{n}``), oldest first,
        from the ``start``-th on."""
        found = await self._call(
            "finished", lambda: self.redis.zrange(self.finished_key, start, start + limit - 1)
        )
        return [str(member) for member in found]

    async def forget_match(self, code: str, number: int) -> None:
        """Delete a match moved to the archive from Redis (one script: all of it or nothing)."""
        await self._script(
            "forget_match",
            [
                self.match_key(code, number),
                self.log_key(code, number),
                self.voided_key(code, number),
                self.finished_key,
                self.unsettled_key,
                self.room_key(code),
            ],
            [f"{code}-{number}", number, self.player_key(""), code, self.prefix],
        )
