"""Your hand: cards with coloured suits, chosen with the keys 1-6 or the mouse.

Chosen cards stand one line higher. Enter submits them (two to discard, one to play) as a
:class:`Hand.Submitted` message; the app sends it on. Cards that cannot be played now are dimmed.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from muggins.client.cards import CARD_WIDTH, backs, face_lines
from muggins.shared.cards import Card

GAP = 2
SELECTED_BORDER = "bold yellow"


class Hand(Widget, can_focus=True):
    """A row of cards. ``need`` is how many cards Enter submits (2, 1, or 0 when idle)."""

    DEFAULT_CSS = """
    Hand { height: 5; }
    """

    cards: reactive[tuple[Card, ...]] = reactive(())
    selected: reactive[frozenset[int]] = reactive(frozenset())
    dimmed: reactive[frozenset[Card]] = reactive(frozenset())
    need: reactive[int] = reactive(0)
    hidden: reactive[int] = reactive(0)
    """For a spectator: how many face-down cards to draw instead."""

    class Submitted(Message):
        """The player chose these cards and pressed Enter."""

        def __init__(self, cards: tuple[Card, ...]) -> None:
            super().__init__()
            self.cards = cards

    class Refused(Message):
        """The choice cannot be submitted as it is; ``reason`` says why."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    def watch_cards(self, old: tuple[Card, ...], new: tuple[Card, ...]) -> None:
        if old != new:
            self.selected = frozenset()

    def watch_need(self) -> None:
        self.selected = frozenset(i for i in self.selected if i < len(self.cards))
        if self.need == 1 and len(self.selected) > 1:
            self.selected = frozenset()

    def toggle(self, index: int) -> None:
        """Select or unselect the card at ``index`` (0-based). Playing keeps one choice."""
        if not 0 <= index < len(self.cards):
            return
        if index in self.selected:
            self.selected = self.selected - {index}
        elif self.need == 1:
            self.selected = frozenset({index})
        elif self.need == 2 and len(self.selected) >= 2:
            self.post_message(self.Refused("Two cards are chosen already; unselect one first"))
        else:
            self.selected = self.selected | {index}

    def chosen(self) -> tuple[Card, ...]:
        return tuple(self.cards[i] for i in sorted(self.selected))

    def submit(self) -> None:
        """Send the chosen cards up, if they are the right number."""
        if self.need == 0:
            self.post_message(self.Refused("It is not your move"))
        elif len(self.selected) != self.need:
            what = "two cards to lay away" if self.need == 2 else "a card to play"
            self.post_message(self.Refused(f"Choose {what} (keys 1-6), then press Enter"))
        else:
            self.post_message(self.Submitted(self.chosen()))

    def on_click(self, event: events.Click) -> None:
        index = event.x // (CARD_WIDTH + GAP)
        if event.x % (CARD_WIDTH + GAP) >= CARD_WIDTH or index >= len(self.cards):
            return
        if event.chain >= 2 and self.need == 1:
            self.selected = frozenset({index})
            self.submit()
        else:
            self.toggle(index)

    def render(self) -> RenderableType:
        lines = [Text(), Text(), Text(), Text(), Text()]
        if self.hidden:
            return Text("\n").join([Text(), *backs(self.hidden)])
        if not self.cards:
            lines[2] = Text("  (no cards in hand)", style="dim")
        for i, card in enumerate(self.cards):
            up = i in self.selected
            face = face_lines(card, dim=card in self.dimmed, border=SELECTED_BORDER if up else "")
            top = 0 if up else 1
            for row in range(4):
                part = face[row - top] if 0 <= row - top < 3 else Text(" " * CARD_WIDTH)
                if i:
                    lines[row].append(" " * GAP)
                lines[row].append_text(part)
            if i:
                lines[4].append(" " * GAP)
            key = f"[{i + 1}]" if i < 6 else ""
            lines[4].append(key.center(CARD_WIDTH), style="bold yellow" if up else "dim")
        return Text("\n").join(lines)
