"""Token buckets: so many things a minute, with a burst, per player or per address."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Bucket:
    """``per_minute`` tokens a minute, at most ``per_minute`` held (the burst)."""

    per_minute: float
    stamp: float
    tokens: float = -1.0

    def __post_init__(self) -> None:
        if self.tokens < 0:
            self.tokens = self.per_minute

    def refill(self, now: float) -> None:
        self.tokens = min(self.per_minute, self.tokens + (now - self.stamp) * self.per_minute / 60)
        self.stamp = now

    def take(self, now: float) -> bool:
        """Spend a token if there is one."""
        self.refill(now)
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def full(self, now: float) -> bool:
        self.refill(now)
        return self.tokens >= self.per_minute
