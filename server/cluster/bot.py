"""The computer in a seat of a cluster room: each move is made by exactly one node.

Every node that has the room cached has the computer in the seat and sees when it is waited for.
Before moving, a node claims the move in Redis (``SET NX PX`` on ``bot:{room}:{seq}``); the others
check every quarter second that the move was made, and take over if the claim lapses because its
node died.
"""

from __future__ import annotations

import asyncio
from typing import Any

from muggins.server.cluster.room import CLAIM_TTL, RoomCopy
from muggins.server.rooms.computer import BotPeer
from muggins.server.store.games import StoreError

CLAIM_POLL = 0.25
"""Seconds between checks, by the nodes that lost a claim, that the move was made."""


class ClusterBot(BotPeer):
    """The computer in a seat, moving once in the cluster: only the node with the claim moves."""

    claimed: str | None = None
    """The claim this bot holds while it makes a move."""

    async def _move(self, seq: int, view: Any) -> None:
        room = self.room
        copy = room.cluster
        assert isinstance(copy, RoomCopy), "a cluster's computer sits in a cluster's room"
        name = f"bot:{room.code}:{seq}"
        while not room.closed and seq == self._latest:
            try:
                won = await copy.redis.claim(name, owner=copy.node.name, ttl=CLAIM_TTL + self.delay)
            except StoreError:
                won = False
            if won:
                self.claimed = name
                try:
                    await super()._move(seq, view)
                finally:
                    self.claimed = None
                return
            # Another node is making this move; if it dies, its claim lapses and one here moves.
            await asyncio.sleep(CLAIM_POLL)
            try:
                await copy.sync()
            except StoreError:
                continue
            if room.seq != seq:
                return
