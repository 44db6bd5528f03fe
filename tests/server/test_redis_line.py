"""The script connection (server.cluster.redis_line): commands, timeouts, late replies."""

from __future__ import annotations

import asyncio

import pytest
from redis.exceptions import TimeoutError as RedisTimeoutError

from muggins.server.cluster.redis_line import ScriptLine, pack


def test_pack_writes_each_kind_of_argument() -> None:
    assert pack("GET", b"k\r", 7, 0.5) == (
        b"*4\r\n$3\r\nGET\r\n$2\r\nk\r\r\n$1\r\n7\r\n$3\r\n0.5\r\n"
    )


async def test_a_call_without_answer_times_out_and_its_late_reply_is_dropped() -> None:
    """A reply that comes after its call gave up does not answer the next call."""
    replies: asyncio.Queue[bytes] = asyncio.Queue()

    async def fake_redis(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while await reader.read(4096):
            writer.write(await replies.get())

    server = await asyncio.start_server(fake_redis, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    line = ScriptLine(f"redis://127.0.0.1:{port}/0", timeout=0.2)
    try:
        with pytest.raises(RedisTimeoutError):
            await line._read(("GET", "slow"))  # no retry: the first try's timeout
        replies.put_nowait(b"$4\r\nlate\r\n")  # the first call's answer, after it gave up
        replies.put_nowait(b"$5\r\nfresh\r\n")
        assert await line.read("GET", "next") == "fresh"
    finally:
        await line.close()
        server.close()


async def test_one_timer_fails_each_call_at_its_own_time() -> None:
    """A call that timed out does not take a later call, still within its time, with it."""
    replies: asyncio.Queue[bytes] = asyncio.Queue()

    async def fake_redis(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while await reader.read(4096):
            writer.write(await replies.get())

    server = await asyncio.start_server(fake_redis, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    line = ScriptLine(f"redis://127.0.0.1:{port}/0", timeout=0.4)
    try:
        first = asyncio.ensure_future(line._read(("GET", "slow")))
        await asyncio.sleep(0.2)
        second = asyncio.ensure_future(line._read(("GET", "later")))
        with pytest.raises(RedisTimeoutError):
            await first
        assert not second.done()
        replies.put_nowait(b"$4\r\nlate\r\n")  # the first call's answer, after it gave up
        replies.put_nowait(b"$6\r\nsecond\r\n")
        assert await second == "second"
    finally:
        await line.close()
        server.close()


async def test_a_batch_time_holds_calls_to_go_out_in_one_write() -> None:
    """With ``batch``, calls made in separate turns of the loop reach Redis in one write, and
    each still gets its own reply in order."""
    chunks: list[bytes] = []

    async def fake_redis(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while data := await reader.read(4096):
            chunks.append(data)
            writer.write(b"$1\r\na\r\n" * data.count(b"*2\r\n"))

    server = await asyncio.start_server(fake_redis, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    line = ScriptLine(f"redis://127.0.0.1:{port}/0", timeout=5.0, batch=1.0)
    try:
        await line._connected()
        first = asyncio.ensure_future(line.read("GET", "one"))
        for _ in range(3):  # the first call is made and a few turns pass: held, not sent
            await asyncio.sleep(0)
        second = asyncio.ensure_future(line.read("GET", "two"))
        await asyncio.sleep(0)
        assert chunks == []
        assert await first == "a" and await second == "a"
        assert chunks == [pack("GET", "one") + pack("GET", "two")]
    finally:
        await line.close()
        server.close()
