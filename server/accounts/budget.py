"""The budget for expensive reads: finished games (replays), histories and the leaderboard.

Each is answered from the store and can be large, so besides the connection's message rate a
player (one connection) and an address each have a token bucket for them: a flood of replays
from several connections of one address is refused cheaply (``rate_limited``) instead of being
built and sent, and live games keep their pace.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from muggins.server.rooms.players import Player, Refusal
from muggins.shared.token_bucket import TokenBucket

ADDRESSES_KEPT = 100_000
"""Addresses remembered at most; past it, those whose bucket is full are forgotten."""


class ReadBudget:
    def __init__(
        self,
        *,
        per_connection: float = 1.0,
        per_address: float = 2.0,
        burst: float = 10.0,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.per_connection, self.per_address, self.burst = per_connection, per_address, burst
        self.clock = clock
        self._addresses: dict[str, TokenBucket] = {}

    def take(self, player: Player, address: str) -> None:
        """Count one expensive read, or refuse it (nothing counted) past either budget."""
        now = self.clock()
        mine = player.reads
        if mine is None:
            mine = player.reads = TokenBucket(rate=self.per_connection, burst=self.burst, now=now)
        theirs = self._addresses.get(address)
        if theirs is None:
            if len(self._addresses) >= ADDRESSES_KEPT:
                for key in [k for k, b in self._addresses.items() if b.full(now)]:
                    del self._addresses[key]
            theirs = self._addresses[address] = TokenBucket(
                rate=self.per_address, burst=self.burst * 2, now=now
            )
        mine.refill(now)
        if mine.tokens < 1 or not theirs.take(now):
            raise Refusal(
                "rate_limited",
                "Too many requests for games, histories or the leaderboard: wait a few seconds",
            )
        mine.take(now)
