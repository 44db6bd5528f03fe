"""A room's restart proposal and rematch wishes in Redis: read at each catch-up, and written by
compare-and-set, so two nodes' wishes made at once are both kept."""

from __future__ import annotations

import asyncio
import json
from typing import Protocol

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.rooms.players import Refusal
from muggins.server.rooms.room import Room
from muggins.server.store.games import StoreConflict, StoreError


class Copy(Protocol):
    """What this module needs of a room's copy (server.cluster.room.RoomCopy)."""

    room: Room
    redis: ClusterStore
    agreement_text: str
    """The agreement as last read from or written to Redis ('' for none)."""
    agreement_lock: asyncio.Lock
    """Serialises this node's agreement writes."""
    conflicted: bool
    """Whether the last write lost a race."""


def take_agreement(copy: Copy, text: str | None) -> None:
    """A restart proposal or rematch wish made through another node."""
    if text is None:
        return
    room = copy.room
    copy.agreement_text = text
    data = json.loads(text)
    if data.get("match") != room.match_number:
        return  # about an earlier match
    restart_by, rematch = data.get("restart_by"), [bool(w) for w in data.get("rematch", ())]
    if len(rematch) != 2:
        return
    if (restart_by, rematch) != (room.restart_by, room.rematch):
        room.restart_by, room.rematch = restart_by, rematch
        room.send_room()


async def save_agreement(copy: Copy) -> None:
    """The restart proposal and rematch wishes made here, saved by compare-and-set."""
    room = copy.room
    async with copy.agreement_lock:
        text = json.dumps(
            {"match": room.match_number, "restart_by": room.restart_by, "rematch": room.rematch}
        )
        if text == copy.agreement_text:
            return  # Redis has it already
        try:
            await copy.redis.save_agreement(room.code, text, expected=copy.agreement_text)
        except StoreConflict as error:
            # Another node wrote meanwhile (both players asked for a rematch at once): catch
            # up, which reads its wish, and try again (see change).
            copy.conflicted = True
            raise Refusal("storage", "The room changed meanwhile; try again") from error
        except StoreError as error:
            raise Refusal("storage", "The game store is unreachable; try again") from error
        copy.agreement_text = text
