"""A small raw-JSON WebSocket client for the server tests (no client package, no pydantic)."""

from __future__ import annotations

import asyncio
import json
import random
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

from muggins.shared.protocol import PROTOCOL_VERSION

Frame = dict[str, Any]
MOVES = frozenset({"discard", "play", "count", "muggins", "accept", "resign"})
"""The game moves: each names the seq of the state it answers."""


class WireClient:
    def __init__(self, ws: ClientConnection, *, name: str = "") -> None:
        self.ws = ws
        self.name = name
        self.frames: list[Frame] = []
        self.raw: list[str] = []
        self.token: str | None = None
        self.state: Frame | None = None
        self.room: Frame | None = None

    @classmethod
    async def open(cls, url: str, *, name: str = "", hello: bool = True) -> WireClient:
        client = cls(await connect(url, max_size=2**20), name=name)
        if hello:
            await client.hello(name)
        return client

    async def hello(self, name: str, *, token: str | None = None) -> Frame:
        await self.send(type="hello", name=name or "Player", protocol=PROTOCOL_VERSION, token=token)
        welcome = await self.expect("welcome", "error")
        if welcome["type"] == "welcome":
            self.token = welcome["token"]
        return welcome

    async def send(self, **message: Any) -> None:
        """Send one message; a game move without a ``seq`` answers the latest state read (0
        before any). Pass ``seq=None`` to send a move with no ``seq`` at all.
        """
        if message.get("type") in MOVES and "seq" not in message:
            message["seq"] = self.state["seq"] if self.state is not None else 0
        if message.get("seq", 0) is None:
            del message["seq"]
        await self.ws.send(json.dumps(message))

    async def send_raw(self, data: str | bytes) -> None:
        await self.ws.send(data)

    async def recv(self, timeout: float = 10.0) -> Frame:
        async with asyncio.timeout(timeout):
            text = await self.ws.recv()
        assert isinstance(text, str), "the server sends text frames only"
        frame: Frame = json.loads(text)
        self.raw.append(text)
        if frame["type"] == "state" and frame["brief"]:
            # A brief view (protocol 4) leaves out what the previous view said: fill it in, so
            # frames and state hold whole views (raw keeps the frame as sent).
            assert self.state is not None, "a brief state came before any whole one"
            frame["view"] = {**self.state["view"], **frame["view"]}
        self.frames.append(frame)
        if frame["type"] == "state":
            self.state = frame
        elif frame["type"] == "room":
            if self.room is not None and self.room["code"] != frame["code"]:
                self.state = None  # another room's states start afresh
            self.room = frame
        return frame

    async def expect(self, *types: str, timeout: float = 10.0) -> Frame:
        """Read frames until one of ``types`` arrives (earlier frames are kept in ``frames``)."""
        while True:
            frame = await self.recv(timeout)
            if frame["type"] in types:
                return frame

    async def request(self, timeout: float = 10.0, **message: Any) -> Frame:
        """Send a message with a fresh id and read until the frame answering it."""
        message.setdefault("id", random.getrandbits(30))
        await self.send(**message)
        return await self.answer(message["id"], timeout)

    async def answer(self, id: int, timeout: float = 10.0) -> Frame:
        """Read until the frame answering request ``id`` (an error left over from play, such as
        a stale move's refusal, is not it)."""
        while True:
            frame = await self.recv(timeout)
            if frame.get("id") == id:
                return frame

    def my_turn(self) -> bool:
        view = self.state["view"] if self.state else None
        return bool(view and view["seat"] in view["waiting_for"] and view["legal"])

    async def close(self) -> None:
        await self.ws.close()


async def play_randomly(
    client: WireClient, rng: random.Random, *, until: str = "match_over", code: str | None = None
) -> None:
    """Make a random legal move whenever waited for, until the view reaches ``until``.

    Starts from the last state already read, if it is this client's move. ``until="show"``
    stops at the first deal's show even when no one is waited for in it (without muggins the
    show is counted at once, so no state's phase is ``show``: its ``hand_scored`` events are).
    With ``code``, states of another room (a room left behind, told again as it was when the
    player left) are passed over: the server sends a room before its states.
    """
    frame = client.state
    while True:
        elsewhere = code is not None and (client.room is None or client.room["code"] != code)
        if frame is not None and frame["type"] == "state" and not elsewhere:
            view = frame["view"]
            if view["phase"] in (until, "match_over") or (
                until == "show"
                and any(line["event"]["type"] == "hand_scored" for line in frame.get("events", ()))
            ):
                return
            if view["seat"] in view["waiting_for"] and view["legal"]:
                await client.send(**rng.choice(view["legal"]))
        frame = await client.recv()


def game_overs(frames: list[Frame]) -> list[Frame]:
    """The game ends told in these frames (protocol 3: inside the state of the step)."""
    return [f["game_over"] for f in frames if f["type"] == "state" and f.get("game_over")]


def event_lines(frames: list[Frame]) -> list[Frame]:
    """The events (``{event, text}``) told in these frames, in order."""
    return [line for f in frames if f["type"] == "state" for line in f.get("events", ())]
