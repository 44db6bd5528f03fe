"""Fuzz frames made fast from the published client schema, with a seeded generator.

:class:`FrameMaker` draws schema-valid messages (each with a fresh ``id``) by walking
``shared/schema/client.json``, and breaks them in the ways a careless or hostile client does:
lone surrogate escapes, JSON nested hundreds to thousands deep, values of the wrong JSON type,
missing, extra or renamed fields, text cut short, garbage, binary and oversized frames.
The hypothesis strategies in test_fuzz.py explore the same space more cleverly but slowly; this
one makes tens of thousands of frames a second.
"""

from __future__ import annotations

import asyncio
import json
import random
import string
from dataclasses import dataclass
from typing import Any

from muggins.server.app import Server
from muggins.shared.match import Match
from muggins.shared.protocol import MAX_MESSAGE_BYTES

SUITS, RANKS = "CDHS", ["A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "T", "J", "Q", "K"]
WRONG_TYPES: list[Any] = [True, False, 0, 1, 1.0, -1, 2.5, 2**70, "1", "", "5H", [], [1], {}, None]
TEXT = string.ascii_letters + string.digits + " -_.!?éøß漢字🂡♠"
PATTERNS = {
    "^(?:[A2-9JQK]|10|T)[CDHS]$": lambda rng: rng.choice(RANKS) + rng.choice(SUITS),
    "^[A-Za-z]+$": lambda rng: "".join(
        rng.choice(string.ascii_letters) for _ in range(rng.randint(4, 12))
    ),
    "^[ow]:[A-Z]{1,12}$": lambda rng: (
        rng.choice("ow")
        + ":"
        + "".join(rng.choice(string.ascii_uppercase) for _ in range(rng.randint(1, 12)))
    ),
}
"""A generator for each string pattern of the schema (a new pattern must be added here)."""
MUTATIONS = ["surrogate", "deep", "retype", "retype", "drop", "extra", "rename", "untyped", "cut"]
MUTATIONS += ["garbage", "scalar", "binary"]
SURROGATE = "\x00surrogate\x00"
"""Stands in for a lone surrogate until the frame is serialised (json.dumps would escape it
properly as a pair otherwise)."""


@dataclass(frozen=True)
class Frame:
    text: str | bytes
    kind: str
    """"valid", or the mutation that made it ("surrogate", "deep", "retype", ...)."""
    id: int | str | None = None
    """The id of a valid message (the server's answer carries it)."""

    @property
    def oversized(self) -> bool:
        return len(self.text.encode() if isinstance(self.text, str) else self.text) > (
            MAX_MESSAGE_BYTES
        )


class FrameMaker:
    def __init__(self, schema: dict[str, Any], seed: int) -> None:
        self.defs: dict[str, Any] = schema["$defs"]
        self.messages = [self.defs[o["$ref"].rsplit("/", 1)[1]] for o in schema["oneOf"]]
        self.rng = random.Random(seed)
        self.serial = 0

    # --- valid values ------------------------------------------------------------------------

    def value(self, schema: dict[str, Any]) -> Any:
        rng = self.rng
        if "$ref" in schema:
            return self.value(self.defs[schema["$ref"].rsplit("/", 1)[1]])
        if "anyOf" in schema:
            return self.value(rng.choice(schema["anyOf"]))
        if "const" in schema:
            return schema["const"]
        if "enum" in schema:
            return rng.choice(schema["enum"])
        kind = schema.get("type")
        if kind == "object":
            return self.message(schema)
        if kind == "string":
            if "pattern" in schema:
                return PATTERNS[schema["pattern"]](rng)
            low, high = schema.get("minLength", 0), min(schema.get("maxLength", 40), 40)
            return "".join(rng.choice(TEXT) for _ in range(rng.randint(low, high)))
        if kind == "integer":
            low, high = schema.get("minimum", -(2**31)), schema.get("maximum", 2**31)
            return rng.randint(low, high)
        if kind == "boolean":
            return rng.random() < 0.5
        if kind == "null":
            return None
        if kind == "array":
            items = schema.get("prefixItems")
            if items:
                return [self.value(item) for item in items]
            low, high = schema.get("minItems", 0), min(schema.get("maxItems", 6), 6)
            return [self.value(schema["items"]) for _ in range(rng.randint(low, high))]
        raise AssertionError(f"the frame maker does not know {schema}")

    def message(self, schema: dict[str, Any]) -> dict[str, Any]:
        required = set(schema.get("required", ()))
        props = schema.get("properties", {})
        if "const" in props.get("type", {}):
            required.add("type")
        return {
            name: self.value(sub)
            for name, sub in props.items()
            if name in required or self.rng.random() < 0.5
        }

    def fresh_id(self) -> int | str:
        self.serial += 1
        return self.serial if self.serial % 2 else f"f{self.serial}"

    def valid(self) -> dict[str, Any]:
        message = self.message(self.rng.choice(self.messages))
        message["id"] = self.fresh_id()
        return message

    # --- frames ------------------------------------------------------------------------------

    def frame(self) -> Frame:
        rng = self.rng
        roll = rng.random()
        if roll < 0.30:
            message = self.valid()
            return Frame(json.dumps(message), "valid", message["id"])
        if roll < 0.995:
            kind = rng.choice(MUTATIONS)
            return Frame(getattr(self, kind)(self.valid()), kind)
        return Frame(json.dumps({"type": "chat", "text": "x" * (MAX_MESSAGE_BYTES + 10)}), "big")

    def _field(self, message: dict[str, Any]) -> str:
        return self.rng.choice(list(message))

    def surrogate(self, message: dict[str, Any]) -> str:
        strings = [k for k, v in message.items() if isinstance(v, str) and k != "type"]
        message[self.rng.choice([*strings, "id"])] = SURROGATE
        lone = self.rng.choice(["\\ud800", "\\udbff", "\\udc00", "\\udfff", "\\ud83d"])
        return json.dumps(message).replace(json.dumps(SURROGATE), f'"a{lone}b"')

    def deep(self, message: dict[str, Any]) -> str:
        depth = self.rng.choice([129, 200, 256, 981, 1000, 1500, 2000])
        opener, closer = self.rng.choice([("[", "]"), ('{"a":', "}")])
        nested = opener * depth + "1" + closer * depth
        if self.rng.random() < 0.3:
            return nested[: MAX_MESSAGE_BYTES - 1] if len(nested) >= MAX_MESSAGE_BYTES else nested
        message[self._field(message)] = "\x00deep\x00"
        text = json.dumps(message).replace(json.dumps("\x00deep\x00"), nested)
        return text if len(text) <= MAX_MESSAGE_BYTES else text[:MAX_MESSAGE_BYTES]

    def retype(self, message: dict[str, Any]) -> str:
        field = self._field(message)
        wrong = [w for w in WRONG_TYPES if type(w) is not type(message[field])]
        message[field] = self.rng.choice(wrong)
        if isinstance(message.get("options"), dict) and self.rng.random() < 0.5:
            message["options"]["game"] = {"target": self.rng.choice([61.0, True, "61", 60])}
        return json.dumps(message)

    def drop(self, message: dict[str, Any]) -> str:
        message.pop(self._field(message))
        return json.dumps(message)

    def extra(self, message: dict[str, Any]) -> str:
        message[self.rng.choice(["seat", "player", "x", "Type", "ID", ""])] = self.rng.choice(
            WRONG_TYPES
        )
        return json.dumps(message)

    def rename(self, message: dict[str, Any]) -> str:
        message["type"] = self.rng.choice(["PLAY", "warp", "", "play ", "hello\u0000", "ping2"])
        return json.dumps(message)

    def untyped(self, message: dict[str, Any]) -> str:
        message.pop("type")
        return json.dumps(message)

    def cut(self, message: dict[str, Any]) -> str:
        text = json.dumps(message)
        return text[: self.rng.randint(0, len(text) - 1)]

    def garbage(self, message: dict[str, Any]) -> str:
        return "".join(self.rng.choice(TEXT + '{}[]":,') for _ in range(self.rng.randint(0, 60)))

    def scalar(self, message: dict[str, Any]) -> str:
        return json.dumps(self.rng.choice([*WRONG_TYPES, list(message.values())]))

    def binary(self, message: dict[str, Any]) -> bytes:
        return json.dumps(message).encode()


async def audit_rooms(server: Server) -> None:
    """No room lock held at rest; every match equals the replay of its own log."""
    await asyncio.sleep(0.05)
    for room in server.lobby.rooms.values():
        assert not room.lock.locked(), f"room {room.code} is still locked"
        match = room.match
        if match is not None:
            again = Match.replay(match.options, match.seed, list(match.log))
            for seat in (0, 1, None):
                assert again.view(seat) == match.view(seat), f"room {room.code} diverged"
