"""Tournament arithmetic, pure: arena points with a streak bonus, Swiss pairings by score, and
standings with the Buchholz tiebreak. The server's director (server.lobby.tournaments) feeds it
results and asks it whom to pair; nothing here knows of rooms, clocks or sockets.

**Arena.** A win scores 2, a draw (a duplicate match can end level) 1, a loss 0. After two wins
in a row each further win scores double (4) until the streak ends, as on lichess. Standings:
points, then wins, then the fewest games.

**Swiss.** A fixed number of rounds; a win 1, a draw 1/2, a loss 0, a bye 1. Each round pairs
players of equal (or nearest) score, highest first, never two who met before when it can be
helped; with an odd number the lowest-placed player without a bye gets one. Standings: score,
then **Buchholz** (the sum of one's opponents' scores), then wins.

>>> swiss = Swiss(["ann", "bob", "cy", "di"])
>>> swiss.pair_round()
[('ann', 'bob'), ('cy', 'di')]
>>> swiss.record("ann", "bob", 1.0); swiss.record("cy", "di", 0.0)
>>> swiss.pair_round()
[('ann', 'di'), ('bob', 'cy')]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

WIN, DRAW = 2, 1
STREAK_AFTER = 2
"""Wins in a row after which a win counts double."""


@dataclass
class Record:
    """One player's games in a tournament."""

    player: str
    points: float = 0.0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    streak: int = 0
    """Wins in a row just now."""
    opponents: list[str] = field(default_factory=list)
    byes: int = 0

    @property
    def games(self) -> int:
        return self.wins + self.draws + self.losses


class Arena:
    """Points per match with a streak bonus (see the module doc)."""

    def __init__(self, players: Iterable[str] = ()) -> None:
        self.records: dict[str, Record] = {}
        for player in players:
            self.add(player)

    def add(self, player: str) -> None:
        self.records.setdefault(player, Record(player))

    def record(self, first: str, second: str, score: float) -> None:
        """A finished match: ``score`` is the first player's (1 win, 0.5 draw, 0 loss)."""
        for me, other, mine in ((first, second, score), (second, first, 1.0 - score)):
            r = self.records[me]
            r.opponents.append(other)
            if mine == 1.0:
                r.points += WIN * (2 if r.streak >= STREAK_AFTER else 1)
                r.wins += 1
                r.streak += 1
            elif mine == 0.5:
                r.points += DRAW
                r.draws += 1
                r.streak = 0
            else:
                r.losses += 1
                r.streak = 0

    def standings(self) -> list[Record]:
        return sorted(self.records.values(), key=lambda r: (-r.points, -r.wins, r.games, r.player))

    def pair(self, free: Sequence[str]) -> list[tuple[str, str]]:
        """Pairs among the free players, nearest in points, avoiding a repeat of one's last
        opponent when another is free."""
        order = sorted(free, key=lambda p: (-self.records[p].points, p))
        pairs = []
        left = list(order)
        while len(left) >= 2:
            me = left.pop(0)
            last = self.records[me].opponents[-1] if self.records[me].opponents else None
            other = next((p for p in left if p != last), left[0])
            left.remove(other)
            pairs.append((me, other))
        return pairs


class Swiss:
    """Rounds paired by score, Buchholz as the tiebreak (see the module doc)."""

    def __init__(self, players: Iterable[str]) -> None:
        self.records = {p: Record(p) for p in players}
        self.rounds_paired = 0

    def record(self, first: str, second: str, score: float) -> None:
        for me, other, mine in ((first, second, score), (second, first, 1.0 - score)):
            r = self.records[me]
            r.opponents.append(other)
            r.points += mine
            if mine == 1.0:
                r.wins += 1
            elif mine == 0.5:
                r.draws += 1
            else:
                r.losses += 1

    def bye(self, player: str) -> None:
        r = self.records[player]
        r.points += 1.0
        r.byes += 1

    def buchholz(self, player: str) -> float:
        return sum(self.records[o].points for o in self.records[player].opponents)

    def standings(self) -> list[Record]:
        return sorted(
            self.records.values(),
            key=lambda r: (-r.points, -self.buchholz(r.player), -r.wins, r.player),
        )

    def pair_round(self, present: Iterable[str] | None = None) -> list[tuple[str, str]]:
        """The next round's pairs, and a bye (given here) for an odd player out."""
        players = set(self.records if present is None else present)
        order = [r.player for r in self.standings() if r.player in players]
        if len(order) % 2:
            out = next((p for p in reversed(order) if self.records[p].byes == 0), order[-1])
            order.remove(out)
            self.bye(out)
        self.rounds_paired += 1
        return _pair_without_repeats(order, self.records) or _pair_in_order(order)


def _pair_in_order(order: list[str]) -> list[tuple[str, str]]:
    return [(order[i], order[i + 1]) for i in range(0, len(order) - 1, 2)]


def _pair_without_repeats(
    order: list[str], records: dict[str, Record]
) -> list[tuple[str, str]] | None:
    """Top down, each with the highest-placed player it has not met (backtracking), or None."""
    if not order:
        return []
    me, rest = order[0], order[1:]
    for other in rest:
        if other in records[me].opponents:
            continue
        tail = _pair_without_repeats([p for p in rest if p != other], records)
        if tail is not None:
            return [(me, other), *tail]
    return None
