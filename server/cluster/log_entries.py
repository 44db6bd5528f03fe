"""The entries of a match's action log in Redis (``log:{code}:{n}``), written and read: one JSON
object per action with its seat and the ``seq`` and ``key`` its move named. A wake-up carries
the same object, so a node applies it without reading the log."""

from __future__ import annotations

import json
from json.encoder import encode_basestring_ascii  # json.dumps of a str, without its layers
from typing import Any

from muggins.server.store.games import MoveTag, StoreError
from muggins.shared.actions import ACTION, Action, Seat


def encode_entry(
    seat: Seat, action: Action, *, seq: int | None = None, key: str | None = None
) -> str:
    """A log entry: ``{"seat":S,"action":{...},"seq":N,"key":"K"}``, compact, the action as its
    model writes it (one encoding, not a parse and a second encoding)."""
    text = f'{{"seat":{int(seat)},"action":{ACTION.dump_json(action).decode()}'
    if seq is not None:
        text += f',"seq":{int(seq)}'
    if key is not None:
        text += f',"key":{encode_basestring_ascii(key)}'
    return text + "}"


def decode_tag(raw: bytes | str) -> MoveTag:
    """The seq named and the key of a log entry (None, None for entries from before)."""
    return entry_tag(json.loads(raw))


def entry_tag(data: dict[str, Any]) -> MoveTag:
    seq, key = data.get("seq"), data.get("key")
    return (int(seq) if seq is not None else None, str(key) if key is not None else None)


def decode_entry(raw: bytes | str) -> tuple[Seat, Action]:
    return entry_action(json.loads(raw))


def entry_action(data: dict[str, Any]) -> tuple[Seat, Action]:
    """The seat and action of a log entry, parsed (as stored, or as a wake-up carries it)."""
    seat = int(data["seat"])
    if seat not in (0, 1):
        raise StoreError(f"bad seat {seat} in the log")
    action: Action = ACTION.validate_python(data["action"])
    return seat, action
