"""Bytes and frames the server sends per action: complete matches between two random players.

Starts a Muggins server in this process (in memory, no limits in the way), plays ``--games``
matches between two socket clients that answer every state waiting for them with a random legal
move, and counts every frame and byte each seat receives from its first ``state`` to the end of
the match. An action is one accepted move (the room's log grows by one). Prints bytes and frames
per action, and the share of the bytes that ``state`` frames take.

    python bench/wire_bytes.py --games 40
    python bench/wire_bytes.py --games 40 --target 61 --muggins
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
from collections import Counter
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.shared.protocol import PROTOCOL_VERSION

CONFIG = ServerConfig(
    port=0, memory=True, bot_delay=0.0, sweep_interval=3600, rate=10_000, burst=10_000,
    max_per_address=10_000, rooms_per_minute=1e6, rooms_per_minute_per_address=1e6,
)  # fmt: skip


async def recv(ws: ClientConnection) -> str:
    text = await ws.recv()
    assert isinstance(text, str)
    return text


async def until(ws: ClientConnection, kind: str) -> dict[str, Any]:
    while True:
        frame: dict[str, Any] = json.loads(await recv(ws))
        if frame["type"] == kind:
            return frame


async def player(ws: ClientConnection, rng: random.Random, tally: Counter[str]) -> int:
    """Random legal moves until the match is over, counting what arrives from the first state.

    Returns the actions in the match: seq rises by one with each, from the first state on.
    """
    view: dict[str, Any] = {}
    first: int | None = None
    sent = None  # the seq (and id) of the move awaiting its answer
    counting = False
    while True:
        text = await recv(ws)
        frame: dict[str, Any] = json.loads(text)
        kind = frame["type"]
        counting = counting or kind == "state"
        if counting:
            tally["bytes"] += len(text.encode())
            tally["frames"] += 1
            tally[f"bytes {kind}"] += len(text.encode())
            tally[f"frames {kind}"] += 1
            if kind == "state":
                tally["brief" if frame.get("brief") else "whole"] += 1
        if kind == "error" and frame.get("id") == sent:
            sent = None  # refused: choose again from the newest state
            continue
        if kind != "state":
            continue
        for key, value in frame.items():
            tally[f"part {key}"] += len(json.dumps(value, separators=(",", ":"))) + len(key) + 4
        for key, value in frame["view"].items():
            tally[f"part view.{key}"] += (
                len(json.dumps(value, separators=(",", ":"))) + len(key) + 4
            )
        first = int(frame["seq"]) if first is None else first
        view = {**view, **frame["view"]} if frame.get("brief") else frame["view"]
        if frame.get("id") == sent:
            sent = None
        if view["phase"] == "match_over":
            return int(frame["seq"]) - first
        if sent is None and view["seat"] in view["waiting_for"] and view["legal"]:
            # One move at a time, as a careful client does: wait for its answer.
            sent = frame["seq"]
            move = {**rng.choice(view["legal"]), "seq": sent, "id": sent}
            await ws.send(json.dumps(move))


async def one_match(url: str, n: int, game: dict[str, Any], tally: Counter[str]) -> int:
    rng = random.Random(n)
    a = await connect(url, max_size=2**20)
    b = await connect(url, max_size=2**20)
    for ws, name in ((a, f"A{n}"), (b, f"B{n}")):
        await ws.send(json.dumps({"type": "hello", "name": name, "protocol": PROTOCOL_VERSION}))
        await until(ws, "welcome")
    await a.send(json.dumps({"type": "create_room", "options": {"game": game}}))
    code = (await until(a, "room"))["code"]
    await b.send(json.dumps({"type": "join_room", "code": code}))
    actions, _ = await asyncio.gather(player(a, rng, tally), player(b, rng, tally))
    await a.close()
    await b.close()
    return actions


async def main(args: argparse.Namespace) -> None:
    game = {"target": args.target, "muggins": args.muggins}
    tally: Counter[str] = Counter()
    async with running_server(CONFIG) as server:
        actions = 0
        for n in range(args.games):
            actions += await one_match(server.url, n, game, tally)
    print(f"protocol {PROTOCOL_VERSION}, {args.games} matches to {args.target}, "
          f"muggins {args.muggins}: {actions} actions")  # fmt: skip
    print(f"bytes per action  {tally['bytes'] / actions:8.0f}")
    print(f"frames per action {tally['frames'] / actions:8.2f}")
    for key in sorted(k for k in tally if k.startswith("bytes ")):
        kind = key[6:]
        share = tally[key] / tally["bytes"]
        print(
            f"  {kind:10} {tally[key] / actions:7.0f} bytes, "
            f"{tally['frames ' + kind] / actions:5.2f} frames per action ({share:.0%})"
        )
    if args.parts:
        print("bytes per action in state frames, by part (the view's parts indented):")
        parts = sorted((k for k in tally if k.startswith("part ")), key=lambda k: -tally[k])
        for key in parts:
            name = key[5:]
            indent = "    " if name.startswith("view.") else "  "
            print(f"{indent}{name:24} {tally[key] / actions:7.0f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--target", type=int, choices=(61, 121), default=121)
    parser.add_argument("--muggins", action="store_true")
    parser.add_argument("--parts", action="store_true", help="bytes per part of the state")
    asyncio.run(main(parser.parse_args()))
