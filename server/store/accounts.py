"""What the stores keep for accounts: the records, and the interface each store implements.

Every :class:`~server.store.games.Store` (memory, SQLite, Redis) is also an :class:`AccountStore`.
A finished match is settled once with :meth:`AccountStore.record_result`: keyed by the match id,
so a second call (after a restart, or on another node of a cluster) changes nothing. Ratings,
records and history change in the same atomic step as that key is written.

The same step puts the match in the **review queue** (when it had an account at a table): the
reviewer (:mod:`server.results.reviews`) later claims it with :meth:`AccountStore.claim_reviews` and
adds what each seat gave away to its record with :meth:`AccountStore.record_review`, which, like
the settlement, counts once per match whoever calls it and however often.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from typing import Literal, Protocol

from muggins.shared.glicko2 import Rating

Role = Literal["admin", "moderator"]
"""What an account may do besides play: an admin grants roles and moderates, a moderator
moderates (see :mod:`server.accounts.roles`)."""
ROLES: tuple[Role, ...] = ("admin", "moderator")
Stats = dict[str, int]
"""A player's counters (see :mod:`server.results.records`), added up game by game."""
RateFn = Callable[[Rating, Rating, float], tuple[Rating, Rating]]
"""New ratings of (seat 0, seat 1) from their ratings and seat 0's score."""


@dataclass(frozen=True, slots=True)
class AccountRecord:
    id: str
    name: str
    key: str
    """The name's uniqueness key (``server.accounts.credentials.name_key``)."""
    password_hash: str
    created: float
    rating: Rating = field(default_factory=Rating)
    rated_games: int = 0
    stats: Stats = field(default_factory=dict)
    role: Role | None = None
    bot: bool = False
    """A bot account: set when it is made (or by an admin), never cleared; shown with a mark."""


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    """One finished match, from one account's side."""

    match: str
    finished: float
    seat: int
    opponent: str
    opponent_account: str | None
    result: Literal["won", "lost", "drawn", "abandoned"]
    rated: bool
    match_points: tuple[int, int]
    """(this player, the opponent)"""
    rating_before: float | None = None
    rating_after: float | None = None


@dataclass(frozen=True, slots=True)
class MatchResult:
    """A finished match's facts for settling: who sat where and what each seat gained."""

    match: str
    finished: float
    accounts: tuple[str | None, str | None]
    names: tuple[str, str]
    rated: bool
    score: float | None
    """Seat 0's score (1 a win, 0 a loss, 0.5 a duplicate match drawn); None for a match without
    a winner (abandoned)."""
    match_points: tuple[int, int]
    stats: tuple[Stats, Stats]


REVIEW_LEASE = 600.0
"""Seconds a claimed review stays claimed: if its reviewer dies, it is claimed again after."""
PENDING_REVIEWS_KEPT = 10_000
"""Reviews waiting at most (the oldest go first); a server without review workers queues too."""


@dataclass(frozen=True, slots=True)
class PendingReview:
    """A settled match waiting for its review: whose records it goes to."""

    match: str
    accounts: tuple[str | None, str | None]


class AccountStore(Protocol):
    async def create_account(self, account: AccountRecord) -> None:
        """Raise :class:`~server.store.games.StoreConflict` if an account has the same key."""

    async def find_account(
        self, *, id: str | None = None, key: str | None = None
    ) -> AccountRecord | None: ...

    async def set_password(self, id: str, password_hash: str) -> None: ...

    async def set_role(self, id: str, role: Role | None) -> None:
        """Grant ``role`` to the account (None: take its role away)."""

    async def restore_rating(self, id: str, rating: Rating, rated_games: int) -> None:
        """Put the account's rating back (a voided result), leaderboard included."""

    async def rename_account(self, id: str, name: str, key: str) -> None:
        """A new name (a moderator's forced rename); StoreConflict if the key is taken."""

    async def set_bot(self, id: str) -> None:
        """Flag the account a bot account, for ever (an admin's act; nothing clears it)."""

    async def delete_account(self, id: str) -> None:
        """The account, its sessions and its history go; its name is free again."""

    async def add_session(self, account: str, token_hash: str, created: float) -> None: ...

    async def session_account(self, token_hash: str) -> str | None: ...

    async def drop_sessions(self, account: str) -> int:
        """Sign out everywhere: how many sessions there were."""

    async def drop_session(self, token_hash: str) -> None: ...

    async def record_result(self, result: MatchResult, rate: RateFn) -> bool:
        """Settle a match once: False (and nothing changed) if it was settled before."""

    async def claim_reviews(self, *, limit: int, now: float) -> list[PendingReview]:
        """Up to ``limit`` queued reviews nobody holds (oldest first), each now held by the
        caller until ``now + REVIEW_LEASE``."""

    async def record_review(self, match: str, stats: tuple[Stats, Stats]) -> bool:
        """Add a match's review to its accounts' records and take it off the queue, atomically:
        False (and nothing changed) if it is not queued (recorded before)."""

    async def leaderboard(self, *, limit: int) -> list[AccountRecord]:
        """Accounts with an established rating (not provisional), best first."""

    async def account_history(self, account: str, *, limit: int) -> list[HistoryEntry]:
        """Newest first."""

    async def queue_put(self, entry: QueueEntry) -> None:
        """Join (or rejoin) the rated queue; a pending pairing of the account is forgotten."""

    async def queue_touch(self, account: str, seen: float) -> bool:
        """Still here: False if the account is no longer queued (paired or removed)."""

    async def queue_remove(self, account: str) -> bool: ...

    async def queue_entries(self) -> list[QueueEntry]: ...

    async def queue_take(self, first: str, second: str, room: str) -> bool:
        """Atomically take both out of the queue, paired into ``room``; False (and nothing
        changed) unless both were still queued."""

    async def queue_paired(self, account: str) -> str | None:
        """The room an account was paired into, once (the record is removed)."""


def merge_stats(old: Stats, new: Stats) -> Stats:
    merged = dict(old)
    for key, value in new.items():
        merged[key] = merged.get(key, 0) + value
    return merged


def reviewed(account: AccountRecord, stats: Stats) -> AccountRecord:
    """The account with a review's counters added."""
    return replace(account, stats=merge_stats(account.stats, stats))


def pending_json(accounts: tuple[str | None, str | None]) -> str:
    return json.dumps(list(accounts))


def pending_from_json(match: str, text: str) -> PendingReview:
    first, second = json.loads(text)
    return PendingReview(match=match, accounts=(first, second))


def settle(
    result: MatchResult, accounts: tuple[AccountRecord | None, AccountRecord | None], rate: RateFn
) -> tuple[list[AccountRecord], list[tuple[str, HistoryEntry]]]:
    """The accounts after a match and each one's history entry: the store-independent part."""
    first, second = accounts
    ratings: tuple[Rating | None, Rating | None] = (None, None)
    rated = result.rated and first is not None and second is not None and result.score is not None
    if rated and first is not None and second is not None and result.score is not None:
        ratings = rate(first.rating, second.rating, result.score)
    updated: list[AccountRecord] = []
    entries: list[tuple[str, HistoryEntry]] = []
    for seat, account in enumerate(accounts):
        if account is None:
            continue
        new_rating = ratings[seat]
        updated.append(
            replace(
                account,
                rating=new_rating or account.rating,
                rated_games=account.rated_games + (1 if new_rating else 0),
                stats=merge_stats(account.stats, result.stats[seat]),
            )
        )
        score = result.score
        outcome: Literal["won", "lost", "drawn", "abandoned"] = "abandoned"
        if score == 0.5:
            outcome = "drawn"  # a duplicate match can end level
        elif score is not None:
            outcome = "won" if (score == 1.0) == (seat == 0) else "lost"
        entries.append(
            (
                account.id,
                HistoryEntry(
                    match=result.match,
                    finished=result.finished,
                    seat=seat,
                    opponent=result.names[1 - seat],
                    opponent_account=result.accounts[1 - seat],
                    result=outcome,
                    rated=new_rating is not None,
                    match_points=(result.match_points[seat], result.match_points[1 - seat]),
                    rating_before=account.rating.rating if new_rating else None,
                    rating_after=new_rating.rating if new_rating else None,
                ),
            )
        )
    return updated, entries


def account_json(account: AccountRecord) -> str:
    return json.dumps(
        {
            "id": account.id,
            "name": account.name,
            "key": account.key,
            "password_hash": account.password_hash,
            "created": account.created,
            "rating": [
                account.rating.rating,
                account.rating.deviation,
                account.rating.volatility,
            ],
            "rated_games": account.rated_games,
            "stats": account.stats,
            "role": account.role,
            "bot": account.bot,
        }
    )


def account_from_json(text: str) -> AccountRecord:
    data = json.loads(text)
    rating, deviation, volatility = data["rating"]
    return AccountRecord(
        id=data["id"],
        name=data["name"],
        key=data["key"],
        password_hash=data["password_hash"],
        created=data["created"],
        rating=Rating(rating, deviation, volatility),
        rated_games=data["rated_games"],
        stats={str(k): int(v) for k, v in data["stats"].items()},
        role=data.get("role"),
        bot=bool(data.get("bot", False)),
    )


def entry_json(entry: HistoryEntry) -> str:
    return json.dumps(asdict(entry))


def entry_from_json(text: str) -> HistoryEntry:
    data = json.loads(text)
    data["match_points"] = tuple(data["match_points"])
    return HistoryEntry(**data)


@dataclass(frozen=True, slots=True)
class QueueEntry:
    """A signed-in player waiting for a rated opponent (see :mod:`server.lobby.matchmaking`)."""

    account: str
    name: str
    rating: float
    best_of: int
    since: float
    """When they joined the queue (Unix time)."""
    seen: float
    """When a node last confirmed they are still connected (Unix time)."""
    bot: bool = False
    """A bot account."""
    people_only: bool = False
    """Never paired with a bot account."""
    duplicate: bool = False
    """Wants a duplicate match (paired only with another who does)."""


def queue_json(entry: QueueEntry) -> str:
    return json.dumps(asdict(entry))


def queue_from_json(text: str) -> QueueEntry:
    return QueueEntry(**json.loads(text))
