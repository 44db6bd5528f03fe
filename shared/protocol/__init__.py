"""The wire protocol: JSON text frames, one message per frame, in both directions.

Every message is a frozen pydantic model with ``extra="forbid"`` and a ``type`` tag. Each
direction is one discriminated union, validated straight from the JSON text:

>>> msg = parse_client('{"type": "play", "card": "10S", "seq": 12, "id": 7}')
>>> msg.card, msg.seq, msg.id
(Card(rank=10, suit='S'), 12, 7)
>>> encode(Pong(id=7))
'{"id":7,"type":"pong"}'

See docs/protocol.md for the conversation, with examples.
"""

from __future__ import annotations

import json
from typing import Any, Final

from pydantic import BaseModel, ValidationError

from muggins.shared.protocol.brief import as_sent
from muggins.shared.protocol.client import (
    CLIENT_MESSAGE,
    GAME_MOVES,
    AcceptCount,
    AnswerRestart,
    AskHint,
    CallMuggins,
    ChallengeCount,
    Chat,
    Claim,
    ClientMessage,
    CountPoints,
    CreateRoom,
    DiscardCards,
    GameMove,
    Hello,
    JoinRoom,
    Leave,
    ListRooms,
    MyGames,
    Ping,
    PlayCard,
    ProposeRestart,
    Rematch,
    ResignGame,
    RoomOptions,
    SeatBot,
    Spectate,
    from_action,
    to_action,
)
from muggins.shared.protocol.server import (
    SERVER_MESSAGE,
    ChatLine,
    DuplicateResult,
    Error,
    ErrorCode,
    EventLine,
    GameInProgress,
    GameOver,
    Games,
    Hint,
    Left,
    Notice,
    Pong,
    Room,
    Rooms,
    RoomSummary,
    SeatClock,
    SeatInfo,
    ServerMessage,
    State,
    Story,
    Welcome,
)

PROTOCOL_VERSION: Final = 4
"""Bumped on any change a client of the previous version would misread."""

MAX_MESSAGE_BYTES: Final = 4096
"""The largest frame a client may send; the server closes the connection (1009) past it."""


def parse_client(text: str | bytes) -> ClientMessage:
    """Validate one client frame, strictly. Raises :class:`pydantic.ValidationError`.

    Strict: a field gets exactly the JSON type the schema names (``true`` and ``1.0`` are not
    integers, ``1`` is not a boolean), as a client in any language would read the schema. A lone
    surrogate escape or nesting past the parser's depth limit is invalid JSON.
    """
    return CLIENT_MESSAGE.validate_json(text, strict=True)


def parse_server(text: str | bytes) -> ServerMessage:
    """Validate one server frame, passing over fields this version does not know (a newer
    server may add optional ones within a protocol version). Raises
    :class:`pydantic.ValidationError` for anything else wrong with it."""
    try:
        return SERVER_MESSAGE.validate_json(text)
    except ValidationError as error:
        if not any(e["type"] == "extra_forbidden" for e in error.errors()):
            raise
    data = json.loads(text)
    for _ in range(MAX_UNKNOWN_FIELDS):
        try:
            return SERVER_MESSAGE.validate_python(data)
        except ValidationError as error:
            # Each loc starts with the message's type, the tag of the union of messages.
            unknown = [e["loc"][1:] for e in error.errors() if e["type"] == "extra_forbidden"]
            # (Two members of a union may name one field: the first drop removes it.)
            if not any([_drop(data, loc) for loc in unknown]):
                raise
    return SERVER_MESSAGE.validate_python(data)


MAX_UNKNOWN_FIELDS: Final = 8
"""Rounds of passing over unknown fields before a server frame is refused as it stands."""


def _drop(data: object, loc: tuple[str | int, ...]) -> bool:
    """Remove the field an ``extra_forbidden`` error's ``loc`` names from ``data``; whether it
    was there. A step of ``loc`` that is no key or index of the data at that point is a union
    member's tag (the message ``type``, a model's name) and is passed over."""
    *path, last = loc
    for step in path:
        in_object = isinstance(data, dict) and step in data
        in_array = isinstance(data, list) and isinstance(step, int) and 0 <= step < len(data)
        if in_object or in_array:
            data = data[step]  # type: ignore[index]  # (a dict or a list, checked just above)
    if isinstance(data, dict) and last in data:
        del data[last]
        return True
    return False


def encode(message: BaseModel) -> str:
    """The JSON text of a message in either direction (omitting nothing: defaults included).

    A brief ``state`` leaves out of its view the parts a brief view does not carry (see
    :mod:`shared.protocol.unpack`), whether its view object is a BriefView or a whole SeatView.
    """
    if type(message) is State:
        message = as_sent(message)
    return message.model_dump_json()


def encode_utf8(message: BaseModel) -> bytes:
    """``encode(message).encode()``: what goes into a frame."""
    return encode(message).encode()


def json_schemas() -> dict[str, dict[str, Any]]:
    """The JSON Schema of each direction, keyed by file stem ("client", "server")."""
    return {
        "client": _titled(CLIENT_MESSAGE.json_schema(), "Muggins client-to-server message"),
        "server": _titled(SERVER_MESSAGE.json_schema(), "Muggins server-to-client message"),
    }


def _titled(schema: dict[str, Any], title: str) -> dict[str, Any]:
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        "description": f"Muggins wire protocol version {PROTOCOL_VERSION}",
        **schema,
    }


__all__ = [
    "CLIENT_MESSAGE",
    "GAME_MOVES",
    "MAX_MESSAGE_BYTES",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGE",
    "AcceptCount",
    "AnswerRestart",
    "AskHint",
    "CallMuggins",
    "ChallengeCount",
    "Chat",
    "ChatLine",
    "Claim",
    "ClientMessage",
    "CountPoints",
    "CreateRoom",
    "DiscardCards",
    "DuplicateResult",
    "Error",
    "ErrorCode",
    "EventLine",
    "GameInProgress",
    "GameMove",
    "GameOver",
    "Games",
    "Hello",
    "Hint",
    "JoinRoom",
    "Leave",
    "Left",
    "ListRooms",
    "MyGames",
    "Notice",
    "Ping",
    "PlayCard",
    "Pong",
    "ProposeRestart",
    "Rematch",
    "ResignGame",
    "Room",
    "RoomOptions",
    "RoomSummary",
    "Rooms",
    "SeatBot",
    "SeatClock",
    "SeatInfo",
    "ServerMessage",
    "Spectate",
    "State",
    "Story",
    "Welcome",
    "encode",
    "encode_utf8",
    "from_action",
    "json_schemas",
    "parse_client",
    "parse_server",
    "to_action",
]
