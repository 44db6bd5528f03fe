"""The story of a room's current match, for whoever enters or comes back: every step's sentence
since the match began (the latest :data:`KEPT_LINES`, and every deal's reveal, so a reloaded page
can check each deal again) and the latest chat lines.

The server keeps no history of events while a match is played (thousands of matches would hold
every event for nothing): the story is told again from the match's seed and moves, which is
exact because the engine is deterministic.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence

from muggins.shared.actions import DealRevealed, described
from muggins.shared.match import Match
from muggins.shared.protocol import ChatLine, EventLine, Story
from muggins.shared.protocol.server import built_line

KEPT_LINES = 200
"""Sentences told at most (besides the deals' reveals): what a page's log shows."""
KEPT_CHAT = 50
"""Chat lines a room keeps for newcomers."""


def chat_memory() -> deque[ChatLine]:
    """Where a room keeps its latest chat lines."""
    return deque(maxlen=KEPT_CHAT)


def match_story(
    match: Match, *, code: str, number: int, names: Sequence[str], chat: Iterable[ChatLine]
) -> Story:
    """The story of ``match`` (room ``code``'s match ``number``) so far."""
    told = Match.replay(match.options, match.seed, match.log, keep_events=True)
    target = match.options.target
    lines = [built_line(e, described(e, names, target)) for e in told.events]
    cut = max(0, len(lines) - KEPT_LINES)
    kept: list[EventLine] = [
        line for line in lines[:cut] if isinstance(line.event, DealRevealed)
    ] + lines[cut:]
    return Story(room=code, match_number=number, lines=tuple(kept), chat=tuple(chat))
