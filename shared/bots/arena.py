"""Games between computer players, in-process, and the tallies a tournament reports.

Game ``i`` of a pairing gets its own seed derived from the tournament seed, so any game can be
replayed alone, and the results do not depend on how games are spread over worker processes.
The first player deals first in even games and the second in odd ones.

>>> record = play_game("standard", "random", seed=1, index=0)
>>> record.first_dealer, record.winner in (0, 1)
(0, True)
"""

from __future__ import annotations

import hashlib
import math
from dataclasses import dataclass, field

from muggins.shared.actions import (
    CardPlayed,
    DealRevealed,
    DealStarted,
    Event,
    GameOptions,
    Outcome,
    Scored,
)
from muggins.shared.bots.base import make_strategy
from muggins.shared.match import Match

SOURCES = ("pegging", "hand", "crib", "muggins")
ROLES = ("dealer", "pone")
REASON_SOURCE = {
    "heels": "pegging",
    "go": "pegging",
    "last_card": "pegging",
    "hand": "hand",
    "crib": "crib",
    "muggins": "muggins",
    "challenge": "muggins",
    "wrong_call": "muggins",
}


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` in a tournament seeded with ``seed``."""
    digest = hashlib.sha256(f"muggins-tournament:{seed}:{index}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


@dataclass
class GameRecord:
    """One finished game from the players' side: player 0 is the first named level."""

    index: int
    winner: int
    scores: tuple[int, int]
    skunk: bool
    double_skunk: bool
    first_dealer: int
    deals: tuple[int, int] = (0, 0)
    """Completed deals each player dealt."""
    points: dict[tuple[int, str, str], int] = field(default_factory=dict)
    """Points in completed deals by (player, role, source)."""
    commitments: tuple[str, ...] = ()
    """Each deal's commitment to its deck, in order (equal decks have equal commitments)."""


class Scorekeeper:
    """Adds up who scored what, in which role, from a game's public events.

    Points count only in completed deals (a deal is complete when the next one starts), so the
    averages per deal are not skewed by the deal the game ended in.
    """

    def __init__(self, player_of: tuple[int, int], dealer: int) -> None:
        self.player_of = player_of
        self.dealer = dealer
        self.first_dealer = dealer
        """The seat that dealt first."""
        self.deals = [0, 0]
        self.points: dict[tuple[int, str, str], int] = {}
        self.pending: dict[tuple[int, str, str], int] = {}
        self._revealed = False

    def feed(self, event: Event) -> None:
        if isinstance(event, CardPlayed | Scored):
            points = event.points
            source = "pegging" if isinstance(event, CardPlayed) else REASON_SOURCE[event.reason]
            if points:
                role = "dealer" if event.seat == self.dealer else "pone"
                key = (self.player_of[event.seat], role, source)
                self.pending[key] = self.pending.get(key, 0) + points
        elif isinstance(event, DealRevealed):
            self._revealed = True
        elif isinstance(event, DealStarted):
            if self._revealed:
                self.deals[self.player_of[self.dealer]] += 1
                for key, n in self.pending.items():
                    self.points[key] = self.points.get(key, 0) + n
            self.pending = {}
            self._revealed = False
            self.dealer = event.dealer


def play_game(
    first: str,
    second: str,
    *,
    seed: int,
    index: int,
    options: GameOptions | None = None,
) -> GameRecord:
    """Play one game between two levels and record who scored what, where."""
    match = Match(seed=game_seed(seed, index), options=options or GameOptions(), keep_events=False)
    dealer_seat = match.game.dealer
    first_dealer = index % 2
    # player_of[seat]: the seat that deals first goes to the player who should deal first.
    player_of = (
        (first_dealer, 1 - first_dealer) if dealer_seat == 0 else (1 - first_dealer, first_dealer)
    )
    return play_seated(match, (first, second), player_of, index=index)


def play_seated(
    match: Match, levels: tuple[str, str], player_of: tuple[int, int], *, index: int
) -> GameRecord:
    """Play ``match``'s first game out with player ``player_of[seat]`` in each seat.

    Each seat's bot is seeded from the match seed and the seat, so two games of one seed with the
    players swapped give each player's cards the same tie-breaking generator.
    """
    seed = match.seed if isinstance(match.seed, int) else int.from_bytes(match.seed[:8], "big")
    bots = [make_strategy(levels[player_of[s]], seed=seed ^ (s + 1)) for s in (0, 1)]
    keeper = Scorekeeper(player_of, match.game.dealer)
    commitments = [e.commitment for e in match.events if isinstance(e, DealStarted)]
    games = len(match.games)
    while len(match.games) == games:
        seat = match.waiting_for()[0]
        for event in match.apply(seat, bots[seat].choose(match.view(seat))):
            keeper.feed(event)
            if isinstance(event, DealStarted) and len(match.games) == games:
                commitments.append(event.commitment)
    record = record_of(
        match.games[-1], index=index, first_dealer=player_of[keeper.first_dealer], keeper=keeper
    )
    record.commitments = tuple(commitments)
    return record


def record_of(
    outcome: Outcome, *, index: int, first_dealer: int, keeper: Scorekeeper
) -> GameRecord:
    """The record of a finished game, from the players' side."""
    player_of = keeper.player_of
    return GameRecord(
        index=index,
        winner=player_of[outcome.winner],
        scores=(outcome.scores[player_of.index(0)], outcome.scores[player_of.index(1)]),
        skunk=outcome.skunk,
        double_skunk=outcome.double_skunk,
        first_dealer=first_dealer,
        deals=(keeper.deals[0], keeper.deals[1]),
        points=keeper.points,
    )


@dataclass
class Tally:
    """The running totals of one pairing."""

    players: tuple[str, str]
    games: int = 0
    wins: list[int] = field(default_factory=lambda: [0, 0])
    skunks: list[int] = field(default_factory=lambda: [0, 0])
    """Games each player won with a skunk (or a double skunk)."""
    double_skunks: list[int] = field(default_factory=lambda: [0, 0])
    first_dealer_wins: int = 0
    deals: list[int] = field(default_factory=lambda: [0, 0])
    points: dict[tuple[int, str, str], int] = field(default_factory=dict)

    def add(self, record: GameRecord) -> None:
        self.games += 1
        self.wins[record.winner] += 1
        if record.skunk or record.double_skunk:
            self.skunks[record.winner] += 1
        if record.double_skunk:
            self.double_skunks[record.winner] += 1
        if record.winner == record.first_dealer:
            self.first_dealer_wins += 1
        for p in (0, 1):
            self.deals[p] += record.deals[p]
        for key, n in record.points.items():
            self.points[key] = self.points.get(key, 0) + n

    def win_rate(self, player: int) -> float:
        return self.wins[player] / self.games if self.games else 0.0

    def per_deal(self, player: int, role: str, source: str | None = None) -> float:
        """Mean points ``player`` scored per completed deal in ``role`` (from ``source``)."""
        # A player's dealer deals are the deals it dealt; its pone deals are the other's.
        deals = self.deals[player] if role == "dealer" else self.deals[1 - player]
        if not deals:
            return 0.0
        sources = SOURCES if source is None else (source,)
        total = sum(self.points.get((player, role, s), 0) for s in sources)
        return total / deals

    def names(self) -> tuple[str, str]:
        a, b = self.players
        return (a, f"{b} (2)") if a == b else (a, b)

    def to_json(self) -> dict[str, object]:
        names = self.names()
        return {
            "players": list(names),
            "games": self.games,
            "wins": {names[p]: self.wins[p] for p in (0, 1)},
            "win_rate": {names[p]: self.win_rate(p) for p in (0, 1)},
            "ci95": list(wilson(self.wins[0], self.games)),
            "skunks": {names[p]: self.skunks[p] for p in (0, 1)},
            "double_skunks": {names[p]: self.double_skunks[p] for p in (0, 1)},
            "first_dealer_win_rate": self.first_dealer_wins / self.games if self.games else 0.0,
            "points_per_deal": {
                names[p]: {
                    role: {
                        "total": self.per_deal(p, role),
                        **{s: self.per_deal(p, role, s) for s in SOURCES},
                    }
                    for role in ROLES
                }
                for p in (0, 1)
            },
        }


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    >>> [round(x, 3) for x in wilson(60, 100)]
    [0.502, 0.691]
    """
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    spread = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    low = 0.0 if successes == 0 else max(0.0, centre - spread)
    high = 1.0 if successes == trials else min(1.0, centre + spread)
    return (low, high)
