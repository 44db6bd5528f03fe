"""The strategy interface and the simplest levels.

A strategy gets only a :class:`SeatView`, exactly what a remote player receives, and returns one
of ``view.legal``. It never sees the match, so it cannot reach hidden state. Its randomness comes
from its own seeded :class:`random.Random`, so games with bots are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from muggins.shared.actions import Action
from muggins.shared.bots.show import Attention, show_action
from muggins.shared.view import SeatView


class Strategy(Protocol):
    """Decides one seat's moves from that seat's view."""

    level: str

    def choose(self, view: SeatView) -> Action:
        """Return one of ``view.legal``; called only when the view's seat is waited for."""
        ...


class RandomStrategy:
    """A uniformly random legal choice."""

    level = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError("there is nothing legal to do in this view")
        return self.rng.choice(view.legal)


class EasyStrategy:
    """The Turbo Cribbage computer: lays away its first two cards and plays its first legal card.

    In muggins mode it overlooks a combination in one count of four, and lets half the wrong
    counts it sees pass.
    """

    level = "easy"
    attention = Attention(overlook=0.25, let_pass=0.5)

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.show_rng = random.Random(f"show:{seed}")

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError("there is nothing legal to do in this view")
        show = show_action(view, self.show_rng, self.attention)
        return show if show is not None else view.legal[0]


def stand_in_move(view: SeatView) -> Action:
    """The move a server makes for a player whose time is up: in the show the exact count and
    the right call (it plays for them, so it neither slips nor gives points away), else the
    easy level's move."""
    show = show_action(view, random.Random(0))
    return show if show is not None else EasyStrategy().choose(view)


def _levels() -> dict[str, Callable[[int], Strategy]]:
    from muggins.shared.bots.expert4 import ExpertFourStrategy
    from muggins.shared.bots.standard import StandardStrategy

    return {
        "random": RandomStrategy,
        "easy": EasyStrategy,
        "standard": StandardStrategy,
        "expert": ExpertFourStrategy,
    }


def _baselines() -> dict[str, Callable[[int], Strategy]]:
    from muggins.shared.bots.expert import ExpertStrategy
    from muggins.shared.bots.expert1 import ExpertOneStrategy
    from muggins.shared.bots.expert3 import ExpertThreeStrategy

    return {
        "expert-1": ExpertOneStrategy,
        "expert-2": ExpertStrategy,
        "expert-3": ExpertThreeStrategy,
    }


LEVELS: dict[str, Callable[[int], Strategy]] = _levels()
"""Levels by name, weakest first: the last is the strongest. These are what a server offers."""
BASELINES: dict[str, Callable[[int], Strategy]] = _baselines()
"""Earlier players kept to measure new ones against (tournaments and benchmarks only):
``expert-1`` is the first-generation expert, ``expert-2`` the second, ``expert-3`` the third (the
second with its endgame search, before it read the opponent's plays)."""


def make_strategy(level: str, *, seed: int = 0) -> Strategy:
    """A strategy of the named level or baseline, seeded for reproducible play."""
    factory = LEVELS.get(level) or BASELINES.get(level)
    if factory is None:
        choices = ", ".join([*LEVELS, *BASELINES])
        raise ValueError(f"unknown level {level!r}; choose from {choices}")
    return factory(seed)
