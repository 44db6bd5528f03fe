"""The reviewer: the expert's own moves cost nothing, and a bad move is priced and explained."""

from __future__ import annotations

import re

from muggins.shared.actions import Discard, GameOptions
from muggins.shared.bots import make_strategy
from muggins.shared.bots.review import (
    format_review,
    review_decisions,
    review_match,
    review_move,
    signed,
)
from muggins.shared.cards import parse_cards
from muggins.shared.match import Match
from tests.shared.test_bots_expert import discard_view, play_view


def play_match(levels: tuple[str, str], seed: int) -> Match:
    match = Match(seed=seed, options=GameOptions(target=61))
    bots = [make_strategy(level, seed=0) for level in levels]
    while not match.over:
        seat = match.waiting_for()[0]
        match.apply(seat, bots[seat].choose(match.view(seat)))
    return match


def test_the_experts_own_game_loses_nothing() -> None:
    """Reviewing the expert's seat finds every decision equal to the expert's."""
    match = play_match(("expert", "standard"), seed=3)
    review = review_match(match.options, 3, match.log, 0, ("Expert", "Standard"))
    assert review.moments and all(m.loss < 1e-9 for m in review.moments)
    assert review.worst() == []


def test_a_random_player_gives_points_away() -> None:
    """A random player's review has losses in discards and in the play, worst first."""
    match = play_match(("random", "expert"), seed=4)
    review = review_match(match.options, 4, match.log, 0, ("Random", "Expert"))
    assert review.loss("discard") > 0 and review.loss("play") > 0
    worst = review.worst()
    assert len(worst) == 3 and worst[0].loss >= worst[1].loss >= worst[2].loss
    text = format_review(review, title="Review of test")
    assert "The worst moments:" in text and "Points given away: discards" in text


def test_a_bad_discard_is_priced_and_explained() -> None:
    """Laying away the five and the jack from 5-5-5-J-2-9 as pone costs points and says why."""
    view = discard_view("5H 5S 5C JD 2C 9D", dealer=False)
    bad = Discard(cards=(parse_cards("5H")[0], parse_cards("JD")[0]))
    moment = review_move(view, bad)
    assert moment is not None and moment.loss > 5
    assert "You laid away" in moment.explanation and "The expert lays away" in moment.explanation


def test_a_bad_play_is_explained() -> None:
    """After a seven lead, the dealer's low card is a loss with a sentence on the risk."""
    view = play_view("AC 2C 2D 10S", dealer=True, pile="7H")
    from muggins.shared.actions import Play

    moment = review_move(view, Play(card=parse_cards("AC")[0]))
    assert moment is not None and moment.best == "10S" and moment.loss > 0
    review = review_decisions([(view, Play(card=parse_cards("AC")[0]))], ("You", "Them"))
    assert review.moments[0].chosen == "AC"


def test_a_review_writes_every_negative_number_with_one_minus_sign() -> None:
    """Signed values use the true minus sign the loss and win-chance figures use, and a value
    that rounds to zero has no sign."""
    assert [signed(v) for v in (1.25, -0.5, -0.04, 0.0)] == ["+1.2", "−0.5", "0.0", "0.0"]
    assert signed(3.0, plus="") == "3.0"
    match = play_match(("random", "expert"), seed=4)
    review = review_match(match.options, 4, match.log, 0, ("Random", "Expert"))
    texts = [format_review(review)] + [m.explanation for m in review.moments]
    assert any("−" in text for text in texts)
    assert not [text for text in texts if re.search(r"(^|[ (])-\d", text)]
