"""Accounts, sessions, ratings and history in memory (the :class:`AccountStore` of
:class:`~server.store.memory_games.MemoryStore`). Nothing survives the process."""

from __future__ import annotations

from dataclasses import replace

from muggins.server.store.accounts import (
    PENDING_REVIEWS_KEPT,
    REVIEW_LEASE,
    AccountRecord,
    HistoryEntry,
    MatchResult,
    PendingReview,
    QueueEntry,
    RateFn,
    Role,
    Stats,
    reviewed,
    settle,
)
from muggins.server.store.games import StoreConflict
from muggins.shared.glicko2 import Rating

HISTORY_KEPT = 1000
"""Finished matches kept per account."""


class MemoryAccounts:
    def __init__(self) -> None:
        self.accounts: dict[str, AccountRecord] = {}
        self.account_keys: dict[str, str] = {}
        self.sessions: dict[str, str] = {}
        self.settled: set[str] = set()
        self.histories: dict[str, list[HistoryEntry]] = {}
        self.queue: dict[str, QueueEntry] = {}
        self.paired: dict[str, str] = {}
        self.pending_reviews: dict[str, tuple[PendingReview, float]] = {}
        """Match id -> (the review, when its claim runs out), oldest first."""

    async def create_account(self, account: AccountRecord) -> None:
        if account.key in self.account_keys:
            raise StoreConflict(f"the name {account.name!r} is taken")
        self.accounts[account.id] = account
        self.account_keys[account.key] = account.id

    async def find_account(
        self, *, id: str | None = None, key: str | None = None
    ) -> AccountRecord | None:
        if key is not None:
            id = self.account_keys.get(key)
        return self.accounts.get(id) if id is not None else None

    async def set_password(self, id: str, password_hash: str) -> None:
        account = self.accounts.get(id)
        if account is not None:
            self.accounts[id] = replace(account, password_hash=password_hash)

    async def set_role(self, id: str, role: Role | None) -> None:
        account = self.accounts.get(id)
        if account is not None:
            self.accounts[id] = replace(account, role=role)

    async def restore_rating(self, id: str, rating: Rating, rated_games: int) -> None:
        account = self.accounts.get(id)
        if account is not None:
            self.accounts[id] = replace(account, rating=rating, rated_games=rated_games)

    async def rename_account(self, id: str, name: str, key: str) -> None:
        account = self.accounts.get(id)
        if account is None:
            return
        if self.account_keys.get(key, id) != id:
            raise StoreConflict(f"the name {name!r} is taken")
        self.account_keys.pop(account.key, None)
        self.account_keys[key] = id
        self.accounts[id] = replace(account, name=name, key=key)

    async def set_bot(self, id: str) -> None:
        account = self.accounts.get(id)
        if account is not None:
            self.accounts[id] = replace(account, bot=True)

    async def delete_account(self, id: str) -> None:
        account = self.accounts.pop(id, None)
        if account is not None:
            self.account_keys.pop(account.key, None)
        await self.drop_sessions(id)
        self.histories.pop(id, None)

    async def add_session(self, account: str, token_hash: str, created: float) -> None:
        self.sessions[token_hash] = account

    async def session_account(self, token_hash: str) -> str | None:
        return self.sessions.get(token_hash)

    async def drop_sessions(self, account: str) -> int:
        mine = [h for h, a in self.sessions.items() if a == account]
        for token_hash in mine:
            del self.sessions[token_hash]
        return len(mine)

    async def drop_session(self, token_hash: str) -> None:
        self.sessions.pop(token_hash, None)

    async def record_result(self, result: MatchResult, rate: RateFn) -> bool:
        if result.match in self.settled:
            return False
        self.settled.add(result.match)
        found = tuple(self.accounts.get(a) if a else None for a in result.accounts)
        updated, entries = settle(result, (found[0], found[1]), rate)
        for account in updated:
            self.accounts[account.id] = account
        for account_id, entry in entries:
            history = self.histories.setdefault(account_id, [])
            history.append(entry)
            del history[:-HISTORY_KEPT]
        if any(result.accounts):
            self.pending_reviews[result.match] = (PendingReview(result.match, result.accounts), 0.0)
            while len(self.pending_reviews) > PENDING_REVIEWS_KEPT:
                del self.pending_reviews[next(iter(self.pending_reviews))]
        return True

    async def claim_reviews(self, *, limit: int, now: float) -> list[PendingReview]:
        claimed: list[PendingReview] = []
        for _match, (pending, until) in self.pending_reviews.items():
            if len(claimed) >= limit:
                break
            if until <= now:
                claimed.append(pending)
        for pending in claimed:
            self.pending_reviews[pending.match] = (pending, now + REVIEW_LEASE)
        return claimed

    async def record_review(self, match: str, stats: tuple[Stats, Stats]) -> bool:
        found = self.pending_reviews.pop(match, None)
        if found is None:
            return False
        for account_id, seat_stats in zip(found[0].accounts, stats, strict=True):
            account = self.accounts.get(account_id) if account_id else None
            if account is not None and seat_stats:
                self.accounts[account.id] = reviewed(account, seat_stats)
        return True

    async def leaderboard(self, *, limit: int) -> list[AccountRecord]:
        ranked = [a for a in self.accounts.values() if a.rated_games and not a.rating.provisional]
        ranked.sort(key=lambda a: (-a.rating.rating, a.name))
        return ranked[:limit]

    async def account_history(self, account: str, *, limit: int) -> list[HistoryEntry]:
        history = self.histories.get(account, [])
        return sorted(history, key=lambda e: -e.finished)[:limit]

    async def queue_put(self, entry: QueueEntry) -> None:
        self.paired.pop(entry.account, None)
        self.queue[entry.account] = entry

    async def queue_touch(self, account: str, seen: float) -> bool:
        entry = self.queue.get(account)
        if entry is None:
            return False
        self.queue[account] = replace(entry, seen=seen)
        return True

    async def queue_remove(self, account: str) -> bool:
        return self.queue.pop(account, None) is not None

    async def queue_entries(self) -> list[QueueEntry]:
        return list(self.queue.values())

    async def queue_take(self, first: str, second: str, room: str) -> bool:
        if first == second or first not in self.queue or second not in self.queue:
            return False
        for account in (first, second):
            del self.queue[account]
            self.paired[account] = room
        return True

    async def queue_paired(self, account: str) -> str | None:
        return self.paired.pop(account, None)
