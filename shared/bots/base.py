"""The strategy interface and the simplest levels.

A strategy gets only a :class:`SeatView`, exactly what a remote player receives, and returns one
of ``view.legal``. It never sees the match, so it cannot reach hidden state. Its randomness comes
from its own seeded :class:`random.Random`, so games with bots are reproducible.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from shared.actions import Accept, Action, Count, Muggins
from shared.view import SeatView


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

    In muggins mode it counts exactly and always calls muggins ("the computer is very observant").
    """

    level = "easy"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError("there is nothing legal to do in this view")
        counts = [a for a in view.legal if isinstance(a, Count)]
        if counts:
            return max(counts, key=lambda a: a.points)
        if any(isinstance(a, Muggins) for a in view.legal):
            return Muggins()
        if any(isinstance(a, Accept) for a in view.legal):
            return Accept()
        return view.legal[0]


def _levels() -> dict[str, Callable[[int], Strategy]]:
    from shared.bots.expert import ExpertStrategy
    from shared.bots.standard import StandardStrategy

    return {
        "random": RandomStrategy,
        "easy": EasyStrategy,
        "standard": StandardStrategy,
        "expert": ExpertStrategy,
    }


LEVELS: dict[str, Callable[[int], Strategy]] = _levels()
"""Levels by name, weakest first: the last is the strongest."""


def make_strategy(level: str, *, seed: int = 0) -> Strategy:
    """A strategy of the named level, seeded for reproducible play."""
    try:
        factory = LEVELS[level]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; choose from {', '.join(LEVELS)}") from None
    return factory(seed)
