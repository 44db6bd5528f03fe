"""The expert plays any suit of the rank it chose, each as likely, as its seed says; the rank is
``expert-2``'s."""

from __future__ import annotations

from muggins.shared.actions import Play
from muggins.shared.bots import make_strategy
from tests.shared.test_bots_mixing import play_view


def test_the_expert_hides_which_suits_it_holds() -> None:
    view = play_view("7S 7H 9D KC", pile="8S")  # a 7 makes fifteen
    old = make_strategy("expert-2").choose(view)
    assert isinstance(old, Play) and old.card.rank == 7
    cards = set()
    for seed in range(24):
        action = make_strategy("expert", seed=seed).choose(view)
        assert isinstance(action, Play) and action.card.rank == old.card.rank
        assert make_strategy("expert", seed=seed).choose(view) == action
        cards.add(action.card)
    assert {c.suit for c in cards} == {"S", "H"}
