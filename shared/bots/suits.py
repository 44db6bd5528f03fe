"""Which suit the expert plays of the rank it chose: any one of its cards of that rank, each as
likely, drawn from a generator seeded by its seed and the decision.

Suits never peg, and the hand shown and the crib are already laid, so the choice costs nothing.
Always playing the highest suit would tell an opponent who knows it that a lower suit played was
the only card of its rank the expert held; drawn evenly, the suit played tells only what any
card shown would.
"""

from __future__ import annotations

from muggins.shared.actions import Play
from muggins.shared.bots.expert import decision_rng
from muggins.shared.view import SeatView


def any_suit(view: SeatView, play: Play, seed: int) -> Play:
    """``play``, or another legal card of its rank, each as likely.

    >>> from muggins.shared.cards import parse_cards
    >>> from muggins.shared.match import Match
    >>> view = Match(seed=1).view(0).model_copy(
    ...     update={"legal": tuple(Play(card=c) for c in parse_cards("7S 7H 9D"))}
    ... )
    >>> sorted({any_suit(view, Play(card=parse_cards("7S")[0]), s).card.suit for s in range(20)})
    ['H', 'S']
    >>> any_suit(view, Play(card=parse_cards("9D")[0]), 0).card
    Card(rank=9, suit='D')
    """
    same = sorted(
        a.card for a in view.legal if isinstance(a, Play) and a.card.rank == play.card.rank
    )
    if len(same) < 2:
        return play
    return Play(card=decision_rng(seed, view, "suit").choice(same))
