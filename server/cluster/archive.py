"""Moving finished matches from Redis to PostgreSQL, exactly once (see docs/hosting.md).

Redis keeps live play; a finished match moves to the archive (:mod:`server.store.postgres`)
once nothing live needs it: it is settled (not listed in ``unsettled``), and its room is closed
(a node rebuilding an open room loads its current match, and counts its earlier matches' actions
to number the moves).
Each move is a copy then a delete: the copy is one transaction keyed by the match id (a second
copy changes nothing), and the delete is one Lua script, so a node killed between the two, or
PostgreSQL down, leaves the match in Redis for the next round, never lost and never doubled.
One node per sweep round moves the oldest finished matches.
"""

from __future__ import annotations

import logging

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.store.postgres import PostgresArchive

log = logging.getLogger("muggins.cluster")

BATCH = 500
"""Finished matches read from Redis at a time (the oldest first)."""
LOOK_AT = 5000
"""Finished matches looked at per sweep round at most (those still needed are passed over)."""


async def archive_finished(store: ClusterStore, archive: PostgresArchive) -> int:
    """Move the finished matches that nothing live needs to ``archive``; returns how many moved.
    A failure of either store raises StoreError: what is not moved yet waits for the next round."""
    moved = kept = 0
    while kept < LOOK_AT:
        members = await store.oldest_finished(start=kept, limit=BATCH)
        if not members:
            break
        for member in members:
            if await _move(store, archive, member):
                moved += 1
            else:
                kept += 1
        if len(members) < BATCH:
            break
    if moved:
        log.info("%d finished matches moved to PostgreSQL", moved)
    return moved


async def _move(store: ClusterStore, archive: PostgresArchive, member: str) -> bool:
    """Move one finished match; False if something live still needs it in Redis."""
    code, _, text = member.rpartition("-")
    number = int(text)
    if await store.is_unsettled(member):
        return False  # the settlement reads it from Redis first
    room = await store.settling_room(code)
    if room is not None and not room.closed:
        return False  # a node rebuilding the room reads its matches
    record = await store.load_match(code, number, archived=False)
    if record is not None and record.finished is not None:
        await archive.save_match(record)
    await store.forget_match(code, number)
    return True
