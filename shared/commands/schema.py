"""``muggins schema``: write the wire protocol's JSON Schema (one file per direction) and its
TypeScript declarations for the browser client."""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "schema",
        help="write the protocol's JSON Schema files",
        description=(
            "Write client.json (client-to-server messages), server.json (server-to-client "
            "messages) and protocol.d.ts (TypeScript declarations of both) into DIR."
            " The repository keeps them in shared/schema: "
            "muggins schema shared/schema"
        ),
    )
    parser.add_argument("dir", nargs="?", default=".", metavar="DIR", help="default: .")
    parser.add_argument(
        "--check", action="store_true", help="write nothing; exit 1 if the files differ"
    )
    parser.set_defaults(handler=run)


def schema_texts() -> dict[str, str]:
    """File name to exact file text, so a check compares bytes."""
    from muggins.shared.protocol import json_schemas
    from muggins.shared.tsgen import declarations

    schemas = json_schemas()
    texts = {
        f"{stem}.json": json.dumps(schema, indent=2, ensure_ascii=False, sort_keys=True) + "\n"
        for stem, schema in schemas.items()
    }
    texts["protocol.d.ts"] = declarations(schemas)
    return texts


def run(args: argparse.Namespace) -> int:
    folder = Path(args.dir)
    stale = []
    for name, text in schema_texts().items():
        path = folder / name
        current = path.read_text(encoding="utf-8") if path.exists() else None
        if current == text:
            print(f"{path}: up to date")
            continue
        stale.append(path)
        if args.check:
            print(f"{path}: stale")
        else:
            folder.mkdir(parents=True, exist_ok=True)
            path.write_text(text, encoding="utf-8")
            print(f"{path}: written")
    return 1 if args.check and stale else 0
