"""A tournament as a cluster keeps it in Redis: plain data, written as JSON, and how it is told.

The director (:mod:`server.cluster.tournaments`) writes :class:`State`; any node writes a
member's :class:`Entry` (join, leave). The arithmetic (:mod:`shared.tournament`) is not stored:
it is rebuilt from the results in the order they were recorded, and the Swiss byes.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field

from muggins.server.lobby.standings import Outline, summary
from muggins.server.store.games import match_id
from muggins.shared.protocol.tournaments import (
    Standing,
    TournamentGame,
    TournamentInfo,
)
from muggins.shared.tournament import Arena, Swiss


@dataclass
class Game:
    """One pairing: its table (a room), and the first player's score once it is over."""

    first: str
    second: str
    """Account ids; the first sits in seat 0."""
    room: str
    round: int | None
    result: float | None = None


@dataclass(eq=False)
class State(Outline):
    """What the director writes (see the module doc)."""

    created: float = field(default_factory=time.time)
    round_seed: str = ""
    """The current Swiss round's seed (hex) on duplicate deals."""
    entrants: list[str] = field(default_factory=list)
    """A Swiss's players, fixed when it starts."""
    games: list[Game] = field(default_factory=list)
    recorded: list[int] = field(default_factory=list)
    """The games whose results are in, in the order they came (an arena's streaks follow it)."""
    byes: list[str] = field(default_factory=list)
    revision: int = 0
    """The tournament's revision when this was read (kept beside the state, not in its text:
    see :mod:`server.cluster.tournament_records`); 0: not numbered."""

    def busy(self) -> set[str]:
        return {a for g in self.games if g.result is None for a in (g.first, g.second)}

    def text(self) -> str:
        data = asdict(self)
        del data["revision"]
        return json.dumps(data, separators=(",", ":"))

    @classmethod
    def parse(cls, text: str, revision: int = 0) -> State:
        data = json.loads(text)
        data["games"] = [Game(**g) for g in data["games"]]
        data.pop("revision", None)
        return cls(**data, revision=revision)


@dataclass
class Entry:
    """A member, as any node writes it."""

    name: str
    active: bool
    at: float

    def text(self) -> str:
        return json.dumps(asdict(self), separators=(",", ":"))

    @classmethod
    def parse(cls, text: str) -> Entry:
        return cls(**json.loads(text))


def arithmetic(state: State, members: dict[str, Entry]) -> Arena | Swiss:
    """The points so far, rebuilt from the results (see the module doc)."""
    calc: Arena | Swiss
    if state.kind == "swiss" and state.entrants:
        calc = Swiss(state.entrants)
        calc.rounds_paired = state.round
        for player in state.byes:
            calc.bye(player)
    else:
        calc = Arena(sorted(members, key=lambda a: (members[a].at, a)))
    for index in state.recorded:
        game = state.games[index]
        assert game.result is not None
        calc.record(game.first, game.second, game.result)
    return calc


def info(state: State, members: dict[str, Entry], account: str | None) -> TournamentInfo:
    """The standings and games, as ``account`` (a member or not) sees them."""
    calc = arithmetic(state, members)
    swiss = calc if isinstance(calc, Swiss) else None

    def name(account: str) -> str:
        entry = members.get(account)
        return entry.name if entry is not None else "?"

    standings = tuple(
        Standing(
            rank=rank,
            name=name(r.player),
            points=r.points,
            games=r.games,
            wins=r.wins,
            draws=r.draws,
            losses=r.losses,
            streak=r.streak,
            buchholz=swiss.buchholz(r.player) if swiss is not None else None,
            active=(entry := members.get(r.player)) is not None and entry.active,
        )
        for rank, r in enumerate(calc.standings(), 1)
    )
    games = tuple(
        TournamentGame(
            game=match_id(g.room, 1),
            names=(name(g.first), name(g.second)),
            round=g.round,
            result=g.result,
        )
        for g in state.games
    )
    entry = members.get(account or "")
    joined = entry is not None and entry.active
    return TournamentInfo(
        summary=summary(state, len(members)),
        standings=standings,
        games=games,
        joined=joined,
        revision=state.revision,
    )
