"""Actions, events and options as values: the engine's unvalidated constructor."""

from __future__ import annotations

import pytest

from shared.actions import CardPlayed, Discard, Points, Scored
from shared.cards import parse_cards


def test_trusted_equals_validated_construction() -> None:
    """Model.trusted gives the same value, defaults and set fields as validating the same input."""
    cards = tuple(parse_cards("5H 10S"))
    pairs = [
        (Discard.trusted(cards=(cards[0], cards[1])), Discard(cards=(cards[0], cards[1]))),
        (
            Scored.trusted(seat=1, reason="go", points=1, score=9),
            Scored(seat=1, reason="go", points=1, score=9),
        ),
        (
            CardPlayed.trusted(
                seat=0,
                card=cards[1],
                count=15,
                points=2,
                parts=(Points.trusted(kind="fifteen", points=2, cards=cards),),
                spoken="fifteen for two",
                score=2,
            ),
            CardPlayed.model_validate_json(
                '{"seat":0,"card":"10S","count":15,"points":2,"spoken":"fifteen for two",'
                '"score":2,"parts":[{"kind":"fifteen","points":2,"cards":["5H","10S"]}]}'
            ),
        ),
    ]
    for trusted, validated in pairs:
        assert trusted == validated
        assert repr(trusted) == repr(validated)
        assert trusted.model_fields_set == validated.model_fields_set
        assert trusted.model_dump_json() == validated.model_dump_json()


def test_trusted_refuses_an_unknown_field() -> None:
    """A misspelt field name fails at once instead of making a model with a stray value."""
    with pytest.raises(AssertionError):
        Scored.trusted(seat=1, reason="go", points=1, scor=9)
