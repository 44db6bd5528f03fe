"""Messages a client sends to the server.

Each is a frozen pydantic model with ``extra="forbid"`` and a ``type`` tag, and may carry an
``id`` of the client's choosing; the server's answer to it echoes that ``id``.
"""

from __future__ import annotations

from typing import Annotated, Final, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from shared.actions import (
    Accept,
    Action,
    Count,
    Discard,
    GameOptions,
    Muggins,
    Play,
    Resign,
    discard_action,
    play_action,
)
from shared.cards import Card

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
    spectators: bool = Field(default=True, description="whether others may watch")


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


class ListRooms(ClientModel):
    """Ask for the public rooms with an empty seat, and the games one may watch."""

    type: Literal["list_rooms"] = "list_rooms"


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


class DiscardCards(ClientModel):
    """Lay two cards away to the crib. (The engine refuses any other number, with a sentence.)"""

    type: Literal["discard"] = "discard"
    cards: tuple[Card, ...] = Field(max_length=6)


class PlayCard(ClientModel):
    type: Literal["play"] = "play"
    card: Card


class CountPoints(ClientModel):
    """Muggins mode: claim the points in your hand or crib."""

    type: Literal["count"] = "count"
    points: int = Field(ge=0, le=29)


class CallMuggins(ClientModel):
    """Muggins mode: take the points your opponent missed in their count."""

    type: Literal["muggins"] = "muggins"


class AcceptCount(ClientModel):
    """Muggins mode: accept the opponent's count as it stands."""

    type: Literal["accept"] = "accept"


class ResignGame(ClientModel):
    """Give up the current game (the match goes on if it is played to more game points)."""

    type: Literal["resign"] = "resign"


class ProposeRestart(ClientModel):
    """Start the match again with a new deal. Against the computer it happens at once."""

    type: Literal["propose_restart"] = "propose_restart"


class AnswerRestart(ClientModel):
    type: Literal["answer_restart"] = "answer_restart"
    accept: bool


class Rematch(ClientModel):
    """After the match: ask for (or agree to) another with the same options."""

    type: Literal["rematch"] = "rematch"


class Claim(ClientModel):
    """After the opponent has been gone past the grace period: win the game, or seat the bot."""

    type: Literal["claim"] = "claim"
    take: Literal["win", "bot"] = "win"


class Chat(ClientModel):
    type: Literal["chat"] = "chat"
    text: str = Field(min_length=1, max_length=CHAT_MAX)


class Leave(ClientModel):
    """Leave the room. A seated player's seat stays theirs until the grace period ends."""

    type: Literal["leave"] = "leave"


class Ping(ClientModel):
    type: Literal["ping"] = "ping"


GameMove = DiscardCards | PlayCard | CountPoints | CallMuggins | AcceptCount | ResignGame
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
    | AcceptCount
    | ResignGame
    | ProposeRestart
    | AnswerRestart
    | Rematch
    | Claim
    | Chat
    | Leave
    | Ping,
    Field(discriminator="type"),
]
CLIENT_MESSAGE: Final[TypeAdapter[ClientMessage]] = TypeAdapter(ClientMessage)
GAME_MOVES: Final = (DiscardCards, PlayCard, CountPoints, CallMuggins, AcceptCount, ResignGame)


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
    if isinstance(move, AcceptCount):
        return Accept()
    return Resign()


def from_action(action: Action, *, id: int | str | None = None) -> GameMove:
    """The message that asks for an engine action (what a client sends to make a legal move)."""
    if isinstance(action, Discard):
        return DiscardCards(cards=action.cards, id=id)
    if isinstance(action, Play):
        return PlayCard(card=action.card, id=id)
    if isinstance(action, Count):
        return CountPoints(points=action.points, id=id)
    if isinstance(action, Muggins):
        return CallMuggins(id=id)
    if isinstance(action, Accept):
        return AcceptCount(id=id)
    return ResignGame(id=id)
