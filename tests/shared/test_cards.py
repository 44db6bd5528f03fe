"""Cards: parsing, printing, values, ordering and the deck."""

from __future__ import annotations

import pytest
from pydantic import BaseModel, ValidationError

from muggins.shared.cards import DECK, Card, CardError, format_cards, parse_card, parse_cards


@pytest.mark.parametrize(
    ("text", "rank", "suit"),
    [
        ("5H", 5, "H"),
        ("10S", 10, "S"),
        ("TS", 10, "S"),
        ("JD", 11, "D"),
        ("AS", 1, "S"),
        ("qc", 12, "C"),
        ("K♦", 13, "D"),
        ("5♥", 5, "H"),
        (" 7c ", 7, "C"),
    ],
)
def test_parse_card_forms(text: str, rank: int, suit: str) -> None:
    """Every documented spelling of a card parses to the right rank and suit."""
    assert parse_card(text) == Card(rank, suit)


@pytest.mark.parametrize("text", ["", "5", "XS", "11H", "5X", "0S", "10", "♥"])
def test_parse_card_rejects_nonsense(text: str) -> None:
    """Text that names no card raises a CardError (a ValueError) with an example of the form."""
    with pytest.raises(CardError, match="write it like 5H"):
        parse_card(text)


def test_card_rejects_bad_rank_and_suit() -> None:
    """A Card can only be built with rank 1..13 and a suit in CDHS."""
    with pytest.raises(CardError):
        Card(14, "S")
    with pytest.raises(CardError):
        Card(5, "X")


def test_text_forms() -> None:
    """str() is the short form ("10S"); pretty uses the suit symbol; name is spoken."""
    ten = parse_card("TS")
    assert str(ten) == "10S"
    assert ten.pretty == "10♠"
    assert parse_card("5H").pretty == "5♥"
    assert parse_card("QD").name == "queen of diamonds"
    assert format_cards(parse_cards("AS 10D"), pretty=True) == "A♠ 10♦"


def test_pip_values() -> None:
    """Ace is 1, number cards their number, face cards 10."""
    values = [parse_card(f"{label}C").value for label in ("A", "2", "9", "10", "J", "Q", "K")]
    assert values == [1, 2, 9, 10, 10, 10, 10]


def test_ordering_ace_low_king_high() -> None:
    """Cards order by rank, ace low and king high, then by suit."""
    assert sorted(parse_cards("KH AS 10C 2D")) == list(parse_cards("AS 2D 10C KH"))
    assert parse_card("AS") < parse_card("2C") < parse_card("KC")


def test_deck_is_52_distinct_cards_in_index_order() -> None:
    """The deck holds each card once and DECK[card.index] is that card."""
    assert len(DECK) == 52
    assert len(set(DECK)) == 52
    assert all(DECK[card.index] == card for card in DECK)
    labels = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
    assert {str(card) for card in DECK} == {f"{label}{suit}" for label in labels for suit in "CDHS"}


def test_parse_cards_accepts_spaces_commas_and_lists() -> None:
    """Several cards may be separated by spaces or commas, or given as a list."""
    assert parse_cards("5H, 10S JD") == parse_cards(["5H", "10S", "JD"])


class _Holder(BaseModel):
    card: Card


def test_card_on_the_wire_is_its_short_text() -> None:
    """In pydantic models a card serialises to "10S" and validates back from text."""
    holder = _Holder(card=parse_card("TS"))
    assert holder.model_dump_json() == '{"card":"10S"}'
    assert _Holder.model_validate_json('{"card":"10S"}') == holder
    assert _Holder.model_validate({"card": "5♥"}).card == Card(5, "H")


def test_card_on_the_wire_rejects_bad_text() -> None:
    """JSON that is not a card's short text fails validation."""
    with pytest.raises(ValidationError):
        _Holder.model_validate_json('{"card":"XX"}')
    with pytest.raises(ValidationError):
        _Holder.model_validate_json('{"card":5}')


def test_cards_compare_and_hash_by_rank_then_suit() -> None:
    """Card's written-out comparisons agree with (rank, suit) for every pair of cards."""
    deck = [Card(rank, suit) for rank in range(1, 14) for suit in "CDHS"]
    for a in deck:
        for b in deck:
            key_a, key_b = (a.rank, a.suit), (b.rank, b.suit)
            assert (a == b) is (key_a == key_b)
            assert (a < b, a <= b, a > b, a >= b) == (
                key_a < key_b,
                key_a <= key_b,
                key_a > key_b,
                key_a >= key_b,
            )
        assert hash(a) == hash(Card(a.rank, a.suit))
    assert Card(5, "H") != "5H" and Card(5, "H") != (5, "H")


def test_cards_pickle_as_themselves() -> None:
    """Moves travel to the review workers pickled (server/results/reviews.py), in either build."""
    import pickle

    for card in DECK:
        copy = pickle.loads(pickle.dumps(card))
        assert copy == card and copy.text == card.text and type(copy) is Card
