"""Messages about accounts, ratings, records and history (both directions).

Kept apart from the room and game messages; :mod:`shared.protocol.client` and
:mod:`shared.protocol.server` add them to their unions. Nothing here carries a password
back, a password hash, or anyone's session token but the receiver's own.
"""

from __future__ import annotations

import math
from typing import Annotated, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from muggins.shared.actions import Action, GameOptions, Seat
from muggins.shared.cards import Card
from muggins.shared.handover import HandOver
from muggins.shared.view import PlayedCard, ShowResult

MessageId = Annotated[
    int | Annotated[str, Field(max_length=64)] | None,
    Field(description="chosen by the client; the answer to this message carries it back"),
]
AccountName = Annotated[str, Field(min_length=1, max_length=64)]
Password = Annotated[str, Field(min_length=1, max_length=200)]


class _Message(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: MessageId = None


class _Part(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- client -> server ----------------------------------------------------------------------


class Register(_Message):
    """Keep your name on this server: make an account and sign in (a guest keeps their game)."""

    type: Literal["register"] = "register"
    name: AccountName
    password: Password
    bot: bool = Field(
        default=False,
        description="a bot account: a program plays it; marked as a bot everywhere, for ever",
    )


class SignIn(_Message):
    """Sign in with the name and password, or with a session token from an earlier ``account``."""

    type: Literal["sign_in"] = "sign_in"
    name: AccountName | None = None
    password: Password | None = None
    session: str | None = Field(default=None, max_length=200)

    @model_validator(mode="after")
    def _one_way(self) -> Self:
        if (self.session is None) == (self.name is None or self.password is None):
            raise ValueError("send either name and password, or session")
        return self


class SignOut(_Message):
    """End this session, or (``everywhere``) every session of the account."""

    type: Literal["sign_out"] = "sign_out"
    everywhere: bool = False


class ChangePassword(_Message):
    """Every other session ends; the answer carries a new session token."""

    type: Literal["change_password"] = "change_password"
    old: Password
    new: Password


class DeleteAccount(_Message):
    """Delete the signed-in account, its sessions, rating and history; the name is free again."""

    type: Literal["delete_account"] = "delete_account"
    password: Password


class GetProfile(_Message):
    """A player's rating and record; without a name, your own."""

    type: Literal["profile"] = "profile"
    name: AccountName | None = None


class GetHistory(_Message):
    """A player's finished matches, newest first; without a name, your own."""

    type: Literal["history"] = "history"
    name: AccountName | None = None
    limit: int = Field(default=20, ge=1, le=100)


class GetLeaderboard(_Message):
    type: Literal["leaderboard"] = "leaderboard"
    limit: int = Field(default=20, ge=1, le=100)


class GetGame(_Message):
    """A finished match in full, to replay or review: every card, once the match is over."""

    type: Literal["game"] = "game"
    game: str = Field(min_length=3, max_length=40, description="a game id such as ABCDEF-1")
    steps: bool = Field(
        default=False, description="also send the match replayed step by step (steps)"
    )


class Seek(_Message):
    """Play a rated game: wait in the queue for an opponent of about your rating."""

    type: Literal["seek"] = "seek"
    best_of: Literal[1, 3] = Field(default=1, description="one game, or best of three")
    people_only: bool = Field(default=False, description="never pair me with a bot account")
    duplicate: bool = Field(
        default=False, description="a duplicate match: two tables on the same deals, seats swapped"
    )


class CancelSeek(_Message):
    type: Literal["cancel_seek"] = "cancel_seek"


ACCOUNT_REQUESTS = (
    Seek,
    CancelSeek,
    Register,
    SignIn,
    SignOut,
    ChangePassword,
    DeleteAccount,
    GetProfile,
    GetHistory,
    GetLeaderboard,
    GetGame,
)
AccountRequest = (
    Seek
    | CancelSeek
    | Register
    | SignIn
    | SignOut
    | ChangePassword
    | DeleteAccount
    | GetProfile
    | GetHistory
    | GetLeaderboard
    | GetGame
)


# --- server -> client ----------------------------------------------------------------------


class RatingInfo(_Part):
    rating: float = Field(description="Glicko-2 rating on the Glicko scale (a beginner: 1500)")
    deviation: float = Field(
        description="the rating deviation (RD), one standard deviation; provisional while above 110"
    )
    volatility: float
    provisional: bool
    games: int = Field(description="rated matches played")

    def text(self) -> str:
        """The one way a rating is written, on every screen: ``"1500 ± 350 RD"``, the ± being
        one rating deviation (RD). The browser's ``ratingText`` writes the same."""
        return f"{half_up(self.rating)} ± {half_up(self.deviation)} RD"


def half_up(x: float) -> int:
    """Round halves up, as JavaScript's Math.round does, so both clients show one figure."""
    return math.floor(x + 0.5)


class Account(_Message):
    """You are signed in. ``session`` (secret) is set when a new session was made: keep it."""

    type: Literal["account"] = "account"
    account: str = Field(description="the account id, public")
    name: str
    session: str | None = Field(default=None, description="secret; sign in with it later")
    rating: RatingInfo
    bot: bool = Field(default=False, description="a bot account")


class SignedOut(_Message):
    type: Literal["signed_out"] = "signed_out"
    sessions: int = Field(description="how many sessions ended")
    deleted: bool = Field(default=False, description="the account was deleted")


class Averages(_Part):
    """Points per completed deal by role and source; per hand and crib shown; expected points
    given away per reviewed deal against the expert's choices (None until a game is reviewed)."""

    dealer_pegging: float
    dealer_hand: float
    dealer_crib: float
    dealer_total: float
    pone_pegging: float
    pone_hand: float
    pone_total: float
    hand: float
    crib: float
    given_away: float | None = Field(
        default=None, description="per reviewed deal, discards and play together"
    )
    given_away_discards: float | None = Field(default=None, description="per reviewed deal")
    given_away_play: float | None = Field(default=None, description="per reviewed deal")


class Profile(_Message):
    type: Literal["profile"] = "profile"
    account: str
    name: str
    rating: RatingInfo
    counts: dict[str, int] = Field(description="games, wins, losses, skunks_given, ... (docs)")
    averages: Averages
    bot: bool = Field(default=False, description="a bot account")


class HistoryItem(_Part):
    game: str = Field(description="the match id: ask for it with a game message")
    finished: float = Field(description="Unix time")
    seat: Seat
    opponent: str
    opponent_account: str | None
    result: Literal["won", "lost", "drawn", "abandoned"]
    rated: bool
    match_points: tuple[int, int] = Field(description="(this player, the opponent)")
    rating_before: float | None
    rating_after: float | None


class History(_Message):
    type: Literal["history"] = "history"
    name: str
    games: tuple[HistoryItem, ...]


class LeaderEntry(_Part):
    rank: int
    name: str
    account: str
    rating: RatingInfo
    counts: dict[str, int]
    bot: bool = Field(default=False, description="a bot account")


class Leaderboard(_Message):
    type: Literal["leaderboard"] = "leaderboard"
    entries: tuple[LeaderEntry, ...] = Field(description="established ratings, best first")


class LoggedAction(_Part):
    seat: Seat
    action: Action


class ReplayStep(_Part):
    """The table after one step of a finished match, every card face up (the match is over)."""

    seat: Seat | None = Field(description="who acted; null for the opening (cut and first deal)")
    action: Action | None
    texts: tuple[str, ...] = Field(description="the sentences of the step's events, in order")
    game_number: int
    deal_number: int
    dealer: Seat
    scores: tuple[int, int]
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = Field(
        description="each seat's cards not yet played"
    )
    discards: tuple[tuple[Card, ...], tuple[Card, ...]] = Field(
        description="the cards each seat laid away to the crib"
    )
    starter: Card | None
    count: int
    pile: tuple[PlayedCard, ...]
    show: tuple[ShowResult, ...]


class GameRecord(_Message):
    """A finished match: its seed and log rebuild every deal with the rules engine."""

    type: Literal["game"] = "game"
    game: str
    names: tuple[str, str] = Field(description="who held each seat when the match began")
    hand_overs: tuple[HandOver, ...] = Field(
        default=(),
        description="each time a seat changed hands (the computer taking over from a player "
        "who left), in order; the last holder of a seat is the one its record names",
    )
    options: GameOptions
    seed: str = Field(description="hex; Match.replay(options, seed, actions) rebuilds it")
    actions: tuple[LoggedAction, ...]
    started: float
    finished: float | None
    result: Literal["won", "restarted", "abandoned"] | None
    winner: Seat | None
    steps: tuple[ReplayStep, ...] = Field(
        default=(),
        description="when asked for: the match replayed by the server, the opening, then one "
        "step per action",
    )


class Seeking(_Message):
    """Whether you are in the rated queue. When an opponent is found you get a ``room``."""

    type: Literal["seeking"] = "seeking"
    active: bool
    best_of: Literal[1, 3] = 1
    people_only: bool = False
    duplicate: bool = False
    rating: float | None = None
    range: float | None = Field(
        default=None, description="rating points accepted now; widens by 10 a second"
    )


AccountReply = Seeking | Account | SignedOut | Profile | History | Leaderboard | GameRecord
