"""Messages about tournaments (both directions): arenas and Swiss events anyone can join.

:mod:`shared.protocol.client` and :mod:`shared.protocol.server` add them to their unions. The
arithmetic (points, streaks, pairings, Buchholz) is :mod:`shared.tournament`; the server's
director is ``server.lobby.tournaments``; docs/tournaments.md describes them for players.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from muggins.shared.protocol.accounts import MessageId

TournamentId = Annotated[str, Field(min_length=1, max_length=16)]
TournamentKind = Literal["arena", "swiss"]
TournamentStatus = Literal["waiting", "playing", "finished"]


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: MessageId = None


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- client -> server ----------------------------------------------------------------------


class CreateTournament(_Message):
    """Make a tournament (an admin or a moderator; anyone, if the server allows it)."""

    type: Literal["create_tournament"] = "create_tournament"
    name: str = Field(min_length=3, max_length=40)
    kind: TournamentKind
    minutes: int = Field(
        default=60, ge=1, le=24 * 60, description="an arena: how long it runs once started"
    )
    rounds: int = Field(default=4, ge=1, le=15, description="a Swiss: how many rounds")
    duplicate: bool = Field(
        default=False,
        description="on duplicate deals: in a Swiss every pairing of a round plays the same "
        "deals; in an arena each pairing plays a duplicate match (two tables, seats swapped)",
    )
    bots: bool = Field(default=False, description="bot accounts may join")
    target: Literal[121, 61] = 121


class JoinTournament(_Message):
    """Join (or come back to) a tournament; an arena pairs you as soon as you are free."""

    type: Literal["join_tournament"] = "join_tournament"
    tournament: TournamentId


class LeaveTournament(_Message):
    """Stop being paired (an arena keeps your points; come back with ``join_tournament``)."""

    type: Literal["leave_tournament"] = "leave_tournament"
    tournament: TournamentId


class StartTournament(_Message):
    """Its maker (or a moderator) starts it now, or (``finish``) ends it: no new pairings."""

    type: Literal["start_tournament"] = "start_tournament"
    tournament: TournamentId
    finish: bool = False


class ListTournaments(_Message):
    type: Literal["list_tournaments"] = "list_tournaments"


class GetTournament(_Message):
    """A tournament's standings and games."""

    type: Literal["get_tournament"] = "get_tournament"
    tournament: TournamentId


TOURNAMENT_REQUESTS = (
    CreateTournament,
    JoinTournament,
    LeaveTournament,
    StartTournament,
    ListTournaments,
    GetTournament,
)
TournamentRequest = (
    CreateTournament
    | JoinTournament
    | LeaveTournament
    | StartTournament
    | ListTournaments
    | GetTournament
)


# --- server -> client ----------------------------------------------------------------------


class TournamentSummary(_Part):
    tournament: TournamentId
    name: str
    kind: TournamentKind
    status: TournamentStatus
    duplicate: bool
    bots: bool
    players: int
    rounds: int | None = Field(default=None, description="a Swiss: rounds in all")
    round: int = Field(default=0, description="a Swiss: the round being played (0: none yet)")
    ends_in: float | None = Field(
        default=None, description="an arena that is playing: seconds until it ends"
    )


class Standing(_Part):
    rank: int
    name: str = Field(description="as shown: a bot account's carries [bot]")
    points: float
    games: int
    wins: int
    draws: int
    losses: int
    streak: int = Field(description="an arena: wins in a row (after 2, a win counts double)")
    buchholz: float | None = Field(default=None, description="a Swiss: the tiebreak")
    active: bool = Field(description="in the tournament now (an arena: not withdrawn)")


class TournamentGame(_Part):
    game: str = Field(description="a game id (ABCDEF-1), to replay or review once finished")
    names: tuple[str, str]
    round: int | None = None
    result: float | None = Field(
        description="the first player's score: 1, 0.5 or 0; None while it is being played"
    )


class Tournaments(_Message):
    """The answer to ``list_tournaments``: those waiting or playing first, then finished."""

    type: Literal["tournaments"] = "tournaments"
    tournaments: tuple[TournamentSummary, ...]


class TournamentInfo(_Message):
    """A tournament's facts, standings and games: the answer to a request about it, and sent
    again to everyone in it whenever its standings change. An answer can come after the news of
    a later change (in a cluster the director may change it on another node meanwhile): keep
    the info with the highest ``revision``, not the last to come."""

    type: Literal["tournament"] = "tournament"
    summary: TournamentSummary
    standings: tuple[Standing, ...]
    games: tuple[TournamentGame, ...]
    joined: bool = Field(default=False, description="you are in it (and have not left it)")
    # Here, not in the summary: the summary is also what list_tournaments answers, which is
    # never pushed, so it has nothing to be ordered against (and the list would read every
    # tournament's revision); the revision orders a whole info, standings and games too.
    revision: int = Field(
        default=0,
        ge=0,
        description="rises with every change of the tournament (from 1): draw an info only if "
        "its revision is not below the last one drawn of that tournament (0: not numbered)",
    )


TournamentReply = Tournaments | TournamentInfo
