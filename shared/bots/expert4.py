"""The expert level: the previous expert (``expert-3``, :mod:`muggins.shared.bots.expert3`)
reading the opponent's plays.

Everything ``expert-3`` searches (the play for points, the endgame for the chance to win) draws
the opponent's hand from a belief updated by each card the opponent has played this deal
(:mod:`muggins.shared.bots.reading`): hands that a sensible player would not have played that way
from weigh little. As dealer its answer to the opening lead is searched over what the lead says
of the pone's hand rather than read from the reply table, which knows only that the lead card is
out of it. Its discards, its own opening lead and its suits are ``expert-3``'s.
"""

from __future__ import annotations

from muggins.shared.bots.expert import Reader
from muggins.shared.bots.expert3 import ExpertThreeStrategy
from muggins.shared.bots.reading import posterior

READER = Reader(posterior, answer=True, answer_draws=32)
"""Read every card the opponent plays; search the answer to the opening lead over 32 of the
hands the lead leaves likely (the search may stop after 8, see ``expert.settled``)."""


class ExpertFourStrategy(ExpertThreeStrategy):
    """``expert-3``, with the opponent's hand read from the cards it has played."""

    level = "expert"

    def reader(self) -> Reader | None:
        return READER
