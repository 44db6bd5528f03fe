"""Tournaments in a cluster: one director at a time, holding a lease in Redis; the state in Redis.

Keys (under the store's prefix):

- ``tournament:state:{id}``: the tournament as its director writes it
  (:class:`~server.cluster.tournament_state.State`: status, round, the games with their tables
  and results, the Swiss byes); ``tournament:members:{id}``, a hash any node writes (join,
  leave); ``tournament:asks:{id}``: a start or a finish asked for on any node, for the director.
- ``tournament:director:{id}``: the director's lease. Every node tries to take it each second
  (:data:`LEASE`): the holder renews it, and another node takes it when it lapses (6 s after its
  holder stalls) or at once when its holder's process has ended (no subscriber on its wake-up
  channel), as a room's owner lease. The director's writes are fenced: a node that lost the
  lease writes nothing.
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
points. A member who drops during a game keeps their seat, and the table waits for them.
"""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import time
from typing import TYPE_CHECKING, Any, Protocol

from muggins.server.cluster import duplicate
from muggins.server.cluster.duplicate import pair_result, read_link
from muggins.server.cluster.scripts import PRESENT, RELEASE
from muggins.server.cluster.tournament_state import Entry, Game, State, arithmetic, info
from muggins.server.lobby.standings import summary
from muggins.server.lobby.tournament_rules import (
    check_director,
    check_join,
    new_tournament,
    signed_in,
)
from muggins.server.lobby.tournaments import MOVE_SECONDS
from muggins.server.rooms.players import Player, Refusal
from muggins.server.runtime.ticks import tick
from muggins.server.store.games import StoreError
from muggins.shared.actions import GameOptions
from muggins.shared.match import Match
from muggins.shared.protocol import RoomOptions
from muggins.shared.protocol.tournaments import CreateTournament, TournamentInfo, Tournaments
from muggins.shared.tournament import Swiss

if TYPE_CHECKING:
    from muggins.server.rooms.room import Room

log = logging.getLogger("muggins.tournaments")

POLL = 1.0
"""Seconds between two looks at every live tournament (wake-ups come sooner)."""
LEASE_SECONDS = 6.0
"""How long a director's lease lasts unless renewed."""
ANSWER_WAIT = 5.0
"""Seconds a start waits for the director to act on it before answering."""

# KEYS: lease. ARGV: node, milliseconds, node channel prefix.
LEASE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and redis.call('PUBSUB', 'NUMSUB', ARGV[3] .. holder)[2] > 0 then
    return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

# KEYS: lease, state. ARGV: node, state.
FENCED_WRITE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
return 1
"""

# KEYS: here. ARGV: node, then the members connected to it. (Those no longer connected to it are
# taken out; another node's entries are left as they are.)
MARK_HERE = """
local here = {}
for i = 2, #ARGV do here[ARGV[i]] = true end
local held = redis.call('HGETALL', KEYS[1])
for i = 1, #held, 2 do
    if held[i + 1] == ARGV[1] and not here[held[i]] then redis.call('HDEL', KEYS[1], held[i]) end
end
for i = 2, #ARGV do redis.call('HSET', KEYS[1], ARGV[i], ARGV[1]) end
return 1
"""

# KEYS: here. ARGV: heartbeat prefix, node channel prefix. The members whose node runs.
CONNECTED = (
    PRESENT
    + """
local held = redis.call('HGETALL', KEYS[1])
local found = {}
for i = 1, #held, 2 do
    if live(held[i + 1], ARGV[1], ARGV[2]) then found[#found + 1] = held[i] end
end
return found
"""
)


class Node(duplicate.Node, Protocol):
    """What this module needs of its cluster node (server.cluster.lobby.ClusterNode): what
    duplicate matches need, and the wake-up of every node."""

    async def wake_nodes(self, payload: dict[str, str]) -> None: ...


class ClusterTournaments:
    """This node's part in the cluster's tournaments (see the module doc)."""

    def __init__(self, node: Node) -> None:
        self.node = node
        self.store = node.redis
        self.followers: dict[str, dict[str, Player]] = {}
        """Players here who asked for a tournament's standings, by tournament and player id."""
        self._told: dict[str, str] = {}
        self._seated: set[tuple[str, str]] = set()
        """(table, account) pairs this node has seated once."""
        self._locks: dict[str, asyncio.Lock] = {}
        self.known: set[str] = set()
        """The live tournaments this node knows of (it directs one when its director dies)."""

    def _k(self, kind: str, id: str) -> str:
        return f"{self.store.prefix}tournament:{kind}:{id}"

    @property
    def _all(self) -> str:
        return f"{self.store.prefix}tournaments"

    @property
    def _live(self) -> str:
        return f"{self.store.prefix}tournaments:live"

    async def _call(self, what: str, make: Any) -> Any:
        return await self.store._call(f"tournament {what}", make)

    # --- requests ------------------------------------------------------------------------------

    async def create(self, player: Player, message: CreateTournament) -> TournamentInfo:
        account = await signed_in(self.node.lobby.store, player)
        state = new_tournament(State, self.node.lobby.config, account, message)
        if state.kind == "arena":
            state.status, state.ends_at = "playing", time.time() + 60 * state.minutes
        r = self.store.redis

        async def write() -> None:
            async with r.pipeline(transaction=True) as pipe:
                pipe.set(self._k("state", state.id), state.text())
                pipe.zadd(self._all, {state.id: state.created})
                pipe.sadd(self._live, state.id)
                await pipe.execute()

        await self._call("create", write)
        log.info("tournament created", extra={"tournament": state.id, "kind": state.kind})
        await self._lease(state.id)  # its maker's node directs it first
        await self._wake(state.id)  # every node knows of it (to direct it if this one dies)
        return info(state, {}, player.account)

    async def join(self, player: Player, tournament: str) -> TournamentInfo:
        state, members = await self._read(tournament)
        account = await signed_in(self.node.lobby.store, player)
        entry = members.get(account.id)
        check_join(state, account, member=entry is not None)
        if entry is None:
            entry = Entry(name=player.name, active=True, at=time.time())
        entry.active = True
        await self._put(state.id, account.id, entry)
        await self._mark_here(state.id, [account.id])
        members[account.id] = entry
        self.node._spawn(self._wake(state.id))
        return info(state, members, player.account)

    async def leave(self, player: Player, tournament: str) -> TournamentInfo:
        state, members = await self._read(tournament)
        entry = members.get(player.account or "")
        if entry is None or player.account is None:
            raise Refusal("illegal", f"You are not in {state.name}")
        entry.active = False
        await self._put(state.id, player.account, entry)
        self.node._spawn(self._wake(state.id))
        return info(state, members, player.account)

    async def start(self, player: Player, tournament: str, *, finish: bool) -> TournamentInfo:
        state, members = await self._read(tournament)
        check_director(state.maker, await signed_in(self.node.lobby.store, player))
        ask = "finish" if finish else "start"
        if ask == "start":
            if state.kind != "swiss" or state.status != "waiting":
                return info(state, members, player.account)
            if len(members) < 2:
                raise Refusal("illegal", "A Swiss needs two players at least")
        await self._call("ask", lambda: self.store.redis.hset(self._k("asks", state.id), ask, "1"))
        await self._wake(state.id)
        deadline = time.monotonic() + ANSWER_WAIT
        before = state.text()
        while time.monotonic() < deadline:  # the director's answer (often this very node's)
            state, members = await self._read(state.id)
            if state.text() != before:
                break
            await asyncio.sleep(0.05)
        return info(state, members, player.account)

    async def listing(self) -> Tournaments:
        ids = await self._call("list", lambda: self.store.redis.zrange(self._all, 0, -1))
        found = []
        for id in ids:
            state, members = await self._read(str(id))
            found.append(summary(state, len(members)))
        order = {"playing": 0, "waiting": 1, "finished": 2}
        found.sort(key=lambda s: (order[s.status], s.name))
        return Tournaments(tournaments=tuple(found))

    async def get(self, player: Player, tournament: str) -> TournamentInfo:
        """Its standings now; and (the standings page) each change from now on."""
        state, members = await self._read(tournament)
        self.followers.setdefault(state.id, {})[player.id] = player
        return info(state, members, player.account)

    # --- reading and writing -------------------------------------------------------------------

    async def _read(self, tournament: str) -> tuple[State, dict[str, Entry]]:
        id = tournament.strip().upper()
        r = self.store.redis

        async def read() -> list[Any]:
            async with r.pipeline(transaction=False) as pipe:
                pipe.get(self._k("state", id))
                pipe.hgetall(self._k("members", id))
                result: list[Any] = await pipe.execute()
                return result

        text, members = await self._call("read", read)
        if text is None:
            raise Refusal("illegal", f"There is no tournament {tournament!r} here")
        return State.parse(text), {str(a): Entry.parse(e) for a, e in members.items()}

    async def _put(self, id: str, account: str, entry: Entry) -> None:
        await self._call(
            "member", lambda: self.store.redis.hset(self._k("members", id), account, entry.text())
        )

    async def _mark_here(self, id: str, accounts: list[str]) -> None:
        """Note that ``accounts`` are the members connected to this node (see the module doc)."""
        key, node = self._k("here", id), self.node.name
        await self._call("here", lambda: self.store.redis.eval(MARK_HERE, 1, key, node, *accounts))

    async def _connected(self, id: str) -> set[str]:
        """The members connected to a node that runs."""
        key, store = self._k("here", id), self.store
        found = await self._call(
            "here",
            lambda: store.redis.eval(CONNECTED, 1, key, store.alive_prefix, store.node_prefix),
        )
        return {str(account) for account in found}

    async def _lease(self, id: str) -> bool:
        key, node = self._k("director", id), self.node.name
        ms = int(LEASE_SECONDS * 1000)
        got = await self._call(
            "lease",
            lambda: self.store.redis.eval(LEASE, 1, key, node, ms, self.store.node_prefix),
        )
        return bool(got == 1)

    async def _write(self, state: State) -> bool:
        keys = (self._k("director", state.id), self._k("state", state.id))
        done = await self._call(
            "write",
            lambda: self.store.redis.eval(FENCED_WRITE, 2, *keys, self.node.name, state.text()),
        )
        return bool(done == 1)

    async def _wake(self, id: str) -> None:
        """Every node (this one too) looks at tournament ``id`` now."""
        try:
            await self.node.wake_nodes({"kind": "tournament", "tournament": id})
        except StoreError as error:
            log.info("tournament %s: nodes not woken (%s); their poll sees it", id, error)
        self.heard(id)

    # --- the loop ------------------------------------------------------------------------------

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
            live = await self._call("live", lambda: self.store.redis.smembers(self._live))
        except StoreError as error:
            log.info("tournaments not listed (%s); a wake-up lists them", error)
            return
        self.known |= {str(id) for id in live}

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
                state, _ = await self._read(id)
                if state.status != "finished" and await self._lease(id):
                    await self._direct(id)
                await self._serve(id)
            except (StoreError, Refusal) as error:
                log.info("tournament %s: %s", id, error)
            except Exception:
                log.exception("tournament %s", id)

    async def release(self) -> None:
        """A node stopping gives up the leases it holds (another node directs at once)."""
        for id in sorted(self.known):
            key = self._k("director", id)
            await self._call(
                "lease", lambda key=key: self.store.redis.eval(RELEASE, 1, key, self.node.name)
            )

    # --- this node's members -------------------------------------------------------------------

    def _here(self, account: str) -> Player | None:
        for player in self.node.lobby.players.values():
            if player.account == account and player.peer is not None:
                return player
        return None

    async def _serve(self, id: str) -> None:
        """Note who is connected here; seat this node's members at their tables; tell them and
        followers of a change."""
        state, members = await self._read(id)
        if state.status != "finished":
            await self._mark_here(id, [a for a in members if self._here(a) is not None])
        for game in state.games:
            if game.result is None:
                for seat, account in enumerate((game.first, game.second)):
                    await self._seat(game.room, account, seat)
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

    # --- directing -----------------------------------------------------------------------------

    async def _direct(self, id: str) -> None:
        """This node holds the lease: results in, asks answered, new pairings, state written."""
        state, members = await self._read(id)
        before = state.text()
        for index, game in enumerate(state.games):
            if game.result is None:
                game.result = await self._score(state, game)
                if game.result is not None:
                    state.recorded.append(index)
        asks = await self._call("asks", lambda: self.store.redis.hgetall(self._k("asks", id)))
        if "finish" in asks and state.status != "finished":
            state.ends_at = time.time()
            if state.kind == "arena":
                state.status = "ending"
            elif state.status == "playing" and state.busy():
                state.round = state.rounds  # the round goes on; no round after it
            else:
                state.status = "finished"
        elif "start" in asks and state.kind == "swiss" and state.status == "waiting":
            state.status = "playing"
            state.entrants = sorted(members, key=lambda a: (members[a].at, a))
        over = state.ends_at is not None and time.time() >= state.ends_at
        if state.kind == "arena" and state.status == "playing" and over:
            state.status = "ending"
        if state.status == "ending" and not state.busy():
            state.status = "finished"
        if state.status == "playing":
            await self._pair(state, members, await self._connected(id))
        if state.text() != before:
            if not await self._write(state):
                return  # the lease moved on meanwhile: the next director does it
            if state.status == "finished":
                await self._call("done", lambda: self.store.redis.srem(self._live, id))
            log.info("tournament changed", extra={"tournament": id, "round": state.round})
            await self._wake(id)
        if asks:
            await self._call("asks", lambda: self.store.redis.delete(self._k("asks", id)))

    async def _pair(self, state: State, members: dict[str, Entry], connected: set[str]) -> None:
        """Pair the members who are in and connected (see the module doc)."""
        calc = arithmetic(state, members)
        busy = state.busy()
        if isinstance(calc, Swiss):
            if busy:
                return
            if state.round >= state.rounds:
                state.status = "finished"
                return
            state.round += 1
            state.round_seed = secrets.token_bytes(32).hex()
            present = [a for a in state.entrants if members[a].active and a in connected]
            byes = {a: r.byes for a, r in calc.records.items()}
            pairs = calc.pair_round(present)
            state.byes += [a for a, r in calc.records.items() if r.byes > byes[a]]
            log.info("swiss round", extra={"tournament": state.id, "round": state.round})
            for first, second in pairs:
                await self._table(state, first, second, state.round)
            return
        free = [a for a, e in members.items() if e.active and a in connected and a not in busy]
        for first, second in calc.pair(free):
            await self._table(state, first, second, None)

    async def _table(self, state: State, first: str, second: str, round: int | None) -> None:
        """A new table for a pairing, recorded in ``state`` (seated by the players' nodes)."""
        options = RoomOptions(
            game=GameOptions(target=121 if state.target == 121 else 61),
            private=True,
            turn_timer=MOVE_SECONDS,
            spectators=not (state.duplicate and state.kind == "swiss"),
            duplicate=state.duplicate and state.kind == "arena",
        )
        try:
            room = await self.node.lobby.create_room(options)
        except Refusal as refusal:
            log.warning("tournament %s: no room: %s", state.id, refusal.message)
            return
        room.tournament = state.id
        seed = state.round_seed if state.duplicate and state.kind == "swiss" else ""
        if seed:
            pinned = bytes.fromhex(seed)
            room.new_seed = lambda: pinned
        fields: dict[Any, Any] = {"tournament": state.id, "seed": seed}
        await self._call(
            "table", lambda: self.store.redis.hset(self._k("room", room.code), mapping=fields)
        )
        state.games.append(Game(first, second, room.code, round))

    async def loaded(self, room: Room) -> None:
        """A room loaded here: a tournament table says so, and pins its round's seed."""
        fields = await self._call(
            "table", lambda: self.store.redis.hgetall(self._k("room", room.code))
        )
        if fields:
            room.tournament = str(fields["tournament"])
            if fields.get("seed"):
                pinned = bytes.fromhex(str(fields["seed"]))
                room.new_seed = lambda: pinned

    async def _score(self, state: State, game: Game) -> float | None:
        """The first player's score at ``game``'s table once it is over (None: not yet)."""
        if state.duplicate and state.kind == "arena":
            link = await read_link(self.store, game.room)
            record = await self.store.load_match(link.second, 1) if link is not None else None
            if link is None or record is None:
                return None
            two = Match.replay(record.options, record.seed, record.actions, keep_events=False)
            found = await pair_result(self.store, link, two, 1, rated=False)
            if found is None:
                return None
            points = found[1].margin
            return 0.5 if points == 0 else 1.0 if points > 0 else 0.0
        record = await self.store.load_match(game.room, 1)
        if record is None:
            return None
        match = Match.replay(record.options, record.seed, record.actions, keep_events=False)
        if not match.over:
            return None
        return 1.0 if match.winner == 0 else 0.0
