"""Fuzz at volume: 20,000 frames made from the client schema and broken on purpose (see
fuzz_frames.py), on four connections at once while two other games are played.

Each frame is followed by a ``ping`` probe; the frames before its ``pong`` are that frame's
answers. A frame that is not a valid message must get a documented refusal (``bad_json``,
``bad_message``, ``binary_frame``); a valid one, an answer carrying its ``id``; an oversized one,
the close 1009. Every answer must be a well-formed server message and never ``internal``, the
server must log no traceback and nothing at ERROR, and every game in progress must finish.
``MUGGINS_FUZZ_FRAMES`` changes the number of frames.
"""

from __future__ import annotations

import asyncio
import json
import logging
import os
import random
import time
from collections import Counter
from importlib.resources import files
from typing import Any

import pytest
from fuzz_frames import Frame, FrameMaker, audit_rooms
from pydantic import ValidationError
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from wire_client import WireClient

from muggins.server.app import running_server
from muggins.server.config import ServerConfig
from muggins.shared.protocol import PROTOCOL_VERSION, parse_client, parse_server

SCHEMA: dict[str, Any] = json.loads(
    (files("muggins.shared") / "schema" / "client.json").read_text()
)
CONFIG = ServerConfig(
    port=0, memory=True, bot_delay=0.0, grace=0.3, sweep_interval=3600, rate=10_000, burst=10_000,
    max_per_address=10_000, rooms_per_minute=1e6, rooms_per_minute_per_address=1e6,
)  # fmt: skip
VOLUME = int(os.environ.get("MUGGINS_FUZZ_FRAMES", "20000"))
FUZZERS = 4
REFUSALS = {"bad_json", "bad_message", "binary_frame"}
DOCUMENTED_CLOSES = {1000, 1001, 1008, 1009, 1012, 4000}


class Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class VolumeFuzzer:
    """One connection sending fuzz frames in batches, each followed by a ping probe."""

    def __init__(self, url: str, seed: int) -> None:
        self.url, self.maker, self.rng = url, FrameMaker(SCHEMA, seed), random.Random(seed)
        self.token: str | None = None
        self.view: dict[str, Any] | None = None
        self.room: dict[str, Any] | None = None
        self.seated: list[str] = []
        """Codes of the rooms where this connection held a seat in a running match."""
        self.answered: list[dict[str, Any]] = []
        """The answers to the last frame exchanged."""
        self.sent = self.probes = 0
        self.seq = 0
        self.kinds: Counter[str] = Counter()
        self.closes: list[int] = []

    async def connect(self) -> None:
        self.ws = await connect(self.url, max_size=2**22, compression=None)
        await self.ws.send(
            json.dumps(
                {"type": "hello", "name": "Fuzz", "protocol": PROTOCOL_VERSION, "token": self.token}
            )
        )
        welcome = json.loads(await self.ws.recv())
        if welcome.get("code") == "bad_token" and self.token is not None:
            # A roomless player's token lapses after the grace period (0.3 s here); a reconnect
            # slowed by load is refused in those words and says hello afresh, as documented.
            self.token = None
            await self.ws.close()
            await self.connect()
            return
        assert welcome["type"] == "welcome", welcome
        self.token = welcome["token"]

    async def start(self) -> None:
        await self.connect()
        for message in ({"type": "create_room", "options": {"game": {"target": 61}}},
                        {"type": "seat_bot", "level": "random"}):  # fmt: skip
            await self.exchange([Frame(json.dumps({**message, "id": "setup"}), "valid", "setup")])

    def next_frame(self) -> Frame:
        view = self.view
        if (
            view
            and view["seat"] in view["waiting_for"]
            and view["legal"]
            and self.rng.random() < 0.3
        ):
            move = {**self.rng.choice(view["legal"]), "seq": self.seq, "id": self.maker.fresh_id()}
            return Frame(json.dumps(move), "legal", move["id"])
        return self.maker.frame()

    async def run(self, count: int) -> None:
        await self.start()
        while self.sent < count:
            batch: list[Frame] = []
            while len(batch) < 40 and self.sent + len(batch) < count:
                batch.append(self.next_frame())
                if batch[-1].oversized:
                    break
            # websockets fails the connection as soon as an oversized frame's header arrives,
            # dropping messages read but not yet handled: send that frame on its own.
            if batch[-1].oversized and len(batch) > 1:
                await self.exchange(batch[:-1])
                self.sent += len(batch) - 1
                batch = batch[-1:]
            await self.exchange(batch)
            self.sent += len(batch)
        await self.finish()
        await self.ws.close()

    async def exchange(self, batch: list[Frame]) -> None:
        """Send the batch with a probe after each frame; check each frame's answers."""
        probes = []
        for frame in batch:
            await self.ws.send(frame.text)
            if frame.oversized:
                break
            self.probes += 1
            probes.append(f"probe-{self.probes}")
            await self.ws.send(json.dumps({"type": "ping", "id": probes[-1]}))
        for frame, probe in zip(batch, probes, strict=False):
            self.answered = await self.answers_until(probe)
            self.check(frame, self.answered)
            self.kinds[frame.kind] += 1
        if batch and batch[-1].oversized:
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    self.note(await self.ws.recv())
            assert closed.value.rcvd is not None, "closed without a code"
            self.closes.append(closed.value.rcvd.code)
            assert closed.value.rcvd.code == CloseCode.MESSAGE_TOO_BIG
            self.kinds["big"] += 1
            await self.connect()

    async def answers_until(self, probe: str) -> list[dict[str, Any]]:
        answers = []
        while True:
            try:
                text = await asyncio.wait_for(self.ws.recv(), 20)
            except ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else None
                raise AssertionError(f"the server closed with {code} mid-batch") from closed
            frame = self.note(text)
            if frame["type"] == "pong" and frame["id"] == probe:
                return answers
            answers.append(frame)

    def note(self, text: str | bytes) -> dict[str, Any]:
        assert isinstance(text, str), "the server sends text frames only"
        message = parse_server(text)  # every answer is a well-formed server message
        assert not (message.type == "error" and message.code == "internal"), text
        frame: dict[str, Any] = json.loads(text)
        if frame["type"] == "state" and frame["view"]["seat"] is not None:
            self.view, self.seq = frame["view"], frame["seq"]
        elif frame["type"] == "room" and frame["you"] is not None:
            self.room = frame
            if frame["status"] == "playing":
                self.seated.append(frame["code"])
        elif frame["type"] == "left":
            self.view = None
        return frame

    def check(self, frame: Frame, answers: list[dict[str, Any]]) -> None:
        if isinstance(frame.text, bytes):
            assert [a["code"] for a in answers if a["type"] == "error"] == ["binary_frame"]
            return
        try:
            message = parse_client(frame.text)
        except ValidationError:
            refusals = [a for a in answers if a["type"] == "error" and a["code"] in REFUSALS]
            assert refusals, f"no documented error for {frame.kind} frame {frame.text[:120]!r}"
            return
        if message.id is not None:
            assert any(a.get("id") == message.id for a in answers), (frame, answers)
        else:
            assert answers, f"no answer to {frame.text[:120]!r}"

    async def request(self, message: dict[str, Any]) -> dict[str, Any] | None:
        """Send one message with a fresh id; the answer carrying that id, if any."""
        message = {**message, "id": self.maker.fresh_id()}
        if message["type"] == "resign":
            message["seq"] = self.seq  # the latest state's: a move names the state it answers
        await self.exchange([Frame(json.dumps(message), "valid", message["id"])])
        return next((a for a in self.answered if a.get("id") == message["id"]), None)

    async def finish(self) -> None:
        """Finish every match this connection sat down to: go back to each room in turn (leaving
        the one it is in) and resign game after game until the match is over. Only answers that
        carry the resign's id are read, so no other room's frame is mistaken for this one's."""
        for code in dict.fromkeys(self.seated):
            await self.request({"type": "leave"})
            back = await self.request({"type": "join_room", "code": code})
            if back is None or back["type"] != "room" or back["status"] != "playing":
                continue  # over meanwhile, or closed
            for _ in range(300):
                answer = await self.request({"type": "resign"})
                if answer is not None and answer.get("code") == "stale":
                    self.seq = answer["seq"]  # the computer moved first: resign at the new seq
                    continue
                assert answer is not None and answer["type"] == "state", answer
                if answer["view"]["phase"] == "match_over":
                    break
            else:
                raise AssertionError(f"the match in room {code} never ended")


async def background_pair(url: str, seed: int, stop: asyncio.Event) -> tuple[int, list[Any]]:
    """Two players play matches to 61 until told to stop, then finish the one in progress."""
    alice, bob = await WireClient.open(url, name="Alice"), await WireClient.open(url, name="Bob")
    room = await alice.request(type="create_room", options={"game": {"target": 61}})
    await bob.request(type="join_room", code=room["code"])
    rng, finished, errors = random.Random(seed), [0], []

    async def play(client: WireClient) -> None:
        pending: int | None = None
        while True:
            frame = await client.recv(timeout=30)
            if frame["type"] == "error":
                errors.append(frame)
            if frame.get("id") is not None and frame["id"] == pending:
                pending = None
            if frame["type"] != "state":
                continue
            view = frame["view"]
            if view["phase"] == "match_over":
                if client is alice:
                    finished[0] += 1
                if stop.is_set():
                    return
                await client.send(type="rematch")
            elif pending is None and view["seat"] in view["waiting_for"] and view["legal"]:
                await asyncio.sleep(0.01)  # brisk, but a pace people could keep
                pending = rng.getrandbits(30)
                await client.send(**rng.choice(view["legal"]), id=pending)

    await asyncio.gather(play(alice), play(bob))
    return finished[0], errors


async def test_twenty_thousand_fuzzed_frames_each_get_a_documented_answer() -> None:
    """20,000 schema-made and mutated frames: each answered by a documented error or a
    documented close, no traceback logged, and the games in progress all finish."""
    records = Records()
    logging.getLogger().addHandler(records)
    old_level = logging.getLogger().level
    logging.getLogger().setLevel(logging.INFO)
    started = time.perf_counter()
    try:
        async with running_server(CONFIG) as server:
            stop = asyncio.Event()
            pairs = [asyncio.ensure_future(background_pair(server.url, s, stop)) for s in (1, 2)]
            fuzzers = [VolumeFuzzer(server.url, seed) for seed in range(FUZZERS)]
            await asyncio.gather(*(f.run(VOLUME // FUZZERS) for f in fuzzers))
            stop.set()
            results = await asyncio.gather(*pairs)
            await audit_rooms(server)
    finally:
        logging.getLogger().removeHandler(records)
        logging.getLogger().setLevel(old_level)
    kinds = sum((f.kinds for f in fuzzers), Counter())
    print(f"\n{sum(f.sent for f in fuzzers)} frames in {time.perf_counter() - started:.1f} s: "
          f"{dict(kinds)}")  # fmt: skip
    assert sum(f.sent for f in fuzzers) >= VOLUME
    assert {"surrogate", "deep", "retype", "valid", "legal", "binary", "big"} <= set(kinds)
    assert {code for f in fuzzers for code in f.closes} <= DOCUMENTED_CLOSES
    for finished, errors in results:
        assert finished >= 1 and errors == []
    tracebacks = [r for r in records.records if r.exc_info or r.levelno >= logging.ERROR]
    assert tracebacks == [], [r.getMessage() for r in tracebacks]
