"""Computer players. A strategy sees one seat's :class:`~shared.view.SeatView`, nothing more.

>>> from muggins.shared.match import Match
>>> m = Match(seed=3)
>>> bot = make_strategy("easy", seed=1)
>>> action = bot.choose(m.view(0))
>>> action in m.view(0).legal
True
"""

from __future__ import annotations

from muggins.shared.bots.base import BASELINES, LEVELS, Strategy, make_strategy

__all__ = ["BASELINES", "LEVELS", "Strategy", "make_strategy"]
