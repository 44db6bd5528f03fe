"""Saving a move for certain: a failed write is not called "not saved" until the store says so.

A write that times out may still have run (Redis got the script, the answer was lost), or may
still be on its way. So after a failure the store is asked (:meth:`Store.confirm_action`, which
also voids a write still on its way); only its "not stored" makes the move refused with
``storage``. If the store does not answer at all, the player hears ``unconfirmed``: the outcome
is unknown, and sending the same move again is safe because it is applied once at most.
"""

from __future__ import annotations

import asyncio
import logging
import secrets

from muggins.server.rooms.cluster_seam import RoomWrites
from muggins.server.rooms.players import Refusal
from muggins.server.store.games import StoreConflict, StoreError
from muggins.shared.actions import Action

log = logging.getLogger("muggins.room")

CONFIRM_TRIES = 4
CONFIRM_FIRST = 0.25
"""Asking the store whether a failed write ran: this many tries, waiting 0.25 s, 0.5 s, ..."""


def anonymous_key(seat: int) -> str:
    """A key for a move sent without an ``id``: unique, so it is stored and checked like any."""
    return f"{seat}:~{secrets.token_hex(6)}"


async def store_action(
    store: RoomWrites,
    code: str,
    number: int,
    index: int,
    seat: int,
    action: Action,
    *,
    seq: int | None,
    key: str,
) -> bool:
    """Append action ``index``: True once stored, False only if it certainly is not.

    False also when another writer took the index (:class:`StoreConflict`). Raises
    :class:`Refusal` ``unconfirmed`` when the store cannot tell.
    """
    try:
        await store.append_action(code, number, index, seat, action, seq=seq, key=key)
        return True
    except StoreConflict as error:
        log.info("room %s: %s", code, error)
        return False  # refused by the store: certainly not written
    except StoreError as error:
        log.warning("room %s: store failed: %s", code, error)
    wait = CONFIRM_FIRST
    for attempt in range(CONFIRM_TRIES):
        try:
            stored = await store.confirm_action(code, number, index, key)
        except StoreError as error:
            log.warning("room %s: could not confirm action %d: %s", code, index, error)
            if attempt + 1 < CONFIRM_TRIES:
                await asyncio.sleep(wait)
                wait *= 2
            continue
        if stored:
            log.info("room %s: action %d was stored after all", code, index)
        return stored
    raise Refusal(
        "unconfirmed",
        "The game store did not answer, so the server cannot tell whether that move was saved; "
        "send the same move again (same id and seq) to find out",
    )
