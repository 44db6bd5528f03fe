"""Messages the server sends to a client.

Game state reaches a client only in ``state``: the engine's view for that connection's seat (or a
spectator's) and the public engine events of the step that led to it. Nothing else carries
cards.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from muggins.shared.actions import Action, Event, Outcome, Seat
from muggins.shared.construct import unvalidated
from muggins.shared.duplicate import HandComparison
from muggins.shared.protocol.accounts import AccountReply
from muggins.shared.protocol.client import MessageId, RoomOptions
from muggins.shared.protocol.moderation import ModerationReply
from muggins.shared.protocol.review import GameReview
from muggins.shared.protocol.tournaments import TournamentReply
from muggins.shared.view import BriefView, SeatView


class ServerModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: MessageId = None


class Welcome(ServerModel):
    """The answer to ``hello``. Keep ``token``: it is the only way back to your seat."""

    type: Literal["welcome"] = "welcome"
    player: str = Field(description="your player id, public")
    name: str = Field(description="your name as others see it, after sanitising")
    token: str = Field(description="secret; send it in a later hello to resume")
    protocol: int
    server: str = Field(description="server software version")
    levels: tuple[str, ...] = Field(description="computer levels, weakest first")
    level_ratings: dict[str, int] = Field(
        default_factory=dict,
        description="each computer level's strength on the players' rating scale "
        "(standard = 1500, where new accounts start)",
    )
    resumed: bool = Field(description="whether the token put you back where you were")
    room: str | None = Field(default=None, description="the room you are back in, if any")
    public_url: str | None = Field(
        default=None,
        description="the address players reach this server at (https://host[:port]), for links "
        "and commands a client shows; None: the address the client used",
    )


class SeatInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: Seat
    name: str | None = Field(description="None while the seat is empty")
    player: str | None = Field(default=None, description="the player id of a person")
    kind: Literal["empty", "human", "bot"]
    level: str | None = Field(default=None, description="the computer's level")
    connected: bool
    claimable_in: float | None = Field(
        default=None,
        description="a disconnected person: seconds until the opponent may claim (0: now)",
    )


class Room(ServerModel):
    """A room's public facts. Sent on entering a room and whenever they change."""

    type: Literal["room"] = "room"
    code: str
    options: RoomOptions
    seats: tuple[SeatInfo, SeatInfo]
    spectators: int
    you: Seat | None = Field(description="your seat; None when spectating")
    status: Literal["waiting", "playing", "over"] = Field(
        description="waiting for a second seat, in a match, or the match is over"
    )
    match_number: int = Field(description="1, then one more after each restart or rematch")
    restart_proposed_by: Seat | None = None
    rematch_wanted: tuple[bool, bool] = (False, False)
    bank: tuple[float, float] | None = Field(
        default=None,
        description="a room with a time bank (rated, or options.turn_bank): seconds left in "
        "each seat's bank as of its last move, beyond the per-move limit (options.turn_timer)",
    )
    duplicate_table: Literal[1, 2] | None = Field(
        default=None,
        description="a duplicate match's table: the second deals the first's cards, the seats "
        "swapped",
    )


class RoomSummary(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    code: str
    names: tuple[str | None, str | None]
    options: RoomOptions
    status: Literal["waiting", "playing", "over"]
    open_seat: bool
    spectators: int


class Rooms(ServerModel):
    """The answer to ``list_rooms``: public rooms, with an open seat first."""

    type: Literal["rooms"] = "rooms"
    rooms: tuple[RoomSummary, ...]
    next: str | None = Field(
        default=None, description="send as list_rooms.after for the next page; None: no more"
    )
    total: int = Field(default=0, description="listed rooms in all, on every page")


class EventLine(BaseModel):
    """Something that happened in the step a ``state`` follows, with the sentence to show."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    event: Event
    text: str


class GameOver(BaseModel):
    """A game of the match ended in the step a ``state`` follows."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    outcome: Outcome
    winner: str = Field(description="the winner's name")
    match_points: tuple[int, int]
    match_over: bool
    text: str


class SeatClock(BaseModel):
    """A waited-for seat's time left as a ``state`` was sent: count down from its arrival."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    move: float = Field(description="seconds left of this move's own time (0 once spent)")
    bank: float = Field(
        description="seconds left in the seat's bank once the move's own time is spent (0: "
        "no bank, or it is spent)"
    )


class State(ServerModel):
    """The game as this connection may see it after action number ``seq`` of the room, with
    what happened on the way there.

    ``brief`` states leave out of the view the parts the step cannot have changed (see
    :class:`~shared.view.BriefView`, :func:`shared.protocol.brief.left_out_of` and
    docs/protocol.md): a receiver takes them from its previous view. A brief state made by the
    server may hold the whole view object: :func:`encode` leaves those parts out of its text,
    and a parsed one holds a BriefView.
    """

    type: Literal["state"] = "state"
    seq: int = Field(description="rises with every accepted action, restart and rematch")
    brief: bool = Field(
        default=False,
        description="the view leaves out the parts this step cannot have changed (options, "
        "commitment, cut_for_deal and last_deal within a deal; within a phase, the parts the "
        "phase cannot change): take each part left out from the previous view",
    )
    view: SeatView | BriefView = Field(union_mode="left_to_right")
    events: tuple[EventLine, ...] = Field(
        default=(), description="what happened since the previous seq, in order"
    )
    game_over: GameOver | None = Field(default=None, description="a game ended in this step")
    clock: tuple[SeatClock | None, SeatClock | None] | None = Field(
        default=None,
        description="a room with a turn timer: each seat's time left as this state was sent "
        "(null for a seat not waited for); its move time runs from when the state first waited "
        "for it, so both players count down the same figures. null: no clock",
    )


_STATE_FIELDS_SET = {"id", "seq", "brief", "view", "events", "game_over", "clock"}
_LINE_FIELDS_SET = {"event", "text"}
"""The fields set of every state and event line built here, one set shared by each kind (a
frozen model's is never changed: a copy gets a set of its own)."""


def built_state(
    *,
    id: MessageId,
    seq: int,
    brief: bool,
    view: SeatView | BriefView,
    events: tuple[EventLine, ...],
    game_over: GameOver | None,
    clock: tuple[SeatClock | None, SeatClock | None] | None = None,
) -> State:
    """``State.model_construct(...)`` of these values, at a fraction of its cost: no
    validation, for parts the engine made valid (one state per receiver of every move)."""
    values: dict[str, object] = {"id": id, "type": "state", "seq": seq, "brief": brief}
    values["view"], values["events"], values["game_over"] = view, events, game_over
    values["clock"] = clock
    return unvalidated(State, values, _STATE_FIELDS_SET)


def built_line(event: Event, text: str) -> EventLine:
    """``EventLine.model_construct(event=event, text=text)``, without its cost."""
    return unvalidated(EventLine, {"event": event, "text": text}, _LINE_FIELDS_SET)


ErrorCode = Literal[
    "bad_json",
    "bad_message",
    "binary_frame",
    "unsupported_protocol",
    "hello_first",
    "bad_name",
    "already_welcomed",
    "bad_token",
    "no_room",
    "not_in_room",
    "not_seated",
    "room_full",
    "already_in_room",
    "spectators_off",
    "spectators_full",
    "too_many_rooms",
    "server_full",
    "illegal",
    "not_your_turn",
    "no_seat_free",
    "unknown_level",
    "nothing_pending",
    "not_over",
    "too_early",
    "rate_limited",
    "stale",
    "bad_credentials",
    "name_taken",
    "bad_password",
    "not_signed_in",
    "no_account",
    "no_game",
    "storage",
    "unconfirmed",
    "internal",
    "banned",
    "muted",
    "not_allowed",
    "no_report",
]


class Error(ServerModel):
    """A refusal. Nothing changed. ``code`` is stable; ``message`` is a sentence for a person."""

    type: Literal["error"] = "error"
    code: ErrorCode
    message: str
    seq: int | None = Field(
        default=None,
        description="'stale': the seq the room is at now (its state was sent just before)",
    )


class ChatLine(ServerModel):
    type: Literal["chat"] = "chat"
    sender: str = Field(description="the sender's name")
    seat: Seat | None = Field(description="the sender's seat; None for a spectator")
    text: str
    line: str | None = Field(default=None, description="the line's id (to report it)")


class Notice(ServerModel):
    """A sentence about the room for the people in it (a disconnect, a return, a proposal)."""

    type: Literal["notice"] = "notice"
    code: Literal[
        "joined",
        "left",
        "disconnected",
        "returned",
        "claimable",
        "claimed",
        "bot_seated",
        "restart_proposed",
        "restart_declined",
        "restarted",
        "rematch_wanted",
        "timeout",
        "replaced",
        "shutdown",
        "rating",
        "duplicate",
    ]
    text: str


class Left(ServerModel):
    """The answer to ``leave``: you are in no room now."""

    type: Literal["left"] = "left"
    code: str


class Pong(ServerModel):
    type: Literal["pong"] = "pong"


class Hint(ServerModel):
    """The answer to ``hint``: the coach's move (one of ``view.legal``) and why."""

    type: Literal["hint"] = "hint"
    move: Action
    text: str = Field(description="the reason, in a sentence or two")


class GameInProgress(BaseModel):
    """One of your games: where it is, against whom, the score, and whether it waits for you."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    room: str
    seat: Seat = Field(description="your seat")
    opponent: str | None = Field(description="None while the other seat is empty")
    scores: tuple[int, int] = Field(description="the current game's scores, by seat")
    your_move: bool
    status: Literal["waiting", "playing", "over"]
    rated: bool = False


class Games(ServerModel):
    """The answer to ``my_games``: your games in progress, the latest first."""

    type: Literal["games"] = "games"
    games: tuple[GameInProgress, ...]


class Story(ServerModel):
    """The current match so far, sent to whoever enters or comes back to a room (after its
    ``state``): every step's sentence and event since the match began, and the latest chat."""

    type: Literal["story"] = "story"
    room: str
    match_number: int
    lines: tuple[EventLine, ...]
    chat: tuple[ChatLine, ...] = ()


class DuplicateResult(ServerModel):
    """A duplicate match is over: both tables played on the same deals, seats swapped.

    Sent to the two players once both tables are over (never while the second is played, so no
    table hears of the other's cards before it has played them).
    """

    type: Literal["duplicate_result"] = "duplicate_result"
    games: tuple[str, str] = Field(description="each table's game id, to replay or review")
    names: tuple[str, str] = Field(
        description="the first player (seat 0 at the first table), then the second"
    )
    you: Seat | None = Field(description="which of names you are")
    margin: int = Field(description="the first player's points less the second's, both tables")
    rated: bool
    text: str = Field(description="'You won by 14 points on the same cards'")
    hands: tuple[HandComparison, ...] = Field(
        description="each hand both tables played: what each player laid away and scored with it"
    )


ServerMessage = Annotated[
    Welcome
    | Room
    | Rooms
    | State
    | Error
    | ChatLine
    | Notice
    | Left
    | Pong
    | Hint
    | Games
    | Story
    | DuplicateResult
    | TournamentReply
    | AccountReply
    | ModerationReply
    | GameReview,
    Field(discriminator="type"),
]
SERVER_MESSAGE: Final[TypeAdapter[ServerMessage]] = TypeAdapter(ServerMessage)
