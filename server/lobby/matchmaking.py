"""Ranked matchmaking: a queue of signed-in players, paired by rating, into rated rooms.

**Pairing.** Each waiting player accepts an opponent within ``100 + 10 × seconds waited`` rating
points (so ±100 at once, ±400 after 30 s, anyone after a few minutes); two players who want the
same length of match (one game or best of three) are paired when the one who has waited longer
accepts the other. The longest-waiting player is served first, with the closest rating it
accepts, even someone who has only just started seeking. So nobody waits for ever: a player with
a rating ``gap`` points from everyone else is paired within ``(gap - 100) / 10`` seconds of
someone else seeking the same kind of match. (When both had to accept, a player far from the
rest was never paired while the others kept seeking again at once: each newcomer was paired
with a near rating before its own range reached the far one.) A bot account
is never paired with a player who asked for people only (``seek.people_only``), and a seeker of
a duplicate match (``seek.duplicate``, see :mod:`server.lobby.duplicate`) only with another.

**Where the queue lives.** In the store (SQLite, memory, or Redis for a cluster), so it
survives a node dying: each node confirms its own waiting players every round (``seen``); an
entry not confirmed for 15 s is dropped (a player whose node died is adopted by the node they
reconnect to, when their client signs in again there). Every node with a waiting player of its
own runs pairing rounds over the whole queue; taking a pair out of the queue is atomic, so a
player is never paired twice. The node that wins the pair creates a private rated room; each
player's own node seats them in it. A node with nobody waiting runs no rounds and reads nothing
(any fresh entry is some other node's, and that node pairs it; an entry left by a node that
died is dropped by the first round that reads it, before pairing).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Iterable, Set
from typing import TYPE_CHECKING, Final, Protocol

from muggins.server.accounts.sanctions import Sanctions
from muggins.server.rooms.players import Player, Refusal
from muggins.server.rooms.rated import RATED_MOVE_SECONDS
from muggins.server.runtime.ticks import tick
from muggins.server.store.accounts import QueueEntry
from muggins.server.store.games import StoreError
from muggins.shared.actions import GameOptions
from muggins.shared.protocol import RoomOptions
from muggins.shared.protocol.accounts import Seeking

if TYPE_CHECKING:
    from muggins.server.config import ServerConfig
    from muggins.server.lobby.cluster_seam import LobbyCluster
    from muggins.server.rooms.room import Room
    from muggins.server.store.games import Store


class Lobby(Protocol):
    """What matchmaking needs of its lobby (server.lobby.lobby.Lobby), which owns the matchmaker."""

    @property
    def store(self) -> Store: ...

    @property
    def config(self) -> ServerConfig: ...

    @property
    def rooms(self) -> dict[str, Room]: ...

    @property
    def clock(self) -> Callable[[], float]: ...

    @property
    def cluster(self) -> LobbyCluster: ...

    @property
    def sanctions(self) -> Sanctions: ...

    async def create_room(self, options: RoomOptions, *, second_table: bool = False) -> Room:
        """A new room with these options."""


log = logging.getLogger("muggins.matchmaking")

BASE_RANGE: Final = 100.0
WIDEN_PER_SECOND: Final = 10.0
STALE_AFTER: Final = 15.0
INTERVAL: Final = 0.5


def accepted_range(entry: QueueEntry, now: float) -> float:
    """How far from its own rating an entry accepts an opponent, after waiting until ``now``."""
    return BASE_RANGE + WIDEN_PER_SECOND * max(0.0, now - entry.since)


def pair(
    entries: Iterable[QueueEntry], now: float, *, apart: Set[frozenset[str]] = frozenset()
) -> list[tuple[QueueEntry, QueueEntry]]:
    """Pairs to make now (see the module doc). Deterministic for the same entries and time.
    Two accounts in ``apart`` (one blocks the other) are never paired."""
    waiting = sorted(entries, key=lambda e: (e.since, e.account))
    taken: set[str] = set()
    pairs = []
    for entry in waiting:
        if entry.account in taken:
            continue
        best: QueueEntry | None = None
        for other in waiting:
            if other.account in taken or other.account == entry.account:
                continue
            if other.best_of != entry.best_of:
                continue
            if frozenset((entry.account, other.account)) in apart:
                continue
            if (entry.people_only and other.bot) or (other.people_only and entry.bot):
                continue
            if other.duplicate != entry.duplicate:
                continue
            gap = abs(entry.rating - other.rating)
            # The longer wait decides (see the module doc), not the shorter: a newcomer's range
            # would never reach a player far from everyone.
            if gap > max(accepted_range(entry, now), accepted_range(other, now)):
                continue
            if best is None or gap < abs(entry.rating - best.rating):
                best = other
        if best is not None:
            pairs.append((entry, best))
            taken.update((entry.account, best.account))
    return pairs


def rated_room_options(best_of: int, *, duplicate: bool = False) -> RoomOptions:
    game = GameOptions(scheme="games", match_to=2) if best_of == 3 else GameOptions()
    return RoomOptions(
        game=game, private=True, rated=True, turn_timer=RATED_MOVE_SECONDS, duplicate=duplicate
    )


class Matchmaker:
    """This node's side of the queue: its waiting players, and pairing rounds."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.store = lobby.store
        self.waiting: dict[str, Player] = {}
        """This node's queued players by account."""
        self._wanted = asyncio.Event()
        """Set when a player starts waiting here: rounds run only while someone does."""
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    # --- requests ------------------------------------------------------------------------------

    async def seek(
        self, player: Player, best_of: int, *, people_only: bool = False, duplicate: bool = False
    ) -> Seeking:
        if player.account is None:
            raise Refusal("not_signed_in", "Rated games are for signed-in players: sign in first")
        room = player.room
        if room is not None and room.status != "over":
            raise Refusal("already_in_room", f"You have a seat in room {room.code}; leave it first")
        account = await self.store.find_account(id=player.account)
        if account is None:
            raise Refusal("not_signed_in", "Sign in first")
        now = time.time()
        entry = QueueEntry(
            account=account.id,
            name=account.name,
            rating=account.rating.rating,
            best_of=best_of,
            since=now,
            seen=now,
            bot=account.bot,
            people_only=people_only,
            duplicate=duplicate,
        )
        await self.store.queue_put(entry)
        self._wait(account.id, player)
        log.info("seeking", extra={"account": account.id, "best_of": best_of})
        return Seeking(
            active=True,
            best_of=best_of,
            people_only=people_only,
            duplicate=duplicate,
            rating=round(entry.rating, 1),
            range=BASE_RANGE,
        )

    async def cancel(self, player: Player) -> Seeking:
        if player.account is not None:
            await self.store.queue_remove(player.account)
            self.waiting.pop(player.account, None)
        return Seeking(active=False)

    async def adopt(self, player: Player) -> None:
        """A player signed in on this node: take over their place in the queue, if they have one
        (their node may have died), or seat them where a pairing put them."""
        account = player.account
        if account is None:
            return
        if await self.store.queue_touch(account, time.time()):
            self._wait(account, player)
            return
        code = await self.store.queue_paired(account)
        if code is not None:
            await self._seat(player, code)

    # --- rounds --------------------------------------------------------------------------------

    def _wait(self, account: str, player: Player) -> None:
        self.waiting[account] = player
        self._wanted.set()

    async def _run(self) -> None:
        while True:
            if not self.waiting:
                # Nobody of this node's is queued: no round (and no wake-up) until one is.
                self._wanted.clear()
                await self._wanted.wait()
            await tick(INTERVAL)  # on the grid other periodic loops share: one wake-up
            try:
                await self.round()
            except StoreError as error:
                log.warning("matchmaking round failed: %s", error)
            except Exception:
                log.exception("matchmaking round failed")

    async def round(self) -> None:
        """Confirm this node's waiting players, seat the paired ones, then pair the queue."""
        now = time.time()
        for account, player in list(self.waiting.items()):
            busy = player.room is not None and player.room.status != "over"
            if player.account != account or busy:
                self.waiting.pop(account, None)  # signed out, or sat down elsewhere, meanwhile
                await self.store.queue_remove(account)
                continue
            if player.peer is None and player.gone_since is not None:
                if self.lobby.clock() - player.gone_since > self.lobby.config.grace:
                    self.waiting.pop(account, None)
                    await self.store.queue_remove(account)
                continue
            if await self.store.queue_touch(account, now):
                continue
            self.waiting.pop(account, None)
            code = await self.store.queue_paired(account)
            if code is not None:
                await self._seat(player, code)
            elif player.peer is not None:
                player.peer.send(Seeking(active=False))
        fresh = []
        for entry in await self.store.queue_entries():
            if now - entry.seen > STALE_AFTER:
                await self.store.queue_remove(entry.account)
            else:
                fresh.append(entry)
        apart = await self.lobby.sanctions.apart() if len(fresh) > 1 else set()
        for first, second in pair(fresh, now, apart=apart):
            await self._make(first, second)

    async def _make(self, first: QueueEntry, second: QueueEntry) -> None:
        try:
            options = rated_room_options(first.best_of, duplicate=first.duplicate)
            room = await self.lobby.create_room(options)
        except Refusal as refusal:
            log.warning("matchmaking: no room for a pair: %s", refusal.message)
            return
        if await self.store.queue_take(first.account, second.account, room.code):
            log.info(
                "paired",
                extra={"room": room.code, "ratings": (round(first.rating), round(second.rating))},
            )
            return
        room.close()  # another node took one of them first
        self.lobby.rooms.pop(room.code, None)
        await self.store.close_room(room.code)

    async def _seat(self, player: Player, code: str) -> None:
        room = await self._room(code)
        if room is None:
            log.warning("matchmaking: paired room %s is gone", code)
            return
        if player.room is not None and player.room is not room and player.room.status == "over":
            await player.room.leave(player)
        try:
            await room.sit(player)
        except Refusal as refusal:
            log.warning("matchmaking: could not seat a player in %s: %s", code, refusal.message)

    async def _room(self, code: str) -> Room | None:
        room = self.lobby.rooms.get(code)
        if room is None:
            return await self.lobby.cluster.load(code)  # held by another node of a cluster
        return room
