"""The expert's pegging mixed: where the best cards' values are close, one of them played by
chance, so that an opponent who knows how it plays cannot read its hand from its cards as surely.
A variant measured with ``tools/best_response.py --level expert-mixed:M``, not a level a server
offers (docs/bots.md says what it gave). Its suits are drawn as the expert's are
(:mod:`muggins.shared.bots.suits`).

A pegging policy that always plays the same card from the same hand and history tells a
best responder which hands it holds, and where its next cards go (``tools/best_response.py``
measures how much that is worth). Values within a margin of the best are close calls by the
expert's own search, so playing them at times costs it little by its own reckoning. Each such
rank gets a weight falling from 1 (the best) to 0 at the margin; the chances are the weights
over their sum. The draw comes from a
generator seeded by the strategy's seed and the decision, so the same seed plays the same game.
"""

from __future__ import annotations

from typing import Protocol, runtime_checkable

from muggins.shared.actions import Action, Play
from muggins.shared.bots.evaluation import play_points
from muggins.shared.bots.expert import decision_rng, play_values
from muggins.shared.bots.expert3 import ExpertThreeStrategy, endgame_play, near_the_end
from muggins.shared.bots.suits import any_suit
from muggins.shared.cards import Card
from muggins.shared.view import SeatView

MARGIN = 0.3
"""By default, how far below the best value (in weighted points) a rank may be and still be
played."""


@runtime_checkable
class Mixes(Protocol):
    """A strategy whose play is mixed: it tells each card's chance in a view of the play."""

    def play_odds(self, view: SeatView) -> dict[Card, float]:
        """Each card it may play in ``view`` (waiting for its card) and its chance."""
        ...


def rank_odds(values: dict[int, float], margin: float = MARGIN) -> dict[int, float]:
    """Each rank's chance from its value: the best and those within ``margin`` of it, weighted
    ``1 - gap / margin``, the rest never.

    >>> rank_odds({5: 1.0, 10: 0.75, 2: 0.5}, 0.5)
    {5: 0.6666666666666666, 10: 0.3333333333333333}
    """
    best = max(values.values())
    weights = {
        r: 1.0 - (best - v) / margin if margin > 0 else 1.0
        for r, v in values.items()
        if best - v < margin or v == best
    }
    total = sum(weights.values())
    return {r: w / total for r, w in weights.items()}


def play_odds(
    view: SeatView, plays: list[Play], seed: int, margin: float = MARGIN
) -> dict[Card, float]:
    """Each card the expert may play and its chance: ``expert-2``'s values by rank (a card that
    pegs out is played at once), mixed by :func:`rank_odds`; of several cards of one rank, the
    highest suit stands for them all (suits never peg; :func:`mixed_play` draws one)."""
    assert view.seat is not None
    top = {p.card.rank: p.card for p in sorted(plays, key=lambda p: p.card)}
    if len(top) == 1:
        return {next(iter(top.values())): 1.0}
    need = view.options.target - view.scores[view.seat]
    pile = tuple(p.card.rank for p in view.pile)
    values = play_values(view, decision_rng(seed, view))
    rounded = {r: round(values.get(r, -99.0), 6) for r in top}
    out = [r for r in top if play_points(pile, view.count, r) >= need]
    if out:
        return {top[max(out, key=lambda r: (rounded[r], r))]: 1.0}
    return {top[r]: p for r, p in sorted(rank_odds(rounded, margin).items())}


def mixed_play(view: SeatView, plays: list[Play], seed: int, margin: float = MARGIN) -> Play:
    """A card drawn from :func:`play_odds`."""
    odds = play_odds(view, plays, seed, margin)
    cards = list(odds)
    x = decision_rng(seed, view, "mix").random() if len(cards) > 1 else 0.0
    pick = cards[-1]
    for card in cards:
        x -= odds[card]
        if x < 0:
            pick = card
            break
    return any_suit(view, Play(card=pick), seed)


class MixedExpert(ExpertThreeStrategy):
    """The expert with its points play mixed within ``margin`` (its endgame play is not)."""

    level = "expert-mixed"

    def __init__(self, seed: int = 0, *, margin: float = MARGIN) -> None:
        super().__init__(seed)
        self.margin = margin

    def choose(self, view: SeatView) -> Action:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if plays and not near_the_end(view):
            return mixed_play(view, plays, self.seed, self.margin)
        return super().choose(view)

    def play_odds(self, view: SeatView) -> dict[Card, float]:
        plays = [a for a in view.legal if isinstance(a, Play)]
        if near_the_end(view):
            return {endgame_play(view, plays, decision_rng(self.seed, view)).card: 1.0}
        return play_odds(view, plays, self.seed, self.margin)
