"""TypeScript declarations from the protocol's JSON Schema, for the browser client's type check.

``muggins schema DIR`` writes them beside the schema as ``protocol.d.ts``: two global namespaces,
``MugginsClient`` (what a client sends) and ``MugginsServer`` (what the server sends), each with
one declaration per schema definition and ``Message``, the union of the direction's messages. The
browser's JavaScript names these types in JSDoc and ``tsc --noEmit`` checks it against them, so
the wire contract reaches the browser from the same pydantic models as everything else.
"""

from __future__ import annotations

import json
import re
from typing import Any

HEADER = (
    "// Generated from the JSON Schema in this folder by `muggins schema`; do not edit.\n"
    "// The browser client (server/www/) is type-checked against these with tsc --noEmit.\n"
)


def type_name(ref_or_key: str) -> str:
    """``#/$defs/muggins__shared__actions__GameOver`` -> ``ActionsGameOver``; plain names stay."""
    key = ref_or_key.rsplit("/", 1)[-1]
    parts = key.split("__")
    if len(parts) == 1:
        return key
    return parts[-2][:1].upper() + parts[-2][1:] + parts[-1]


def ts_type(schema: dict[str, Any]) -> str:
    """The TypeScript type of one JSON Schema node."""
    if "$ref" in schema:
        return type_name(schema["$ref"])
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(value) for value in schema["enum"])
    for key in ("oneOf", "anyOf"):
        if key in schema:
            return " | ".join(_grouped(ts_type(option)) for option in schema[key])
    kind = schema.get("type")
    if kind == "array":
        if "prefixItems" in schema:
            return "[" + ", ".join(ts_type(item) for item in schema["prefixItems"]) + "]"
        return _grouped(ts_type(schema.get("items", {}))) + "[]"
    if kind == "object":
        return _object(schema, "")
    return {
        "string": "string",
        "integer": "number",
        "number": "number",
        "boolean": "boolean",
        "null": "null",
    }.get(str(kind), "unknown")


def _grouped(text: str) -> str:
    return f"({text})" if " | " in text else text


def _object(schema: dict[str, Any], indent: str) -> str:
    properties: dict[str, Any] = schema.get("properties", {})
    if not properties:
        return "Record<string, unknown>"
    required = set(schema.get("required", ()))
    lines = ["{"]
    for name, node in properties.items():
        note = node.get("description")
        if note:
            lines.append(f"{indent}  /** {_comment(note)} */")
        optional = "" if name in required else "?"
        lines.append(f"{indent}  {name}{optional}: {ts_type(node)};")
    lines.append(indent + "}")
    return "\n".join(lines)


def _comment(text: str) -> str:
    return re.sub(r"\s+", " ", text.replace("*/", "* /")).strip()


def _namespace(name: str, schema: dict[str, Any]) -> str:
    lines = [f"declare namespace {name} {{"]
    for key in sorted(schema.get("$defs", {}), key=type_name):
        node = schema["$defs"][key]
        if node.get("description"):
            lines.append(f"  /** {_comment(node['description'])} */")
        if node.get("type") == "object" and "properties" in node:
            lines.append(f"  interface {type_name(key)} {_object(node, '  ')}")
        else:
            lines.append(f"  type {type_name(key)} = {ts_type(node)};")
    lines.append(f"  /** {_comment(schema.get('title', name))} */")
    lines.append(f"  type Message = {ts_type(schema)};")
    lines.append("}")
    return "\n".join(lines) + "\n"


def declarations(schemas: dict[str, dict[str, Any]]) -> str:
    """The text of protocol.d.ts for the schemas keyed "client" and "server"."""
    return (
        HEADER
        + "\n"
        + _namespace("MugginsClient", schemas["client"])
        + "\n"
        + _namespace("MugginsServer", schemas["server"])
    )
