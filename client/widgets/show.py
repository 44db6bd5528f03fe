"""The show: each hand and the crib laid face up in order, with the count spoken.

In muggins mode the owner types their own count; the claim is written on the hand and in the
prompt, with the keys to answer it: accept (A), call "Muggins!" on a short count (M) or
challenge an over-count (X). The panel posts :class:`ShowPanel.Counted`; the app sends it on
and answers through its own key bindings.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import RenderableType
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.containers import Vertical, VerticalScroll
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Input, Static

from muggins.client.cards import card_label, face_lines, row
from muggins.client.prompts import (
    answer_choices,
    claim_sentence,
    parse_count,
    pending_claim,
    wrong_call_sentence,
)
from muggins.shared.scoring import score_hand
from muggins.shared.view import ShowResult


@dataclass(frozen=True)
class ShowState:
    """The results to lay out, whose they are, and what (if anything) the player must do."""

    results: tuple[ShowResult, ...] = ()
    names: tuple[str, str] = ("South", "North")
    you: int | None = 0
    title: str = "The show"
    prompt: str = ""
    """"count": type your count; "answer": accept, muggins or challenge; "": nothing to do."""
    compact: bool = False
    """Cards as text rather than pictures, for a short screen."""
    details: bool = False
    """Each settled count part by part under its spoken form (the D key)."""


def breakdown(result: ShowResult) -> list[Text]:
    """The settled count part by part, as ``muggins score`` prints it (only once settled)."""
    if result.total is None or len(result.cards) != 4:
        return []
    score = score_hand(result.cards, result.starter, crib=result.kind == "crib")
    return [Text(f"    {line}", style="dim") for line in score.itemised()[:-1]]


def result_text(
    result: ShowResult,
    names: tuple[str, str],
    you: int | None,
    *,
    compact: bool = False,
    details: bool = False,
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
        if result.claimed is not None:  # the owner's name heads the hand already
            status = Text("  you count " if result.seat == you else "  counts ", "bold yellow")
            status.append(f"{result.claimed:>2}", style="bold reverse")
            status.append(" unanswered", style="italic dim")
        lines[1].append_text(status)
        return Text("\n").join(lines[1:] if compact else lines)
    lines[1].append(f"{result.total:>3}", style="bold reverse")
    lines[1].append(" points" if result.total != 1 else " point", style="dim")
    spoken = Text("  “", style="italic")
    spoken.append(result.spoken or "nineteen (no points)", style="italic")
    spoken.append("”", style="italic")
    lines.append(spoken)
    if details:
        lines.extend(breakdown(result))
    note = settled_note(result, names, you)
    if note is not None:
        lines.append(note)
    return Text("\n").join(lines[1:] if compact else lines)


def settled_note(result: ShowResult, names: tuple[str, str], you: int | None) -> Text | None:
    """Muggins mode: how an answered claim was settled, when it was not simply right."""
    claimed, total = result.claimed, result.total
    if claimed is None or total is None or (claimed == total and result.answer == "accept"):
        return None
    owner = "you" if result.seat == you else names[result.seat]
    other = "you" if 1 - result.seat == you else names[1 - result.seat]
    note = Text(f"  counted {claimed}", style="yellow")
    if result.answer == "accept":
        note.append(f", accepted: {claimed} pegged")
    elif result.taken and result.answer == "muggins":
        note.append(f": Muggins! {other} took {result.taken}", style="bold red")
    elif result.taken:
        note.append(f": challenged, put back to {total}; {other} took {result.taken}", "bold red")
    elif result.penalty:
        call = "called Muggins!" if result.answer == "muggins" else "challenged"
        note.append(f": {other} {call} wrongly, {owner} pegged {result.penalty} more", "bold")
    return note


class ShowResults(Widget):
    DEFAULT_CSS = """
    ShowResults { height: auto; }
    """

    state: reactive[ShowState] = reactive(ShowState, layout=True)

    def render(self) -> RenderableType:
        state = self.state
        parts = [Text(state.title, style="bold underline")]
        parts += [
            result_text(r, state.names, state.you, compact=state.compact, details=state.details)
            for r in state.results
        ]
        if not state.results:
            parts.append(Text("Nothing shown yet.", style="dim"))
        return Text("\n").join(parts)


class CountInput(Input):
    """The count entry. It takes digits only; other keys (Q, H, ?) reach the app's bindings."""

    def check_consume_key(self, key: str, character: str | None) -> bool:
        return character is not None and character.isdigit()

    async def _on_key(self, event: events.Key) -> None:
        if event.is_printable and not (event.character or "").isdigit():
            event.prevent_default()  # not typed into the box: let it bubble to the app's keys


class ShowPanel(Vertical):
    """The results (scrolling), and under them, always in view, the prompt and in muggins mode
    the count entry."""

    DEFAULT_CSS = """
    ShowPanel { height: 1fr; }
    ShowPanel #show-results { height: 1fr; }
    ShowPanel #count { width: 34; display: none; }
    ShowPanel #show-prompt { height: auto; }
    """

    state: reactive[ShowState] = reactive(ShowState)

    class Counted(Message):
        def __init__(self, points: int) -> None:
            super().__init__()
            self.points = points

    class Refused(Message):
        """What was typed is not a count; the reason is a sentence for the status line."""

        def __init__(self, reason: str) -> None:
            super().__init__()
            self.reason = reason

    class Called(Message):
        """The player calls muggins on the opponent's count."""

    class Accepted(Message):
        """The player accepts the opponent's count."""

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="show-results"):
            yield ShowResults()
        yield Static(id="show-prompt")
        yield CountInput(
            placeholder="0 to 29, then Enter", type="integer", id="count", max_length=2
        )

    def watch_state(self, old: ShowState, state: ShowState) -> None:
        if not self.is_mounted:
            return
        self.query_one(ShowResults).state = state
        if state.prompt or state.results != old.results:
            # The hand in question, or the newest result (a hand shown, a claim settled), is the
            # last shown: keep it in view, for a player waiting and for a spectator too. D alone
            # (details) changes no result and leaves the scroll where the reader put it.
            results = self.query_one("#show-results", VerticalScroll)
            self.call_after_refresh(results.scroll_end, animate=False)
        prompt = self.query_one("#show-prompt", Static)
        entry = self.query_one("#count", Input)
        if state.prompt == "count":
            kind = state.results[-1].kind if state.results else "hand"
            text = Text(
                f"Count your {kind}: type the points (0-29) and press Enter", style="bold yellow"
            )
            text.append(
                "\nCount short and your opponent may take the rest; count over and they may "
                "challenge.",
                style="dim",
            )
            prompt.update(text)
            if not entry.display:
                entry.value = ""
            entry.display = True
            entry.focus()
        elif state.prompt == "answer" and (claim := pending_claim(state.results)) is not None:
            text = Text(claim_sentence(claim, state.names, state.you) + ".", style="bold yellow")
            for key, command, does in answer_choices(claim, state.names):
                text.append(f"\n {key} ", style="bold reverse")
                text.append(f" {'Muggins!' if key == 'M' else command}", style="bold")
                text.append(f" – {does}")
            text.append("\n" + wrong_call_sentence(claim, state.names), style="dim")
            prompt.update(text)
            entry.display = False
        elif (claim := pending_claim(state.results)) is not None:
            answerer = state.names[1 - claim.seat]
            text = Text(claim_sentence(claim, state.names, state.you) + ".", style="bold yellow")
            if state.you is None or claim.seat == state.you:
                text.append(f"\nWaiting for {answerer}: accept, Muggins! or challenge", "dim")
            prompt.update(text)
            entry.display = False
        else:
            go_on = "Press Enter to go on   D: " + ("hide" if state.details else "show")
            go_on += " each count part by part"
            prompt.update(Text(go_on, style="dim") if state.results else "")
            entry.display = False

    def on_mount(self) -> None:
        self.watch_state(ShowState(), self.state)

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Check the count before it is sent; the box is emptied either way, so a refused
        count never leaves digits behind for the next keypress."""
        event.stop()
        event.input.value = ""
        try:
            points = parse_count(event.value)
        except ValueError as error:
            self.post_message(self.Refused(str(error)))
            return
        self.post_message(self.Counted(points))
