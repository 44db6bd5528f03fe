"""Where the players of a cluster's rated rooms connect from, for the rule that a rated match of
two accounts on one public address moves no rating (:func:`server.results.settle.unrated_because`).

A node knows the addresses of the players connected to it only, and the node that settles a
match may hold one of its players or neither. So a node notes the address of each player who
sits in a rated room through it, or comes back to it (``seat-address:{code}``, a hash by seat,
kept :data:`KEPT_SECONDS`), and a settlement completes what it knows with what the others noted.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from muggins.server.rooms.addresses import one_public_address

if TYPE_CHECKING:
    from muggins.server.cluster.coordination import ClusterStore

KEPT_SECONDS = 86400
"""How long a seat's address is kept (a match is settled long before)."""


def _key(store: ClusterStore, code: str) -> str:
    return f"{store.prefix}seat-address:{code}"


async def note_address(store: ClusterStore, code: str, seat: int, address: str) -> None:
    """Seat ``seat`` of room ``code`` is played from ``address`` (its latest connection)."""

    async def write() -> None:
        async with store.redis.pipeline(transaction=True) as pipe:
            pipe.hset(_key(store, code), str(seat), address)
            pipe.expire(_key(store, code), KEPT_SECONDS)
            await pipe.execute()

    await store._call("seat address", write)


async def seat_addresses(
    store: ClusterStore, code: str, known: tuple[str | None, str | None] = (None, None)
) -> tuple[str | None, str | None]:
    """Each seat's address: as ``known`` here (a player connected to this node), else as noted."""
    if None not in known:
        return known
    found: list[Any] = await store._call(
        "seat address", lambda: store.redis.hmget(_key(store, code), ["0", "1"])
    )
    noted = [None if f is None else str(f) for f in found]
    return known[0] or noted[0], known[1] or noted[1]


async def one_address(store: ClusterStore, code: str) -> bool:
    """Whether both seats of room ``code`` were played from one public address, as noted."""
    return one_public_address(*await seat_addresses(store, code))
