"""A room's owner: the one node that serves the connections naming the room.

Two nodes can serve one room (Redis holds the game), but then both apply and send every move.
So a room has an owner, recorded in Redis as a lease (``owner:{code}``):

- A node takes the lease when it makes or loads a room, or when a connection naming the room
  (``/?room=CODE``) reaches it, if nobody holds it. A lease holds while its node runs: it lapses
  with the node's heartbeat, 6 s after the node stops (stalled, or gone), and at once for a node
  whose process has ended (its wake-up channel has no subscriber: killed or crashed). The next
  node then takes the room over from its log, as any resume does. The lease's key expires after
  ``OWNER_TTL`` unless renewed, which the heartbeat does every ``RENEW_EVERY`` for the rooms the
  node still holds: so the leases of rooms a node let go (or of rooms long gone) leave Redis,
  while the heartbeat does not write every room's lease every second (a write per room a
  second was more of Redis's work than the moves themselves at human pace). A room a running
  node let go may still send its players there for a while; that node then serves it again.
- A connection naming a room that another running node owns is closed with close code 4001
  (``MOVED``), the owner's own address (its ``--node-url``) as the reason; clients connect there
  at once (a browser only when its URL says ``follow=1``). An owner without an address (behind
  a proxy that routes by room, the proxy has already chosen) is not sent to: this node serves
  the connection, as before owners existed.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping

from muggins.server.cluster.coordination import ClusterStore
from muggins.server.rooms.room import Room
from muggins.server.store.games import StoreError
from muggins.shared.protocol.routing import room_url

log = logging.getLogger("muggins.cluster")

REASON_BYTES = 123
"""The longest close reason a WebSocket close frame carries."""
OWNER_TTL = 120.0
"""Seconds a lease's key lasts in Redis unless renewed (not how long a lease holds: see above)."""
RENEW_EVERY = 30.0
"""Seconds between renewals of a node's lease keys (a few renewals may fail within OWNER_TTL)."""


class RoomOwnership:
    """The rooms this node owns, and where a connection for another node's room goes."""

    def __init__(
        self, store: ClusterStore, *, ttl: float = OWNER_TTL, every: float = RENEW_EVERY
    ) -> None:
        self.store = store
        self.ttl = ttl
        self.every = every
        self.owned: set[str] = set()
        self.renewed = float("-inf")
        """When (monotonic clock) the lease keys were last handed to a heartbeat to renew."""

    async def route(self, code: str, *, stored: bool = True) -> str | None:
        """Where a connection naming room ``code`` should go instead (None: serve it here);
        ``stored``: only a room that is in the store already (not one being made)."""
        try:
            owner, address = await self.store.own_room(code, ttl=self.ttl, stored=stored)
        except StoreError as error:
            log.info("room %s served here: its owner is unknown (%s)", code, error)
            return None
        if owner == self.store.node:
            self.owned.add(code)
            return None
        if owner is None or address is None:
            return None  # no such room (the join says so), or an owner nobody is sent to
        target = room_url(address, code)
        return target if len(target.encode()) <= REASON_BYTES else None

    async def take(self, code: str) -> None:
        """Own room ``code`` if nobody runs it (made or loaded here)."""
        await self.route(code, stored=False)

    def renewing(self, rooms: Mapping[str, Room]) -> list[str]:
        """The lease keys the next heartbeat renews: none until ``every`` seconds have passed
        since the last renewal, then those of the rooms still open here (the others expire)."""
        now = time.monotonic()
        if now - self.renewed < self.every:
            return []
        self.renewed = now
        self.owned = {c for c in self.owned if (r := rooms.get(c)) is not None and not r.closed}
        return sorted(self.owned)

    async def release(self) -> None:
        """Give up every lease (a node stopping hands its rooms over at once)."""
        owned, self.owned = self.owned, set()
        for code in owned:
            await self.store.disown(code)
