"""What one seat (or a spectator) may see of a match: the only game state that leaves the engine.

:meth:`shared.game.Match.view` builds a :class:`SeatView`. Nothing else turns game state into
something a client receives, so this model is the whole of what can leak, and the tests search it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Literal

from pydantic import Field, SerializerFunctionWrapHandler, create_model, model_serializer

from muggins.shared.actions import Action, GameOptions, Model, Outcome, Points, Seat
from muggins.shared.cards import Card
from muggins.shared.construct import unvalidated
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


class SeatView(Model):
    """Everything ``seat`` may see; ``seat`` is None for a spectator."""

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
    options: GameOptions
    commitment: str = Field(description="the SHA-256 commitment to this deal's deck")
    cut_for_deal: tuple[tuple[Card, Card], ...]
    last_deal: DealSummary | None


VIEW_FIELDS: Final = tuple(SeatView.model_fields)
"""Every part of a view, in order."""

WHOLE_ONLY: Final = frozenset({"options", "commitment", "cut_for_deal", "last_deal"})
"""The parts of a view that cannot change between a deal's start and its end: left out of
every brief view."""

_EVERY_PHASE: Final = frozenset(
    {
        "game_number",
        "deal_number",
        "dealer",
        "match_points",
        "starter",
        "outcome",
        "games",
        "match_winner",
    }
)
"""The parts no phase of a deal changes (the starter is cut in the step that starts the play; a
game's end, which changes the rest, changes the phase)."""

PHASE_FIXED: Final[dict[str, frozenset[str]]] = {
    "discard": _EVERY_PHASE
    | {"scores", "previous_scores", "crib", "count", "pile", "played", "said_go", "show"},
    "play": _EVERY_PHASE | {"discards", "discarded", "crib_count", "crib", "show"},
    "show": _EVERY_PHASE
    | {"hand", "discards", "hand_counts", "discarded", "crib_count", "count", "pile", "played"}
    | {"said_go"},
}
"""The parts of a view that cannot change while a deal stays in one phase: a brief view leaves
them out too, unless its state is the one that entered the phase. (A game's end changes the
phase, and the views of a finished game are never brief beyond :data:`WHOLE_ONLY`.)"""

ALWAYS: Final = frozenset({"seat", "phase", "turn", "waiting_for", "legal"})
"""The parts every view carries, brief or whole."""

NOTHING: Final[frozenset[str]] = frozenset()

_LEFT_OUT: Final = {phase: WHOLE_ONLY | fixed for phase, fixed in PHASE_FIXED.items()}


def left_out(phase: str, *, phase_started: bool) -> frozenset[str]:
    """The parts a brief view in ``phase`` leaves out: the deal's fixed parts, and the phase's
    too unless the state is the one that entered the phase (``phase_started``)."""
    if phase_started:
        return WHOLE_ONLY
    return _LEFT_OUT.get(phase, WHOLE_ONLY)


class _Partial(Model):
    """A model that writes only the fields it was given (a brief view's left-out parts are
    not written as null: they are not there)."""

    @model_serializer(mode="wrap")
    def _given_only(self, handler: SerializerFunctionWrapHandler) -> dict[str, Any]:
        given = self.model_fields_set
        data: dict[str, Any] = handler(self)
        return {name: value for name, value in data.items() if name in given}


def _brief_model() -> type[Model]:
    """BriefView: SeatView's parts in its order, each but :data:`ALWAYS` possibly left out."""
    fields: dict[str, Any] = {}
    for name, info in SeatView.model_fields.items():
        if name in ALWAYS:
            fields[name] = (info.annotation, info)
        else:
            fields[name] = (
                info.annotation,
                Field(
                    default=None,
                    description=(info.description + "; " if info.description else "")
                    + "left out when unchanged (see BriefView)",
                    json_schema_extra=_no_default,
                ),
            )
    model: type[Model] = create_model(
        "BriefView", __base__=_Partial, __module__=__name__, __doc__=_BRIEF_DOC, **fields
    )
    return model


def _no_default(schema: dict[str, Any]) -> None:
    """A left-out part has no default a client could use: it is the previous view's."""
    schema.pop("default", None)


_BRIEF_DOC: Final = """A view without the parts that have not changed (see :class:`SeatView`).

Sent in ``state`` frames with ``"brief": true``. It always carries ``seat``, ``phase``, ``turn``,
``waiting_for`` and ``legal``; every other part is left out when the step cannot have changed
it: ``options``, ``commitment``, ``cut_for_deal`` and ``last_deal`` within a deal, and within a
phase the parts that phase cannot change (:data:`PHASE_FIXED`). A client takes each part left
out from its previous view (the latest one it completed): :func:`whole` does that, and
:class:`shared.protocol.unpack.Unpacker` keeps the previous view. Which parts a parsed one
carries is its ``model_fields_set``.
"""

if TYPE_CHECKING:

    class BriefView(Model):
        """A view without the parts that have not changed (see :data:`_BRIEF_DOC`)."""

        seat: Seat | None
        phase: Phase
        turn: Seat | None
        waiting_for: tuple[Seat, ...]
        legal: tuple[Action, ...]

else:
    BriefView = _brief_model()


def brief(view: SeatView, left: frozenset[str] = WHOLE_ONLY) -> BriefView:
    """``view`` without the parts in ``left`` (see :func:`left_out`), as a brief state carries
    it: the parts left out are None and not in its ``model_fields_set``."""
    values = view.__dict__
    return unvalidated(
        BriefView,
        {name: None if name in left else values[name] for name in VIEW_FIELDS},
        {name for name in VIEW_FIELDS if name not in left},
    )


def whole(view: SeatView | BriefView, last: SeatView) -> SeatView:
    """A brief ``view`` completed from ``last``, the previous view (whole); a whole view as it
    is."""
    if isinstance(view, SeatView):
        return view
    values = view.__dict__
    given = view.model_fields_set
    previous = last.__dict__
    return SeatView.trusted(
        **{name: values[name] if name in given else previous[name] for name in VIEW_FIELDS}
    )
