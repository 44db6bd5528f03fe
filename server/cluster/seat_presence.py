"""Whether the players connected to other nodes (or to none) are connected, as a room's copy
reads it from Redis: a drop is told to their opponents once it is sure, not at a stall."""

from __future__ import annotations

from typing import Protocol

from muggins.server.rooms.room import Room

LAPSE_CONFIRM = 6.0
"""Seconds a presence whose node's heartbeat lapsed (the node may only be stalled: starved, or
collecting garbage) must stay lapsed before the player counts as disconnected."""
END_CONFIRM = 1.5
"""Seconds a presence whose node has ended (its subscription to its wake-ups is gone: the process
died and its connections were closed) must stay so before the player counts as disconnected:
long enough for a node whose subscription merely dropped to make it again."""
PRESENCE_LAG = 2.0
"""Seconds a newly seen player counts as connected before their presence must show in Redis."""


class Copy(Protocol):
    """What this module needs of a room's copy (server.cluster.room.RoomCopy)."""

    room: Room
    seated_at: list[float]
    """When each seat's player was first seen here (their presence may lag a moment)."""
    lapsed_since: list[float | None]
    """Since when each seat's presence has been missing (not cleared) in Redis."""
    seen: list[bool]
    """Whether each seat's presence has shown in Redis since it was taken."""


def take_presence(
    copy: Copy,
    present: tuple[bool, bool],
    left: tuple[bool, bool],
    ended: tuple[bool, bool] = (False, False),
) -> None:
    """Connected or not, as Redis has it, for the players connected to other nodes (or to none).

    A clean disconnect (``left``) is told at once. A presence whose node has ended (its
    process died: ``ended``) is told once it has stayed so for ``END_CONFIRM`` seconds. A
    presence that merely lapsed may be a renewal that came late (a node or Redis stalled
    under load) rather than a drop: it is told only once it has stayed lapsed for
    ``LAPSE_CONFIRM`` seconds (a vanished machine's players are told then, unless they are
    back on another node by that time).
    """
    room = copy.room
    changed = False
    for seat, here, gone, dead in zip(room.seats, present, left, ended, strict=True):
        player = seat.player
        if seat.kind != "human" or player is None or player.peer is not None:
            copy.lapsed_since[seat.index] = None
            continue
        if here:
            copy.seen[seat.index] = True
            copy.lapsed_since[seat.index] = None
        elif not gone and seat.gone_since is None:
            first = copy.lapsed_since[seat.index]
            if first is None:
                copy.lapsed_since[seat.index] = room.clock()
                continue
            if room.clock() - first < (END_CONFIRM if dead else LAPSE_CONFIRM):
                continue
        if here and seat.gone_since is not None:
            seat.gone_since, changed = None, True
            room.notice("returned", f"{player.name} is back")
        elif not here and seat.gone_since is None:
            lagging = room.clock() - copy.seated_at[seat.index] < PRESENCE_LAG
            if lagging and not copy.seen[seat.index]:
                continue  # just seated on another node: its presence is on its way
            seat.gone_since, changed = room.clock(), True
            if room.status == "playing":
                room.notice(
                    "disconnected",
                    f"{player.name} lost the connection; you may claim the game in "
                    f"{room.grace:.0f} s if they do not return",
                )
                room.count_grace(seat.index)
    if changed:
        room.send_room()
