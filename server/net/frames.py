"""Reading client frames: a stable error code and one sentence for a frame that is not a valid
message, and the ``id`` to answer it with when one can be read from it."""

from __future__ import annotations

from pydantic import ValidationError
from pydantic_core import from_json

from muggins.shared.protocol import ErrorCode
from muggins.shared.protocol.client import MessageId


def describe_invalid(error: ValidationError) -> tuple[ErrorCode, str]:
    """A stable code and one sentence for a frame that failed validation."""
    first = error.errors()[0]
    kind, loc = first["type"], [str(part) for part in first["loc"]]
    if kind == "json_invalid":
        reason = str(first.get("ctx", {}).get("error", ""))[:80]
        return "bad_json", f"That frame is not valid JSON ({reason})" if reason else (
            "That frame is not valid JSON"
        )
    if kind == "union_tag_invalid":
        tag = first["input"].get("type") if isinstance(first["input"], dict) else None
        return "bad_message", f"Unknown message type {str(tag)[:40]!r}"
    if kind == "union_tag_not_found":
        return "bad_message", "A message needs a 'type' field"
    if not loc:
        return "bad_message", "A message must be a JSON object with a 'type' field"
    tag, field = loc[0], ".".join(loc[1:]) or loc[0]
    if kind == "extra_forbidden":
        return "bad_message", f"A {tag} message has no field {field[:40]!r}"
    if kind == "missing":
        return "bad_message", f"A {tag} message needs the field {field!r}"
    if kind in ("string_pattern_mismatch", "value_error") and "card" in field:
        return "bad_message", (
            f"{str(first['input'])[:12]!r} is not a card; write cards like 5H, 10S, JD or AS"
        )
    return "bad_message", f"Field {field!r} of a {tag} message: {first['msg']}"


def salvage_id(frame: str) -> MessageId:
    """The ``id`` of a frame that failed validation, if it has a usable one, for the error.

    The frame is read by the same parser as messages (``from_json``: a depth limit, no lone
    surrogates), so whatever it returns can be written back.
    """
    try:
        data = from_json(frame)
    except ValueError:
        return None
    found = data.get("id") if isinstance(data, dict) else None
    if isinstance(found, bool) or not isinstance(found, int | str):
        return None
    if isinstance(found, int):
        return found  # any integer, as a valid message's id is echoed (2**63 and past too)
    return found if len(found) <= 64 else None
