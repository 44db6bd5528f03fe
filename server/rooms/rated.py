"""Rated rooms: who may sit, which options they take, and their turn clock.

A rated room is for two signed-in people (two different accounts); its result changes both
Glicko-2 ratings (:mod:`server.results.settle`). It counts hands automatically (no muggins), and a
match is one game (``match_to`` 1, any scheme) or best of three (scheme ``games``,
``match_to`` 2). The computer cannot be seated, a restart cannot be proposed, and a claim after
the opponent's grace period forfeits the whole match for them.

**The turn clock** (:mod:`server.rooms.turn_clock`): each move may take ``turn_timer`` seconds
(30 by default in a rated room); time beyond that comes out of the player's bank (180 s per
match unless ``turn_bank`` says otherwise). When both are spent the server moves for the player,
as in any timed room.
"""

from __future__ import annotations

from collections.abc import Sequence
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
