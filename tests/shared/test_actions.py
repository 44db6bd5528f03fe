"""Actions, events and options as values: the engine's unvalidated constructor."""

from __future__ import annotations

import pytest

from muggins.shared.actions import CardPlayed, CountAnswered, Discard, Points, Scored
from muggins.shared.cards import parse_cards


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


@pytest.mark.parametrize(
    ("answer", "claimed", "total", "right", "sentence"),
    [
        ("accept", 9, 9, None, "Ann accepts the count of nine"),
        ("accept", 12, 9, None, "Ann accepts the count of twelve (Bob's hand makes nine)"),
        ("muggins", 7, 9, True, "Ann calls Muggins!: Bob's hand makes nine, not seven"),
        ("challenge", 12, 9, True, "Ann challenges the count: Bob's hand makes nine, not twelve"),
        (
            "muggins",
            9,
            9,
            False,
            "Ann calls Muggins!, but the count of nine was not short: Bob's hand makes nine",
        ),
        (
            "challenge",
            7,
            9,
            False,
            "Ann challenges the count, but the count of seven was not over: Bob's hand makes nine",
        ),
    ],
)
def test_an_answered_count_is_told_as_players_say_it(
    answer: str, claimed: int, total: int, right: bool | None, sentence: str
) -> None:
    """count_answered names the answer, the claim and the true total, and whether it was right."""
    event = CountAnswered(
        seat=0, kind="hand", answer=answer, claimed=claimed, total=total, right=right
    )
    assert event.describe(("Ann", "Bob")) == sentence


def test_muggins_mode_pegs_are_told() -> None:
    """The excess taken for an over-count and the points for a wrong call have their words."""
    names = ("Ann", "Bob")
    excess = Scored(seat=0, reason="challenge", points=3, score=20)
    wrong = Scored(seat=1, reason="wrong_call", points=2, score=14)
    assert excess.describe(names) == "Ann pegs three for the over-count (20)"
    assert wrong.describe(names) == "Bob pegs two for a wrong call (14)"
