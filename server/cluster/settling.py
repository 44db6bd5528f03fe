"""The sweep of matches finished and not settled: what a node that died left behind.

A node settles a match the moment it applies its last move (``Room.settle``). If it dies
between storing that move and settling it, and neither player comes back to a node that would
rebuild the room, nothing would: so every match started is listed in Redis's ``unsettled`` set,
a settlement takes it out (in the same transaction that applies it), and one node per sweep
round looks at the matches listed there whose room has had no write for a while. A finished
one is marked finished if nobody did, and settled; settling is exactly once per match id
whoever does it (:func:`server.results.settle.settle_match`), so a sweep that races a returning
player, or another sweep, settles nothing twice.
"""

from __future__ import annotations

import logging
import time

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.duplicate import settle_pair
from muggins.server.results.settle import settle_match
from muggins.shared.match import Match

log = logging.getLogger("muggins.cluster")

BATCH = 1000
"""Listed matches looked at per sweep round at most, the least recently looked at first (a match
in play goes to the back), so a dead node's match is reached within a few rounds."""


async def settle_unsettled(
    store: ClusterStore, *, quiet_for: float, pair_max: int, limit: int = BATCH
) -> int:
    """Settle the listed matches that are over and whose rooms have had no write for
    ``quiet_for`` seconds; drop from the list those that never need it. ``pair_max`` is the
    server's rated_pair_per_day, as a room that settles its own match applies it. Returns how
    many were settled here."""
    now = time.time()
    settled = 0
    for member in await store.unsettled(before=now - quiet_for, limit=limit):
        code, _, text = member.rpartition("-")
        number = int(text)
        room = await store.settling_room(code)
        first, second = (
            (s.account if s.kind == "human" else None for s in room.seats) if room else (None, None)
        )
        if room is None or (first is None and second is None):
            await store.drop_unsettled(member)  # gone, or guests only: nothing to record
            continue
        if room.options.duplicate:
            # One match of two tables, settled once its second table is over (as one match).
            if await settle_pair(store, code, number, rated=room.options.rated, pair_max=pair_max):
                await store.drop_unsettled(member)
            else:
                await store.recheck_unsettled(member, at=now)
            continue
        if room.touched > now - quiet_for:
            await store.recheck_unsettled(member, at=now)  # in play: look again later
            continue
        record = await store.load_match(code, number)
        if record is None:
            await store.drop_unsettled(member)
            continue
        match = Match.replay(record.options, record.seed, record.actions, keep_events=False)
        if not match.over:
            if room.closed or room.match != number:
                await store.drop_unsettled(member)  # abandoned, or the room moved on
            else:
                await store.recheck_unsettled(member, at=now)  # idle: look again later
            continue
        if record.finished is None:
            await store.finish_match(code, number, finished=now, result="won", winner=match.winner)
        moved = await settle_match(
            store, code, number, (first, second), rated=room.options.rated, pair_max=pair_max
        )
        if moved:
            settled += 1
            log.info("match %s settled by the sweep: %s", member, moved)
        if await store.is_settled(member):
            await store.drop_unsettled(member)  # (a settlement drops it; one from before may not)
    return settled
