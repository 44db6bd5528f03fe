"""Muggins mode for the computer: count its own hand, and answer the opponent's claim.

A computer player sees only its view, as a person would: the shown cards and the claim, never the
total (the server does not send it before the claim is answered). It counts the cards itself.
The expert counts exactly and catches every mistake. Easier levels now and then overlook one
scoring combination in their own count, and let a wrong count pass, by level; their slips come
from their own seeded generator, so a game is reproducible from its seeds. The computer never
claims more than it counts, and never calls unless the count is really short or over.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from muggins.shared.actions import Accept, Action, Challenge, Count, Muggins
from muggins.shared.scoring import score_hand
from muggins.shared.view import SeatView


@dataclass(frozen=True)
class Attention:
    """How often a level slips in the show (0: never)."""

    overlook: float = 0.0
    """The chance of missing one scoring combination when counting its own hand or crib."""
    let_pass: float = 0.0
    """The chance of accepting a short count or an over-count instead of calling it."""


EXACT = Attention()


def show_action(view: SeatView, rng: random.Random, attention: Attention = EXACT) -> Action | None:
    """The move in the show (a count, or an answer to a claim), or None outside the show."""
    counting = any(isinstance(a, Count) for a in view.legal)
    answering = any(isinstance(a, Accept) for a in view.legal)
    if not (counting or answering) or not view.show:
        return None
    pending = view.show[-1]
    score = score_hand(pending.cards, pending.starter, crib=pending.kind == "crib")
    if counting:
        claim = score.total
        if score.parts and attention.overlook and rng.random() < attention.overlook:
            claim -= rng.choice(score.parts).points
        return Count(points=claim)
    claimed = pending.claimed
    if claimed is None or claimed == score.total:
        return Accept()
    if attention.let_pass and rng.random() < attention.let_pass:
        return Accept()
    return Muggins() if claimed < score.total else Challenge()
