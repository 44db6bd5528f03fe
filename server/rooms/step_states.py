"""The ``state`` each receiver gets after a step of a match, built once for all of them.

The step's events are described once; each receiver gets the engine's view for its own seat, brief
(the parts that cannot have changed left out) unless the step may have changed them. The room
sends these, and the wire tests and the client's fake link build states the same way.
"""

from __future__ import annotations

from typing import Final

from muggins.shared.actions import Event, GameOver, described
from muggins.shared.match import Match
from muggins.shared.protocol import GameOver as GameOverMessage
from muggins.shared.protocol import SeatClock, State
from muggins.shared.protocol.client import MessageId
from muggins.shared.protocol.server import built_line, built_state
from muggins.shared.view import SeatView

WHOLE_AFTER: Final = frozenset({"cut_for_deal", "deal_started", "deal_revealed", "game_over"})
"""Events after which a state's view is whole: the parts a brief view leaves out may change
only in a step holding one of them (a new match, a new deal, a deal's reveal, a game's end)."""


class StepStates:
    """The ``state`` each receiver gets after a step: its view, brief unless the step may have
    changed the parts a brief view leaves out, with the step's events and game end.

    Called with a seat (None: a spectator) and the ``id`` it answers, it makes that receiver's
    state from the match as it is now; :meth:`many` makes several at once.
    """

    def __init__(
        self,
        match: Match,
        seq: int,
        events: list[Event],
        names: tuple[str, str],
        clock: tuple[SeatClock | None, SeatClock | None] | None = None,
    ) -> None:
        # Built without validation: the engine made every part valid, and this runs for every
        # receiver of every move.
        self.match, self.seq, self.clock = match, seq, clock
        lines = []
        over = None
        target = match.options.target
        whole = match.winner is not None
        for e in events:
            text = described(e, names, target)
            lines.append(built_line(e, text))
            if not whole and e.type in WHOLE_AFTER:
                whole = True
            if isinstance(e, GameOver):
                over = GameOverMessage.model_construct(
                    outcome=e.outcome,
                    winner=names[e.outcome.winner],
                    match_points=e.match_points,
                    match_over=e.match_over,
                    text=text,
                )
        self.lines = tuple(lines)
        self.over = over
        self.short = not whole

    def __call__(self, seat: int | None, id: MessageId = None) -> State:
        return self._state(self.match.view(seat), id)

    def many(self, asked: list[tuple[int | None, MessageId]]) -> list[State]:
        """The states of several (seat, id) at once: their views are made together."""
        views = self.match.views([seat for seat, _ in asked])
        return [self._state(view, id) for view, (_, id) in zip(views, asked, strict=True)]

    def _state(self, view: SeatView, id: MessageId) -> State:
        # A brief state keeps the whole view object: encode() leaves the brief parts out of
        # the text, and receivers in this process (the computer) read it whole.
        return built_state(
            id=id,
            seq=self.seq,
            brief=self.short,
            view=view,
            events=self.lines,
            game_over=self.over,
            clock=self.clock,
        )
