"""A :class:`~server.store.games.Store` in Redis: the shared truth of a cluster of server nodes.

Keys (all under a prefix, ``muggins:`` by default):

- ``room:{code}`` hash: options, created, seats, closed, match (the current match number),
  status (waiting, playing or over, as listed), touched (the time of the last write).
- ``rooms:open`` set: the codes of open rooms.
- ``retired:XX`` hashes: the codes of closed rooms whose matches moved to PostgreSQL (the room
  hash is gone), so a code is never given out twice.
- ``rooms:listed`` sorted set and ``rooms:summary`` hash: the lobby's listing index, kept by the
  scripts that change rooms (see :data:`server.cluster.scripts.RELIST`), so a page of the
  listing costs three commands however many rooms there are.
- ``rooms:vacant`` hash: since when each waiting room has had nobody connected for it (see
  :meth:`server.cluster.coordination.ClusterStore.vacant_rooms`).
- ``player:{id}``: the room where a player was last seated (so any node can resume them).
- ``match:{code}:{n}`` hash: seed, options, names, started, finished, result, winner, and
  ``handover:{seat}:{at}`` for each time a seat changed hands (JSON; set once, HSETNX).
- ``log:{code}:{n}`` list: the accepted actions of match ``n``; its length is the next index.
  Each entry is JSON: seat, action, the ``seq`` its move named and the move's ``key``.
- ``voided:{code}:{n}`` set: attempts to append that timed out and were then reported as not
  stored (:meth:`RedisStore.confirm_action`); if such a write reaches Redis late, it is refused.
- ``finished`` sorted set: ``{code}-{n}`` of finished matches by finish time (history).
- ``unsettled`` sorted set: ``{code}-{n}`` of every match started and not settled yet, by its
  start time; a settlement removes it, and the sweep settles what a dead node left (see
  :mod:`server.cluster.settling`).
- ``watch:{code}`` set: the nodes that keep the room cached (they hold, or held lately, one of
  its connections); a change wakes only them.
- channel ``node:{node}``: a node's wake-ups, one channel per node. Each names its room; an
  appended action's carries the action, so the other nodes apply it without reading the log.
  Any other wake-up makes them catch up by index, so a lost wake-up only costs latency.

Every write is one Lua script (:mod:`server.cluster.scripts`), so it is atomic: an action is
appended only if the log is at the expected index (two nodes can never fork a game), and the
wake-up is published in the same step. Any Redis failure becomes
:class:`~server.store.games.StoreError`; nothing is half-written. What only a cluster needs
(presence,
claims, agreements) is in :mod:`server.cluster.coordination`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import secrets
import time
from collections.abc import Awaitable, Callable, Iterable
from json.encoder import encode_basestring_ascii  # json.dumps of a str, without its layers
from typing import Any

import redis.asyncio as aioredis
from redis.asyncio.connection import parse_url
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError
from redis.exceptions import TimeoutError as RedisTimeoutError

from muggins.server.cluster.durable import check_moved, delegate_accounts
from muggins.server.cluster.redis_accounts import RedisAccounts
from muggins.server.cluster.redis_line import ScriptLine
from muggins.server.cluster.redis_moderation import RedisModeration
from muggins.server.cluster.scripts import NO_MATCH, NOT_CURRENT, SCRIPTS, VOIDED
from muggins.server.store.games import (
    MatchRecord,
    MatchResult,
    MoveTag,
    RoomRecord,
    RoomSnapshot,
    SeatRecord,
    StoreConflict,
    StoreError,
)
from muggins.server.store.postgres import PostgresArchive
from muggins.server.store.postgres_accounts import PostgresAccounts
from muggins.server.store.sqlite_games import seats_from_json, seats_json
from muggins.shared.actions import ACTION, Action, GameOptions, Seat
from muggins.shared.handover import HandOver
from muggins.shared.protocol import RoomOptions

VOIDED_KEEP_MS = 86_400_000
"""How long a voided attempt is remembered (a day: far past any write still on its way)."""
POOL_SIZE = 50
"""Connections a node keeps to Redis at most (one of them carries the wake-ups)."""
POOL_WAIT = 10.0
"""Seconds a request waits for a free connection in a burst before it fails with ``storage``."""


class Connection(aioredis.Connection):
    """redis-py's connection, writing a command without a task of its own.

    redis-py bounds every write with ``asyncio.wait_for``, which on Python 3.11 runs the write in
    a new task: a task, a timer and an extra turn of the event loop per command. A write hands
    the command to the transport at once and waits only when the socket's buffer is full, so
    here it is written directly and the timeout is armed only if it has to wait (the same
    errors as redis-py's, the connection dropped on any of them).
    """

    async def send_packed_command(
        self, command: bytes | str | Iterable[bytes], check_health: bool = True
    ) -> None:
        if not self.is_connected:
            await self.connect_check_health(check_health=False)
        if check_health:
            await self.check_health()  # type: ignore[no-untyped-call]
        if isinstance(command, str):
            command = command.encode()
        if isinstance(command, bytes):
            command = [command]
        writer = self._writer
        assert writer is not None
        try:
            writer.writelines(command)
            if writer.transport.get_write_buffer_size() == 0:
                await writer.drain()  # all in the socket: raises only if the connection died
            else:
                async with asyncio.timeout(self.socket_timeout):
                    await writer.drain()
        except TimeoutError:
            await self.disconnect(nowait=True)
            raise RedisTimeoutError("Timeout writing to socket") from None
        except OSError as error:
            await self.disconnect(nowait=True)
            raise RedisConnectionError(f"Error while writing to socket: {error}") from error
        except BaseException:
            await self.disconnect(nowait=True)
            raise


class UnixConnection(aioredis.UnixDomainSocketConnection, Connection):
    """The same direct write on a Unix socket (a ``unix://`` URL): the socket's own connect,
    :class:`Connection`'s write."""


class RedisStore(RedisAccounts, RedisModeration):
    """Rooms and action logs in Redis, shared by every node of a cluster."""

    def __init__(
        self,
        url: str,
        *,
        prefix: str = "muggins:",
        timeout: float = 2.0,
        connections: int = POOL_SIZE,
        wait: float = POOL_WAIT,
        archive: PostgresArchive | None = None,
        accounts: PostgresAccounts | None = None,
        batch: float = 0.0,
    ) -> None:
        self.url = url
        self.archive = archive
        """Where finished matches move once nothing live needs them (None: they stay here)."""
        self.accounts = accounts
        """Where accounts, sessions, ratings, history and reviews are kept (None: here, in
        Redis); see server.cluster.durable."""
        if accounts is not None:
            delegate_accounts(self, accounts, settled=self._settled_in_postgres)
        self.prefix = prefix
        # Fail fast while Redis is down (players get an error at once), and retry a command once
        # so a connection the pool kept from before a Redis restart is replaced transparently.
        # The pool blocks: a burst of requests beyond its size waits for a free connection
        # (up to ``wait`` seconds) instead of failing with "Too many connections".
        options = parse_url(url)  # rediss:// keeps redis-py's TLS connection
        options.setdefault("connection_class", Connection)
        if "path" in options:
            options["connection_class"] = UnixConnection
        pool = aioredis.BlockingConnectionPool(
            **options,
            max_connections=connections,
            timeout=wait,
            socket_timeout=timeout,
            socket_connect_timeout=timeout,
            retry=Retry(ExponentialBackoff(cap=0.2, base=0.05), 1),
            health_check_interval=15,
            decode_responses=True,
        )
        self.redis: aioredis.Redis = aioredis.Redis(connection_pool=pool)
        self.line = ScriptLine(url, timeout=timeout, batch=batch)
        """The node's script calls (every write, and the catch-up's read): one pipelined
        connection, leaner than redis-py's pool (see server.cluster.redis_line)."""
        self._scripts = {
            name: (hashlib.sha1(text.encode()).hexdigest(), text) for name, text in SCRIPTS.items()
        }
        self._attempts: dict[tuple[str, int, int, str | None], str] = {}
        self._attempt_prefix = secrets.token_hex(6) + "-"
        self._attempt_count = 0
        """Attempt ids: this store's random prefix and a count (unique without a random draw
        per move)."""
        """The attempt id of each append whose outcome is not known yet."""
        self.node = ""
        """The node this store writes for (its wake-ups skip it); set by the node's lobby."""

    # --- keys ----------------------------------------------------------------------------------

    def room_key(self, code: str) -> str:
        return f"{self.prefix}room:{code}"

    def match_key(self, code: str, number: int) -> str:
        return f"{self.prefix}match:{code}:{number}"

    def log_key(self, code: str, number: int) -> str:
        return f"{self.prefix}log:{code}:{number}"

    def voided_key(self, code: str, number: int) -> str:
        return f"{self.prefix}voided:{code}:{number}"

    def player_key(self, player: str) -> str:
        return f"{self.prefix}player:{player}"

    def _player_keys(self, seats: tuple[SeatRecord, SeatRecord]) -> list[str]:
        return [self.player_key(s.player) for s in seats if s.kind == "human" and s.player]

    def watch_key(self, code: str) -> str:
        return f"{self.prefix}watch:{code}"

    @property
    def node_prefix(self) -> str:
        """The channel of node ``n`` is this prefix followed by ``n``."""
        return f"{self.prefix}node:"

    def node_channel(self, node: str) -> str:
        return self.node_prefix + node

    def _waking(self, code: str, kind: str, **facts: Any) -> list[Any]:
        """The ARGV head of a script that wakes the room's nodes (see scripts.WAKE)."""
        return [self.node_prefix, self.wake(kind, room=code, **facts), self.node]

    @property
    def open_key(self) -> str:
        return f"{self.prefix}rooms:open"

    @property
    def listed_key(self) -> str:
        return f"{self.prefix}rooms:listed"

    @property
    def summary_key(self) -> str:
        return f"{self.prefix}rooms:summary"

    @property
    def vacant_key(self) -> str:
        return f"{self.prefix}rooms:vacant"

    @property
    def finished_key(self) -> str:
        return f"{self.prefix}finished"

    @property
    def unsettled_key(self) -> str:
        return f"{self.prefix}unsettled"

    # --- plumbing ------------------------------------------------------------------------------

    async def _call(self, what: str, make: Callable[[], Awaitable[Any]]) -> Any:
        try:
            return await make()
        except RedisError as error:
            raise StoreError(f"Redis ({what}): {error}") from error

    async def _settled_in_postgres(self, match: str) -> None:
        """Match ``{code}-{n}`` is settled (in PostgreSQL): not listed as unsettled any more."""
        await self._call("unsettled", lambda: self.redis.zrem(self.unsettled_key, match))

    async def _script(self, name: str, keys: list[str], args: list[Any]) -> int:
        return int(await self._script_raw(name, keys, args))

    async def _script_raw(self, name: str, keys: list[str], args: list[Any]) -> Any:
        sha, text = self._scripts[name]
        return await self._call(name, lambda: self.line.evalsha(sha, text, keys, args))

    @staticmethod
    def wake(kind: str, **facts: Any) -> str:
        return json.dumps({"kind": kind, **facts}, separators=(",", ":"))

    # --- the Store protocol --------------------------------------------------------------------

    async def open(self) -> None:
        await self._call("ping", self.redis.ping)
        await self.fold_name_keys()
        if self.accounts is not None:  # they are kept in PostgreSQL: none may be left here
            await self._call("accounts", lambda: check_moved(self.redis, self.prefix))

    async def ping(self) -> float | None:
        """Answer once Redis has (readiness asks every second)."""
        await self._call("ping", self.redis.ping)
        return None

    async def close(self) -> None:
        if self.archive is not None:
            await self.archive.close()
        if self.accounts is not None:
            await self.accounts.close()
        await self.line.close()
        await self.redis.aclose(close_connection_pool=True)

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

    async def start_match(self, match: MatchRecord) -> None:
        started = await self._script(
            "start_match",
            [
                self.room_key(match.room),
                self.match_key(match.room, match.number),
                self.watch_key(match.room),
                self.listed_key,
                self.summary_key,
                self.unsettled_key,
            ],
            [
                *self._waking(match.room, "match", number=match.number),
                match.number,
                match.seed.hex(),
                match.options.model_dump_json(),
                json.dumps(match.names),
                repr(match.started),
                match.room,
            ],
        )
        if started < 0:
            raise StoreError(f"no room {match.room}")
        if started == 0:
            raise StoreConflict(f"match {match.id} exists")

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
    ) -> None:
        # A fresh attempt id per call: if this call times out and confirm_action reports the
        # move unsaved, this attempt is voided in Redis, in case it is still on its way there.
        self._attempt_count += 1
        attempt = f"{self._attempt_prefix}{self._attempt_count:x}"
        self._attempts[(code, number, index, key)] = attempt
        entry = encode_entry(seat, action, seq=seq, key=key)
        sha, text = self._scripts["append_action"]
        keys = [
            self.match_key(code, number),
            self.log_key(code, number),
            self.room_key(code),
            self.voided_key(code, number),
            self.watch_key(code),
        ]
        args = [
            self.node_prefix,
            self.node,
            index,
            entry,
            repr(time.time()),
            key or "",
            attempt,
            number,
            encode_basestring_ascii(code),
        ]
        # Straight to the script line (not through _script: one layer less on every move).
        length = await self._call("append_action", lambda: self.line.evalsha(sha, text, keys, args))
        self._attempts.pop((code, number, index, key), None)
        if length == NO_MATCH:
            raise StoreError(f"no match {code}-{number}")
        if length == VOIDED:
            raise StoreError(f"action {index} of {code}-{number}: this attempt was voided")
        if length == NOT_CURRENT:
            raise StoreConflict(f"room {code} has moved on from match {number}")
        if length < 0:
            raise StoreConflict(
                f"action {index} of {code}-{number}: the log has {-1 - length}", length=-1 - length
            )

    async def confirm_action(self, code: str, number: int, index: int, key: str) -> bool:
        attempt = self._attempts.get((code, number, index, key), "")
        stored = await self._script(
            "confirm_action",
            [self.log_key(code, number), self.voided_key(code, number)],
            [index, key, attempt or "-", VOIDED_KEEP_MS],
        )
        if stored or not attempt:
            self._attempts.pop((code, number, index, key), None)
        return bool(stored)

    async def finish_match(
        self, code: str, number: int, *, finished: float, result: MatchResult, winner: Seat | None
    ) -> None:
        done = await self._script(
            "finish_match",
            [
                self.match_key(code, number),
                self.finished_key,
                self.watch_key(code),
                self.room_key(code),
                self.listed_key,
                self.summary_key,
            ],
            [
                *self._waking(code, "finished", number=number),
                repr(finished),
                result,
                "" if winner is None else str(winner),
                f"{code}-{number}",
                str(number),
                code,
            ],
        )
        if not done:
            raise StoreError(f"no match {code}-{number}")

    async def record_hand_over(self, code: str, number: int, hand_over: HandOver) -> None:
        key, field = self.match_key(code, number), f"handover:{hand_over.seat}:{hand_over.at}"
        if not await self._script("hand_over", [key], [field, hand_over.model_dump_json()]):
            raise StoreError(f"no match {code}-{number}")

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

    async def finished_matches(self, *, limit: int = 50) -> list[MatchRecord]:
        """The latest finished matches, from Redis and the archive, newest first."""
        matches = await self._finished_here(limit)
        if self.archive is not None:
            matches += await self.archive.finished_matches(limit=limit)
            matches.sort(key=lambda m: m.finished or m.started, reverse=True)
        return matches[:limit]

    async def _finished_here(self, limit: int) -> list[MatchRecord]:
        members = await self._call(
            "history", lambda: self.redis.zrevrange(self.finished_key, 0, limit - 1)
        )
        matches = []
        for member in members:
            code, _, number = str(member).rpartition("-")
            match = await self._match(code, int(number), with_actions=False)
            if match is not None:
                matches.append(match)
        return matches

    def presence_key(self, code: str, seat: Seat) -> str:
        return f"{self.prefix}here:{code}:{seat}"

    async def load_match(
        self, code: str, number: int, *, archived: bool = True
    ) -> MatchRecord | None:
        """A match with its actions, from Redis, else (``archived``) from the archive."""
        found = await self._match(code, number, with_actions=True)
        if found is None and archived and self.archive is not None:
            found = await self.archive.load_match(code, number)
        return found

    # --- cluster reads -------------------------------------------------------------------------

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

    async def actions_since(
        self, code: str, number: int, start: int
    ) -> tuple[tuple[Seat, Action], ...]:
        """The actions of match ``number`` from index ``start`` on (the catch-up read)."""
        return tuple(
            (seat, action) for seat, action, _ in await self.moves_since(code, number, start)
        )

    async def moves_since(
        self, code: str, number: int, start: int
    ) -> tuple[tuple[Seat, Action, MoveTag], ...]:
        """Like :meth:`actions_since`, each action with its tag (seq named, key)."""
        raw = await self._call(
            "catch up", lambda: self.line.read("LRANGE", self.log_key(code, number), start, -1)
        )
        return tuple((*decode_entry(item), decode_tag(item)) for item in raw)

    async def current_match(self, code: str) -> int:
        """The room's current match number (0: none yet)."""
        value = await self._call("match", lambda: self.redis.hget(self.room_key(code), "match"))
        return int(value or 0)

    async def _match(self, code: str, number: int, *, with_actions: bool) -> MatchRecord | None:
        fields = await self._call("match", lambda: self.redis.hgetall(self.match_key(code, number)))
        if not fields:
            return None
        moves = await self.moves_since(code, number, 0) if with_actions else ()
        first, second = json.loads(fields["names"])
        winner = fields.get("winner", "")
        finished = fields.get("finished")
        result = fields.get("result")
        return MatchRecord(
            room=code,
            number=number,
            seed=bytes.fromhex(fields["seed"]),
            options=GameOptions.model_validate_json(fields["options"]),
            names=(first, second),
            started=float(fields["started"]),
            actions=tuple((seat, action) for seat, action, _ in moves),
            tags=tuple(tag for _, _, tag in moves),
            finished=float(finished) if finished is not None else None,
            result=result,
            winner=int(winner) if winner else None,
            hand_overs=tuple(
                sorted(
                    (
                        HandOver.model_validate_json(v)
                        for k, v in fields.items()
                        if k.startswith("handover:")
                    ),
                    key=lambda h: (h.at, h.seat),
                )
            ),
        )


async def _pipeline_llen(redis: aioredis.Redis, keys: list[str]) -> list[int]:
    async with redis.pipeline(transaction=False) as pipe:
        for key in keys:
            pipe.llen(key)
        return [int(n) for n in await pipe.execute()]


def encode_entry(
    seat: Seat, action: Action, *, seq: int | None = None, key: str | None = None
) -> str:
    """A log entry: ``{"seat":S,"action":{...},"seq":N,"key":"K"}``, compact, the action as its
    model writes it (one encoding, not a parse and a second encoding)."""
    text = f'{{"seat":{int(seat)},"action":{ACTION.dump_json(action).decode()}'
    if seq is not None:
        text += f',"seq":{int(seq)}'
    if key is not None:
        text += f',"key":{encode_basestring_ascii(key)}'
    return text + "}"


def decode_tag(raw: bytes | str) -> MoveTag:
    """The seq named and the key of a log entry (None, None for entries from before)."""
    return entry_tag(json.loads(raw))


def entry_tag(data: dict[str, Any]) -> MoveTag:
    seq, key = data.get("seq"), data.get("key")
    return (int(seq) if seq is not None else None, str(key) if key is not None else None)


def decode_entry(raw: bytes | str) -> tuple[Seat, Action]:
    return entry_action(json.loads(raw))


def entry_action(data: dict[str, Any]) -> tuple[Seat, Action]:
    """The seat and action of a log entry, parsed (as stored, or as a wake-up carries it)."""
    seat = int(data["seat"])
    if seat not in (0, 1):
        raise StoreError(f"bad seat {seat} in the log")
    action: Action = ACTION.validate_python(data["action"])
    return seat, action
