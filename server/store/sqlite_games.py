"""A :class:`~server.store.games.Store` in one SQLite file (WAL), for a single server node.

It is put together from layers, each in its own module: the file and its two connections
(:mod:`server.store.sqlite_connections`), the moves committed in groups on the event loop
(:mod:`server.store.sqlite_moves`), the rooms and matches here, then the accounts
(:mod:`server.store.sqlite_accounts`) and moderation (:mod:`server.store.sqlite_moderation`).
Every write is committed before the coroutine returns.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from typing import Any

from muggins.server.store.games import (
    MatchRecord,
    MatchResult,
    MoveTag,
    RoomRecord,
    RoomSnapshot,
    SeatRecord,
    StoreError,
)
from muggins.server.store.seats_json import seats_from_json, seats_json
from muggins.server.store.sqlite_accounts import SqliteAccounts
from muggins.server.store.sqlite_moderation import SqliteModeration
from muggins.server.store.sqlite_moves import SqliteMoves
from muggins.shared.actions import ACTION, Action, GameOptions, Seat
from muggins.shared.handover import HandOver
from muggins.shared.protocol import RoomOptions


class SqliteStore(SqliteMoves, SqliteAccounts, SqliteModeration):
    async def create_room(self, room: RoomRecord) -> None:
        await self._run(
            lambda db: db.execute(
                "INSERT INTO rooms (code, options, created, seats) VALUES (?, ?, ?, ?)",
                (room.code, room.options.model_dump_json(), room.created, seats_json(room.seats)),
            )
        )

    async def save_seats(self, code: str, seats: tuple[SeatRecord, SeatRecord]) -> None:
        await self._run(
            lambda db: db.execute(
                "UPDATE rooms SET seats = ? WHERE code = ?", (seats_json(seats), code)
            )
        )

    async def start_match(self, match: MatchRecord) -> None:
        await self._run(
            lambda db: db.execute(
                "INSERT INTO matches (room, number, seed, options, names, started) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (
                    match.room,
                    match.number,
                    match.seed,
                    match.options.model_dump_json(),
                    json.dumps(match.names),
                    match.started,
                ),
            )
        )

    async def finish_match(
        self, code: str, number: int, *, finished: float, result: MatchResult, winner: Seat | None
    ) -> None:
        await self._run(
            lambda db: db.execute(
                "UPDATE matches SET finished = ?, result = ?, winner = ? "
                "WHERE room = ? AND number = ?",
                (finished, result, winner, code, number),
            )
        )

    async def record_hand_over(self, code: str, number: int, hand_over: HandOver) -> None:
        h = hand_over

        def keep(db: sqlite3.Connection) -> bool:
            found = db.execute(
                "SELECT 1 FROM matches WHERE room = ? AND number = ?", (code, number)
            ).fetchone()
            if found is not None:
                db.execute(
                    "INSERT OR IGNORE INTO handovers (room, number, seat, at, before, after) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (code, number, h.seat, h.at, h.before, h.after),
                )
            return found is not None

        if not await self._run(keep):
            raise StoreError(f"no match {code}-{number}")

    async def close_room(self, code: str) -> None:
        await self._run(
            lambda db: db.execute("UPDATE rooms SET closed = 1 WHERE code = ?", (code,))
        )

    async def open_rooms(self) -> list[RoomSnapshot]:
        def load(db: sqlite3.Connection) -> list[RoomSnapshot]:
            snapshots = []
            rows = db.execute("SELECT code, options, created, seats FROM rooms WHERE closed = 0")
            for code, options, created, seats in rows.fetchall():
                room = RoomRecord(
                    code=code,
                    options=RoomOptions.model_validate_json(options),
                    created=created,
                    seats=seats_from_json(seats),
                )
                last = db.execute(
                    "SELECT MAX(number) FROM matches WHERE room = ?", (code,)
                ).fetchone()[0]
                match = _load_match(db, code, last) if last is not None else None
                (earlier,) = db.execute(
                    "SELECT COUNT(*) FROM actions WHERE room = ? AND number < ?",
                    (code, last or 0),
                ).fetchone()
                snapshots.append(RoomSnapshot(room=room, match=match, previous_actions=earlier))
            return snapshots

        return await self._run(load)

    async def finished_matches(self, *, limit: int = 50) -> list[MatchRecord]:
        def load(db: sqlite3.Connection) -> list[MatchRecord]:
            rows = db.execute(
                f"SELECT {MATCH_COLUMNS} FROM matches WHERE finished IS NOT NULL "
                "ORDER BY finished DESC LIMIT ?",
                (limit,),
            ).fetchall()
            return [
                replace(m, hand_overs=_hand_overs(db, m.room, m.number))
                for m in map(_match_row, rows)
            ]

        return await self._run(load)

    async def load_match(self, code: str, number: int) -> MatchRecord | None:
        return await self._run(lambda db: _load_match(db, code, number))


MATCH_COLUMNS = "room, number, seed, options, names, started, finished, result, winner"


def _match(
    row: Any, actions: tuple[tuple[Seat, Action], ...], tags: tuple[MoveTag, ...] = ()
) -> MatchRecord:
    room, number, seed, options, names, started, finished, result, winner = row
    first, second = json.loads(names)
    return MatchRecord(
        room=room,
        number=number,
        seed=bytes(seed),
        options=GameOptions.model_validate_json(options),
        names=(first, second),
        started=started,
        actions=actions,
        tags=tags,
        finished=finished,
        result=result,
        winner=winner,
    )


def _load_match(db: sqlite3.Connection, code: str, number: int) -> MatchRecord | None:
    row = db.execute(
        f"SELECT {MATCH_COLUMNS} FROM matches WHERE room = ? AND number = ?", (code, number)
    ).fetchone()
    if row is None:
        return None
    rows = db.execute(
        "SELECT seat, action, seq, key FROM actions WHERE room = ? AND number = ? ORDER BY idx",
        (code, number),
    ).fetchall()
    actions = tuple((seat, ACTION.validate_json(text)) for seat, text, _, _ in rows)
    match = _match(row, actions, tuple((seq, key) for _, _, seq, key in rows))
    return replace(match, hand_overs=_hand_overs(db, code, number))


def _match_row(row: Any) -> MatchRecord:
    return _match(row, ())


def _hand_overs(db: sqlite3.Connection, code: str, number: int) -> tuple[HandOver, ...]:
    rows = db.execute(
        "SELECT seat, at, before, after FROM handovers WHERE room = ? AND number = ? "
        "ORDER BY at, seat",
        (code, number),
    ).fetchall()
    return tuple(HandOver(seat=s, at=at, before=b, after=a) for s, at, b, a in rows)
