"""The standard level: the best expected hand over the 46 starters, and greedy pegging."""

from __future__ import annotations

import random

from shared.actions import Accept, Action, Count, Discard, Muggins, Play
from shared.bots.evaluation import discard_values, play_points
from shared.view import SeatView


def show_action(view: SeatView) -> Action | None:
    """Muggins mode: count exactly and always take points the opponent missed."""
    counts = [a for a in view.legal if isinstance(a, Count)]
    if counts:
        return max(counts, key=lambda a: a.points)
    if any(isinstance(a, Muggins) for a in view.legal):
        return Muggins()
    if any(isinstance(a, Accept) for a in view.legal):
        return Accept()
    return None


def greedy_play(view: SeatView, plays: list[Play]) -> Play:
    """The card that pegs most now; ties go to the higher card, keeping low ones for the go."""
    pile = [p.card.rank for p in view.pile]
    return max(plays, key=lambda a: (play_points(pile, view.count, a.card.rank), a.card))


class StandardStrategy:
    """Keeps the four cards with the best expected hand value; pegs greedily for points now."""

    level = "standard"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError("there is nothing legal to do in this view")
        show = show_action(view)
        if show is not None:
            return show
        plays = [a for a in view.legal if isinstance(a, Play)]
        if plays:
            return greedy_play(view, plays)
        if any(isinstance(a, Discard) for a in view.legal):
            values = discard_values(view.hand, dealer=view.dealer == view.seat)
            best = values[0].net
            ties = [v for v in values if v.net > best - 1e-9]
            pick = self.rng.choice(ties)
            return Discard(cards=pick.discard)
        return view.legal[0]
