"""A cluster's tournaments as they are kept in Redis: every read and write of their keys (the
keys are described in :mod:`server.cluster.tournaments`), the director's lease and its fenced
writes among them.

Every write of a tournament's state or of a member raises its revision
(``tournament:revision:{id}``) in the same transaction, and every read takes the state, the
members and the revision in one transaction, so the revision an info carries is the one of
exactly what it tells, whichever node wrote what."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from muggins.server.cluster.scripts import PRESENT, RELEASE
from muggins.server.cluster.tournament_state import Entry, State
from muggins.server.rooms.players import Refusal

if TYPE_CHECKING:
    from muggins.server.cluster.coordination import ClusterStore

LEASE_SECONDS = 6.0
"""How long a director's lease lasts unless renewed."""

# KEYS: lease. ARGV: node, milliseconds, node channel prefix.
LEASE = """
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[1] and redis.call('PUBSUB', 'NUMSUB', ARGV[3] .. holder)[2] > 0 then
    return 0
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 1
"""

# KEYS: lease, state, revision. ARGV: node, state. The new revision (0: not written).
FENCED_WRITE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[2])
return redis.call('INCR', KEYS[3])
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


class TournamentRecords:
    """Tournaments in Redis, as node ``node`` reads and writes them."""

    def __init__(self, store: ClusterStore, node: str) -> None:
        self.store = store
        self.node = node

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

    async def create(self, state: State) -> None:
        """A new tournament, listed and live (``state.revision`` is set to its first)."""
        r = self.store.redis

        async def write() -> list[Any]:
            async with r.pipeline(transaction=True) as pipe:
                pipe.set(self._k("state", state.id), state.text())
                pipe.incr(self._k("revision", state.id))
                pipe.zadd(self._all, {state.id: state.created})
                pipe.sadd(self._live, state.id)
                result: list[Any] = await pipe.execute()
                return result

        state.revision = int((await self._call("create", write))[1])

    async def ids(self) -> list[str]:
        """Every tournament, by creation."""
        found = await self._call("list", lambda: self.store.redis.zrange(self._all, 0, -1))
        return [str(id) for id in found]

    async def live(self) -> set[str]:
        """The tournaments not finished."""
        found = await self._call("live", lambda: self.store.redis.smembers(self._live))
        return {str(id) for id in found}

    async def read(self, tournament: str) -> tuple[State, dict[str, Entry]]:
        """A tournament's state and members (a Refusal if there is no such tournament)."""
        id = tournament.strip().upper()
        r = self.store.redis

        async def read() -> list[Any]:
            async with r.pipeline(transaction=True) as pipe:  # one moment: see the module doc
                pipe.get(self._k("state", id))
                pipe.hgetall(self._k("members", id))
                pipe.get(self._k("revision", id))
                result: list[Any] = await pipe.execute()
                return result

        text, members, revision = await self._call("read", read)
        if text is None:
            raise Refusal("illegal", f"There is no tournament {tournament!r} here")
        state = State.parse(text, int(revision or 0))
        return state, {str(a): Entry.parse(e) for a, e in members.items()}

    async def put(self, id: str, account: str, entry: Entry) -> None:
        """A member joined, left or came back."""
        r = self.store.redis

        async def write() -> None:
            async with r.pipeline(transaction=True) as pipe:
                pipe.hset(self._k("members", id), account, entry.text())
                pipe.incr(self._k("revision", id))
                await pipe.execute()

        await self._call("member", write)

    async def mark_here(self, id: str, accounts: list[str]) -> None:
        """Note that ``accounts`` are the members connected to this node (those no longer
        connected to it are taken out)."""
        key, node = self._k("here", id), self.node
        await self._call("here", lambda: self.store.redis.eval(MARK_HERE, 1, key, node, *accounts))

    async def connected(self, id: str) -> set[str]:
        """The members connected to a node that runs."""
        key, store = self._k("here", id), self.store
        found = await self._call(
            "here",
            lambda: store.redis.eval(CONNECTED, 1, key, store.alive_prefix, store.node_prefix),
        )
        return {str(account) for account in found}

    async def ask(self, id: str, what: str) -> None:
        """Ask the director for a start or a finish."""
        await self._call("ask", lambda: self.store.redis.hset(self._k("asks", id), what, "1"))

    async def asks(self, id: str) -> dict[str, str]:
        found = await self._call("asks", lambda: self.store.redis.hgetall(self._k("asks", id)))
        return {str(k): str(v) for k, v in found.items()}

    async def answered(self, id: str, asks: dict[str, str]) -> None:
        """The ``asks`` read are acted on: they go; an ask of another kind made since they were
        read stays for the next look (one of the same kind was acted on with them)."""
        fields = list(asks)
        await self._call("asks", lambda: self.store.redis.hdel(self._k("asks", id), *fields))

    async def lease(self, id: str) -> bool:
        """Whether this node directs tournament ``id`` for the next ``LEASE_SECONDS``."""
        key, node = self._k("director", id), self.node
        ms = int(LEASE_SECONDS * 1000)
        got = await self._call(
            "lease",
            lambda: self.store.redis.eval(LEASE, 1, key, node, ms, self.store.node_prefix),
        )
        return bool(got == 1)

    async def release(self, id: str) -> None:
        """Give up the lease, if this node holds it."""
        key = self._k("director", id)
        await self._call("lease", lambda: self.store.redis.eval(RELEASE, 1, key, self.node))

    async def write(self, state: State) -> bool:
        """Write the state, if this node still holds the lease (fenced); ``state.revision``
        becomes the one it was written at."""
        keys = (
            self._k("director", state.id),
            self._k("state", state.id),
            self._k("revision", state.id),
        )
        done = await self._call(
            "write",
            lambda: self.store.redis.eval(FENCED_WRITE, 3, *keys, self.node, state.text()),
        )
        if not done:
            return False
        state.revision = int(done)
        return True

    async def finished(self, id: str) -> None:
        """Tournament ``id`` is finished: no longer live."""
        await self._call("done", lambda: self.store.redis.srem(self._live, id))

    async def note_table(self, code: str, id: str, seed: str) -> None:
        """Room ``code`` is a table of tournament ``id`` (dealing from ``seed``, if any)."""
        fields: dict[Any, Any] = {"tournament": id, "seed": seed}
        await self._call(
            "table", lambda: self.store.redis.hset(self._k("room", code), mapping=fields)
        )

    async def table(self, code: str) -> tuple[str, str] | None:
        """The tournament room ``code`` is a table of, and its seed ("": none), if it is one."""
        fields = await self._call("table", lambda: self.store.redis.hgetall(self._k("room", code)))
        if not fields:
            return None
        return str(fields["tournament"]), str(fields.get("seed") or "")
