"""A cluster's durable account data in PostgreSQL: which store methods go there.

A node started with ``--redis URL --postgres URL`` hands the methods named in
:data:`ACCOUNT_METHODS` to :class:`~server.store.postgres_accounts.PostgresAccounts`:
accounts, sessions, ratings, records, history, the review queue, and moderation (bans, mutes,
reports, blocks, the moderation log and rooms' kept chat). Live play stays in
Redis: rooms and their logs, presence, the rated queue and its pairings (``queue_*``), the
sign-in limits (:mod:`server.cluster.signin`, counters every attempt writes, which expire
within minutes), locks and wake-ups. Without ``--postgres`` everything stays in Redis.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final

from muggins.server.store.accounts import MatchResult, RateFn
from muggins.server.store.postgres_accounts import PostgresAccounts

ACCOUNT_METHODS: Final = (
    "create_account",
    "find_account",
    "set_password",
    "set_role",
    "restore_rating",
    "rename_account",
    "set_bot",
    "delete_account",
    "add_session",
    "session_account",
    "drop_sessions",
    "drop_session",
    "claim_reviews",
    "record_review",
    "leaderboard",
    "account_history",
    # moderation (server.store.moderation): bans, mutes, reports, blocks, the log, kept chat
    "record_put",
    "record_get",
    "records",
    "list_append",
    "list_read",
    "list_names",
    "list_drop_through",
)
"""The methods handed over as they are: the :class:`~server.store.accounts.AccountStore`'s but
the rated queue's and ``record_result`` (which :func:`delegate_accounts` wraps), and every
:class:`~server.store.moderation.ModerationStore` method."""


def delegate_accounts(
    store: object, accounts: PostgresAccounts, *, settled: Callable[[str], Awaitable[None]]
) -> None:
    """Make ``store``'s account methods those of ``accounts`` (on this instance only).

    A settlement is committed in PostgreSQL, then ``settled(match)`` takes the match off
    Redis's list of unsettled matches (which the sweep and the archive read). A node dying
    between the two leaves it listed: the sweep settles it again, which changes nothing in
    PostgreSQL, and then takes it off."""
    for name in ACCOUNT_METHODS:
        setattr(store, name, getattr(accounts, name))

    async def record_result(result: MatchResult, rate: RateFn) -> bool:
        done = await accounts.record_result(result, rate)
        await settled(result.match)
        return done

    setattr(store, "record_result", record_result)  # noqa: B010  (an instance's own method)
