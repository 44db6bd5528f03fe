"""A finished match in words, winner first: for ``muggins history`` and ``muggins replay``."""

from __future__ import annotations

from collections.abc import Sequence

from muggins.shared.actions import Outcome


def score_words(outcome: Outcome) -> str:
    """``121-87, skunk``: the winner's score first, then any skunk or a resignation."""
    words = f"{outcome.scores[outcome.winner]}-{outcome.scores[outcome.loser]}"
    if outcome.double_skunk:
        words += ", double skunk"
    elif outcome.skunk:
        words += ", skunk"
    if outcome.reason == "resign":
        words += ", by resignation"
    return words


def match_words(
    result: str | None, winner: int | None, games: Sequence[Outcome], names: Sequence[str]
) -> str:
    """Who won and by what: ``Alice won 121-87, skunk``, or for a longer match ``Alice won
    the match 2-1: Alice 121-99, Bob 121-100, Alice 121-80``; else the result (abandoned)."""
    if result != "won" or winner is None or not games:
        return result or "unfinished"
    if len(games) == 1:
        return f"{names[winner]} won {score_words(games[0])}"
    won = sum(1 for g in games if g.winner == winner)
    each = "; ".join(f"{names[g.winner]} {score_words(g)}" for g in games)
    return f"{names[winner]} won the match {won}-{len(games) - won}: {each}"
