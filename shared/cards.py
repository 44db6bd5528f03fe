"""Playing cards: parsing, printing, pip values and the 52-card deck.

>>> parse_card("10S")
Card(rank=10, suit='S')
>>> str(parse_card("TS")), parse_card("5H").pretty
('10S', '5♥')
>>> parse_card("KD").value, parse_card("AC").value
(10, 1)
"""

from __future__ import annotations

from dataclasses import dataclass, field
from operator import attrgetter
from typing import Any, Final

from pydantic import GetCoreSchemaHandler
from pydantic_core import core_schema

SUITS: Final = "CDHS"
SUIT_SYMBOLS: Final = {"C": "♣", "D": "♦", "H": "♥", "S": "♠"}
SUIT_NAMES: Final = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANK_LABELS: Final = ("", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
RANK_NAMES: Final = (
    "",
    "ace",
    "two",
    "three",
    "four",
    "five",
    "six",
    "seven",
    "eight",
    "nine",
    "ten",
    "jack",
    "queen",
    "king",
)
_RANK_BY_LABEL: Final = {label: rank for rank, label in enumerate(RANK_LABELS) if label}
_RANK_BY_LABEL["T"] = 10
_RANK_BY_LABEL["1"] = 1
_SUIT_BY_SYMBOL: Final = {symbol: suit for suit, symbol in SUIT_SYMBOLS.items()}
JACK: Final = 11


class CardError(ValueError):
    """Text that does not name a card."""


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A card. ``rank`` runs 1 (ace) to 13 (king); ``suit`` is one of ``C D H S``.

    Cards order by rank, then suit, which is also the order used for runs: ace low,
    king high, no wrap-around.
    """

    rank: int
    suit: str
    text: str = field(init=False, repr=False, compare=False)
    """The short text, e.g. ``"10S"`` (also ``str(card)`` and the card on the wire)."""

    def __post_init__(self) -> None:
        if not 1 <= self.rank <= 13:
            raise CardError(f"rank must be 1 (ace) to 13 (king), not {self.rank!r}")
        if self.suit not in SUITS:
            raise CardError(f"suit must be one of C, D, H, S, not {self.suit!r}")
        # Kept rather than computed: the wire encoder reads it from C (see below), which is
        # three times faster than calling __str__ for each of the hundred cards in a view.
        object.__setattr__(self, "text", f"{RANK_LABELS[self.rank]}{self.suit}")

    @property
    def value(self) -> int:
        """Pip value for fifteens and the count: ace 1, face cards 10."""
        return min(self.rank, 10)

    @property
    def index(self) -> int:
        """A dense index 0..51, rank-major."""
        return (self.rank - 1) * 4 + SUITS.index(self.suit)

    @property
    def label(self) -> str:
        return RANK_LABELS[self.rank]

    @property
    def pretty(self) -> str:
        """Display form with the suit symbol, e.g. ``5♥``."""
        return f"{RANK_LABELS[self.rank]}{SUIT_SYMBOLS[self.suit]}"

    @property
    def name(self) -> str:
        """Spoken name, e.g. ``five of hearts``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"

    def __str__(self) -> str:
        return self.text

    # Equality, hash and order written out rather than made by the dataclass (the same
    # comparisons: by rank, then suit), so that they compile with the class in the compiled
    # build (setup.py): the engine compares cards often.
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Card):
            return NotImplemented
        return self.rank == other.rank and self.suit == other.suit

    def __hash__(self) -> int:
        return hash((self.rank, self.suit))

    def __lt__(self, other: Card) -> bool:
        return (self.rank, self.suit) < (other.rank, other.suit)

    def __le__(self, other: Card) -> bool:
        return (self.rank, self.suit) <= (other.rank, other.suit)

    def __gt__(self, other: Card) -> bool:
        return (self.rank, self.suit) > (other.rank, other.suit)

    def __ge__(self, other: Card) -> bool:
        return (self.rank, self.suit) >= (other.rank, other.suit)

    def __reduce__(self) -> tuple[type[Card], tuple[int, str]]:
        # Pickled as its rank and suit (the review workers get the games' moves this way): the
        # dataclass's own state-setting fails on the compiled class, which is frozen in C.
        return (Card, (self.rank, self.suit))

    @classmethod
    def __get_pydantic_core_schema__(
        cls, source: type[Any], handler: GetCoreSchemaHandler
    ) -> core_schema.CoreSchema:
        """On the wire a card is its short text, e.g. ``"10S"``."""
        from_str = core_schema.no_info_plain_validator_function(_coerce_card)
        return core_schema.json_or_python_schema(
            json_schema=core_schema.chain_schema(
                [core_schema.str_schema(pattern=CARD_PATTERN), from_str]
            ),
            python_schema=from_str,
            serialization=core_schema.plain_serializer_function_ser_schema(attrgetter("text")),
        )


CARD_PATTERN: Final = r"^(?:[A2-9JQK]|10|T)[CDHS]$"


def _coerce_card(value: object) -> Card:
    if isinstance(value, Card):
        return value
    if isinstance(value, str):
        card = _BY_TEXT.get(value)  # the usual spelling, "10S": no parsing
        return card if card is not None else parse_card(value)
    raise CardError(f"a card is text such as '5H' or '10S', not {value!r}")


def parse_card(text: str) -> Card:
    """Parse ``"5H"``, ``"10S"``, ``"TS"``, ``"jd"`` or ``"5♥"`` into a :class:`Card`."""
    cleaned = text.strip().upper()
    if len(cleaned) < 2:
        raise CardError(f"{text!r} is not a card; write it like 5H, 10S, TS, JD or AS")
    rank_text, suit_text = cleaned[:-1], cleaned[-1]
    suit = _SUIT_BY_SYMBOL.get(suit_text, suit_text)
    rank = _RANK_BY_LABEL.get(rank_text)
    if rank is None or suit not in SUITS:
        raise CardError(f"{text!r} is not a card; write it like 5H, 10S, TS, JD or AS")
    return DECK[(rank - 1) * 4 + SUITS.index(suit)]  # one shared object per card


def parse_cards(text: str | list[str] | tuple[str, ...]) -> tuple[Card, ...]:
    """Parse several cards separated by spaces or commas."""
    words = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    return tuple(parse_card(word) for word in words)


DECK: Final = tuple(Card(rank, suit) for rank in range(1, 14) for suit in SUITS)
"""The 52 cards in index order (``DECK[card.index] == card``)."""
_BY_TEXT: Final = {card.text: card for card in DECK}
CARD_ORDER: Final = attrgetter("rank", "suit")
"""The cards' own order (rank, then suit) as a sort key: ``sorted(cards, key=CARD_ORDER)``
equals ``sorted(cards)`` but compares in C, with no Python call for each comparison."""


def format_cards(cards: tuple[Card, ...] | list[Card], *, pretty: bool = False) -> str:
    return " ".join(card.pretty if pretty else str(card) for card in cards)
