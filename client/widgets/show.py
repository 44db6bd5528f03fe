"""The show: each hand and the crib laid face up in order, with the count spoken.

In muggins mode the owner types their own count, and the opponent may call "Muggins!" to take
what was missed or accept. The panel posts :class:`ShowPanel.Counted`, :class:`ShowPanel.Called`
and :class:`ShowPanel.Accepted`; the app sends them on.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import RenderableType
from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Vertical
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input, Static

from client.cards import card_label, face_lines, row
from shared.scoring import number_word
from shared.view import ShowResult


@dataclass(frozen=True)
class ShowState:
    """The results to lay out, whose they are, and what (if anything) the player must do."""

    results: tuple[ShowResult, ...] = ()
    names: tuple[str, str] = ("South", "North")
    you: int | None = 0
    title: str = "The show"
    prompt: str = ""
    """"count": type your count; "answer": muggins or accept; "": nothing to do."""
    compact: bool = False
    """Cards as text rather than pictures, for a short screen."""


def result_text(
    result: ShowResult, names: tuple[str, str], you: int | None, *, compact: bool = False
) -> Text:
    """One shown hand: its cards and starter, its total and the breakdown as spoken."""
    whose = "Your" if result.seat == you else names[result.seat]
    if compact:
        line = Text(f"{whose + ' ' + result.kind:<24.24}", style="bold")
        for card in result.cards:
            line.append_text(card_label(card))
            line.append(" ")
        line.append("+ ", style="dim")
        line.append_text(card_label(result.starter))
        lines = [Text(), line]
    else:
        cards = row([*(face_lines(c) for c in result.cards), face_lines(result.starter)])
        side = [
            Text(f"{whose:<18.18}", style="bold"),
            Text(f"{result.kind:<18}", style="bold"),
            Text(f"{'starter ' + result.starter.pretty:<18}", style="dim"),
        ]
        lines = [head + line for head, line in zip(side, cards, strict=True)]
    lines[1].append("   ")
    if result.total is None:
        status = Text("   counting…", style="italic dim")
        if result.claimed is not None:
            who = "You" if result.seat == you else names[result.seat]
            status = Text(f"   {who} count{'s' if who != 'You' else ''} ", style="italic")
            status.append(number_word(result.claimed), style="bold")
        lines[1].append_text(status)
        return Text("\n").join(lines[1:] if compact else lines)
    lines[1].append(f"{result.total:>3}", style="bold reverse")
    lines[1].append(" points" if result.total != 1 else " point", style="dim")
    spoken = Text("  “", style="italic")
    spoken.append(result.spoken or "nineteen (no points)", style="italic")
    spoken.append("”", style="italic")
    lines.append(spoken)
    if result.claimed is not None and result.claimed != result.total:
        note = Text(f"  counted {result.claimed}", style="yellow")
        if result.muggins:
            taker = names[1 - result.seat] if 1 - result.seat != you else "you"
            note.append(f": Muggins! {taker} took {result.muggins}", style="bold red")
        lines.append(note)
    return Text("\n").join(lines[1:] if compact else lines)


class ShowResults(Widget):
    DEFAULT_CSS = """
    ShowResults { height: auto; }
    """

    state: reactive[ShowState] = reactive(ShowState, layout=True)

    def render(self) -> RenderableType:
        state = self.state
        parts = [Text(state.title, style="bold underline")]
        parts += [
            result_text(r, state.names, state.you, compact=state.compact) for r in state.results
        ]
        if not state.results:
            parts.append(Text("Nothing shown yet.", style="dim"))
        return Text("\n").join(parts)


class ShowPanel(Vertical):
    """The results, and in muggins mode the count entry and the muggins call."""

    DEFAULT_CSS = """
    ShowPanel { height: auto; }
    ShowPanel #count { width: 30; display: none; }
    ShowPanel #show-prompt { height: auto; }
    """

    state: reactive[ShowState] = reactive(ShowState)

    class Counted(Message):
        def __init__(self, points: int) -> None:
            super().__init__()
            self.points = points

    class Called(Message):
        """The player calls muggins on the opponent's count."""

    class Accepted(Message):
        """The player accepts the opponent's count."""

    def compose(self) -> ComposeResult:
        yield ShowResults()
        yield Static(id="show-prompt")
        yield Input(placeholder="your count, then Enter", type="integer", id="count")

    def watch_state(self, state: ShowState) -> None:
        if not self.is_mounted:
            return
        self.query_one(ShowResults).state = state
        prompt = self.query_one("#show-prompt", Static)
        entry = self.query_one("#count", Input)
        if state.prompt == "count":
            prompt.update(
                Text("Count your cards: type the points and press Enter", style="bold yellow")
            )
            if not entry.display:
                entry.value = ""
            entry.display = True
            entry.focus()
        elif state.prompt == "answer":
            prompt.update(
                Text("M: call Muggins! and take the missed points   A: accept", style="bold yellow")
            )
            entry.display = False
        else:
            prompt.update(Text("Press Enter to go on", style="dim") if state.results else "")
            entry.display = False

    def on_mount(self) -> None:
        self.watch_state(self.state)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        try:
            points = int(event.value)
        except ValueError:
            self.notify("Type a whole number of points", severity="warning")
            return
        self.post_message(self.Counted(points))
