"""Whole views from ``state`` messages: a brief view completed from the previous view.

A brief view leaves out the parts the step cannot have changed: those a deal cannot change
(``options``, ``commitment``, ``cut_for_deal``, ``last_deal``) and those its phase cannot
change (see :data:`shared.view.PHASE_FIXED`). A receiver keeps the latest view it completed and
fills them in from it:

>>> from muggins.shared.match import Match
>>> from muggins.shared.protocol import State
>>> from muggins.shared.view import brief, left_out
>>> view = Match(seed=1).view(0)
>>> unpacker = Unpacker()
>>> unpacker.whole(State(seq=1, view=view)) == view
True
>>> unpacker.whole(State(seq=2, brief=True, view=brief(view))) == view
True
>>> within = left_out("discard", phase_started=False)  # the deal's parts and the phase's
>>> unpacker.whole(State(seq=3, brief=True, view=brief(view, within))) == view
True
"""

from __future__ import annotations

from muggins.shared.protocol.server import State
from muggins.shared.view import SeatView, whole


class BriefFirst(ValueError):
    """A brief state arrived before any whole one: the server never sends that."""


class Unpacker:
    """Keeps the latest view of one connection, completed; make a new one for a new connection."""

    def __init__(self) -> None:
        self.last: SeatView | None = None

    def whole(self, state: State) -> SeatView:
        """The whole view of ``state``, a brief one completed from the previous view. Raises
        :class:`BriefFirst` for a brief state with no whole one before it."""
        view = state.view
        if isinstance(view, SeatView):
            self.last = view
            return view
        if self.last is None:
            raise BriefFirst(f"state {state.seq} is brief, and no whole state came before it")
        self.last = whole(view, self.last)
        return self.last
