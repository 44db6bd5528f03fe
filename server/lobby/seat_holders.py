"""Whose games are where: the rooms an account holds a seat in, and the answer to ``my_games``.

A signed-in player's seats belong to the account, not to one browser tab: another device signed
in to the same account finds them here and takes them over (see ``Room.sit``). The index is
kept loosely: a room is added whenever its facts change, and an entry no longer true is dropped
when it is read, so nothing has to be told when a seat changes hands.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from muggins.server.rooms.players import Player
from muggins.server.rooms.room import Room
from muggins.server.rooms.tokens import token_matches, token_player
from muggins.shared.protocol import GameInProgress, Games


class SeatHolders:
    """Account id -> codes of the rooms where that account holds a seat."""

    def __init__(self, room: Callable[[str], Room | None]) -> None:
        self._room = room
        self._codes: dict[str, set[str]] = {}

    def update(self, room: Room) -> None:
        """Note the accounts seated in ``room`` (called whenever its facts may have changed)."""
        for seat in room.seats:
            if seat.kind == "human" and seat.account is not None:
                self._codes.setdefault(seat.account, set()).add(room.code)

    def rooms_of(self, account: str) -> list[Room]:
        """The open rooms where ``account`` holds a seat now."""
        codes = self._codes.get(account)
        if not codes:
            return []
        held = []
        for code in list(codes):
            room = self._room(code)
            if room is None or room.closed or not _holds(room, account):
                codes.discard(code)
            else:
                held.append(room)
        if not codes:
            del self._codes[account]
        return held


def _holds(room: Room, account: str) -> bool:
    return any(s.kind == "human" and s.account == account for s in room.seats)


def games_of(
    player: Player[Room],
    tokens: Iterable[str],
    *,
    holders: SeatHolders,
    players: Callable[[str], Player[Room] | None],
) -> Games:
    """``player``'s games in progress: its account's seats and those ``tokens`` hold (a token
    is checked as a resume is, and never changed)."""
    found: dict[str, tuple[Room, int]] = {}
    if player.account is not None:
        for room in holders.rooms_of(player.account):
            seat = next(
                s.index for s in room.seats if s.kind == "human" and s.account == player.account
            )
            found[room.code] = (room, seat)
    owners = [player]
    for token in tokens:
        owner = players(token_player(token) or "")
        if owner is not None and token_matches(token, owner.token_hash):
            owners.append(owner)
    for owner in owners:
        where = owner.room
        index = where.seat_of(owner) if where is not None else None
        if where is not None and index is not None and not where.closed:
            found.setdefault(where.code, (where, index))
    ordered = sorted(found.values(), key=lambda held: -held[0].last_activity)
    return Games(games=tuple(_describe(room, seat) for room, seat in ordered if _open(room)))


def _open(room: Room) -> bool:
    return room.status != "over"


def _describe(room: Room, seat: int) -> GameInProgress:
    names = room.names()
    other = room.seats[1 - seat]
    match = room.match
    scores = (0, 0)
    mine = False
    if match is not None:
        scores = (match.game.scores[0], match.game.scores[1])
        mine = seat in match.waiting_for()
    return GameInProgress(
        room=room.code,
        seat=0 if seat == 0 else 1,
        opponent=names[1 - seat] if other.kind != "empty" else None,
        scores=scores,
        your_move=mine,
        status=room.status,
        rated=room.options.rated,
    )
