"""The first-generation expert (`expert-1`): the baseline the new expert is measured against.

Hand plus or minus crib discards, one-reply lookahead pegging, the board only near the end.
"""

from __future__ import annotations

import random

from muggins.shared.actions import Action, Discard, Play
from muggins.shared.bots.evaluation import (
    DiscardValue,
    crib_table,
    discard_values,
    hand_distribution,
    play_points,
)
from muggins.shared.bots.pegging import Pegging
from muggins.shared.bots.show import show_action
from muggins.shared.cards import Card
from muggins.shared.view import SeatView

ENDGAME = 12
"""Points from the target at which pegging weighs a side's points double."""
COUNT_OUT = 20
"""Points from the target at which the pone discards to count out rather than for the mean."""
PONE_PEGGING = 2
"""Points a pone can count on pegging before the show, about."""


def unseen_ranks(view: SeatView) -> tuple[int, ...]:
    """How many cards of each rank (index 1..13) this seat has not seen this deal."""
    counts = [0] + [4] * 13
    seen: list[Card] = [*view.hand, *view.discards, *(p.card for p in view.played)]
    if view.starter is not None:
        seen.append(view.starter)
    for card in seen:
        counts[card.rank] -= 1
    return tuple(counts)


def pegging_problem(view: SeatView) -> Pegging:
    """The view's pegging position, weighted for the board near the end of the game."""
    assert view.seat is not None
    me, them = view.seat, 1 - view.seat
    target = view.options.target
    return Pegging(
        hand=tuple(sorted(c.rank for c in view.hand)),
        unseen=unseen_ranks(view),
        opp_cards=view.hand_counts[them],
        opp_said_go=view.said_go[them],
        mine=2.0 if target - view.scores[me] <= ENDGAME else 1.0,
        theirs=2.0 if target - view.scores[them] <= ENDGAME else 1.0,
        depth=0,
    )


def expert_discards(view: SeatView) -> list[DiscardValue]:
    """Every discard valued by expected hand plus (dealer) or minus (pone) expected crib."""
    return discard_values(view.hand, dealer=view.dealer == view.seat, table=crib_table())


def board_discard(view: SeatView, values: list[DiscardValue]) -> DiscardValue:
    """The discard to make, playing to the board.

    The pone counts first, so near the end a pone that can reach the target in this show wins
    before the dealer counts: then it keeps the hand most likely to get there, by the exact
    chances over the 46 starters, and breaks ties by net value.
    """
    assert view.seat is not None
    need = view.options.target - view.scores[view.seat] - PONE_PEGGING
    if view.dealer == view.seat or need > COUNT_OUT:
        return values[0]
    six = view.hand
    chances = [
        sum(p for points, p in hand_distribution(v.kept, six).items() if points >= need)
        for v in values
    ]
    best = max(chances)
    if best <= 0.0:
        return values[0]
    return next(v for v, c in zip(values, chances, strict=True) if c >= best - 1e-9)


def expert_play(view: SeatView, plays: list[Play]) -> Play:
    """The card the lookahead likes best; a card that pegs out wins at once."""
    assert view.seat is not None
    need = view.options.target - view.scores[view.seat]
    problem = pegging_problem(view)
    pile = tuple(p.card.rank for p in view.pile)
    values = problem.values(pile=pile, count=view.count)

    def key(play: Play) -> tuple[bool, float, Card]:
        wins = play_points(pile, view.count, play.card.rank) >= need
        return (wins, round(values[play.card.rank], 6), play.card)

    return max(plays, key=key)


class ExpertOneStrategy:
    """Discards by hand and crib value, pegs with lookahead, plays to the board near the end."""

    level = "expert-1"

    def __init__(self, seed: int = 0) -> None:
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError("there is nothing legal to do in this view")
        show = show_action(view, self.rng)  # exact: counts every point, catches every slip
        if show is not None:
            return show
        plays = [a for a in view.legal if isinstance(a, Play)]
        if plays:
            return expert_play(view, plays)
        if any(isinstance(a, Discard) for a in view.legal):
            values = expert_discards(view)
            choice = board_discard(view, values)
            if choice is not values[0]:
                return Discard(cards=choice.discard)
            best = values[0].net
            ties = [v for v in values if v.net > best - 1e-9]
            return Discard(cards=self.rng.choice(ties).discard)
        return view.legal[0]
