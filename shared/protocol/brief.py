"""What a brief ``state`` leaves out of its view, decided from the state alone.

The server sends a state brief when the receiver already holds the deal's fixed parts and, within
a phase, the parts the phase cannot change (:func:`shared.view.left_out`). This is the plain
statement of that rule: :func:`as_sent` turns a state into the form pydantic writes as it goes on
the wire. The server's hand-written writer (``server/wire/state_writer.py``) decides the same
once per step and is tested equal to this.
"""

from __future__ import annotations

from muggins.shared.actions import HandScored, HandShown, StarterCut
from muggins.shared.protocol.server import EventLine, State
from muggins.shared.view import NOTHING, VIEW_FIELDS, SeatView, brief, left_out


def starts_phase(line: EventLine, dealer: int) -> bool:
    """Whether the event of ``line`` puts a deal in a new phase that a deal event does not
    announce: the starter's cut (the play begins) or the pone's hand shown or scored (the show
    begins)."""
    event = line.event
    if isinstance(event, (HandShown, HandScored)):
        return event.kind == "hand" and event.seat != dealer
    return isinstance(event, StarterCut)


def left_out_of(state: State) -> frozenset[str]:
    """The parts of the view that ``state``'s text leaves out: none for a whole state; for a
    brief one, those a deal cannot change, and unless its step entered the view's phase, those
    the phase cannot change."""
    if not state.brief:
        return NOTHING
    view = state.view
    if not isinstance(view, SeatView):  # a parsed brief view: what it carries
        given = view.model_fields_set
        return frozenset(name for name in VIEW_FIELDS if name not in given)
    started = any(starts_phase(line, view.dealer) for line in state.events)
    return left_out(view.phase, phase_started=started)


def as_sent(state: State) -> State:
    """``state`` as it goes on the wire: a brief state built with a whole view carries a
    :class:`~shared.view.BriefView` without the parts it leaves out."""
    view = state.view
    if state.brief and isinstance(view, SeatView):
        return state.model_copy(update={"view": brief(view, left_out_of(state))})
    return state
