"""Rated rooms: who may sit, which options they take, and their turn clock.

A rated room is for two signed-in people (two different accounts); its result changes both
Glicko-2 ratings (:mod:`server.results.settle`). It counts hands automatically (no muggins), and a
match is one game (``match_to`` 1, any scheme) or best of three (scheme ``games``,
``match_to`` 2). The computer cannot be seated, a restart cannot be proposed, and a claim after
the opponent's grace period forfeits the whole match for them.

**The turn clock.** Each move may take ``turn_timer`` seconds (30 by default in a rated room);
time beyond that comes out of the player's bank (180 s per match). When both are spent the
server moves for the player, as in any timed room. Each state that waits for a player starts
their move's time afresh.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from typing import Final, Protocol

from muggins.server.rooms.players import Player, Refusal, SeatState
from muggins.shared.protocol import RoomOptions


class Seated(Protocol):
    """What the rated-seat check reads of a room (server.rooms.seating.Table)."""

    @property
    def code(self) -> str: ...

    @property
    def seats(self) -> Sequence[SeatState]: ...


RATED_MOVE_SECONDS: Final = 30
RATED_BANK_SECONDS: Final = 180.0


def rated_options(options: RoomOptions, player: Player) -> RoomOptions:
    """A rated room's options, completed (the default turn timer), or a refusal saying why."""
    if player.account is None:
        raise Refusal("not_signed_in", "Rated rooms are for signed-in players: register or sign in")
    game = options.game
    if game.muggins:
        raise Refusal("illegal", "Rated rooms count hands automatically: turn muggins off")
    if not (game.match_to == 1 or (game.scheme == "games" and game.match_to == 2)):
        raise Refusal(
            "illegal",
            "A rated match is one game (match_to 1) or best of three (scheme games, match_to 2)",
        )
    return options.model_copy(update={"turn_timer": options.turn_timer or RATED_MOVE_SECONDS})


def check_rated_seat(room: Seated, player: Player) -> None:
    """Refuse a guest, or the same account as the opponent, a seat in a rated room."""
    if player.account is None:
        raise Refusal("not_signed_in", f"Room {room.code} is rated: sign in to play there")
    for seat in room.seats:
        if seat.kind == "human" and seat.player is not player and seat.account == player.account:
            raise Refusal("illegal", "You cannot play a rated game against your own account")


class TurnClock:
    """Per-move time plus a bank per seat, for a rated room."""

    def __init__(
        self,
        move: float,
        bank: float = RATED_BANK_SECONDS,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.move, self.bank, self.clock = move, bank, clock
        self.banks = [bank, bank]
        self.since = clock()

    def reset(self) -> None:
        """A new match: full banks."""
        self.banks = [self.bank, self.bank]
        self.since = self.clock()

    def start(self) -> None:
        """A state that waits for someone went out: their move's time starts now."""
        self.since = self.clock()

    def charge(self, seat: int) -> None:
        """``seat`` moved: time past the per-move limit comes out of its bank."""
        over = self.clock() - self.since - self.move
        if over > 0:
            self.banks[seat] = max(0.0, self.banks[seat] - over)

    def limit(self, waiting: tuple[int, ...]) -> float:
        """Seconds from now until the server moves for the slowest of ``waiting``."""
        bank = min((self.banks[s] for s in waiting), default=0.0)
        return self.move + bank

    def spent(self, seat: int) -> None:
        self.banks[seat] = 0.0

    def left(self) -> tuple[float, float]:
        return round(self.banks[0], 1), round(self.banks[1], 1)
