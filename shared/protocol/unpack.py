"""Whole views from ``state`` messages: a brief view completed from the last whole one.

After a deal's first ``state``, the server sends brief views: they leave out the parts that
cannot change until the next deal (``options``, ``commitment``, ``cut_for_deal``,
``last_deal``). A receiver keeps the latest whole view and fills them in:

>>> from muggins.shared.match import Match
>>> from muggins.shared.protocol import State
>>> from muggins.shared.view import brief
>>> view = Match(seed=1).view(0)
>>> unpacker = Unpacker()
>>> unpacker.whole(State(seq=1, view=view)) == view
True
>>> unpacker.whole(State(seq=2, brief=True, view=brief(view))) == view
True
"""

from __future__ import annotations

from muggins.shared.protocol.server import State
from muggins.shared.view import SeatView, whole


class BriefFirst(ValueError):
    """A brief state arrived before any whole one: the server never sends that."""


class Unpacker:
    """Keeps the latest whole view of one connection; make a new one for a new connection."""

    def __init__(self) -> None:
        self.last: SeatView | None = None

    def whole(self, state: State) -> SeatView:
        """The whole view of ``state``. Raises :class:`BriefFirst` for a brief state with no
        whole one before it."""
        view = state.view
        if isinstance(view, SeatView):
            self.last = view
            return view
        if self.last is None:
            raise BriefFirst(f"state {state.seq} is brief, and no whole state came before it")
        return whole(view, self.last)
