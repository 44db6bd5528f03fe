"""Tournaments in a cluster: one director at a time, holding a lease in Redis; the state in Redis.

Keys (under the store's prefix):

- ``tournament:state:{id}``: the tournament as its director writes it
  (:class:`~server.cluster.tournament_state.State`: status, round, the games with their tables
  and results, the Swiss byes); ``tournament:members:{id}``, a hash any node writes (join,
  leave); ``tournament:asks:{id}``: a start or a finish asked for on any node, for the director.
- ``tournament:revision:{id}``: a number raised with every write of the state or of a member, in
  the same transaction, and read with them: each ``tournament`` message carries it, so a client
  keeps the newest whatever order answers and news reach it in.
- ``tournament:director:{id}``: the director's lease. Every node tries to take it each second
  (:data:`~server.cluster.tournament_records.LEASE`): the holder renews it, and another node
  takes it when it lapses (6 s after its holder stalls) or at once when its holder's process has
  ended (no subscriber on its wake-up channel), as a room's owner lease. The director's writes
  are fenced: a node that lost the lease writes nothing.
- ``tournament:room:{code}``: a table's tournament and (a Swiss round on duplicate deals) its
  seed, so whichever node starts the table's match deals the round's deals.
- ``tournament:here:{id}``: the node each member is connected to, as that node writes it (on a
  join, and each time it looks at the tournament: a member no longer connected there is taken
  out). A member counts as connected while that node runs (its heartbeat lives and it listens for
  its wake-ups), so the members of a node that died are away.
- ``tournaments``, ``tournaments:live``: every tournament by creation, and those not finished.

The director takes each table's result from its match in Redis (a duplicate pairing's from its
linked tables, :mod:`server.cluster.duplicate`), pairs who is free, makes the tables (rooms, owned
by its node like any room it makes), writes the state and wakes every node. Each node then seats
its own connected members at their tables and tells its own members and followers the standings,
as the rated queue seats its players. A director killed during a round loses nothing: the tables
play on through their players' nodes, and the next director reads their results from Redis.

As on one server (:mod:`server.lobby.tournaments`), only members who are connected are paired:
an arena pairs the free ones, and a member away when a Swiss round is paired sits it out with no
points (a round waits until two members are connected). A member who drops during a game keeps
their seat, and the table waits for them.

This module is a node's part: the requests, the loop, and this node's members.
:mod:`server.cluster.tournament_director` directs; :mod:`server.cluster.tournament_records` reads
and writes the keys; :mod:`server.cluster.tournament_state` is the state and how it is told.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from typing import TYPE_CHECKING, Protocol

from muggins.server.cluster import duplicate
from muggins.server.cluster.tournament_director import direct
from muggins.server.cluster.tournament_records import TournamentRecords
from muggins.server.cluster.tournament_state import Entry, State, info
from muggins.server.lobby.standings import summary
from muggins.server.lobby.tournament_rules import (
    check_director,
    check_join,
    new_tournament,
    signed_in,
)
from muggins.server.rooms.players import Player, Refusal
from muggins.server.runtime.ticks import tick
from muggins.server.store.games import StoreError
from muggins.shared.protocol.tournaments import CreateTournament, TournamentInfo, Tournaments

if TYPE_CHECKING:
    from muggins.server.rooms.room import Room

log = logging.getLogger("muggins.tournaments")

POLL = 1.0
"""Seconds between two looks at every live tournament (wake-ups come sooner)."""
ANSWER_WAIT = 5.0
"""Seconds a start waits for the director to act on it before answering."""


class Node(duplicate.Node, Protocol):
    """What this module needs of its cluster node (server.cluster.lobby.ClusterNode): what
    duplicate matches need, and the wake-up of every node."""

    async def wake_nodes(self, payload: dict[str, str]) -> None: ...


class ClusterTournaments:
    """This node's part in the cluster's tournaments (see the module doc)."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.records = TournamentRecords(node.redis, node.name)
        self.followers: dict[str, dict[str, Player]] = {}
        """Players here who asked for a tournament's standings, by tournament and player id."""
        self._told: dict[str, str] = {}
        self._seated: set[tuple[str, str]] = set()
        """(table, account) pairs this node has seated once, while the table's game is on."""
        self._locks: dict[str, asyncio.Lock] = {}
        self.known: set[str] = set()
        """The live tournaments this node knows of (it directs one when its director dies)."""

    # --- requests ------------------------------------------------------------------------------

    async def create(self, player: Player, message: CreateTournament) -> TournamentInfo:
        account = await signed_in(self.node.lobby.store, player)
        state = new_tournament(State, self.node.lobby.config, account, message)
        if state.kind == "arena":
            state.status, state.ends_at = "playing", time.time() + 60 * state.minutes
        await self.records.create(state)
        log.info("tournament created", extra={"tournament": state.id, "kind": state.kind})
        await self.records.lease(state.id)  # its maker's node directs it first
        await self._wake(state.id)  # every node knows of it (to direct it if this one dies)
        return info(state, {}, player.account)

    async def join(self, player: Player, tournament: str) -> TournamentInfo:
        state, members = await self.records.read(tournament)
        account = await signed_in(self.node.lobby.store, player)
        entry = members.get(account.id)
        check_join(state, account, member=entry is not None)
        if entry is None:
            entry = Entry(name=player.name, active=True, at=time.time())
        entry.active = True
        await self.records.put(state.id, account.id, entry)
        await self.records.mark_here(state.id, [account.id])
        self.node._spawn(self._wake(state.id))
        state, members = await self.records.read(state.id)  # with its revision, as it is now
        return info(state, members, player.account)

    async def leave(self, player: Player, tournament: str) -> TournamentInfo:
        state, members = await self.records.read(tournament)
        entry = members.get(player.account or "")
        if entry is None or player.account is None:
            raise Refusal("illegal", f"You are not in {state.name}")
        entry.active = False
        await self.records.put(state.id, player.account, entry)
        self.node._spawn(self._wake(state.id))
        state, members = await self.records.read(state.id)  # with its revision, as it is now
        return info(state, members, player.account)

    async def start(self, player: Player, tournament: str, *, finish: bool) -> TournamentInfo:
        state, members = await self.records.read(tournament)
        check_director(state.maker, await signed_in(self.node.lobby.store, player))
        ask = "finish" if finish else "start"
        if ask == "start":
            if state.kind != "swiss" or state.status != "waiting":
                return info(state, members, player.account)
            if len(members) < 2:
                raise Refusal("illegal", "A Swiss needs two players at least")
        await self.records.ask(state.id, ask)
        await self._wake(state.id)
        deadline = time.monotonic() + ANSWER_WAIT
        before = state.text()
        while time.monotonic() < deadline:  # the director's answer (often this very node's)
            state, members = await self.records.read(state.id)
            if state.text() != before:
                break
            await asyncio.sleep(0.05)
        return info(state, members, player.account)

    async def listing(self) -> Tournaments:
        found = []
        for id in await self.records.ids():
            state, members = await self.records.read(id)
            found.append(summary(state, len(members)))
        order = {"playing": 0, "waiting": 1, "finished": 2}
        found.sort(key=lambda s: (order[s.status], s.name))
        return Tournaments(tournaments=tuple(found))

    async def get(self, player: Player, tournament: str) -> TournamentInfo:
        """Its standings now; and (the standings page) each change from now on."""
        state, members = await self.records.read(tournament)
        self.followers.setdefault(state.id, {})[player.id] = player
        return info(state, members, player.account)

    # --- wake-ups and the loop ----------------------------------------------------------------

    async def _wake(self, id: str) -> None:
        """Every node (this one too) looks at tournament ``id`` now."""
        try:
            await self.node.wake_nodes({"kind": "tournament", "tournament": id})
        except StoreError as error:
            log.info("tournament %s: nodes not woken (%s); their poll sees it", id, error)
        self.heard(id)

    async def run(self) -> None:
        """Every ``POLL`` seconds: each live tournament this node knows of (from wake-ups, and
        the list read when its subscription is made), and each one followed here. A node
        that knows of none reads nothing."""
        while True:
            await tick(POLL)
            for id in sorted(self.known | set(self.followers)):
                await self.step(id)

    async def resync(self) -> None:
        """The live tournaments, read again (the subscription was made: a wake-up may have been
        missed meanwhile)."""
        try:
            live = await self.records.live()
        except StoreError as error:
            log.info("tournaments not listed (%s); a wake-up lists them", error)
            return
        self.known |= live

    def heard(self, id: str) -> None:
        """A wake-up: look at tournament ``id`` now (unless a look is running)."""
        self.known.add(id)
        lock = self._locks.setdefault(id, asyncio.Lock())
        if not lock.locked():
            self.node._spawn(self.step(id))

    async def step(self, id: str) -> None:
        lock = self._locks.setdefault(id, asyncio.Lock())
        if lock.locked():
            return
        async with lock:
            try:
                state, _ = await self.records.read(id)
                directing = state.status != "finished" and await self.records.lease(id)
                if directing and await direct(self.records, self.node.lobby, id):
                    await self._wake(id)
                await self._serve(id)
            except (StoreError, Refusal) as error:
                log.info("tournament %s: %s", id, error)
            except Exception:
                log.exception("tournament %s", id)
        if id not in self.known:  # finished: a later step makes a new lock
            self._locks.pop(id, None)

    async def release(self) -> None:
        """A node stopping gives up the leases it holds (another node directs at once)."""
        for id in sorted(self.known):
            await self.records.release(id)

    # --- this node's members -------------------------------------------------------------------

    def _here(self, account: str) -> Player | None:
        for player in self.node.lobby.players.values():
            if player.account == account and player.peer is not None:
                return player
        return None

    async def _serve(self, id: str) -> None:
        """Note who is connected here; seat this node's members at their tables; tell them and
        followers of a change."""
        state, members = await self.records.read(id)
        if state.status != "finished":
            await self.records.mark_here(id, [a for a in members if self._here(a) is not None])
        for game in state.games:
            if game.result is None:
                for seat, account in enumerate((game.first, game.second)):
                    await self._seat(game.room, account, seat)
            else:  # played: nobody is seated there again, so the node forgets it
                self._seated.discard((game.room, game.first))
                self._seated.discard((game.room, game.second))
        told = state.text() + json.dumps({a: e.text() for a, e in sorted(members.items())})
        if self._told.get(id) == told:
            return
        self._told[id] = told
        people: dict[str, Player] = dict(self.followers.get(id, {}))
        for account in members:
            player = self._here(account)
            if player is not None:
                people[player.id] = player
        for player in people.values():
            if player.peer is not None:
                player.peer.send(info(state, members, player.account))
        if state.status == "finished":
            self.followers.pop(id, None)
            self.known.discard(id)
            self._told.pop(id, None)

    async def _seat(self, code: str, account: str, seat: int) -> None:
        if (code, account) in self._seated:
            return
        player = self._here(account)
        if player is None:
            return  # connected to another node (which seats them), or not at all
        room = self.node.lobby.rooms.get(code)
        if room is None or room.closed:
            room = await self.node.load(code)
        if room is None:
            return
        current = player.room
        if (room.match is not None and room.match.over) or current is room:
            self._seated.add((code, account))
            return
        if current is not None and current.status != "over":
            return  # still at another table: seated once it is over
        if current is not None:
            await current.leave(player)
        try:
            await room.sit(player, seat=seat)
            self._seated.add((code, account))
        except Refusal as refusal:
            log.warning("tournament table %s: could not seat a player: %s", code, refusal.message)

    async def loaded(self, room: Room) -> None:
        """A room loaded here: a tournament table says so, and pins its round's seed."""
        found = await self.records.table(room.code)
        if found is not None:
            room.tournament, seed = found
            if seed:
                pinned = bytes.fromhex(seed)
                room.new_seed = lambda: pinned
