"""The review of a finished match, for the browser's review page and ``muggins account review``.

Ask with ``review`` (a game id and the seat to review); the answer, ``game_review``, grades every
decision of that seat against the expert (as ``muggins review`` does), names the worst moments,
adds up the points given away per deal, and follows the seat's chance to win each game over the
match, read from the expert's win table. Only finished matches are reviewed.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from muggins.shared.actions import Seat
from muggins.shared.protocol.accounts import _Message, _Part


class GetReview(_Message):
    """Grade one seat's decisions in a finished match against the expert's."""

    type: Literal["review"] = "review"
    game: str = Field(min_length=3, max_length=40, description="a game id such as ABCDEF-1")
    seat: Seat | None = Field(
        default=None,
        description="the seat to review; None: yours if you played it signed in, else seat 0",
    )


class ReviewedDecision(_Part):
    """One decision of the reviewed seat."""

    game: int
    deal: int
    kind: Literal["discard", "play", "count"]
    scores: tuple[int, int] = Field(description="the seat's score, then the opponent's, then")
    chosen: str = Field(description="what the seat did: the cards laid away, the card, the count")
    best: str = Field(description="what the expert would have done")
    loss: float = Field(description="expected points given away against the expert's move")
    win_loss: float = Field(description="the same as a share of the chance to win the game")
    explanation: str = Field(description="a sentence on a big loss, else empty")


class DealLoss(_Part):
    """The points the seat gave away in one deal, by kind of decision."""

    game: int
    deal: int
    discards: float
    play: float
    counts: float


class WinPoint(_Part):
    """The seat's chance to win the game at the start of a deal (or at the game's end)."""

    game: int
    deal: int = Field(description="0 for the end of the game")
    scores: tuple[int, int] = Field(description="the seat's score, then the opponent's")
    dealer: bool = Field(description="whether the seat deals this deal")
    chance: float = Field(description="the chance to win the game, 0 to 1")


class GameReview(_Message):
    """One seat's decisions in a finished match, graded by the expert."""

    type: Literal["game_review"] = "game_review"
    game: str
    seat: Seat
    names: tuple[str, str] = Field(description="who held each seat at the end")
    target: int
    decisions: tuple[ReviewedDecision, ...]
    worst: tuple[int, ...] = Field(description="indexes in decisions of the costliest, worst first")
    deals: tuple[DealLoss, ...]
    win_chance: tuple[WinPoint, ...]
    given_away: tuple[float, float, float] = Field(
        description="points given away in the match: discards, play, counts"
    )
    agreed: int = Field(description="decisions the same as the expert's")
