"""``/readyz``: a node whose store (SQLite's thread, or Redis) does not answer is not ready within
a few seconds and ready again once it does, with one log line each way and none in between."""

from __future__ import annotations

import asyncio
import threading
import time
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest
from cluster_nodes import Node
from conftest import TEST_CONFIG
from redis_helpers import running_redis
from websockets.asyncio.client import connect
from websockets.exceptions import InvalidStatus

from muggins.server.app import running_server
from muggins.server.store.sqlite_games import SqliteStore


def status(port: int, path: str) -> int:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=5) as reply:
            return int(reply.status)
    except urllib.error.HTTPError as error:
        return int(error.code)


def wait_for(port: int, path: str, code: int) -> None:
    deadline = time.monotonic() + 60  # a guard only: readiness changes within about 3 s
    while status(port, path) != code:
        assert time.monotonic() < deadline, f"{path} never answered {code}"
        time.sleep(0.05)


def test_a_node_is_not_ready_while_redis_is_down_and_says_so_once(tmp_path: Path) -> None:
    """Redis killed: /readyz 503 (healthz still 200); Redis back: 200; one line each way."""
    log = tmp_path / "node.log"
    with running_redis(tmp_path) as redis:
        node = Node(redis, log=log)
        try:
            wait_for(node.port, "/readyz", 200)
            redis.stop(kill=True)
            wait_for(node.port, "/readyz", 503)
            assert status(node.port, "/healthz") == 200
            time.sleep(3)  # the outage goes on: each failed Redis call would log a line
            redis.start()
            wait_for(node.port, "/readyz", 200)
        finally:
            node.stop()
    lines = log.read_text().splitlines()
    [down] = [n for n, line in enumerate(lines) if "not ready: Redis does not answer" in line]
    [back] = [n for n, line in enumerate(lines) if "ready again: Redis answers" in line]
    between = lines[down + 1 : back]
    assert len(between) <= 1, between  # at most one line per 30 s gets through the outage
    assert "log lines held back" in lines[back]


async def test_a_store_whose_thread_is_stuck_is_not_ready(tmp_path: Path) -> None:
    """SQLite's thread held up (a stuck disk): 503 after the probe's timeout; freed: 200."""
    config = replace(TEST_CONFIG, memory=False, db=tmp_path / "muggins.db")
    async with running_server(config) as server:
        assert isinstance(server.store, SqliteStore)
        await asyncio.to_thread(wait_for, server.port, "/readyz", 200)
        stuck = threading.Event()
        server.store._executor.submit(stuck.wait)
        try:
            await asyncio.to_thread(wait_for, server.port, "/readyz", 503)
            with pytest.raises(InvalidStatus) as refused:  # a balancer tries another node
                await connect(server.url)
            assert refused.value.response.status_code == 503
        finally:
            stuck.set()
        await asyncio.to_thread(wait_for, server.port, "/readyz", 200)


async def test_a_stopping_node_is_not_ready() -> None:
    """From the moment a stop begins, /readyz answers 503 (the balancer drains the node)."""
    async with running_server(TEST_CONFIG) as server:
        assert await asyncio.to_thread(status, server.port, "/readyz") == 200
        server.readiness.stopping = True
        assert await asyncio.to_thread(status, server.port, "/readyz") == 503


async def test_a_healthy_cluster_node_asks_redis_nothing_for_readiness(tmp_path: Path) -> None:
    """While heartbeats are answered, readiness takes them as Redis answering: no PING of its
    own (an idle node's only request stays its heartbeat); /readyz still answers 200."""
    from collections import Counter
    from collections.abc import Awaitable, Callable
    from typing import Any

    from cluster_nodes import node_of, nodes

    with running_redis(tmp_path) as redis:
        async with nodes(redis, 1) as (node,):
            store = node_of(node).redis
            asked: Counter[str] = Counter()
            plain = store._call

            async def counting(what: str, make: Callable[[], Awaitable[Any]]) -> Any:
                asked[what] += 1
                return await plain(what, make)

            store._call = counting  # type: ignore[method-assign]
            while asked["heartbeat"] < 4:  # four rounds of the node's clock
                await asyncio.sleep(0.1)
            assert asked["ping"] == 0, asked
            assert await asyncio.to_thread(status, node.port, "/readyz") == 200
