"""What a tournament is on the server (its members, pairings and arithmetic), and how it is
told: the summary in the list and the standings (see server.lobby.tournaments, the director).
A cluster's tournaments (server.cluster.tournament_state) share :class:`Outline` and the
summary."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Literal

from muggins.server.rooms.players import Player
from muggins.server.store.games import match_id
from muggins.shared.protocol.tournaments import (
    Standing,
    TournamentGame,
    TournamentInfo,
    TournamentKind,
    TournamentSummary,
)
from muggins.shared.tournament import Arena, Record, Swiss

if TYPE_CHECKING:
    from muggins.server.rooms.room import Room


Status = Literal["waiting", "playing", "ending", "finished"]
"""A tournament's status; "ending": an arena past its time, waiting for its last games."""


@dataclass(eq=False)
class Outline:
    """What every tournament is, on one server (:class:`Tournament`) or in a cluster
    (server.cluster.tournament_state.State): its terms as its maker asked, and where it is."""

    id: str
    name: str
    kind: TournamentKind
    duplicate: bool
    bots: bool
    target: int
    minutes: int
    rounds: int
    maker: str
    status: Status = "waiting"
    ends_at: float | None = None
    round: int = 0


@dataclass(eq=False)
class Member:
    account: str
    name: str
    player: Player
    active: bool = True


@dataclass(eq=False)
class Pairing:
    first: str
    second: str
    """Account ids; the first sits in seat 0."""
    room: Room
    round: int | None
    result: float | None = None


@dataclass(eq=False)
class Tournament(Outline):
    members: dict[str, Member] = field(default_factory=dict)
    followers: dict[str, Player] = field(default_factory=dict)
    """Players who asked for the standings (by player id): they hear each change too."""
    pairings: list[Pairing] = field(default_factory=list)
    arena: Arena = field(default_factory=Arena)
    swiss: Swiss | None = None
    round_seed: bytes = b""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    """Held while pairing: two pairings never take one free player."""
    revision: int = 1
    """Raised with every change (see :class:`TournamentInfo`): an info carries it."""

    def records(self) -> list[Record]:
        if self.swiss is not None:
            return self.swiss.standings()
        return self.arena.standings()

    def busy(self) -> set[str]:
        return {a for p in self.pairings if p.result is None for a in (p.first, p.second)}


def summary(t: Outline, players: int) -> TournamentSummary:
    """How tournament ``t``, of ``players`` members, is listed."""
    ends_in = None
    if t.kind == "arena" and t.status == "playing" and t.ends_at is not None:
        ends_in = round(max(0.0, t.ends_at - time.time()), 1)
    return TournamentSummary(
        tournament=t.id,
        name=t.name,
        kind=t.kind,
        status="playing" if t.status == "ending" else t.status,
        duplicate=t.duplicate,
        bots=t.bots,
        players=players,
        rounds=t.rounds if t.kind == "swiss" else None,
        round=t.round,
        ends_in=ends_in,
    )


def info(t: Tournament, player: Player | None) -> TournamentInfo:
    swiss = t.swiss
    standings = tuple(
        Standing(
            rank=rank,
            name=t.members[r.player].name,
            points=r.points,
            games=r.games,
            wins=r.wins,
            draws=r.draws,
            losses=r.losses,
            streak=r.streak,
            buchholz=swiss.buchholz(r.player) if swiss is not None else None,
            active=t.members[r.player].active,
        )
        for rank, r in enumerate(t.records(), 1)
    )
    games = tuple(
        TournamentGame(
            game=match_id(p.room.code, max(1, p.room.match_number)),
            names=(t.members[p.first].name, t.members[p.second].name),
            round=p.round,
            result=p.result,
        )
        for p in t.pairings
    )
    member = t.members.get(player.account or "") if player is not None else None
    joined = member is not None and member.active
    return TournamentInfo(
        summary=summary(t, len(t.members)),
        standings=standings,
        games=games,
        joined=joined,
        revision=t.revision,
    )
