"""The expert level: hand plus or minus crib discards, lookahead pegging, play to the board."""

from __future__ import annotations

import random

from shared.actions import Action, Discard, Play
from shared.bots.evaluation import DiscardValue, crib_table, discard_values
from shared.bots.pegging import Pegging
from shared.bots.standard import show_action
from shared.cards import Card
from shared.view import SeatView

ENDGAME = 12
"""Points from the target at which pegging weighs a side's points double."""


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


def expert_play(view: SeatView, plays: list[Play]) -> Play:
    """The card the lookahead likes best; a card that pegs out wins at once."""
    assert view.seat is not None
    need = view.options.target - view.scores[view.seat]
    problem = pegging_problem(view)
    pile = tuple(p.card.rank for p in view.pile)
    values = problem.values(pile=pile, count=view.count)
    from shared.bots.evaluation import play_points

    def key(play: Play) -> tuple[bool, float, Card]:
        wins = play_points(pile, view.count, play.card.rank) >= need
        return (wins, round(values[play.card.rank], 6), play.card)

    return max(plays, key=key)


class ExpertStrategy:
    """Discards by hand and crib value, pegs with lookahead, plays to the board near the end."""

    level = "expert"

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
            return expert_play(view, plays)
        if any(isinstance(a, Discard) for a in view.legal):
            values = expert_discards(view)
            best = values[0].net
            ties = [v for v in values if v.net > best - 1e-9]
            return Discard(cards=self.rng.choice(ties).discard)
        return view.legal[0]
