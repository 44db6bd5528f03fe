"""Cards drawn as small framed faces and backs in Rich text.

A card is three lines tall and five cells wide::

    ╭───╮
    │10♥│
    ╰───╯
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.style import Style
from rich.text import Text

from muggins.shared.cards import SUIT_SYMBOLS, Card

CARD_WIDTH = 5
RED_SUITS = frozenset("HD")
FACE = Style(color="black", bgcolor="grey93")
FACE_RED = Style(color="red3", bgcolor="grey93", bold=True)
BACK = Style(color="grey93", bgcolor="dark_blue")
DIM = Style(color="grey50", bgcolor="grey23")
EMPTY = Style(color="grey35")


def suit_style(card: Card) -> Style:
    return FACE_RED if card.suit in RED_SUITS else FACE


def card_label(card: Card) -> Text:
    """A card's rank and coloured suit symbol, e.g. ``5♥`` with a red heart."""
    text = Text(card.label)
    colour = "red" if card.suit in RED_SUITS else ""
    text.append(SUIT_SYMBOLS[card.suit], style=f"bold {colour}".strip())
    return text


def face_lines(card: Card, *, dim: bool = False, border: str = "") -> list[Text]:
    """The three lines of a face-up card."""
    label = f"{card.label}{SUIT_SYMBOLS[card.suit]}".center(3)
    style = DIM if dim else suit_style(card)
    edge = Style.parse(border) if border else (DIM if dim else FACE)
    return [
        Text("╭───╮", style=edge),
        Text("│", style=edge) + Text(label, style=style) + Text("│", style=edge),
        Text("╰───╯", style=edge),
    ]


def back_lines() -> list[Text]:
    """The three lines of a face-down card."""
    return [Text("╭───╮", style=BACK), Text("│░░░│", style=BACK), Text("╰───╯", style=BACK)]


def slot_lines(label: str = "") -> list[Text]:
    """An empty place where a card will go."""
    return [
        Text("┌╌╌╌┐", style=EMPTY),
        Text("╎" + label.center(3)[:3] + "╎", style=EMPTY),
        Text("└╌╌╌┘", style=EMPTY),
    ]


def row(cards: Sequence[list[Text]], *, gap: int = 1) -> list[Text]:
    """Lay several three-line cards side by side."""
    lines = [Text(), Text(), Text()]
    for i, card in enumerate(cards):
        for line, part in zip(lines, card, strict=True):
            if i:
                line.append(" " * gap)
            line.append_text(part)
    return lines


def faces(cards: Sequence[Card]) -> list[Text]:
    return row([face_lines(card) for card in cards])


def backs(count: int) -> list[Text]:
    return row([back_lines() for _ in range(count)])
