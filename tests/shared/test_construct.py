"""shared/construct.py: models built without validation, as the (compiled) engine builds them."""

from __future__ import annotations

import pytest

from muggins.shared.actions import HandScored, Points, Scored
from muggins.shared.cards import parse_cards
from muggins.shared.construct import DEFAULTS, trusted, unvalidated


def test_trusted_equals_validated_construction() -> None:
    cards = parse_cards("5H 10S")
    part = trusted(Points, kind="fifteen", points=2, cards=cards)
    made = trusted(HandScored, seat=1, kind="crib", total=2, parts=(part,), spoken="fifteen two")
    validated = HandScored.model_validate_json(
        '{"seat":1,"kind":"crib","total":2,"spoken":"fifteen two",'
        '"parts":[{"kind":"fifteen","points":2,"cards":["5H","10S"]}]}'
    )
    assert made == validated
    assert made.model_fields_set == validated.model_fields_set
    assert made.model_dump_json() == validated.model_dump_json()
    assert list(made.__dict__) == list(HandScored.model_fields)  # every field, in order


def test_trusted_refuses_an_unknown_field() -> None:
    with pytest.raises(AssertionError, match="unknown field"):
        trusted(Scored, seat=1, reason="go", points=1, scor=9)


def test_every_engine_model_has_its_defaults() -> None:
    """Each model is registered as it is defined: its fields in order, None where required."""
    assert list(DEFAULTS[Scored]) == list(Scored.model_fields)
    assert DEFAULTS[Points]["cards"] == () and DEFAULTS[Points]["kind"] is None


def test_unvalidated_keeps_the_fields_set_it_is_given() -> None:
    shared = {"kind", "points", "cards"}
    values = {"kind": "pair", "points": 2, "cards": parse_cards("5H 5S")}
    first = unvalidated(Points, dict(values), shared)
    second = unvalidated(Points, dict(values), shared)
    assert first == second == Points(**values)
    assert first.model_fields_set is second.model_fields_set is shared
