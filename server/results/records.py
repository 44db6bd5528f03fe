"""A player's record: the counters kept per account, made from a finished match's log.

The counters (all integers, added up match by match) are:

- ``matches``, ``match_wins``; ``games``, ``wins``, ``losses``; ``skunks_given``,
  ``skunks_taken`` (a double skunk counts in these too), ``double_skunks_given``,
  ``double_skunks_taken``;
- ``deals_dealer``, ``deals_pone``: completed deals in each role (the deal a game ends in is
  left out, as in the tournament figures), and the points scored in them by source:
  ``dealer_pegging``, ``dealer_hand``, ``dealer_crib``, ``pone_pegging``, ``pone_hand``
  (pegging includes his heels, the go and the last card); ``muggins_points``;
- ``hands``, ``hand_points``, ``cribs``, ``crib_points``: every hand and crib shown, at its
  true value, for the average hand and crib;
- ``reviewed_deals``, ``given_away_discard_milli``, ``given_away_play_milli``: added later by the
  reviewer (:mod:`server.results.reviews`), for the average points given away per deal.

:func:`match_result` replays the match from its seed and log with the rules engine, so the
record always agrees with the game as it was played.
"""

from __future__ import annotations

from muggins.server.store.accounts import MatchResult, Stats
from muggins.server.store.games import MatchRecord
from muggins.shared.actions import GameOver, HandScored
from muggins.shared.bots.arena import Scorekeeper
from muggins.shared.match import Match

COUNTERS = (
    "matches", "match_wins", "games", "wins", "losses", "skunks_given", "skunks_taken",
    "double_skunks_given", "double_skunks_taken", "deals_dealer", "deals_pone",
    "dealer_pegging", "dealer_hand", "dealer_crib", "pone_pegging", "pone_hand",
    "muggins_points", "hands", "hand_points", "cribs", "crib_points",
    "reviewed_deals", "given_away_discard_milli", "given_away_play_milli",
)  # fmt: skip


def counts(stats: Stats) -> dict[str, int]:
    """Every counter, zero where nothing was added yet."""
    return {key: stats.get(key, 0) for key in COUNTERS}


def match_stats(match: Match) -> tuple[Stats, Stats]:
    """Each seat's counters for a match replayed with its events kept."""
    stats: tuple[Stats, Stats] = ({}, {})

    def add(seat: int, key: str, n: int = 1) -> None:
        stats[seat][key] = stats[seat].get(key, 0) + n

    replayed = Match(seed=match.seed, options=match.options)
    keeper = Scorekeeper((0, 1), replayed.game.dealer)
    for event in replayed.events:
        keeper.feed(event)
    for seat, action in match.log:
        for event in replayed.apply(seat, action):
            keeper.feed(event)
            if isinstance(event, HandScored):
                kind = event.kind  # "hand" or "crib"
                add(event.seat, f"{kind}s")
                add(event.seat, f"{kind}_points", event.total)
            elif isinstance(event, GameOver):
                winner = event.outcome.winner
                for seat_ in (0, 1):
                    add(seat_, "games")
                    add(seat_, "wins" if seat_ == winner else "losses")
                    given = seat_ == winner
                    if event.outcome.skunk or event.outcome.double_skunk:
                        add(seat_, "skunks_given" if given else "skunks_taken")
                    if event.outcome.double_skunk:
                        add(seat_, "double_skunks_given" if given else "double_skunks_taken")
    for seat in (0, 1):
        add(seat, "deals_dealer", keeper.deals[seat])
        add(seat, "deals_pone", keeper.deals[1 - seat])
        for (who, role, source), points in keeper.points.items():
            if who != seat:
                continue
            key = "muggins_points" if source == "muggins" else f"{role}_{source}"
            add(seat, key, points)
        if replayed.over:
            add(seat, "matches")
            add(seat, "match_wins", 1 if replayed.winner == seat else 0)
    return stats


def match_result(
    record: MatchRecord, accounts: tuple[str | None, str | None], *, rated: bool
) -> MatchResult | None:
    """What settling a finished match records, or None if it has no winner (not played out)."""
    match = Match.replay(record.options, record.seed, record.actions, keep_events=False)
    if not match.over or match.winner is None:
        return None
    return MatchResult(
        match=record.id,
        finished=record.finished or record.started,
        accounts=accounts,
        names=record.final_names,  # who held each seat at the end (the computer, if it took over)
        rated=rated,
        score=1.0 if match.winner == 0 else 0.0,
        match_points=(match.match_points[0], match.match_points[1]),
        stats=match_stats(match),
    )
