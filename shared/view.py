"""What one seat (or a spectator) may see of a match: the only game state that leaves the engine.

:meth:`shared.game.Match.view` builds a :class:`SeatView`. Nothing else turns game state into
something a client receives, so this model is the whole of what can leak, and the tests search it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from muggins.shared.actions import Action, GameOptions, Model, Outcome, Points, Seat
from muggins.shared.cards import Card
from muggins.shared.counting import Answer

Phase = Literal["discard", "play", "show", "game_over", "match_over"]


class PlayedCard(Model):
    seat: Seat
    card: Card


class ShowResult(Model):
    """A hand or crib laid face up in the show.

    ``total``, ``parts`` and ``spoken`` are empty until the count is settled: at once when
    counting is automatic; in muggins mode only once the owner's claim has been answered, so
    nothing but the cards themselves tells anyone the total before then.
    """

    seat: Seat
    kind: Literal["hand", "crib"]
    cards: tuple[Card, ...]
    starter: Card
    total: int | None = None
    parts: tuple[Points, ...] = ()
    spoken: str = ""
    claimed: int | None = Field(
        default=None, description="muggins mode: the owner's claim, shown as soon as it is made"
    )
    answer: Answer | None = Field(
        default=None, description="muggins mode: the opponent's answer, once given"
    )
    taken: int = Field(
        default=0,
        description="points the opponent took: a short count's missed points (muggins) or an "
        "over-count's excess (a challenge)",
    )
    penalty: int = Field(default=0, description="points the owner got for a wrong call")


class DealReveal(Model):
    """The deck order and salt behind a finished deal's commitment."""

    deal_number: int
    dealer: Seat
    commitment: str
    deck: tuple[Card, ...]
    salt: str


class DealSummary(Model):
    """A finished deal as both players saw it at its end."""

    deal_number: int
    dealer: Seat
    starter: Card | None
    crib: tuple[Card, ...]
    show: tuple[ShowResult, ...]
    reveal: DealReveal


class BriefView(Model):
    """A view without the parts that cannot change within a deal (see :class:`SeatView`).

    Sent in ``state`` frames after the deal's first one: a client keeps the last whole view and
    takes ``options``, ``commitment``, ``cut_for_deal`` and ``last_deal`` from it. Always made
    from a whole view by :func:`brief`, never on its own.
    """

    seat: Seat | None
    phase: Phase
    game_number: int
    deal_number: int
    dealer: Seat
    turn: Seat | None = Field(description="whose move it is; None while both may discard")
    waiting_for: tuple[Seat, ...]
    scores: tuple[int, int]
    previous_scores: tuple[int, int] = Field(
        description="back pegs: each score before its last gain"
    )
    match_points: tuple[int, int]
    hand: tuple[Card, ...] = Field(description="this seat's cards not yet played")
    discards: tuple[Card, ...] = Field(description="what this seat laid away to the crib")
    hand_counts: tuple[int, int] = Field(description="cards each seat holds")
    discarded: tuple[bool, bool]
    crib_count: int
    crib: tuple[Card, ...] | None = Field(description="face up once the crib is shown")
    starter: Card | None
    count: int
    pile: tuple[PlayedCard, ...] = Field(description="cards played since the count last restarted")
    played: tuple[PlayedCard, ...] = Field(description="every card played this deal, in order")
    said_go: tuple[bool, bool]
    show: tuple[ShowResult, ...]
    legal: tuple[Action, ...] = Field(
        description="the moves that advance the game now, each a message to send as it is; "
        "resign is allowed whenever a game is on but never listed, so that a program choosing "
        "from legal never gives up by chance"
    )
    outcome: Outcome | None = Field(description="the latest finished game of this match")
    games: tuple[Outcome, ...]
    match_winner: Seat | None


class SeatView(BriefView):
    """Everything ``seat`` may see; ``seat`` is None for a spectator."""

    options: GameOptions
    commitment: str = Field(description="the SHA-256 commitment to this deal's deck")
    cut_for_deal: tuple[tuple[Card, Card], ...]
    last_deal: DealSummary | None


WHOLE_ONLY = frozenset({"options", "commitment", "cut_for_deal", "last_deal"})
"""The parts of a view that cannot change between a deal's start and its end: left out of
brief views."""

BRIEF_FIELDS = tuple(name for name in BriefView.model_fields)


def brief(view: SeatView) -> BriefView:
    """``view`` without the parts a client already holds from the deal's first (whole) view."""
    values = view.__dict__
    return BriefView.trusted(**{name: values[name] for name in BRIEF_FIELDS})


def whole(view: SeatView | BriefView, last: SeatView) -> SeatView:
    """A brief ``view`` completed from ``last``, the latest whole view; a whole view as it is."""
    if isinstance(view, SeatView):
        return view
    values = view.__dict__
    return SeatView.trusted(
        **{name: values[name] for name in BRIEF_FIELDS},
        **{name: last.__dict__[name] for name in WHOLE_ONLY},
    )
