"""The coach gives the expert's legal move with a reason."""

from __future__ import annotations

from muggins.shared.actions import Discard, Play
from muggins.shared.bots.coach import advise
from muggins.shared.match import Match


def test_coach_advises_a_legal_discard_with_its_values() -> None:
    """In the discard the advice is a legal discard and names the expected hand and crib."""
    view = Match(seed=9).view(0)
    advice = advise(view)
    assert isinstance(advice.action, Discard) and advice.action in view.legal
    assert "Lay away" in advice.explanation and "crib" in advice.explanation


def test_coach_advises_a_legal_play() -> None:
    """In the play the advice is one of the legal cards, with a sentence."""
    match = Match(seed=9)
    for seat in (0, 1):
        match.apply(seat, advise(match.view(seat)).action)
    seat = match.waiting_for()[0]
    view = match.view(seat)
    advice = advise(view)
    assert isinstance(advice.action, Play) and advice.action in view.legal
    assert advice.explanation.startswith("Play ")


def test_coach_refuses_a_view_with_nothing_to_do() -> None:
    """A view that is not waiting for its seat gets a clear error, not a made-up move."""
    match = Match(seed=9)
    try:
        advise(match.view(None))
    except ValueError as error:
        assert "nothing" in str(error)
    else:
        raise AssertionError("advice was given for a spectator's view")
