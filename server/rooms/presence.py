"""Whether a seated player is here: a connection dropped or back, leaving, the grace period.

A seat whose player dropped stays theirs. After the room's ``grace`` seconds the opponent is
offered the claim (:mod:`server.rooms.agreements`), unless the player is back by then or, in a
cluster, connected to another node.
"""

from __future__ import annotations

import asyncio

from muggins.server.rooms.players import Player
from muggins.server.rooms.referee import Referee
from muggins.shared.protocol.client import MessageId

OFFERS: set[asyncio.Task[None]] = set()
"""Claim offers being checked (kept here so a running check is not collected)."""


class Presence(Referee):
    """Seated players' connections coming and going, and the claim offered if one stays gone."""

    def attach(self, player: Player, *, id: MessageId = None) -> None:
        """A seated player's connection is back (resume). Atomic: no await."""
        index = self.seat_of(player)
        if index is None or player.peer is None:
            return
        seat = self.seats[index]
        was_gone = seat.gone_since is not None
        seat.gone_since = None
        self.last_activity = self.clock()
        self.welcome_back(player.peer, index, id=id)
        if was_gone:
            self.notice("returned", f"{player.name} is back", skip=player.peer)
        self.send_room()
        self.cluster.present(index, here=True)

    def detach(self, player: Player) -> None:
        """A seated player's connection dropped; the seat waits for the grace period."""
        index = self.seat_of(player)
        if index is None:
            return
        since = self.seats[index].gone_since = self.clock()
        self.last_activity = since
        if self.status == "playing":
            self.notice(
                "disconnected",
                f"{player.name} lost the connection; you may claim the game in "
                f"{self.grace:.0f} s if they do not return",
            )
            self.count_grace(index)
        self.send_room()
        self.cluster.present(index, here=False)

    def count_grace(self, index: int) -> None:
        """Seat ``index``'s player is gone (since ``gone_since``): after the grace period the
        opponent is offered the claim, unless they are back by then."""
        since = self.seats[index].gone_since
        if since is not None:
            asyncio.get_running_loop().call_later(self.grace, self._claimable, index, since)

    def _claimable(self, index: int, since: float) -> None:
        if self._still_gone(index, since):
            task = asyncio.get_running_loop().create_task(self._offer_claim(index, since))
            OFFERS.add(task)
            task.add_done_callback(OFFERS.discard)

    def _still_gone(self, index: int, since: float) -> bool:
        seat = self.seats[index]
        return not self.closed and seat.gone_since == since and self.status == "playing"

    async def _offer_claim(self, index: int, since: float) -> None:
        """The grace period is over: tell the opponent, if the seat is still empty-handed and
        its player is not connected anywhere (in a cluster: to no other node either)."""
        if await self.cluster.connected(index) or not self._still_gone(index, since):
            return
        seat = self.seats[index]
        offer = (
            "claim the game"
            if self.options.rated
            else ("claim the game, or give the seat to the computer")
        )
        self.notice("claimable", f"{seat.name} has not come back: {offer}")
        self.send_room()

    async def leave(self, player: Player) -> None:
        index = self.seat_of(player)

        async def change() -> None:
            await self._leave(player)

        await self.cluster.change("leaving", change, seats=True)
        if index is not None:
            self.cluster.present(index, here=False)

    async def _leave(self, player: Player) -> None:
        async with self.lock:
            index = self.seat_of(player)
            player.room = None
            if index is None:
                return
            seat = self.seats[index]
            if self.status == "playing":
                # The seat stays theirs (they may come back by code); the opponent may claim now.
                seat.gone_since = self.clock() - self.grace
                self.notice("left", f"{player.name} left the table; you may claim the game")
            else:
                seat.kind, seat.player, seat.gone_since = "empty", None, None
                seat.account = None
                await self._save_seats()
                self.notice("left", f"{player.name} left the room")
            self.rematch = [False, False]
            self.send_room()
