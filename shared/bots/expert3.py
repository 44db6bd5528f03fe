"""The third expert (``expert-3``), kept as a baseline and as the base of the expert
(:mod:`muggins.shared.bots.expert4`), built on the second (``expert-2``,
:mod:`muggins.shared.bots.expert`).

It discards and plays as ``expert-2`` does while the game cannot end in this deal; once either
side is within reach of the target (:data:`~muggins.shared.bots.endgame.REACH`), it searches the
rest of the play for its chance to win rather than for weighted points
(:mod:`muggins.shared.bots.endgame`): each hand the opponent may hold is played out to the last
card, every line ending in a win or a loss as soon as a side reaches the target, or else in the
chance to win after the show, counted in the rules' order.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

from muggins.shared.actions import Action, Play
from muggins.shared.bots.endgame import ShowOdds, WinSearch, crib_odds, in_reach
from muggins.shared.bots.evaluation import hand_points, play_points, rank_points
from muggins.shared.bots.expert import (
    EXACT_CARDS,
    ExpertStrategy,
    Reader,
    decision_rng,
    expert_play,
    opponent_belief,
    opponent_hands,
    play_values,
)
from muggins.shared.bots.suits import any_suit
from muggins.shared.cards import DECK, Card
from muggins.shared.view import SeatView

WIN_DRAWS = {8: 8, 7: 12, 6: 16, 5: 24}
"""Opponent hands drawn for the win search by cards left in both hands (32 for fewer): the
search with scores is costlier than the points search, so fewer than ``expert-2`` draws."""


def unseen_cards(view: SeatView) -> list[Card]:
    """The cards this seat has not seen this deal."""
    seen = {*view.hand, *view.discards, *(p.card for p in view.played)}
    if view.starter is not None:
        seen.add(view.starter)
    return [c for c in DECK if c not in seen]


def win_values(view: SeatView, rng: random.Random, read: Reader | None = None) -> dict[int, float]:
    """Each playable rank's chance to win, over the hands the opponent may hold, each searched
    to the end of the play and the show (see :mod:`muggins.shared.bots.endgame`)."""
    assert view.seat is not None and view.starter is not None
    me, them = view.seat, 1 - view.seat
    i_deal = view.dealer == me
    target = view.options.target
    starter = view.starter
    mine = tuple(sorted(c.rank for c in view.hand))
    kept = [*view.hand, *(p.card for p in view.played if p.seat == me)]
    theirs_played = [p.card.rank for p in view.played if p.seat == them]
    own = hand_points(kept, starter) if len(kept) == 4 else 8
    crib = crib_odds(view.discards, starter, unseen_cards(view))
    none = ((0, 1.0),)
    pile = tuple(p.card.rank for p in view.pile)
    last = None if not view.pile else (0 if view.pile[-1].seat == me else 1)
    belief = opponent_belief(view)
    hands: Iterable[tuple[tuple[int, ...], float]]
    posterior = read.posterior(view, belief) if read is not None else None
    if posterior is not None:
        exact = belief.cards <= EXACT_CARDS
        hands = (
            posterior.hands
            if exact
            else posterior.draw(rng, WIN_DRAWS.get(len(mine) + belief.cards, 32))
        )
    elif belief.cards <= EXACT_CARDS:
        hands = opponent_hands(belief, rng, 0)
    else:
        draws = WIN_DRAWS.get(len(mine) + belief.cards, 32)
        hands = ((hand, 1.0) for hand in belief.draw(rng, draws))
    totals: dict[int, float] = {}
    mass = 0.0
    searches: dict[int, WinSearch] = {}  # the hands that show the same share one search
    for hand, weight in hands:
        their_show = rank_points([*theirs_played, *hand, starter.rank])
        search = searches.get(their_show)
        if search is None:
            theirs = (
                tuple((their_show + c, p) for c, p in crib) if not i_deal else ((their_show, 1.0),)
            )
            odds = ShowOdds(
                mine=(own,),
                theirs=theirs,
                crib=crib if i_deal else none,
                i_deal=i_deal,
                target=target,
            )
            search = searches[their_show] = WinSearch(
                odds, scores=(view.scores[me], view.scores[them])
            )
        for rank, value in search.moves(mine, hand, pile, view.count, last=last).items():
            totals[rank] = totals.get(rank, 0.0) + weight * value
        mass += weight
    return {rank: total / mass for rank, total in totals.items()}


def endgame_play(
    view: SeatView, plays: list[Play], rng: random.Random, read: Reader | None = None
) -> Play:
    """The card with the best chance to win; one that pegs out wins at once."""
    assert view.seat is not None
    need = view.options.target - view.scores[view.seat]
    pile = tuple(p.card.rank for p in view.pile)
    if len({p.card.rank for p in plays}) == 1:  # one rank: suits never peg
        return max(plays, key=lambda p: p.card)
    chances = win_values(view, rng, read)

    def first(play: Play) -> tuple[bool, float]:
        rank = play.card.rank
        return (play_points(pile, view.count, rank) >= need, round(chances.get(rank, -1.0), 4))

    top = max(first(p) for p in plays)
    tied = [p for p in plays if first(p) == top]
    if len({p.card.rank for p in tied}) == 1:
        return max(tied, key=lambda p: p.card)
    points = play_values(view, rng, read)  # ties in the chance to win go to the points search
    return max(tied, key=lambda p: (points.get(p.card.rank, -99.0), p.card))


def near_the_end(view: SeatView) -> bool:
    """Whether this deal may end the game, so that the expert plays for the chance to win
    rather than for points (:func:`~muggins.shared.bots.endgame.in_reach` from its seat)."""
    assert view.seat is not None
    me = view.seat
    return in_reach(view.scores[me], view.scores[1 - me], target=view.options.target)


class ExpertThreeStrategy(ExpertStrategy):
    """``expert-2``'s discards and play, and near the end a play searched for the chance to
    win."""

    level = "expert-3"

    def reader(self) -> Reader | None:
        """What reads the opponent's plays into its hand: nothing here (the belief alone)."""
        return None

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError("there is nothing legal to do in this view")
        plays = [a for a in view.legal if isinstance(a, Play)]
        if plays and view.seat is not None and view.starter is not None:
            read = self.reader()
            if near_the_end(view):
                play = endgame_play(view, plays, decision_rng(self.seed, view), read)
            else:
                play = expert_play(view, plays, decision_rng(self.seed, view), read)
            return any_suit(view, play, self.seed)  # suits never peg: hide which it held
        return super().choose(view)
