"""The tournament director: arenas and Swiss events on this server, their rooms and standings.

A tournament is made by an admin or a moderator (any signed-in account with ``muggins serve
--open-tournaments``). Signed-in players join it; bot accounts only if it admits bots. Its
arithmetic is :mod:`shared.tournament`; this module pairs the players it names, makes a private
room for each pairing (recorded like any game, so each is replayable and reviewable), seats both
players, and takes the result when the room's match is over.

- **Arena**: starts when made and runs for its minutes. A joined player who is connected and
  not at a table is *free*; free players are paired as soon as there are two. Leaving stops
  the pairing (the points stay); joining again resumes it. At the end no new pairs are made,
  and the tournament is finished when the last game is.
- **Swiss**: its maker starts it; each round pairs the joined players who are connected, by
  score (one away then sits the round out, with no points), and the next round is paired when
  every game of the round is over and two players are connected.

On duplicate deals a Swiss round gives every pairing the same match seed (and its tables take
no spectators while the round is played, so no table can watch another's cards); an arena pairing
plays a duplicate match (:mod:`server.lobby.duplicate`). Tournaments live in this process: a
restart ends them (docs/tournaments.md). A cluster node directs them from Redis instead
(:mod:`server.cluster.tournaments`).
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
from typing import TYPE_CHECKING, Protocol

from muggins.server.config import ServerConfig
from muggins.server.lobby.duplicate import DuplicateTables
from muggins.server.lobby.standings import Member, Pairing, Tournament, info, summary
from muggins.server.lobby.tournament_rules import (
    check_director,
    check_join,
    finish,
    new_tournament,
    signed_in,
)
from muggins.server.rooms.players import Player, Refusal
from muggins.server.store.games import Store
from muggins.shared.actions import GameOptions
from muggins.shared.protocol import DuplicateResult, RoomOptions
from muggins.shared.protocol.tournaments import (
    CreateTournament,
    TournamentInfo,
    Tournaments,
)
from muggins.shared.tournament import Swiss

if TYPE_CHECKING:
    from muggins.server.rooms.room import Room
    from muggins.server.rooms.seating import Table

log = logging.getLogger("muggins.tournaments")

MOVE_SECONDS = 60
"""The turn timer of a tournament table."""
ROUND_WAIT = 1.0
"""Seconds between two looks for two connected members, when a Swiss round is due."""


class Lobby(Protocol):
    @property
    def store(self) -> Store: ...

    @property
    def config(self) -> ServerConfig: ...

    @property
    def duplicates(self) -> dict[str, DuplicateTables]: ...

    @property
    def players(self) -> dict[str, Player[Room]]: ...

    @property
    def cluster(self) -> object: ...

    async def create_room(self, options: RoomOptions, *, second_table: bool = False) -> Room:
        """A new room."""


class Directing(Protocol):
    """The tournaments' requests: :class:`TournamentDirector` on one server, a cluster's
    (server.cluster.tournaments) on a cluster node."""

    async def create(self, player: Player, message: CreateTournament) -> TournamentInfo: ...

    async def join(self, player: Player, tournament: str) -> TournamentInfo: ...

    async def leave(self, player: Player, tournament: str) -> TournamentInfo: ...

    async def start(self, player: Player, tournament: str, *, finish: bool) -> TournamentInfo: ...

    async def listing(self) -> Tournaments: ...

    async def get(self, player: Player, tournament: str) -> TournamentInfo: ...


class TournamentDirector:
    """Every tournament on this server (see the module doc)."""

    def __init__(self, lobby: Lobby) -> None:
        self.lobby = lobby
        self.tournaments: dict[str, Tournament] = {}

    # --- requests ------------------------------------------------------------------------------

    async def create(self, player: Player, message: CreateTournament) -> TournamentInfo:
        account = await signed_in(self.lobby.store, player)
        t = new_tournament(Tournament, self.lobby.config, account, message)
        self.tournaments[t.id] = t
        log.info("tournament created", extra={"tournament": t.id, "kind": t.kind})
        if t.kind == "arena":
            self._start_arena(t)
        return info(t, player)

    async def join(self, player: Player, tournament: str) -> TournamentInfo:
        t = self._find(tournament)
        account = await signed_in(self.lobby.store, player)
        member = t.members.get(account.id)
        check_join(t, account, member=member is not None)
        if member is None:
            t.members[account.id] = Member(account.id, player.name, player)
            t.arena.add(account.id)
        else:
            member.player, member.active = player, True
        self._changed(t)
        return info(t, player)

    async def leave(self, player: Player, tournament: str) -> TournamentInfo:
        t = self._find(tournament)
        member = t.members.get(player.account or "")
        if member is None:
            raise Refusal("illegal", f"You are not in {t.name}")
        member.active = False
        self._changed(t)
        return info(t, player)

    async def start(self, player: Player, tournament: str, *, finish: bool) -> TournamentInfo:
        t = self._find(tournament)
        check_director(t.maker, await signed_in(self.lobby.store, player))
        if finish:
            self._finish(t)
        elif t.kind == "swiss" and t.status == "waiting":
            if len(t.members) < 2:
                raise Refusal("illegal", "A Swiss needs two players at least")
            t.status = "playing"
            t.swiss = Swiss(t.members)
            t.revision += 1
            await self._next_round(t)
        return info(t, player)

    async def listing(self) -> Tournaments:
        order = {"playing": 0, "waiting": 1, "finished": 2}
        ts = sorted(self.tournaments.values(), key=lambda t: (order[t.status], t.name))
        return Tournaments(tournaments=tuple(summary(t, len(t.members)) for t in ts))

    async def get(self, player: Player, tournament: str) -> TournamentInfo:
        """Its standings now; and (the standings page) each change from now on."""
        t = self._find(tournament)
        t.followers[player.id] = player
        return info(t, player)

    # --- pairing -------------------------------------------------------------------------------

    def _start_arena(self, t: Tournament) -> None:
        t.status = "playing"
        t.ends_at = time.time() + 60 * t.minutes
        asyncio.get_running_loop().call_later(60 * t.minutes, self._finish, t)

    def _finish(self, t: Tournament) -> None:
        if t.status != "finished":
            finish(t, busy=bool(t.busy()))
            self._changed(t)

    def _changed(self, t: Tournament) -> None:
        """Pair whoever can be paired, finish what is over, tell everyone in it."""
        t.revision += 1
        if t.status == "playing" and t.kind == "arena":
            asyncio.get_running_loop().create_task(self._pair_arena(t))
        if t.status == "ending" and not t.busy():
            t.status = "finished"
        self._tell(t)

    def _tell(self, t: Tournament) -> None:
        """The tournament as it is now to its members and those following its standings."""
        told = {m.player.id: m.player for m in t.members.values()} | t.followers
        for player in told.values():
            if player.peer is not None:
                player.peer.send(info(t, player))

    def _free(self, t: Tournament) -> list[str]:
        busy = t.busy()
        free = []
        for account, member in t.members.items():
            if member.player.peer is None:  # back on another connection? play there
                member.player = next(
                    (
                        p
                        for p in self.lobby.players.values()
                        if p.account == account and p.peer is not None
                    ),
                    member.player,
                )
            room = member.player.room
            seated = room is not None and room.status != "over"
            here = member.active and member.player.peer is not None
            if here and account not in busy and not seated:
                free.append(account)
        return free

    async def _pair_arena(self, t: Tournament) -> None:
        async with t.lock:
            if t.status != "playing":
                return
            pairs = t.arena.pair(self._free(t))
            for first, second in pairs:
                await self._play(t, first, second, None)
            if pairs:
                self._tell(t)  # (pairing again here would find nobody new)

    async def _next_round(self, t: Tournament) -> None:
        assert t.swiss is not None
        if t.round >= t.rounds:
            t.status = "finished"
            self._changed(t)
            return
        self._free(t)  # (finds a member back on another connection)
        present = [a for a, m in t.members.items() if m.active and m.player.peer is not None]
        if len(present) < 2:  # a round that paired nobody would never end: wait for two
            asyncio.get_running_loop().call_later(ROUND_WAIT, self._round_again, t)
            return
        t.round += 1
        t.round_seed = secrets.token_bytes(32)
        pairs = t.swiss.pair_round(present)
        log.info("swiss round", extra={"tournament": t.id, "round": t.round})
        for first, second in pairs:
            await self._play(t, first, second, t.round)
        self._changed(t)

    def _round_again(self, t: Tournament) -> None:
        """A round waiting for two connected members looks again (unless it was ended)."""
        if t.status == "playing" and not t.busy():
            asyncio.get_running_loop().create_task(self._next_round(t))

    async def _play(self, t: Tournament, first: str, second: str, round: int | None) -> None:
        duplicate_tables = t.duplicate and t.kind == "arena"
        options = RoomOptions(
            game=GameOptions(target=121 if t.target == 121 else 61),
            private=True,
            turn_timer=MOVE_SECONDS,
            spectators=not (t.duplicate and t.kind == "swiss"),
            duplicate=duplicate_tables,
        )
        try:
            room = await self.lobby.create_room(options)
        except Refusal as refusal:
            log.warning("tournament %s: no room: %s", t.id, refusal.message)
            return
        room.tournament = t.id
        if t.duplicate and t.kind == "swiss":
            seed = t.round_seed
            room.new_seed = lambda: seed
        pairing = Pairing(first, second, room, round)
        t.pairings.append(pairing)
        t.revision += 1
        if duplicate_tables:
            tables = self.lobby.duplicates[room.code]
            tables.tournament = t.id  # its second table is marked so when it is made
            tables.on_result = lambda result: self._duplicate_over(t, pairing, result)
        else:
            self._watch(t, pairing)
        for account in (first, second):
            player = t.members[account].player
            if player.room is not None and player.room is not room and player.room.status == "over":
                await player.room.leave(player)
            try:
                await room.sit(player)
            except Refusal as refusal:
                log.warning("tournament %s: could not seat a player: %s", t.id, refusal.message)

    def _watch(self, t: Tournament, pairing: Pairing) -> None:
        room = pairing.room
        told = room.on_change

        def changed(table: Table) -> None:
            if told is not None:
                told(table)
            match = room.match
            if pairing.result is None and match is not None and match.over:
                self._over(t, pairing, 1.0 if match.winner == 0 else 0.0)

        room.on_change = changed

    def _duplicate_over(self, t: Tournament, pairing: Pairing, result: DuplicateResult) -> None:
        score = 0.5 if result.margin == 0 else 1.0 if result.margin > 0 else 0.0
        self._over(t, pairing, score)

    def _over(self, t: Tournament, pairing: Pairing, score: float) -> None:
        pairing.result = score
        if t.swiss is not None:
            t.swiss.record(pairing.first, pairing.second, score)
            if t.status == "playing" and not t.busy():
                asyncio.get_running_loop().create_task(self._next_round(t))
        else:
            t.arena.record(pairing.first, pairing.second, score)
        self._changed(t)

    # --- helpers -------------------------------------------------------------------------------

    def _find(self, tournament: str) -> Tournament:
        t = self.tournaments.get(tournament.strip().upper())
        if t is None:
            raise Refusal("illegal", f"There is no tournament {tournament!r} here")
        return t
