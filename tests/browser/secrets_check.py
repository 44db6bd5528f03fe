"""What a viewer may know of the cards, and a search of a whole page for anything else."""

from __future__ import annotations

import json
import re

from muggins.shared.view import SeatView

NUMBERS = ["two", "three", "four", "five", "six", "seven", "eight", "nine", "ten"]
RANK_WORDS = {1: "ace", 11: "jack", 12: "queen", 13: "king"} | dict(enumerate(NUMBERS, start=2))
DECK = [
    r + s
    for r in ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K"]
    for s in "CDHS"
]
SUIT_WORDS = {
    "C": ("clubs", "♣"),
    "D": ("diamonds", "♦"),
    "H": ("hearts", "♥"),
    "S": ("spades", "♠"),
}


def revealed(view: SeatView) -> set[str]:
    """The cards this viewer has been shown in the current deal."""
    seen = {str(c) for c in (*view.hand, *view.discards)}
    if view.starter is not None:
        seen.add(str(view.starter))
    seen |= {str(p.card) for p in view.played}
    seen |= {str(c) for pair in view.cut_for_deal for c in pair}  # the cut for first deal
    for shown in view.show:
        seen |= {str(c) for c in shown.cards}
    if view.crib is not None:
        seen |= {str(c) for c in view.crib}
    return seen


def hidden_cards(view: SeatView) -> set[str]:
    """Every card the rules have not shown this viewer yet in this (first) deal."""
    return set(DECK) - revealed(view)


def forms(card: str) -> list[re.Pattern[str]]:
    """Every way the page could write a card: its code, its symbol form, its spoken name."""
    rank_text, suit = card[:-1], card[-1]
    rank = {"A": 1, "J": 11, "Q": 12, "K": 13}.get(rank_text) or int(rank_text)
    word, symbol = SUIT_WORDS[suit]
    return [
        re.compile(rf"(?<![A-Za-z0-9]){re.escape(card)}(?![A-Za-z0-9])"),
        re.compile(rf"(?<![0-9A-Za-z]){re.escape(rank_text + symbol)}"),
        re.compile(rf"{RANK_WORDS[rank]} of {word}", re.IGNORECASE),
    ]


def leaked(everything: str, hidden: set[str]) -> list[str]:
    """The hidden cards found anywhere in the page's DOM, field values or storage."""
    data = json.loads(everything)
    for key in [*data["local"], *data["session"]]:
        assert key in ("muggins.name", "muggins.session") or key.startswith("muggins.token."), key
    text = (
        data["dom"]
        + "\n"
        + "\n".join(data["values"])
        + "\n"
        + data["local"].get("muggins.name", "")
    )
    found = []
    for card in sorted(hidden):
        for pattern in forms(card):
            match = pattern.search(text)
            if match:
                found.append(f"{card}: ...{text[max(0, match.start() - 80) : match.end() + 40]}...")
                break
    return found
