"""Pop-up screens: help, confirmation, game over."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from muggins.shared.protocol import GameOver

RULES = """\
[b]Cribbage for two[/b]  Six cards each. Both lay two away to the dealer's crib, then a starter is
cut (a jack gives the dealer [b]two for his heels[/b]).

[b]The play[/b]  Pone leads; players take turns laying a card and calling the running count,
which may not pass 31. Score: fifteen 2, thirty-one 2, a pair 2, three of a kind 6, four 12,
a run of three or more (in any order) one per card. A player who cannot play says [b]go[/b];
the other plays on while able, then pegs one for the go (or two for 31). The last card pegs one.

[b]The show[/b]  Pone's hand, the dealer's hand, then the crib, each with the starter: fifteens 2,
pairs 2, runs, a flush of four in hand (the crib needs five), and [b]his nobs[/b] (the jack of the
starter's suit) 1.

[b]Winning[/b]  First to 121 (or 61) wins at once, wherever it happens. A loser under 91 is
skunked, under 61 double skunked (more game points).

[b]Muggins[/b] (a room option)  You count your own hand and crib: claim any number and your
opponent answers. Accept: the claim stands. [b]Muggins![/b] on a short count: they take what you
missed. Challenge an over-count: you are put back to the true total and they take the excess.
A wrong call gives the counter 2 points. Nothing is pegged until the claim is answered.

[b]Fair deal[/b]  Before each deal the server commits to the deck (a SHA-256 hash). When the deal
ends it reveals the deck; this client checks it and shows ✓, or a loud warning.
"""

KEYS = """\
[b]Keys[/b]
  [b]1[/b]-[b]6[/b] or click   choose cards        [b]Enter[/b]  lay away two / play one / go on
  [b]A[/b]  accept a count  [b]M[/b]  Muggins! (short)  [b]X[/b]  challenge (over)
  [b]H[/b]  hint from the coach
  [b]D[/b]  in the show: each count part by part
  [b]C[/b]  chat  ([b]Esc[/b] back)       [b]?[/b]  this help
  [b]R[/b]  resign the game (a rematch once the match is over)
  [b]N[/b]  propose a restart   [b]Q[/b]  quit
  [b]W[/b]  claim the game / [b]B[/b] seat the computer, when the opponent has gone too long
"""


class HelpScreen(ModalScreen[None]):
    """The rules in brief, and the keys."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q,enter", "dismiss", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="help"):
            yield Static(KEYS)
            yield Static(RULES)
            yield Static(Text("Esc to close", style="dim"))

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(None)


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question. Y or Enter: yes; N or Esc: no."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,Y,enter", "answer(True)", "Yes"),
        Binding("n,N,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: str) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical(id="confirm"):
            yield Static(Text(self.question, style="bold"))
            yield Static(Text("Y / Enter: yes      N / Esc: no", style="dim"))

    def action_answer(self, answer: bool) -> None:
        self.dismiss(answer)


def match_line(message: GameOver, *, you: int | None, names: tuple[str, str]) -> str:
    """The match score as the log says it, leader first: "Match: Bob wins 2–0"."""
    points = message.match_points
    if points[0] == points[1]:
        return f"Match: level at {points[0]}–{points[1]}"
    leader = 0 if points[0] > points[1] else 1
    you_lead = leader == you
    name = "You" if you_lead else names[leader]
    if message.match_over:
        verb = "win" if you_lead else "wins"
    else:
        verb = "lead" if you_lead else "leads"
    return f"Match: {name} {verb} {points[leader]}–{points[1 - leader]}"


def game_over_text(
    message: GameOver, *, you: int | None, names: tuple[str, str] = ("South", "North")
) -> Text:
    outcome = message.outcome
    text = Text()
    won = outcome.winner == you
    headline = "You win!" if won else f"{message.winner} wins"
    text.append(headline + "\n", style="bold green" if won else "bold red")
    loser = 1 - outcome.winner
    text.append(f"\nGame {outcome.game_number}: ")
    text.append(f"{outcome.scores[outcome.winner]}–{outcome.scores[loser]}", style="bold")
    if outcome.reason == "resign":
        text.append("  (by resignation)")
    if outcome.double_skunk:
        text.append("\nDOUBLE SKUNK!", style="bold red")
    elif outcome.skunk:
        text.append("\nSKUNK!", style="bold yellow")
    points = outcome.game_points
    text.append(f"\n{points} game point{'s' if points != 1 else ''} to {message.winner}")
    text.append("\n" + match_line(message, you=you, names=names))
    text.append("\n\n" + message.text, style="dim")
    return text


class ReviewScreen(ModalScreen[None]):
    """The coach's review of the game just finished: each decision against the expert's."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,enter,v", "dismiss", "Close"),
    ]

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="review"):
            yield Static(Text(self.text))
            yield Static(Text("Esc to close", style="dim"))

    def action_dismiss(self, result: None = None) -> None:  # type: ignore[override]
        self.dismiss(None)


class GameOverScreen(ModalScreen[str]):
    """Who won, by how much, and what next: ``"rematch"``, ``"quit"`` or ``"close"``."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("r,R", "choose('rematch')", "Rematch"),
        Binding("v,V", "choose('review')", "Review"),
        Binding("q,Q", "choose('quit')", "Quit"),
        Binding("escape,enter", "choose('close')", "Close"),
    ]

    def __init__(
        self, message: GameOver, *, you: int | None, names: tuple[str, str] = ("South", "North")
    ) -> None:
        super().__init__()
        self.message = message
        self.you = you
        self.names = names

    def compose(self) -> ComposeResult:
        with Vertical(id="game-over"):
            yield Static(game_over_text(self.message, you=self.you, names=self.names))
            hint = (
                "R: rematch    V: review    Q: quit    Esc: look at the table"
                if self.message.match_over
                else "Enter: next game    V: review    Q: quit"
            )
            yield Static(Text("\n" + hint, style="bold"))

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)
