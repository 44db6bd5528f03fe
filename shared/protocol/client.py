"""Messages a client sends to the server.

Each is a frozen pydantic model with ``extra="forbid"`` and a ``type`` tag, and may carry an
``id`` of the client's choosing; the server's answer to it echoes that ``id``.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, model_validator

from muggins.shared.actions import (
    Accept,
    Action,
    Challenge,
    Count,
    Discard,
    GameOptions,
    Muggins,
    Play,
    Resign,
    discard_action,
    play_action,
)
from muggins.shared.cards import Card
from muggins.shared.protocol.accounts import AccountRequest
from muggins.shared.protocol.moderation import ModerationRequest
from muggins.shared.protocol.review import GetReview
from muggins.shared.protocol.tournaments import TournamentRequest

MessageId = Annotated[
    int | Annotated[str, Field(max_length=64)] | None,
    Field(description="chosen by the client; the answer to this message carries it back"),
]
RoomCode = Annotated[str, Field(min_length=4, max_length=12, pattern=r"^[A-Za-z]+$")]
NAME_MAX = 24
CHAT_MAX = 300


class ClientModel(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: MessageId = None


class RoomOptions(BaseModel):
    """How a room is set up: the match rules plus who may find and watch it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game: GameOptions = GameOptions()
    private: bool = Field(default=False, description="unlisted: join only by code")
    turn_timer: int | None = Field(
        default=None,
        ge=5,
        le=3600,
        description="seconds a player may take per move; when it runs out the server moves "
        "for them (the easiest computer level). None: no timer",
    )
    turn_bank: int | None = Field(
        default=None,
        ge=0,
        le=3600,
        description="with turn_timer: seconds each player may take beyond the per-move time, "
        "over the whole match (a bank). None: 180 in a rated room, else no bank",
    )
    spectators: bool = Field(default=True, description="whether others may watch")
    rated: bool = Field(
        default=False,
        description="a rated room: two signed-in people, automatic counting, a turn clock; "
        "the result changes both ratings",
    )
    duplicate: bool = Field(
        default=False,
        description="a duplicate match: this table, then a second one on the same deals with "
        "the seats swapped; scored by the difference in points (docs/tournaments.md)",
    )

    @model_validator(mode="after")
    def _bank_needs_a_clock(self) -> RoomOptions:
        if self.turn_bank and self.turn_timer is None:
            raise ValueError("A time bank needs a per-move clock: set turn_timer too")
        return self


class Hello(ClientModel):
    """The first message on a connection. With a resume token it takes back your seat."""

    type: Literal["hello"] = "hello"
    name: str = Field(min_length=1, max_length=64, description="shown to others, sanitised")
    protocol: int = Field(ge=1, description="the protocol version the client speaks")
    token: str | None = Field(default=None, max_length=200, description="from a past welcome")


class CreateRoom(ClientModel):
    """Open a room and take its first seat."""

    type: Literal["create_room"] = "create_room"
    options: RoomOptions = RoomOptions()


class JoinRoom(ClientModel):
    """Take the empty seat of a room, by its code (case does not matter)."""

    type: Literal["join_room"] = "join_room"
    code: RoomCode


LIST_MAX = 200
ListCursor = Annotated[str, Field(max_length=16, pattern=r"^[ow]:[A-Z]{1,12}$")]


class ListRooms(ClientModel):
    """Ask for the public rooms with an empty seat, then the games one may watch, a page at a
    time: the answer's ``next`` (if not null) asks for the page after it."""

    type: Literal["list_rooms"] = "list_rooms"
    after: ListCursor | None = Field(
        default=None, description="the 'next' of the previous page; None: the first page"
    )
    limit: int = Field(default=50, ge=1, le=LIST_MAX, description="rooms on this page at most")


class Spectate(ClientModel):
    """Watch a room's game with a spectator's view (no hidden cards)."""

    type: Literal["spectate"] = "spectate"
    code: RoomCode


class SeatBot(ClientModel):
    """Seat the computer in your room's empty (or abandoned) seat."""

    type: Literal["seat_bot"] = "seat_bot"
    level: str | None = Field(
        default=None, max_length=32, description="a level from welcome.levels; None: strongest"
    )


Seq = Annotated[
    int,
    Field(
        ge=0,
        description="the seq of the state this move answers (from the latest state); the "
        "server applies the move only at that seq, and answers an older one with 'stale'",
    ),
]


class MoveModel(ClientModel):
    """A move in the game: it names the ``seq`` of the state it answers.

    A move is applied only while the room is at that ``seq``. Sent again with the same ``id``
    and ``seq`` (a retry), it is answered as the first attempt was and never applied twice.
    """

    seq: Seq


class DiscardCards(MoveModel):
    """Lay two cards away to the crib. (The engine refuses any other number, with a sentence.)"""

    type: Literal["discard"] = "discard"
    cards: tuple[Card, ...] = Field(max_length=6)


class PlayCard(MoveModel):
    type: Literal["play"] = "play"
    card: Card


class CountPoints(MoveModel):
    """Muggins mode: claim the points in your hand or crib; any claim from 0 to 29 stands until
    the opponent answers it."""

    type: Literal["count"] = "count"
    points: int = Field(ge=0, le=29)


class CallMuggins(MoveModel):
    """Muggins mode: call "Muggins!" on a short count and take the points it missed (if the
    count was not short, the owner pegs two more)."""

    type: Literal["muggins"] = "muggins"


class ChallengeCount(MoveModel):
    """Muggins mode: challenge an over-count; the owner is put back to the true total and you
    take the excess (if the count was not over, the owner pegs two more)."""

    type: Literal["challenge"] = "challenge"


class AcceptCount(MoveModel):
    """Muggins mode: let the opponent's count stand as claimed."""

    type: Literal["accept"] = "accept"


class ResignGame(MoveModel):
    """Give up the current game (the match goes on if it is played to more game points)."""

    type: Literal["resign"] = "resign"


class ProposeRestart(ClientModel):
    """Start the match again with a new deal. Against the computer it happens at once."""

    type: Literal["propose_restart"] = "propose_restart"
    seq: int | None = Field(
        default=None,
        ge=0,
        description="optional: the seq of the state this answers; if given, the server acts "
        "only at that seq and answers an older one with 'stale' (so a repeat cannot act twice)",
    )


class AnswerRestart(ClientModel):
    type: Literal["answer_restart"] = "answer_restart"
    accept: bool
    seq: int | None = Field(
        default=None,
        ge=0,
        description="optional: the seq of the state this answers; if given, the server acts "
        "only at that seq and answers an older one with 'stale' (so a repeat cannot act twice)",
    )


class Rematch(ClientModel):
    """After the match: ask for (or agree to) another with the same options."""

    type: Literal["rematch"] = "rematch"
    seq: int | None = Field(
        default=None,
        ge=0,
        description="optional: the seq of the state this answers; if given, the server acts "
        "only at that seq and answers an older one with 'stale' (so a repeat cannot act twice)",
    )


class Claim(ClientModel):
    """After the opponent has been gone past the grace period: win the game, or seat the bot."""

    type: Literal["claim"] = "claim"
    take: Literal["win", "bot"] = "win"
    seq: int | None = Field(
        default=None,
        ge=0,
        description="optional: the seq of the state this answers; if given, the server acts "
        "only at that seq and answers an older one with 'stale' (so a repeat cannot act twice)",
    )


class Chat(ClientModel):
    type: Literal["chat"] = "chat"
    text: str = Field(min_length=1, max_length=CHAT_MAX)


class Leave(ClientModel):
    """Leave the room. A seated player's seat stays theirs until the grace period ends."""

    type: Literal["leave"] = "leave"


class Ping(ClientModel):
    type: Literal["ping"] = "ping"


class MyGames(ClientModel):
    """Ask for your games in progress (answered with ``games``): the signed-in account's seats,
    and the seats these resume tokens hold (a browser keeps one per room). Nothing changes."""

    type: Literal["my_games"] = "my_games"
    tokens: tuple[Annotated[str, Field(max_length=200)], ...] = Field(
        default=(), max_length=20, description="resume tokens from earlier welcomes"
    )


class AskHint(ClientModel):
    """Against the computer: ask the coach for your best move now (answered with ``hint``)."""

    type: Literal["hint"] = "hint"


GameMove = (
    DiscardCards | PlayCard | CountPoints | CallMuggins | ChallengeCount | AcceptCount | ResignGame
)
"""The client messages that are moves in the game."""

ClientMessage = Annotated[
    Hello
    | CreateRoom
    | JoinRoom
    | ListRooms
    | Spectate
    | SeatBot
    | DiscardCards
    | PlayCard
    | CountPoints
    | CallMuggins
    | ChallengeCount
    | AcceptCount
    | ResignGame
    | ProposeRestart
    | AnswerRestart
    | Rematch
    | Claim
    | Chat
    | Leave
    | Ping
    | AccountRequest
    | ModerationRequest
    | GetReview
    | TournamentRequest
    | AskHint
    | MyGames,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
GAME_MOVES: Final = (
    DiscardCards,
    PlayCard,
    CountPoints,
    CallMuggins,
    ChallengeCount,
    AcceptCount,
    ResignGame,
)


def to_action(move: GameMove) -> Action:
    """The engine action a move message asks for. Raises ValueError for a discard not of two."""
    if isinstance(move, DiscardCards):
        if len(move.cards) != 2:
            raise ValueError(f"Lay away exactly two cards, not {len(move.cards)}")
        return discard_action((move.cards[0], move.cards[1]))
    if isinstance(move, PlayCard):
        return play_action(move.card)
    if isinstance(move, CountPoints):
        return Count(points=move.points)
    if isinstance(move, CallMuggins):
        return Muggins()
    if isinstance(move, ChallengeCount):
        return Challenge()
    if isinstance(move, AcceptCount):
        return Accept()
    return Resign()


def from_action(action: Action, *, seq: int, id: int | str | None = None) -> GameMove:
    """The message that asks for an engine action at state ``seq`` (a client's legal move)."""
    if isinstance(action, Discard):
        return DiscardCards(cards=action.cards, seq=seq, id=id)
    if isinstance(action, Play):
        return PlayCard(card=action.card, seq=seq, id=id)
    if isinstance(action, Count):
        return CountPoints(points=action.points, seq=seq, id=id)
    if isinstance(action, Muggins):
        return CallMuggins(seq=seq, id=id)
    if isinstance(action, Challenge):
        return ChallengeCount(seq=seq, id=id)
    if isinstance(action, Accept):
        return AcceptCount(seq=seq, id=id)
    return ResignGame(seq=seq, id=id)
