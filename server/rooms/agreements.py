"""What one player asks and the other answers: a restart, a rematch, and the claim of a seat.

A restart needs both players (or a computer opponent), a rematch both to want one; a claim needs
the opponent gone past the grace period (:mod:`server.rooms.presence`), and wins the game or
gives the seat to the computer. Rated, duplicate and tournament tables allow less.
"""

from __future__ import annotations

import time

from muggins.server.rooms.players import Peer, Refusal, SeatState
from muggins.server.rooms.turn_timer import TurnTimer
from muggins.server.store.games import StoreError
from muggins.shared.actions import Resign
from muggins.shared.protocol.client import MessageId


class Agreements(TurnTimer):
    """Restart, rematch and claim: each checked under the room's lock, then told to the room."""

    def _other(self, seat: int) -> SeatState:
        return self.seats[1 - seat]

    async def propose_restart(
        self, seat: int, *, origin: Peer | None, id: MessageId, seq: int | None = None
    ) -> None:
        async def change() -> None:
            await self._propose_restart(seat, origin=origin, id=id, seq=seq)

        await self.cluster.change("the proposal", change, agreement=True)

    async def _propose_restart(
        self, seat: int, *, origin: Peer | None, id: MessageId, seq: int | None
    ) -> None:
        async with self.lock:
            if seq is not None and seq != self.seq:
                self.refuse_stale(seat, seq, origin=origin)
            if self.match is None:
                raise Refusal("illegal", "There is no match to restart yet")
            if self.options.rated or self.options.duplicate or self.tournament is not None:
                raise Refusal(
                    "illegal", "A rated or tournament match cannot be restarted; resign to concede"
                )
            other = self._other(seat)
            if other.kind == "bot" or self.restart_by == 1 - seat:
                await self._restart(origin=origin, id=id)
                return
            self.restart_by = seat
            self.notice(
                "restart_proposed",
                f"{self.seats[seat].name} proposes to restart the match; "
                f"{other.name or 'the other player'} must accept",
            )
            self.send_room(origin=origin, id=id)

    async def answer_restart(
        self,
        seat: int,
        accept: bool,
        *,
        origin: Peer | None,
        id: MessageId,
        seq: int | None = None,
    ) -> None:
        async def change() -> None:
            await self._answer_restart(seat, accept, origin=origin, id=id, seq=seq)

        await self.cluster.change("the answer", change, agreement=True)

    async def _answer_restart(
        self, seat: int, accept: bool, *, origin: Peer | None, id: MessageId, seq: int | None
    ) -> None:
        async with self.lock:
            if seq is not None and seq != self.seq:
                self.refuse_stale(seat, seq, origin=origin)
            if self.restart_by is None or self.restart_by == seat:
                raise Refusal("nothing_pending", "No restart is waiting for your answer")
            if accept:
                await self._restart(origin=origin, id=id)
                return
            self.restart_by = None
            self.notice("restart_declined", f"{self.seats[seat].name} declines the restart")
            self.send_room(origin=origin, id=id)

    async def _restart(self, *, origin: Peer | None, id: MessageId) -> None:
        assert self.match is not None
        if not self.match.over:
            try:
                await self.store.finish_match(
                    self.code,
                    self.match_number,
                    finished=time.time(),
                    result="restarted",
                    winner=None,
                )
            except StoreError as error:
                raise Refusal("storage", "The server could not restart; try again") from error
        self.notice("restarted", "The match starts again with a new deal")
        await self._start_match(origin=origin, id=id)

    async def ask_rematch(
        self, seat: int, *, origin: Peer | None, id: MessageId, seq: int | None = None
    ) -> None:
        number = self.match_number

        async def change() -> None:
            if self.match_number != number and self.match is not None and not self.match.over:
                # Tried again after a race lost to another node, and the rematch has begun.
                self.send_room(origin=origin, id=id)
                return
            await self._ask_rematch(seat, origin=origin, id=id, seq=seq)

        await self.cluster.change("the rematch", change, agreement=True)

    async def _ask_rematch(
        self, seat: int, *, origin: Peer | None, id: MessageId, seq: int | None
    ) -> None:
        async with self.lock:
            if seq is not None and seq != self.seq:
                self.refuse_stale(seat, seq, origin=origin)
            if self.match is None or not self.match.over:
                raise Refusal("not_over", "A rematch follows a finished match; this one goes on")
            if self.options.duplicate or self.tournament is not None:
                raise Refusal("illegal", "A duplicate or tournament table is played once")
            self.rematch[seat] = True
            if self._other(seat).kind == "bot" or all(self.rematch):
                self.notice("restarted", "Rematch: a new match begins")
                await self._start_match(origin=origin, id=id)
                return
            self.notice("rematch_wanted", f"{self.seats[seat].name} wants a rematch")
            self.send_room(origin=origin, id=id)

    async def claim(
        self, seat: int, take: str, *, origin: Peer | None, id: MessageId, seq: int | None = None
    ) -> None:
        async def change() -> None:
            await self._claim(seat, take, origin=origin, id=id, seq=seq)

        await self.cluster.change("the claim", change, seats=True)

    async def _claim(
        self, seat: int, take: str, *, origin: Peer | None, id: MessageId, seq: int | None
    ) -> None:
        async with self.lock:
            if seq is not None and seq != self.seq:
                self.refuse_stale(seat, seq, origin=origin)
            other = self._other(seat)
            wait = self.claimable_in(other)
            if wait is None:
                raise Refusal("illegal", "Your opponent is here; there is nothing to claim")
            if wait > 0:
                raise Refusal("too_early", f"Your opponent may still return: wait {wait:.0f} s")
            if self.options.rated and take == "bot":
                raise Refusal("illegal", "Rated rooms have no computer: claim the win instead")
            if take == "bot" or self.match is None or self.match.over:
                gone = other.name
                if other.player is not None and other.player.room is self:
                    other.player.room = None
                from muggins.shared.bots import LEVELS

                self.put_bot(other, list(LEVELS)[-1])
                await self._save_seats()
                await self.note_hand_over(other)
                self.notice("replaced", f"{other.name} takes over from {gone}")
                self.send_room(origin=origin, id=id)
                self.kick_bots()
                return
        self.notice("claimed", f"{self.seats[seat].name} claims the game")
        await self.act(other.index, Resign(), origin=origin, id=id)
        while self.options.rated and self.match is not None and not self.match.over:
            await self.act(other.index, Resign(), origin=None)  # the whole rated match
