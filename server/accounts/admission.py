"""Who may sign in or register now: not a banned account or address, and not a seated player
into an account other than their seat's."""

from __future__ import annotations

import time

from muggins.server.accounts.sanctions import Sanction, Sanctions
from muggins.server.rooms.players import Player, Refusal
from muggins.server.store.accounts import AccountRecord


async def not_banned(sanctions: Sanctions, account: AccountRecord | None, address: str) -> None:
    """Refuse a banned account, or any account from a banned address, saying why and until
    when."""
    now = time.time()
    found: Sanction | None = None
    if account is not None:
        found = await sanctions.of("ban", account.id, now=now)
    if found is None:
        found = await sanctions.address_ban(address, now=now)
    if found is not None:
        until = (
            "for good"
            if found.until is None
            else "until " + time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(found.until))
        )
        why = f": {found.reason}" if found.reason else ""
        raise Refusal("banned", f"You are banned {until}{why}")


def check_seat(player: Player, account: AccountRecord | None) -> None:
    """Refuse to sign a seated player in to an account other than their seat's: the seat's name
    and rating would part (the name from one account, the rating with the other)."""
    room = player.room
    index = room.seat_of(player) if room is not None else None
    if room is None or index is None or room.status == "over":
        return
    held = room.seats[index].account
    if held is not None and (account is None or held != account.id):
        raise Refusal(
            "illegal",
            f"You are playing in room {room.code} as another account: finish or leave that game "
            "first",
        )
