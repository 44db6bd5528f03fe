"""A cluster node under bursts and at shutdown: real sockets, a real redis-server."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import subprocess
import time
from pathlib import Path

from cluster_nodes import Node, nodes
from redis_helpers import RedisServer
from websockets.exceptions import ConnectionClosed
from wire_client import WireClient

BURST = 300
"""Concurrent requests on one node: three times redis-py's default pool of 100 connections."""


async def test_a_burst_beyond_the_pool_waits_instead_of_failing(redis_server: RedisServer) -> None:
    """300 clients ask one node at the same instant while Redis is healthy: no storage error."""
    async with nodes(redis_server, 1) as (node,):
        clients = await asyncio.gather(
            *(WireClient.open(node.url, name=f"P{i}") for i in range(BURST))
        )
        created = await asyncio.gather(
            *(c.request(timeout=30, type="create_room") for c in clients)
        )
        refused = [a for a in created if a["type"] == "error"]
        assert refused == [], f"{len(refused)} of {BURST} creations refused: {refused[0]}"
        codes = [a["code"] for a in created]
        # Each joins the next one's room: a load from Redis, a catch-up and a seat write each.
        joined = await asyncio.gather(
            *(
                c.request(timeout=30, type="join_room", code=codes[(i + 1) % BURST])
                for i, c in enumerate(clients)
            )
        )
        storage = [a for a in joined if a.get("code") == "storage"]
        assert storage == [], f"{len(storage)} of {BURST} joins refused: {storage[0]}"
        await asyncio.gather(*(c.close() for c in clients))


SEATED = 200
"""Players seated on the node being stopped (their presence renewals keep it talking to Redis)."""


async def test_sigterm_stops_a_busy_node_promptly_every_time(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """SIGTERM a node with 200 seated players, three times (the last with Redis frozen): it stops
    accepting within a second, closes its players with 1012, logs "stopped" and exits within its
    deadline."""
    for cycle in range(3):
        log = tmp_path / f"node-{cycle}.log"
        node = Node(redis_server, log=log)
        try:
            clients = await asyncio.gather(
                *(WireClient.open(node.url, name=f"P{i}") for i in range(SEATED))
            )
            await asyncio.gather(*(c.request(timeout=30, type="create_room") for c in clients))
            await asyncio.sleep(2.0 + cycle * 0.3)  # a presence round is under way
            frozen = cycle == 2  # the last time Redis hangs too (frozen with SIGSTOP)
            if frozen:
                redis_server.freeze()
            node.signal(signal.SIGTERM)
            stopped_at = time.monotonic()
            while node.accepting():
                assert time.monotonic() - stopped_at < 1.0, "still accepting 1 s after SIGTERM"
                await asyncio.sleep(0.02)
            codes = await asyncio.gather(*(closed_with(c) for c in clients))
            assert set(codes) == {1012}
            exited = await asyncio.to_thread(wait_exit, node, 20.0)
            assert exited is not None, f"still running 20 s after SIGTERM:\n{log.read_text()}"
            took = time.monotonic() - stopped_at
            text = log.read_text()
            assert exited == 0 and "stopped" in text, text
            print(f"cycle {cycle}: exited after {took:.1f} s")
        finally:
            redis_server.thaw()
            node.stop()


async def closed_with(client: WireClient) -> int | None:
    """Read until the server closes the connection; the close code."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            await client.recv(timeout=30)
    return client.ws.close_code


def wait_exit(node: Node, timeout: float) -> int | None:
    try:
        return node.process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        return None
