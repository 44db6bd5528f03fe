"""The coach for a browser (or any client that cannot run it): the expert's move and its reason.

Only in games against the computer, as in the terminal client, and only when the asker's seat
has a move to make. The advice is worked out from the asker's own view, so it uses nothing that
seat may not see. In a muggins-mode show it stays silent while a count or an answer is pending:
its advice would tell the hand's true total, or which answer is right.
"""

from __future__ import annotations

import asyncio

from muggins.server.rooms.players import Refusal
from muggins.server.rooms.room import Room
from muggins.shared.actions import Accept, Count
from muggins.shared.bots.coach import advise
from muggins.shared.protocol import Hint
from muggins.shared.protocol.client import MessageId


async def hint_for(room: Room, seat: int, id: MessageId = None) -> Hint:
    """The coach's move for ``seat`` now. Raises :class:`Refusal` when there is none to give."""
    if room.seats[1 - seat].kind != "bot":
        raise Refusal("illegal", "The coach helps only in games against the computer")
    view = room.match.view(seat) if room.match is not None else None
    if view is None or seat not in view.waiting_for or not view.legal:
        raise Refusal("not_your_turn", "Nothing to advise: it is not your move")
    if any(isinstance(action, Count | Accept) for action in view.legal):
        raise Refusal(
            "illegal",
            "The coach is silent in a muggins show: counting the hand, or answering a count, "
            "is the player's own job",
        )
    advice = await asyncio.to_thread(advise, view)
    return Hint(move=advice.action, text=advice.explanation, id=id)
