"""The belief about the opponent's hand: weighted by its role's keeps, narrowed by its goes."""

from __future__ import annotations

import random

from muggins.shared.bots.belief import Belief, went_above
from muggins.shared.bots.expert import opponent_belief, play_tables
from tests.shared.stacked import discard, play, stacked_match


def test_a_go_puts_every_card_that_fitted_out_of_their_hand() -> None:
    """The dealer says go at 28: every card it still holds counts more than 3."""
    match = stacked_match(
        dealer=0,
        dealer_cards="KH QH 9S 8D 2C 3C",
        pone_cards="10S JD 8C 4H 6S 7S",
        starter="AD",
    )
    discard(match, 1, "6S 7S")
    discard(match, 0, "2C 3C")
    play(match, 1, "10S")  # 10
    play(match, 0, "KH")  # 20
    play(match, 1, "8C")  # 28: the dealer holds Q, 9, 8 and cannot play
    # Nobody can play: the pone pegs the go, and the dealer leads again.
    play(match, 0, "QH")
    view = match.view(1)
    assert view.count == 10 and view.hand_counts[0] == 2
    assert went_above(view) == 3
    belief = opponent_belief(view)
    assert belief.above == 3
    hands = belief.sample(random.Random(1), 50)
    assert all(all(r > 3 for r in hand) for hand in hands)


def test_no_go_no_narrowing() -> None:
    """Before any go the opponent may hold anything unseen."""
    match = stacked_match(
        dealer=0,
        dealer_cards="KH QH 9S 8D 2C 3C",
        pone_cards="10S JD 8C 4H 6S 7S",
        starter="AD",
    )
    discard(match, 1, "6S 7S")
    discard(match, 0, "2C 3C")
    assert went_above(match.view(1)) == 0


def test_keeps_weigh_the_draw() -> None:
    """A pone rarely gives the dealer a five: a dealer's belief about the pone favours fives."""
    weights = play_tables().keep
    assert weights["pone"][5] > 1.1 > weights["dealer"][5] * 0.9
    belief = Belief(unseen=tuple([0] + [4] * 13), cards=4, weights=tuple(weights["pone"]))
    fives = sum(hand.count(5) for hand in belief.sample(random.Random(2), 400))
    assert fives > 400 * 4 * 4 / 52  # more fives than an unweighted draw would give
