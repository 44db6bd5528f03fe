"""The two seats of a room as the stores keep them: one JSON array, each seat an object
(SQLite's ``rooms.seats``, Redis's ``room:{code}`` hash, PostgreSQL's archive)."""

from __future__ import annotations

import json
from typing import cast

from muggins.server.store.games import SeatKind, SeatRecord


def seats_json(seats: tuple[SeatRecord, SeatRecord]) -> str:
    return json.dumps(
        [
            {
                "seat": s.seat,
                "kind": s.kind,
                "name": s.name,
                "player": s.player,
                "token_hash": s.token_hash,
                "level": s.level,
                "account": s.account,
            }
            for s in seats
        ]
    )


def seats_from_json(text: str) -> tuple[SeatRecord, SeatRecord]:
    first, second = (
        SeatRecord(
            seat=int(s["seat"]),
            kind=cast(SeatKind, s["kind"]),
            name=s["name"],
            player=s["player"],
            token_hash=s["token_hash"],
            level=s["level"],
            account=s.get("account"),
        )
        for s in json.loads(text)
    )
    return first, second
