"""A token bucket: ``rate`` tokens a second, at most ``burst`` held, spent one per thing allowed.

Sans-I/O: the caller passes the time (any monotonic clock in seconds), so the same bucket limits
a server connection's messages, a player's or an address's new rooms, and paces a bot's moves.
"""

from __future__ import annotations


class TokenBucket:
    """Starts full; :meth:`take` spends a token if one is there."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, *, rate: float, burst: float, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = now

    @classmethod
    def per_minute(cls, count: float, *, now: float) -> TokenBucket:
        """``count`` a minute, with a burst of ``count``."""
        return cls(rate=count / 60, burst=count, now=now)

    def refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float) -> bool:
        """Spend a token if there is one (after refilling to ``now``)."""
        self.refill(now)
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True

    def full(self, now: float) -> bool:
        self.refill(now)
        return self.tokens >= self.burst

    def wait(self, now: float) -> float:
        """Seconds from ``now`` until a token is there (0 if one is)."""
        self.refill(now)
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate
