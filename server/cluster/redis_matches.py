"""A match in Redis: started, its actions appended (each at the index its log expects, so two
nodes can never fork a game), finished, and read back with its log, from Redis or the archive.
The match half of :class:`~server.cluster.redis_store.RedisStore`; keys in
:mod:`server.cluster.redis_keys`."""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from json.encoder import encode_basestring_ascii  # json.dumps of a str, without its layers
from typing import Any

import redis.asyncio as aioredis

from muggins.server.cluster.log_entries import decode_entry, decode_tag, encode_entry
from muggins.server.cluster.redis_keys import RedisKeys
from muggins.server.cluster.redis_line import ScriptLine
from muggins.server.cluster.scripts import NO_MATCH, NOT_CURRENT, VOIDED
from muggins.server.store.games import (
    MatchRecord,
    MatchResult,
    MoveTag,
    StoreConflict,
    StoreError,
)
from muggins.server.store.postgres import PostgresArchive
from muggins.shared.actions import Action, GameOptions, Seat
from muggins.shared.handover import HandOver

VOIDED_KEEP_MS = 86_400_000
"""How long a voided attempt is remembered (a day: far past any write still on its way)."""


class RedisMatches(RedisKeys):
    """Matches and their action logs, written by script and read back."""

    redis: aioredis.Redis
    line: ScriptLine
    archive: PostgresArchive | None
    _scripts: dict[str, tuple[str, str]]
    _attempts: dict[tuple[str, int, int, str | None], str]
    _attempt_prefix: str
    _attempt_count: int

    async def _call(self, what: str, make: Callable[[], Awaitable[Any]]) -> Any:
        raise NotImplementedError

    async def _script(self, name: str, keys: list[str], args: list[Any]) -> int:
        raise NotImplementedError

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

    async def load_match(
        self, code: str, number: int, *, archived: bool = True
    ) -> MatchRecord | None:
        """A match with its actions, from Redis, else (``archived``) from the archive."""
        found = await self._match(code, number, with_actions=True)
        if found is None and archived and self.archive is not None:
            found = await self.archive.load_match(code, number)
        return found

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
