"""The bytes of a server message for a frame, encoded once however many receivers it has.

A move's state goes to both seats and every spectator: :func:`encoded_once` encodes each of a
step's messages once while they are being sent, and :func:`encoded` hands out those bytes. A
state is written by the hand-written :mod:`server.wire.state_writer`; every other message by
pydantic (``shared.protocol.encode_utf8``, the plain twin the writer is tested against).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from typing import Final

from pydantic_core import to_json

from muggins.server.wire.state_writer import state_utf8
from muggins.shared.protocol import ServerMessage, State

_shared: dict[int, tuple[ServerMessage, bytes]] = {}


def utf8(message: ServerMessage) -> bytes:
    """The JSON text of ``message`` in UTF-8, exactly as ``shared.protocol.encode_utf8``."""
    if type(message) is State:
        return state_utf8(message)
    return message.model_dump_json().encode()


@contextmanager
def encoded_once(messages: Iterable[ServerMessage]) -> Iterator[None]:
    """While sending one message to many receivers, encode it once (see :func:`encoded`)."""
    kept = [(message, utf8(message)) for message in messages]
    for message, text in kept:
        _shared[id(message)] = (message, text)
    try:
        yield
    finally:
        for message, _ in kept:
            _shared.pop(id(message), None)


def encoded(message: ServerMessage) -> bytes:
    """The JSON text of a message in UTF-8, reused if it is being sent to many receivers right
    now."""
    hit = _shared.get(id(message))
    if hit is not None and hit[0] is message:
        return hit[1]
    return utf8(message)


NULL_ID: Final = b'{"id":null,'


@contextmanager
def encoded_as(message: ServerMessage, text: bytes) -> Iterator[None]:
    """While sending ``message``, use ``text`` (encoded before) as its JSON: an answer kept
    encoded with ``"id":null`` first is sent with the request's id put in its place."""
    if text.startswith(NULL_ID) and message.id is not None:
        text = b'{"id":' + to_json(message.id) + b"," + text[len(NULL_ID) :]
    _shared[id(message)] = (message, text)
    try:
        yield
    finally:
        _shared.pop(id(message), None)
