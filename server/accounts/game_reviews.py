"""The review of a finished match, served to the browser's review page and the terminal.

A ``review`` request names a game and a seat; the answer is
:func:`shared.bots.review_page.review_page` of that match: every decision of the seat graded by
the expert, the worst moments, the points given away per deal and the chance to win over the
match. Reviewing a match to 121 costs a second or two of CPU, so it runs in a thread, one at a
time, and the latest reviews are kept (a finished match never changes).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from muggins.server.rooms.players import Player, Refusal
from muggins.server.store.games import Store, parse_match_id
from muggins.shared.bots.review_page import review_page
from muggins.shared.protocol.review import GameReview, GetReview

WAITING_MOST = 8
"""Reviews that may wait for the reviewer at once; past it a request is refused (rate_limited)."""


class GameReviews:
    def __init__(self, store: Store, *, size: int = 64, waiting_most: int = WAITING_MOST) -> None:
        self.store = store
        self.size = size
        self.waiting_most = waiting_most
        self.waiting = 0
        self._kept: OrderedDict[tuple[str, int], GameReview] = OrderedDict()
        self._one_at_a_time = asyncio.Lock()

    async def review(self, player: Player, message: GetReview) -> GameReview:
        try:
            code, number = parse_match_id(message.game)
        except ValueError as error:
            raise Refusal("no_game", str(error)) from None
        match = await self.store.load_match(code, number)
        if match is None or match.finished is None:
            raise Refusal("no_game", f"No finished game {message.game!r} here to review")
        seat = message.seat if message.seat is not None else await self._own_seat(player, match.id)
        key = (match.id, seat)
        found = self._kept.get(key)
        if found is None:
            if self.waiting >= self.waiting_most:
                raise Refusal("rate_limited", "The reviewer is busy; try again in a moment")
            self.waiting += 1
            try:
                async with self._one_at_a_time:
                    found = self._kept.get(key)
                    if found is None:
                        found = await asyncio.to_thread(
                            review_page,
                            game=match.id,
                            options=match.options,
                            seed=match.seed,
                            log=match.actions,
                            seat=seat,
                            names=match.final_names,
                        )
            finally:
                self.waiting -= 1
            self._kept[key] = found
            while len(self._kept) > self.size:
                self._kept.popitem(last=False)
        self._kept.move_to_end(key)
        return found.model_copy(update={"id": message.id})

    async def _own_seat(self, player: Player, match: str) -> int:
        """The seat the signed-in player held in ``match`` (by their history), else seat 0."""
        if player.account is None:
            return 0
        for entry in await self.store.account_history(player.account, limit=200):
            if entry.match == match:
                return entry.seat
        return 0
