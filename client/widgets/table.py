"""The play area: the opponent's hand face down, the crib, the starter, the pile and the count."""

from __future__ import annotations

from dataclasses import dataclass, field

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from muggins.client.cards import backs, card_label, face_lines, faces, row, slot_lines
from muggins.shared.view import SeatView


@dataclass(frozen=True)
class PlayState:
    """What the play area shows, taken from the view plus the announcements heard so far."""

    view: SeatView | None = None
    names: tuple[str, str] = ("South", "North")
    announcements: tuple[str, ...] = field(default=())


def _height(text: Text) -> int:
    return text.plain.count("\n") + 1


def _block(title: Text | str, lines: list[Text]) -> Text:
    head = title if isinstance(title, Text) else Text(title, style="bold")
    return Text("\n").join([head, *lines])


class PlayArea(Widget):
    """Opponent's cards, crib, starter, then the pile since the count last restarted."""

    DEFAULT_CSS = """
    PlayArea { height: 1fr; min-height: 12; }
    """

    table: reactive[PlayState] = reactive(PlayState, layout=True)
    compact: reactive[bool] = reactive(False)
    """On a short screen: the opponent, crib and starter on one line of text."""

    def render(self) -> RenderableType:
        view = self.table.view
        if view is None:
            return Text("Waiting for the deal…", style="dim italic")
        names = self.table.names
        me = view.seat if view.seat is not None else 0
        them = 1 - me
        pile = self._pile(view, names)
        if self.compact:
            room = self.size.height - 1 - _height(pile) if self.size.height else 2
            line = self._summary(view, names[them], them)
            return Group(line, pile, self._announcements(max(1, room)))
        blocks = (self._opponent(view, names[them], them), self._crib(view, names))
        top = Table.grid(padding=(0, 3))
        top.add_row(*blocks, self._starter(view))
        used = max(_height(b) for b in blocks) + 1 + _height(pile)
        room = self.size.height - used if self.size.height else 4
        return Group(top, Text(""), pile, self._announcements(max(1, room)))

    def _summary(self, view: SeatView, name: str, seat: int) -> Text:
        """The opponent's cards, the crib and the starter in one line."""
        text = Text(f"{name}: ", style="bold")
        text.append("▒" * view.hand_counts[seat] + f" {view.hand_counts[seat]}   ", style="blue")
        if view.seat is None:  # watching: the dealer's crib, by name, as the full layout says
            whose = f"{self.table.names[view.dealer]}'s"
        else:
            whose = "Your" if view.dealer == view.seat else "Their"
        text.append(f"{whose} crib: ", style="bold")
        if view.crib is not None:
            for card in view.crib:
                text.append_text(card_label(card))
                text.append(" ")
        else:
            text.append("▒" * view.crib_count + "  ", style="blue")
        if view.discards:
            text.append("(you gave ", style="dim")
            text.append_text(Text(" ").join(card_label(c) for c in view.discards))
            text.append(")", style="dim")
        text.append("   Starter: ", style="bold")
        text.append_text(card_label(view.starter) if view.starter else Text("?", style="dim"))
        return text

    def _opponent(self, view: SeatView, name: str, seat: int) -> Text:
        count = view.hand_counts[seat]
        title = Text(f"{name}'s hand", style="bold")
        title.append(f"  {count} card{'s' if count != 1 else ''}", style="dim")
        if view.seat is None and view.hand_counts[seat]:
            title.append("  (spectating)", style="dim")
        return _block(title, backs(count) if count else slot_lines())

    def _crib(self, view: SeatView, names: tuple[str, str]) -> Text:
        if view.seat is None:
            title = Text(f"{names[view.dealer]}'s crib", style="bold")
        else:
            title = Text("Your crib" if view.dealer == view.seat else "Their crib", style="bold")
        if view.crib is not None:
            return _block(title, faces(view.crib))
        lines = backs(view.crib_count) if view.crib_count else slot_lines()
        if view.discards:
            gave = Text("you gave ", style="dim")
            for card in view.discards:
                gave.append_text(card_label(card))
                gave.append(" ")
            lines = [*lines, gave]
        return _block(title, lines)

    def _starter(self, view: SeatView) -> Text:
        title = Text("Starter", style="bold")
        return _block(title, face_lines(view.starter) if view.starter else slot_lines("?"))

    def _pile(self, view: SeatView, names: tuple[str, str]) -> Text:
        title = Text("The play", style="bold")
        if view.phase == "play" or view.pile:
            title.append("   count ", style="dim")
            title.append(f"{view.count:>2}", style="bold reverse")
        earlier = self._earlier(view)
        if earlier:
            title.append("    ")
            title.append_text(earlier)
        if not view.pile:
            return _block(title, [*slot_lines(), Text()])
        lines = row([face_lines(p.card) for p in view.pile])
        who = Text()
        for i, played in enumerate(view.pile):
            if i:
                who.append(" ")
            label = "you" if played.seat == view.seat else "them"
            if view.seat is None:
                label = names[played.seat][:5]
            who.append(label.center(5), style="dim")
        return _block(title, [*lines, who])

    def _earlier(self, view: SeatView) -> Text:
        """The cards played this deal before the count last restarted, by player."""
        earlier = view.played[: len(view.played) - len(view.pile)]
        text = Text()
        if not earlier:
            return text
        text.append("before:", style="dim")
        me = view.seat if view.seat is not None else 0
        for seat in (me, 1 - me):
            cards = [p.card for p in earlier if p.seat == seat]
            if cards:
                who = "you" if seat == view.seat else "them"
                if view.seat is None:
                    who = self.table.names[seat]
                text.append(f"  {who} ", style="dim")
                for card in cards:
                    text.append_text(card_label(card))
                    text.append(" ")
        return text

    def _announcements(self, room: int) -> Text:
        said = self.table.announcements[-room:]
        text = Text()
        for i, line in enumerate(said):
            if i:
                text.append("\n")
            latest = i == len(said) - 1
            text.append(f"“{line}”" if latest else line, style="bold" if latest else "dim")
        return text
