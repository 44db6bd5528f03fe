"""Abuse: a flooding client and a reader that never reads are cut off; nobody else notices.

The server keeps to its production limits here (20 messages a second, bursts of 40): each
message of a flood gets a ``rate_limited`` error with its ``id``, then a close with 1008, and
the flooder's game is still there to resume. A client that asks for large answers and never
reads them is disconnected once its bounded send buffer is full; while it lasts, what the
server holds for it stays bounded. Meanwhile another room plays a whole game. (How much other
rooms' latency moves under abuse is a timing figure: bench/load.py measures it, not this test.)
"""

from __future__ import annotations

import asyncio
import json
import random
import socket
import time
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import Any

import pytest
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import CloseCode
from wire_client import WireClient

from muggins.server.app import Server, running_server
from muggins.server.config import ServerConfig
from muggins.server.net.connection import Connection
from muggins.shared.protocol import PROTOCOL_VERSION

LIMITED = ServerConfig(port=0, memory=True, bot_delay=0.0, grace=0.3, sweep_interval=3600)
SEND_BUFFER = 48 * 1024
SOCKET_BUFFER = 8 * 1024
WRITE_BOUND = 256 * 1024
"""Bytes a connection's transport may hold: the write high-water mark plus one large frame."""


@pytest.fixture
async def limited() -> AsyncIterator[Server]:
    async with running_server(LIMITED) as server:
        yield server


async def paced_game(url: str, seed: int) -> list[str]:
    """Two players play one game to 61 at a pace within the rate limit; return error codes."""
    alice, bob = await WireClient.open(url, name="Ann"), await WireClient.open(url, name="Ben")
    room = await alice.request(type="create_room", options={"game": {"target": 61}})
    await bob.request(type="join_room", code=room["code"])
    rng = random.Random(seed)
    errors: list[str] = []

    async def play(client: WireClient) -> None:
        pending = None
        while True:
            frame = await client.recv(timeout=30)
            if frame["type"] == "error":
                errors.append(frame["code"])
            if frame.get("id") is not None and frame["id"] == pending:
                pending = None
            if frame["type"] != "state":
                continue
            view = frame["view"]
            if view["phase"] == "match_over":
                return
            if pending is None and view["seat"] in view["waiting_for"] and view["legal"]:
                await asyncio.sleep(0.07)
                pending = rng.getrandbits(30)
                await client.send(**rng.choice(view["legal"]), id=pending)

    await asyncio.gather(play(alice), play(bob))
    await alice.close()
    await bob.close()
    return errors


async def test_a_flooder_is_warned_then_closed_and_can_resume_its_game(limited: Server) -> None:
    """Past the burst: rate_limited per message, then 1008; others unaffected; the seat survives."""
    other = asyncio.ensure_future(paced_game(limited.url, 1))
    flooder = await WireClient.open(limited.url, name="Flood")
    await flooder.request(type="create_room", options={"game": {"target": 61}})
    await flooder.request(type="seat_bot", level="random")
    for n in range(400):
        await flooder.send(type="play", card="5H", id=n)
    codes: list[str] = []
    limited_ids: list[int] = []
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            frame = await flooder.recv(timeout=15)
            if frame["type"] == "error":
                codes.append(frame["code"])
                if frame["code"] == "rate_limited":
                    limited_ids.append(frame["id"])
    assert closed.value.rcvd is not None
    assert closed.value.rcvd.code == CloseCode.POLICY_VIOLATION
    assert codes.count("rate_limited") == LIMITED.flood_close_after
    assert None not in limited_ids and limited_ids == sorted(limited_ids)
    answered = len([c for c in codes if c != "rate_limited"])
    assert answered <= LIMITED.burst + 20, "more messages were served than the limit allows"
    assert await other == []
    back = await WireClient.open(limited.url, hello=False)
    welcome = await back.hello("Flood", token=flooder.token)
    assert welcome["type"] == "welcome" and welcome["room"] is not None
    await back.expect("state")
    view = back.state["view"] if back.state else {}
    assert view.get("phase") not in (None, "match_over")


async def slow_socket(url: str) -> socket.socket:
    """A TCP socket with a tiny receive buffer, so a reader that stops reading backs up fast."""
    host, port = url.removeprefix("ws://").rsplit(":", 1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    return sock


async def test_a_reader_that_never_reads_is_dropped_with_bounded_buffers(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Answers pile up unread: kernel, transport and queue stay within bounds, then it is closed."""
    worst = {"queued": 0, "buffer": 0, "kernel": 0}
    send = Connection.send

    def watched(self: Connection, *args: Any, **kwargs: Any) -> None:
        send(self, *args, **kwargs)
        worst["queued"] = max(worst["queued"], self.queued)
        transport = self.ws.transport
        if transport is not None:
            worst["buffer"] = max(worst["buffer"], transport.get_write_buffer_size())
            sock = transport.get_extra_info("socket")
            if sock is not None:
                worst["kernel"] = max(
                    worst["kernel"], sock.getsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF)
                )

    monkeypatch.setattr(Connection, "send", watched)
    config = replace(
        LIMITED, rate=10_000, burst=10_000, send_buffer=SEND_BUFFER, socket_buffer=SOCKET_BUFFER
    )
    async with running_server(config) as server:
        other = asyncio.ensure_future(paced_game(server.url, 2))
        alice = await WireClient.open(server.url, name="Alice")
        created = await alice.request(type="create_room")
        await alice.request(type="seat_bot", level="random")
        room = server.lobby.find(created["code"])
        url = server.url
        connections = len(server.connections) + 1
        slow = await connect(url, sock=await slow_socket(url), max_queue=1, compression=None)
        await slow.send(f'{{"type": "hello", "name": "Slow", "protocol": {PROTOCOL_VERSION}}}')
        spectate = f'{{"type": "spectate", "code": "{created["code"]}"}}'
        for n in range(20_000):
            try:
                await slow.send(spectate)
            except (ConnectionClosed, OSError):
                break  # the server has dropped it
            if n % 20 == 0:
                await asyncio.sleep(0.001)
                if len(server.connections) < connections:
                    break
        for _ in range(300):
            if len(server.connections) < connections:
                break
            await asyncio.sleep(0.1)
        assert len(server.connections) < connections, "the slow reader was never disconnected"
        assert not room.spectators
        assert worst["queued"] > SEND_BUFFER // 2, "the send buffer never filled: vacuous"
        assert worst["queued"] <= SEND_BUFFER
        assert worst["buffer"] <= WRITE_BOUND
        assert 0 < worst["kernel"] <= 2 * SOCKET_BUFFER, "Linux doubles SO_SNDBUF, no more"
        assert await other == []
        pong = await alice.request(type="ping")
        assert pong["type"] == "pong"
        slow.transport.abort()


async def test_a_reader_that_stops_reading_is_cut_after_the_slow_reader_limit() -> None:
    """Frames that wait slow_reader seconds for a stalled reader: closed, long before 30 s."""
    config = replace(LIMITED, rate=10_000, burst=10_000, slow_reader=1.0, socket_buffer=4096)
    async with running_server(config) as server:
        alice = await WireClient.open(server.url, name="Alice")
        created = await alice.request(type="create_room")
        await alice.request(type="seat_bot", level="random")
        room = server.lobby.find(created["code"])
        connections = len(server.connections) + 1
        url = server.url
        slow = await connect(url, sock=await slow_socket(url), max_queue=1, compression=None)
        await slow.send(f'{{"type": "hello", "name": "Slow", "protocol": {PROTOCOL_VERSION}}}')
        spectate = f'{{"type": "spectate", "code": "{created["code"]}"}}'
        for _ in range(60):  # a few hundred kB of answers: more than the buffers, far from the cap
            await slow.send(spectate)
        await asyncio.sleep(0.2)
        [backlogged] = [c for c in room.spectators if isinstance(c, Connection) and c.queue]
        assert backlogged.queued < config.send_buffer, "the byte bound, not the time, would cut"
        started = time.monotonic()
        while len(server.connections) >= connections:
            assert time.monotonic() - started < 10, "the stalled reader was never cut"
            await asyncio.sleep(0.05)
        assert time.monotonic() - started < config.slow_reader + 6
        slow.transport.abort()


async def test_frames_queued_for_a_reader_that_fell_behind_arrive_whole_as_text() -> None:
    """Answers queued while a reader's socket was full (the writer task's path, not the direct
    write) reach it in order, as text frames of the same JSON, once it reads again."""
    config = replace(LIMITED, rate=10_000, burst=10_000, socket_buffer=4096)
    async with running_server(config) as server:
        alice = await WireClient.open(server.url, name="Alicé")
        created = await alice.request(type="create_room")
        await alice.request(type="seat_bot", level="random")
        room = server.lobby.find(created["code"])
        url = server.url
        slow = await connect(url, sock=await slow_socket(url), max_queue=None, compression=None)
        await slow.send(f'{{"type": "hello", "name": "Slöw", "protocol": {PROTOCOL_VERSION}}}')
        slow.transport.pause_reading()
        asked = 40
        for n in range(asked):
            await slow.send(f'{{"type": "spectate", "code": "{created["code"]}", "id": {n}}}')
        for _ in range(100):
            queued = [c for c in room.spectators if isinstance(c, Connection) and c.queue]
            if queued:
                break
            await asyncio.sleep(0.02)
        assert queued, "nothing waited in the queue: the test would not cover it"
        slow.transport.resume_reading()
        answered: list[int] = []
        while len(answered) < asked:
            frame = await asyncio.wait_for(slow.recv(), 10)
            assert isinstance(frame, str), "a queued frame arrived as binary"
            message = json.loads(frame)
            if message["type"] == "room" and message["id"] is not None:
                assert message["seats"][0]["name"] == "Alicé"
                answered.append(message["id"])
        assert answered == list(range(asked))
        await slow.close()
