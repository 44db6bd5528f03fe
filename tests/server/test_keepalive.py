"""Keepalive pings in batches: a client that answers stays, one that stops answering is closed
with 1011 as websockets' own keepalive would, and each connection is pinged once an interval."""

from __future__ import annotations

import asyncio

import pytest
from conftest import with_options
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed
from websockets.frames import Frame, Opcode
from websockets.protocol import Event

from muggins.server.app import Server, make_server
from muggins.server.net.keepalive import Keepalive


async def started(interval: float, tick: float) -> Server:
    server = make_server(with_options())
    server.keepalive = Keepalive(interval=interval, tick=tick)
    await server.start()
    return server


async def driven_by_hand(interval: float, tick: float) -> Server:
    """A started server whose keepalive makes no rounds of its own: the test calls round()."""
    server = await started(interval, tick)
    assert server.keepalive._task is not None
    server.keepalive._task.cancel()
    return server


async def until(check: object, seconds: float = 10.0) -> None:
    async with asyncio.timeout(seconds):
        while not check():  # type: ignore[operator]
            await asyncio.sleep(0.02)


def pings_heard(client: ClientConnection) -> list[bytes]:
    """The payloads of the pings ``client`` receives (and answers) from now on, in order."""
    heard: list[bytes] = []
    plain = client.process_event

    def process_event(event: Event) -> None:
        if isinstance(event, Frame) and event.opcode is Opcode.PING:
            heard.append(bytes(event.data))
        plain(event)

    client.process_event = process_event  # type: ignore[method-assign]
    return heard


async def test_a_client_that_answers_stays_and_one_that_stops_is_closed_with_1011() -> None:
    server = await started(interval=0.4, tick=0.1)
    try:
        alive = await connect(server.url, ping_interval=None)
        silent = await connect(server.url, ping_interval=None)
        answered = pings_heard(alive)
        await until(lambda: len(server.keepalive) == 2)
        await until(lambda: len(answered) >= 1)
        # The silent client stops reading: its pings stay unread, so no pong goes back.
        silent.transport.pause_reading()
        await until(lambda: server.keepalive.timeouts == 1)
        silent.transport.resume_reading()
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(silent.recv(), 10)
        assert closed.value.rcvd is not None
        assert closed.value.rcvd.code == 1011
        assert closed.value.rcvd.reason == "keepalive ping timeout"
        # The answering client outlived the silent one's timeout by three more pings.
        heard = len(answered)
        await until(lambda: len(answered) >= heard + 3)
        assert server.keepalive.timeouts == 1
        await asyncio.wait_for(await alive.ping(), 10)  # still open both ways
        await alive.close()
        await until(lambda: len(server.keepalive) == 0)
    finally:
        await server.stop()


async def test_each_connection_is_pinged_once_an_interval_in_batches() -> None:
    """Twenty connections opened over several ticks, ten slots: over one round of the slots
    each connection is pinged exactly once, and answering keeps it."""
    server = await driven_by_hand(interval=10.0, tick=1.0)
    keepalive = server.keepalive
    try:
        clients = []
        for n in range(20):
            clients.append(await connect(server.url, ping_interval=None))
            if n % 3 == 2:
                keepalive.round()  # connections open over several ticks
        await until(lambda: len(keepalive) == 20)
        answered = [pings_heard(client) for client in clients]
        for _ in range(10):
            keepalive.round()
        await until(lambda: all(len(pongs) == 1 for pongs in answered))
        await asyncio.sleep(0.2)
        assert [len(pongs) for pongs in answered] == [1] * 20
        keepalive.round()  # the next round starts the second interval: no timeout
        await asyncio.sleep(0.2)
        assert keepalive.timeouts == 0
        for client in clients:
            await client.close()
    finally:
        await server.stop()


async def test_one_connection_whose_ping_fails_does_not_keep_the_others_unpinged(
    caplog: pytest.LogCaptureFixture,
) -> None:
    # One slot: every connection in one batch.
    server = await driven_by_hand(interval=1.0, tick=1.0)
    keepalive = server.keepalive
    try:
        clients = [await connect(server.url, ping_interval=None) for _ in range(3)]
        await until(lambda: len(keepalive) == 3)
        answered = [pings_heard(client) for client in clients]
        broken = next(iter(keepalive._slot_of))

        def refuse(data: bytes) -> None:
            raise RuntimeError("this connection cannot send")

        broken.protocol.send_ping = refuse  # type: ignore[method-assign]
        keepalive.round()
        await until(lambda: sum(len(pongs) for pongs in answered) == 2)
        await asyncio.sleep(0.2)
        assert sorted(len(pongs) for pongs in answered) == [0, 1, 1]
        assert "keepalive ping failed" in caplog.text
        assert keepalive.timeouts == 0 and len(keepalive) == 3
        for client in clients:
            await client.close()
    finally:
        await server.stop()
