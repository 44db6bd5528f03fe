"""The cribbage board: holes in streets of thirty, two pegs per player, skunk lines marked.

The track runs like a real board: the first street left to right, the next back right to left,
and so on, from the start holes to the game hole. Each player has a front peg (the score) and a
back peg (the score before the last points), so the last gain can be seen at a glance.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import RenderableType
from rich.style import Style
from rich.text import Text
from textual.reactive import reactive
from textual.widget import Widget

from muggins.shared.view import SeatView

STREET = 30
GROUP = 5
COLOURS = ("bright_cyan", "bright_magenta")
FRONT, BACK, HOLE = "●", "○", "·"
SKUNK_STYLE = Style(color="yellow", bold=True)
DOUBLE_STYLE = Style(color="red", bold=True)


@dataclass(frozen=True)
class Board:
    """What the board shows: the game's target and each seat's front and back peg."""

    target: int = 121
    scores: tuple[int, int] = (0, 0)
    previous: tuple[int, int] = (0, 0)
    names: tuple[str, str] = ("South", "North")
    you: int = 0
    match_points: tuple[int, int] = (0, 0)
    match_to: int = 1
    street: int = STREET
    """Holes per street: 30 as on a real board; 60 on a short screen."""

    @classmethod
    def of(cls, view: SeatView, *, names: tuple[str, str], you: int, street: int) -> Board:
        """The board as ``view`` has it, drawn for the player at seat ``you``."""
        return cls(
            target=view.options.target,
            scores=view.scores,
            previous=view.previous_scores,
            names=names,
            you=you,
            match_points=view.match_points,
            match_to=view.options.match_to,
            street=street,
        )

    @property
    def skunk_line(self) -> int:
        return self.target - 30

    @property
    def double_skunk_line(self) -> int | None:
        return self.target - 60 if self.target == 121 else None

    @property
    def streets(self) -> int:
        return (self.target - 1) // self.street

    def pegs(self, seat: int) -> tuple[int, int]:
        """(front, back) holes of ``seat``; 0 is the start hole, ``target`` the game hole."""
        front = min(self.scores[seat], self.target)
        back = min(self.previous[seat], self.target)
        return front, back

    def glyph(self, seat: int, hole: int) -> str:
        """What hole ``hole`` shows on ``seat``'s track: a front peg, a back peg or empty."""
        front, back = self.pegs(seat)
        if hole == front:
            return FRONT
        if hole == back:
            return BACK
        return HOLE

    def street_holes(self, street: int) -> list[int]:
        """The holes of a street in drawing order (left to right on screen)."""
        holes = list(range(street * self.street + 1, (street + 1) * self.street + 1))
        return holes if street % 2 == 0 else holes[::-1]

    def line_between(self, a: int, b: int) -> Style | None:
        """The style of a skunk line running between neighbouring holes ``a`` and ``b``."""
        return self.line_style(max(a, b))

    def line_style(self, hole: int) -> Style | None:
        if hole == self.skunk_line:
            return SKUNK_STYLE
        if hole == self.double_skunk_line:
            return DOUBLE_STYLE
        return None

    def rows(self) -> list[int]:
        """Seats in the order their tracks are drawn: the opponent above, you below."""
        return [1 - self.you, self.you]

    def render_lines(self, *, wide: bool = True, compact: bool = False) -> list[Text]:
        """The board's lines; ``compact`` puts both scores on one line and leaves out the key."""
        if compact:
            lines = [Text(" ").join(self._scoreline(seat, short=True) for seat in self.rows())]
        else:
            lines = [self._scoreline(seat) for seat in self.rows()]
        for street in range(self.streets):
            holes = self.street_holes(street)
            for n, seat in enumerate(self.rows()):
                lines.append(self._track(street, holes, seat, wide=wide, label=n == 0))
        if not compact:
            lines.append(self._legend())
        return lines

    def _scoreline(self, seat: int, *, short: bool = False) -> Text:
        colour = COLOURS[0 if seat == self.you else 1]
        front, back = self.scores[seat], self.previous[seat]
        text = Text(f" {FRONT} ", style=colour)
        text.append(
            f"{self.names[seat]:<18.18}" if not short else self.names[seat][:18] + " ",
            style=f"bold {colour}",
        )
        text.append(f"{front:>4}" if not short else str(front), style="bold")
        if front != back:
            text.append(
                f"  (+{front - back} from {back})" if not short else f" (+{front - back})",
                style="dim",
            )
        if short:
            return text
        if seat == self.you:
            text.append(f"   game to {self.target}", style="dim")
        elif self.match_to > 1 or any(self.match_points):
            me, them = self.match_points[self.you], self.match_points[1 - self.you]
            text.append(f"   match {me}–{them}, first to {self.match_to}", style="dim")
        return text

    def _track(self, street: int, holes: list[int], seat: int, *, wide: bool, label: bool) -> Text:
        colour = COLOURS[0 if seat == self.you else 1]
        text = Text()
        left, right = holes[0], holes[-1]
        entry_left = street % 2 == 0
        width = 4 if self.street == STREET else 3
        group = GROUP if self.street == STREET else 2 * GROUP
        blank = " " * (width + 1)
        text.append(f"{left:>{width}} " if label else blank, style=self.line_style(left) or "dim")
        text.append_text(self._edge(street, seat, side="left", entry=entry_left, colour=colour))
        text.append(" ")
        for i, hole in enumerate(holes):
            if i and i % group == 0:
                line = self.line_between(holes[i - 1], hole)
                text.append("┃" if line else " ", style=line or "")
            glyph = self.glyph(seat, hole)
            style: str | Style = colour if glyph != HOLE else "grey42"
            text.append(glyph, style=style)
            if wide:
                text.append(" ")
        text.append(" " if not wide else "")
        text.append_text(
            self._edge(street, seat, side="right", entry=not entry_left, colour=colour)
        )
        text.append(f" {right:<{width}}" if label else blank, style=self.line_style(right) or "dim")
        return text

    def _edge(self, street: int, seat: int, *, side: str, entry: bool, colour: str) -> Text:
        """The cell beside a street: a start hole, the game hole, or a skunk line."""
        front, back = self.pegs(seat)
        if street == 0 and side == "left":
            glyph = FRONT if front == 0 else BACK if back == 0 else "◦"
            return Text(glyph, style=colour if glyph != "◦" else "grey42")
        if street == self.streets - 1 and not entry:
            glyph = FRONT if front >= self.target else "◎"
            return Text(glyph, style=colour if glyph == FRONT else "bold white")
        first = street * self.street + 1
        style = self.line_style(first) if entry else None
        return Text("┃" if style else " ", style=style or "")

    def _legend(self) -> Text:
        text = Text(f"      ◦ start  ◎ game {self.target}", style="dim")
        text.append("  ┃", style=SKUNK_STYLE)
        text.append(f" skunk {self.skunk_line}", style="dim")
        if self.double_skunk_line is not None:
            text.append("  ┃", style=DOUBLE_STYLE)
            text.append(f" double skunk {self.double_skunk_line}", style="dim")
        text.append(f"  {FRONT} score {BACK} last score", style="dim")
        return text


class Pegboard(Widget):
    """The board, redrawn whenever the app sets :attr:`board`."""

    DEFAULT_CSS = """
    Pegboard { height: auto; }
    """

    board: reactive[Board] = reactive(Board, layout=True)

    def render(self) -> RenderableType:
        compact = self.board.street != STREET
        holes = self.board.street
        needed = 2 * holes + holes // (2 * GROUP if compact else GROUP) + 12
        wide = self.size.width >= needed or self.size.width == 0
        return Text("\n").join(self.board.render_lines(wide=wide, compact=compact))
