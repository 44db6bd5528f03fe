"""Settling finished matches: ratings (Glicko-2), records and history, exactly once.

A match is settled when it finishes (the room calls :func:`settle_match` after storing the
last move), and again, harmlessly, whenever a server rebuilds a room whose match is over (after
a restart, or on another node of a cluster): the store settles each match id once.
"""

from __future__ import annotations

import json
import logging
from dataclasses import replace

from muggins.server.results.records import match_result
from muggins.server.store.accounts import MatchResult
from muggins.server.store.games import Store, StoreError
from muggins.shared.glicko2 import Rating, rate_game

log = logging.getLogger("muggins.ratings")


def rate(first: Rating, second: Rating, score: float) -> tuple[Rating, Rating]:
    """Both ratings after one rated match, a rating period of its own (as lichess does)."""
    return rate_game(first, second, score)


PAIR_WINDOW = 24 * 3600.0
"""Seconds in which rated matches between the same two accounts are counted..."""
PAIR_RATED_MAX = 3
"""...and how many of them count: a fourth within the window counts not at all."""


async def unrated_because(
    store: Store,
    accounts: tuple[str | None, str | None],
    *,
    finished: float,
    shared_address: bool,
    pair_max: int = PAIR_RATED_MAX,
) -> str | None:
    """Why a rated match between these accounts must not move their ratings, or None.

    Two accounts playing from one address, or one pair playing rated matches again and again,
    is how ratings are farmed (one account resigning to the other): such a result counts in the
    records but not in the ratings (docs/accounts.md says why).
    """
    first, second = accounts
    if first is None or second is None:
        return None
    if shared_address:
        return "both players connected from one address"
    history = await store.account_history(first, limit=100)
    recent = [
        entry
        for entry in history
        if entry.opponent_account == second
        and entry.rated
        and finished - PAIR_WINDOW < entry.finished <= finished
    ]
    if len(recent) >= pair_max:
        return f"these two played {pair_max} rated matches in the last 24 hours"
    return None


async def settle_match(
    store: Store,
    code: str,
    number: int,
    accounts: tuple[str | None, str | None],
    *,
    rated: bool,
    shared_address: bool = False,
    pair_max: int = PAIR_RATED_MAX,
) -> str:
    """Record a finished match for the accounts that played it, once. Returns a sentence saying
    how the ratings moved ("Ann 1500 -> 1662, Bob 1500 -> 1338"), or why they did not, or "" if
    there was nothing to settle or it was settled before. A store failure is logged: the next
    rebuild settles it."""
    if accounts == (None, None):
        return ""
    try:
        record = await store.load_match(code, number)
        if record is None:
            return ""
        result = match_result(record, accounts, rated=rated)
        if result is None:
            return ""
        return await settle_result(store, result, shared_address=shared_address, pair_max=pair_max)
    except StoreError as error:
        log.warning("match %s-%d: could not settle: %s", code, number, error)
        return ""


async def settle_result(
    store: Store,
    result: MatchResult,
    *,
    shared_address: bool = False,
    pair_max: int = PAIR_RATED_MAX,
) -> str:
    """Record ``result`` once (see :func:`settle_match`, which it ends); a duplicate match's
    result, made of both its tables, comes here directly. A rated result that
    :func:`unrated_because` rules out is recorded unrated. Raises StoreError."""
    why = None
    if result.rated:
        why = await unrated_because(
            store,
            result.accounts,
            finished=result.finished,
            shared_address=shared_address,
            pair_max=pair_max,
        )
        if why is not None:
            result = replace(result, rated=False)
    before = {}
    if result.rated:
        for account_id in result.accounts:
            found = await store.find_account(id=account_id) if account_id else None
            if found is not None:
                r = found.rating
                before[found.id] = [r.rating, r.deviation, r.volatility, found.rated_games]
    if await store.record_result(result, rate):
        log.info("match settled", extra={"match": result.match, "rated": result.rated})
        if len(before) == 2:
            # What a moderator's void puts back, exactly (server.lobby.moderation).
            await store.record_put("rated-before", result.match.upper(), json.dumps(before))
        if why is not None:
            return f"Not rated: {why}"
        parts = []
        for account_id in result.accounts:
            found = await store.find_account(id=account_id) if account_id else None
            history = await store.account_history(found.id, limit=5) if found else []
            entry = next((e for e in history if e.match == result.match), None)
            if found and entry and entry.rating_before is not None:
                parts.append(f"{found.name} {entry.rating_before:.0f} -> {entry.rating_after:.0f}")
        return "Ratings: " + ", ".join(parts) if parts else "Recorded"
    return ""
