"""Taking a seat: a player sits (in an empty seat, or in their own again, also from another tab or
device), the computer is seated, a resumed player's token is replaced.

Each change to the seats is saved before anyone hears of it, and a full table starts its match.
"""

from __future__ import annotations

from muggins.server.rooms.agreements import Agreements
from muggins.server.rooms.players import Player, Refusal, SeatState
from muggins.server.rooms.rated import check_rated_seat
from muggins.server.rooms.seating import dismiss_bot
from muggins.server.rooms.tokens import token_matches
from muggins.shared.protocol import Notice
from muggins.shared.protocol.client import MessageId


class Arrivals(Agreements):
    """Players and the computer taking seats, each seat change saved first."""

    async def sit(self, player: Player, *, id: MessageId = None, seat: int | None = None) -> int:
        """Seat ``player`` (back in their own seat, or in an empty one: ``seat`` if given) and
        start when full."""

        async def change() -> int:
            return await self._sit(player, id=id, seat=seat)

        index: int = await self.cluster.change("the seat", change, seats=True)
        if player.peer is not None:
            self.cluster.present(index, here=True)
        return index

    async def _sit(self, player: Player, *, id: MessageId, seat: int | None = None) -> int:
        async with self.lock:
            index = self.seat_of(player)
            held = self.held_for(player) if index is None else None
            if held is not None:
                index = await self._take_over(held, player)
            elif index is None:
                empty = [s for s in self.seats if s.kind == "empty" and seat in (None, s.index)]
                if not empty:
                    raise Refusal("room_full", f"Room {self.code} has no empty seat")
                if self.options.rated:
                    check_rated_seat(self, player)
                taken = empty[0]
                taken.kind, taken.player, taken.account = "human", player, player.account
                try:
                    await self._save_seats()
                except Refusal:
                    taken.kind, taken.player = "empty", None
                    raise
                index = taken.index
                self.notice("joined", f"{player.name} sits down", skip=player.peer)
                await self.note_hand_over(taken)
            self.seats[index].gone_since = None
            player.room = self
            self.last_activity = self.clock()
            if self.match is None and all(s.kind != "empty" for s in self.seats):
                await self._start_match(origin=player.peer, id=id)
            else:
                self.send_room(origin=player.peer, id=id)
                state = self.state_for(index)
                if state is not None and player.peer is not None:
                    player.peer.send(state)
                    self.tell_story(player.peer)
            return index

    async def _take_over(self, seat: SeatState, player: Player) -> int:
        """The same account on another tab or device takes its seat back: the seat is
        ``player``'s from now on, and its older holder is told it was replaced."""
        old = seat.player
        seat.player = player
        try:
            await self._save_seats()
        except Refusal:
            seat.player = old
            raise
        if old is not None:
            if old.peer is not None and old.room is self:
                old.peer.send(
                    Notice(code="replaced", text="This seat was taken up in another tab or device")
                )
            old.room = None
        return seat.index

    async def seat_bot(self, level: str, *, by: Player, id: MessageId = None) -> None:
        async def change() -> None:
            await self._seat_bot(level, by=by, id=id)

        await self.cluster.change("the seat", change, seats=True)

    async def _seat_bot(self, level: str, *, by: Player, id: MessageId) -> None:
        async with self.lock:
            if self.seat_of(by) is None:
                raise Refusal("not_seated", "Only a player seated here can seat the computer")
            if self.options.rated or self.options.duplicate or self.tournament is not None:
                raise Refusal(
                    "illegal",
                    "Rated, duplicate and tournament tables are for two people",
                )
            empty = [s for s in self.seats if s.kind == "empty"]
            if not empty:
                raise Refusal("no_seat_free", "Both seats are taken")
            self.put_bot(empty[0], level)
            try:
                await self._save_seats()
            except Refusal:
                dismiss_bot(empty[0])
                empty[0].kind, empty[0].level, empty[0].bot = "empty", None, None
                raise
            self.notice("bot_seated", f"{empty[0].name} takes seat {empty[0].index}")
            await self.note_hand_over(empty[0])
            if self.match is None:
                await self._start_match(origin=by.peer, id=id)
            else:
                self.send_room(origin=by.peer, id=id)
                self.kick_bots()

    async def rotate_token(self, player: Player, token: str, new_hash: str) -> None:
        """A seated player resumed with ``token``: keep ``new_hash`` instead, saved first. (In a
        cluster, of two nodes resuming with one token at once one wins, and the other's retry
        finds the token spent.)"""

        async def change() -> None:
            await self._rotate_token(player, token, new_hash)

        await self.cluster.change("the resume", change, seats=True)

    async def _rotate_token(self, player: Player, token: str, new_hash: str) -> None:
        async with self.lock:
            if not token_matches(token, player.token_hash):
                raise Refusal("bad_token", "That resume token was just replaced; hello without it")
            old, player.token_hash = player.token_hash, new_hash
            try:
                if self.seat_of(player) is not None:
                    await self._save_seats()
            except Refusal:
                player.token_hash = old
                raise
