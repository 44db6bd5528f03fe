"""What the opponent may hold in the play: the unseen cards, weighted and narrowed by the play.

Unseen cards are not equally likely in the opponent's hand. A player keeps some ranks more often
than others in each role (a pone rarely gives the dealer a five), so each unseen card is weighted
by how often a player in the opponent's role keeps its rank, measured in self-play
(``tools/play_tables.py``). The play narrows it further: when the opponent said go at count
``c``, every card it still holds is worth more than ``31 - c``.

>>> from muggins.shared.bots.belief import Belief
>>> b = Belief(unseen=tuple([0] + [4] * 13), cards=2, above=9)  # a go at 22: over 9 pips
>>> sorted(set(r for hand in b.sample(__import__("random").Random(1), 20) for r in hand))
[10, 11, 12, 13]
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from muggins.shared.bots.evaluation import pip
from muggins.shared.view import SeatView

Ranks = tuple[int, ...]


@dataclass(frozen=True)
class Belief:
    """The opponent holds ``cards`` of the ``unseen`` cards (counts by rank, index 1..13).

    ``weights[r]`` is how much likelier than average a card of rank r is to be in its hand, and
    every card it holds has a count value above ``above`` (0 when nothing is known).
    """

    unseen: Ranks
    cards: int
    above: int = 0
    weights: tuple[float, ...] = (0.0,) + (1.0,) * 13

    def card_weights(self) -> list[float]:
        """The weight of one unseen card of each rank (index 1..13); 0 where it cannot be held."""
        return [
            0.0 if r == 0 or pip(r) <= self.above else self.weights[r] * self.unseen[r]
            for r in range(14)
        ]

    def sample(self, rng: random.Random, draws: int) -> list[Ranks]:
        """``draws`` hands the opponent may hold, drawn card by card in proportion to weight."""
        return list(self.draw(rng, draws))

    def draw(self, rng: random.Random, draws: int) -> Iterator[Ranks]:
        """The hands of :meth:`sample`, each drawn only when asked for (a search that stops early
        leaves the rest undrawn; the ones drawn are the same)."""
        if self.cards <= 0:
            yield from [()] * draws
            return
        base = self.card_weights()
        per_card = [0.0 if self.unseen[r] == 0 else base[r] / self.unseen[r] for r in range(14)]
        if sum(1 for w in base if w > 0) == 0:
            yield from [()] * draws
            return
        for _ in range(draws):
            left = list(self.unseen)
            hand: list[int] = []
            for _ in range(self.cards):
                weights = [per_card[r] * left[r] for r in range(14)]
                total = sum(weights)
                if total <= 0.0:
                    break
                x = rng.random() * total
                rank = 13
                for r in range(1, 14):
                    x -= weights[r]
                    if x < 0.0:
                        rank = r
                        break
                left[rank] -= 1
                hand.append(rank)
            yield tuple(sorted(hand))


def went_above(view: SeatView) -> int:
    """The highest ``31 - count`` at which the opponent said go this deal (0 if never).

    Replays this deal's cards in order: the count restarts after 31 and before a card that would
    pass 31. Whenever it was the opponent's turn (after this seat's card) and the next card was
    this seat's again, or the count restarted, the opponent could not play at that count.
    """
    assert view.seat is not None
    me, them = view.seat, 1 - view.seat
    above = 0
    played = list(view.played)
    held = 4  # the opponent's cards in hand as the replay goes
    count = 0
    for i, card in enumerate(played):
        if count + card.card.value > 31:
            count = 0
        count += card.card.value
        if card.seat == them:
            held -= 1
        if count == 31:
            count = 0
            continue
        nxt = played[i + 1] if i + 1 < len(played) else None
        stopped = nxt is not None and (nxt.seat == me or count + nxt.card.value > 31)
        if card.seat == me and held > 0 and stopped:
            above = max(above, 31 - count)
    if view.said_go[them] and view.count:
        above = max(above, 31 - view.count)
    return above


def view_belief(view: SeatView, weights: Sequence[float] | None = None) -> Belief:
    """The belief about the opponent's hand in the play, from this seat's view."""
    from muggins.shared.bots.expert1 import unseen_ranks

    assert view.seat is not None
    them = 1 - view.seat
    return Belief(
        unseen=unseen_ranks(view),
        cards=view.hand_counts[them],
        above=went_above(view),
        weights=tuple(weights) if weights is not None else Belief.weights,
    )
