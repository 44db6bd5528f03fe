"""Duplicate matches in a cluster: the two tables are rooms linked in Redis.

On one server a :class:`~server.lobby.duplicate.DuplicateTables` object holds both tables. In a
cluster the players of a table may sit on two nodes, and the node that made the first table may
die, so the link lives in Redis (``duplicate:{first}``, a hash, and ``duplicate-of:{second}``):

- Every node that sees a first table's match end (it holds the room: a player, a spectator or
  its owner) asks for the link. One of them claims the making of the second table
  (``claim:duplicate:{first}``), makes the room, writes the link (the second table's code, the
  first table's seed and match number, the players' ids, names and accounts), and seats both
  players there, seats swapped, as their seat records name them. The others wait for the link.
- Each node then moves its own connected players to the second table (it loads the room; the
  seat is already theirs), so each player's own node serves them, as the rated queue seats its
  players. A player who was on a node that died finds their seat at the second table when they
  come back (their seat record names it).
- A node that starts the second table's match (the one whose write filled the last seat) takes
  its seed from the link: every node loading a second table pins its seed first.
- Every node that sees the second table's match end tells its own people the result and settles
  the pair, once whoever does it (keyed by the first table's game id). The sweep of unsettled
  matches settles a pair whose nodes all died after its last move (:func:`settle_pair`).
- A rated pair is settled under the rules of any rated match (:func:`settle_duplicate`), the
  rule of one address too, from the second table's players' addresses as the nodes noted them
  (:mod:`server.cluster.addresses`).

The tables are played one after the other, as on one server, so no table sees a card its own
play has not revealed.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from muggins.server.cluster.addresses import one_address
from muggins.server.lobby.duplicate import duplicate_result, settle_duplicate, tell_result
from muggins.server.rooms.addresses import one_public_address
from muggins.server.rooms.players import Refusal
from muggins.server.store.games import StoreError, match_id
from muggins.shared.match import Match
from muggins.shared.protocol import DuplicateResult

if TYPE_CHECKING:
    from collections.abc import Coroutine

    from muggins.server.cluster.coordination import ClusterStore
    from muggins.server.lobby.lobby import Lobby
    from muggins.server.rooms.room import Room
    from muggins.server.rooms.seating import Table

log = logging.getLogger("muggins.cluster")

LINK_DAYS = 7
"""Days a link stays in Redis (the tables' games are kept apart, for ever)."""
MAKING_SECONDS = 20.0
"""How long a claim to make a second table lasts (another node makes it if its maker died)."""
WAIT_STEP = 0.1
"""Seconds between two looks for the link another node is making."""


@dataclass(frozen=True, slots=True)
class Link:
    first: str
    number: int
    """The first table's match number."""
    second: str
    seed: bytes
    players: tuple[str, str]
    """The players' ids, by their seat at the first table."""
    names: tuple[str, str]
    accounts: tuple[str | None, str | None]
    tournament: str | None

    def fields(self) -> dict[str, str]:
        return {
            "first": self.first,
            "number": str(self.number),
            "second": self.second,
            "seed": self.seed.hex(),
            "players": json.dumps(self.players),
            "names": json.dumps(self.names),
            "accounts": json.dumps(self.accounts),
            "tournament": self.tournament or "",
        }

    @classmethod
    def parse(cls, fields: dict[str, str]) -> Link:
        players, names, accounts = (json.loads(fields[k]) for k in ("players", "names", "accounts"))
        return cls(
            first=fields["first"],
            number=int(fields["number"]),
            second=fields["second"],
            seed=bytes.fromhex(fields["seed"]),
            players=(players[0], players[1]),
            names=(names[0], names[1]),
            accounts=(accounts[0], accounts[1]),
            tournament=fields["tournament"] or None,
        )


async def read_link(store: ClusterStore, code: str) -> Link | None:
    """The link of the duplicate match whose first or second table is room ``code``."""

    async def read() -> dict[str, str]:
        first = await store.redis.get(f"{store.prefix}duplicate-of:{code}") or code
        found = await store.redis.hgetall(f"{store.prefix}duplicate:{first!s}")
        return {str(k): str(v) for k, v in found.items()}

    fields = await store._call("duplicate", read)
    return Link.parse(fields) if fields else None


async def write_link(store: ClusterStore, link: Link) -> None:
    async def write() -> None:
        ttl = LINK_DAYS * 86400
        async with store.redis.pipeline(transaction=True) as pipe:
            fields: dict[Any, Any] = dict(link.fields())
            pipe.hset(f"{store.prefix}duplicate:{link.first}", mapping=fields)
            pipe.expire(f"{store.prefix}duplicate:{link.first}", ttl)
            pipe.set(f"{store.prefix}duplicate-of:{link.second}", link.first, ex=ttl)
            await pipe.execute()

    await store._call("duplicate", write)


async def pair_result(
    store: ClusterStore, link: Link, two: Match, second_number: int, *, rated: bool
) -> tuple[Match, DuplicateResult] | None:
    """The first table's match and the pair's result, once both tables are over (None: not
    yet, or the first table's match is not found)."""
    record = await store.load_match(link.first, link.number)
    if record is None:
        return None
    one = Match.replay(record.options, record.seed, record.actions, keep_events=False)
    if not one.over or not two.over:
        return None
    games = (match_id(link.first, link.number), match_id(link.second, second_number))
    return one, duplicate_result(record.options, one, two, link.names, games, rated=rated)


async def settle_pair(
    store: ClusterStore, code: str, number: int, *, rated: bool, pair_max: int
) -> bool:
    """The sweep's settlement of a duplicate table's match (see the module doc): the pair is
    settled once its second table is over; a first table's own match is never settled apart.
    ``pair_max``: the server's rated_pair_per_day. True when nothing is left to do for this
    table's match."""
    link = await read_link(store, code)
    if link is None or link.second != code:
        return True  # a first table (its second table settles the pair), or no pair
    record = await store.load_match(code, number)
    if record is None:
        return True
    two = Match.replay(record.options, record.seed, record.actions, keep_events=False)
    found = await pair_result(store, link, two, number, rated=rated)
    if found is None:
        return False  # still in play
    one, result = found
    shared = await one_address(store, code)
    await settle_duplicate(
        store, result, one, two, link.accounts, shared_address=shared, pair_max=pair_max
    )
    return await store.is_settled(result.games[0])


class Node(Protocol):
    """What this module needs of its cluster node (server.cluster.lobby.ClusterNode)."""

    name: str
    lobby: Lobby
    redis: ClusterStore

    async def load(self, code: str) -> Room | None: ...

    def _spawn(self, job: Coroutine[Any, Any, None]) -> None: ...


class ClusterDuplicates:
    """This node's part in the cluster's duplicate matches (see the module doc)."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.store = node.redis
        self._handled: set[tuple[str, int]] = set()
        """Tables (code, match number) whose end this node has acted on."""

    def watch(self, room: Room) -> None:
        """A duplicate table made or loaded here: act when its match ends."""
        room.duplicate_table = room.duplicate_table or 1
        told = room.on_change

        def changed(table: Table) -> None:
            if told is not None:
                told(table)
            match = room.match
            if match is None or not match.over:
                return
            key = (room.code, room.match_number)
            if key not in self._handled:
                self._handled.add(key)
                self.node._spawn(self._over(room))

        room.on_change = changed

    async def loaded(self, room: Room) -> None:
        """A duplicate table loaded here: a second table pins its seed and says what it is."""
        link = await read_link(self.store, room.code)
        if link is not None and link.second == room.code:
            self._mark_second(room, link)

    def _mark_second(self, room: Room, link: Link) -> None:
        room.duplicate_table = 2
        room.tournament = link.tournament
        seed = link.seed
        room.new_seed = lambda: seed

    async def _over(self, room: Room) -> None:
        try:
            link = await read_link(self.store, room.code)
            if link is not None and link.second == room.code:
                await self._finish(room, link)
            else:
                await self._move_on(room, link)
        except StoreError as error:
            log.warning("duplicate %s: %s", room.code, error)
            self._handled.discard((room.code, room.match_number))
        except Exception:
            log.exception("duplicate %s", room.code)

    async def _move_on(self, first: Room, link: Link | None) -> None:
        """The first table is over: the second table (made here or by another node), and this
        node's players moved to it."""
        claim = f"duplicate:{first.code}"
        for _ in range(int(MAKING_SECONDS * 2 / WAIT_STEP)):
            if link is not None:
                break
            if await self.store.claim(claim, owner=self.node.name, ttl=MAKING_SECONDS):
                link = await self._make_second(first)
                break
            await asyncio.sleep(WAIT_STEP)  # another node makes it
            link = await read_link(self.store, first.code)
        if link is None:
            return
        second = self.node.lobby.rooms.get(link.second)
        if second is None or second.closed:
            second = await self.node.load(link.second)
        if second is None:
            return
        self._mark_second(second, link)
        for player_id in link.players:
            player = self.node.lobby.players.get(player_id)
            if player is None or player.peer is None:
                continue  # connected elsewhere (its node moves it), or not at all
            if player.room is first:
                await first.leave(player)
            try:
                await second.sit(player)
            except Refusal as refusal:
                log.warning(
                    "duplicate %s: could not seat %s: %s", second.code, player.name, refusal
                )

    async def _make_second(self, first: Room) -> Link | None:
        match = first.match
        one, two = (s.player for s in first.seats)
        if match is None or one is None or two is None:
            return None
        seed = match.seed if isinstance(match.seed, bytes) else match.seed.to_bytes(32, "big")
        try:
            second = await self.node.lobby.create_room(first.options, second_table=True)
        except Refusal as refusal:
            log.warning("duplicate %s: no second table: %s", first.code, refusal.message)
            return None
        link = Link(
            first=first.code,
            number=first.match_number,
            second=second.code,
            seed=seed,
            players=(one.id, two.id),
            names=first.names(),
            accounts=(first.seats[0].account, first.seats[1].account),
            tournament=first.tournament,
        )
        await write_link(self.store, link)
        self._mark_second(second, link)
        first.notice(
            "duplicate",
            f"Table 1 is over. Table 2 ({second.code}) deals the same cards with the seats swapped",
        )
        for seat, player in enumerate((two, one)):  # the second player takes seat 0 this time
            if player.room is first:
                await first.leave(player)
            try:
                await second.sit(player, seat=seat)
            except Refusal as refusal:
                log.warning(
                    "duplicate %s: could not seat %s: %s", second.code, player.name, refusal
                )
        return link

    async def _finish(self, second: Room, link: Link) -> None:
        """The second table is over: its people here hear the result; the pair is settled."""
        two = second.match
        if two is None:
            return
        found = await pair_result(
            self.store, link, two, second.match_number, rated=second.options.rated
        )
        if found is None:
            return
        one, result = found
        tell_result(second, result)
        known = [s.player.address if s.player else None for s in second.seats]
        addresses = await second.cluster.addresses((known[0], known[1]))
        moved = await settle_duplicate(
            self.store,
            result,
            one,
            two,
            link.accounts,
            shared_address=one_public_address(*addresses),
            pair_max=second.rated_pair_max,
        )
        if moved:
            second.notice("rating", moved)
