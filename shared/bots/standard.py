"""The standard level: the best expected hand over the 46 starters, and greedy pegging."""

from __future__ import annotations

import random

from muggins.shared.actions import Action, Discard, Play
from muggins.shared.bots.evaluation import discard_values, play_points
from muggins.shared.bots.show import Attention, show_action
from muggins.shared.view import SeatView


def greedy_play(view: SeatView, plays: list[Play]) -> Play:
    """The card that pegs most now; ties go to the higher card, keeping low ones for the go."""
    pile = [p.card.rank for p in view.pile]
    return max(plays, key=lambda a: (play_points(pile, view.count, a.card.rank), a.card))


ATTENTION = Attention(overlook=0.1, let_pass=0.2)
"""Muggins mode: misses one combination in one count of ten, lets one wrong count in five pass."""


class StandardStrategy:
    """Keeps the four cards with the best expected hand value; pegs greedily for points now."""

    level = "standard"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)
        self.show_rng = random.Random(f"show:{seed}")

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError("there is nothing legal to do in this view")
        show = show_action(view, self.show_rng, ATTENTION)
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
