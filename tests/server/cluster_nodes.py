"""Cluster test helpers: server nodes in this process on one redis-server, and game drivers."""

from __future__ import annotations

import contextlib
import random
from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from dataclasses import replace

from redis_helpers import RedisServer
from websockets.exceptions import ConnectionClosed
from wire_client import WireClient

from server.app import Server, running_server
from server.cluster.redis_store import RedisStore
from server.config import ServerConfig
from shared.match import Match


def node_config(redis: RedisServer, **changes: object) -> ServerConfig:
    config = ServerConfig(
        port=0,
        redis=redis.url,
        bot_delay=0.0,
        grace=0.3,
        sweep_interval=3600,
        rate=1e4,
        burst=10**4,
    )
    return replace(config, **changes)  # type: ignore[arg-type]


@contextlib.asynccontextmanager
async def nodes(redis: RedisServer, count: int, **changes: object) -> AsyncIterator[list[Server]]:
    async with AsyncExitStack() as stack:
        yield [
            await stack.enter_async_context(running_server(node_config(redis, **changes)))
            for _ in range(count)
        ]


async def stored_log(redis: RedisServer, code: str) -> Match:
    store = RedisStore(redis.url)
    try:
        number = await store.current_match(code)
        record = await store.load_match(code, number)
    finally:
        await store.close()
    assert record is not None
    return Match.replay(record.options, record.seed, record.actions)


async def read_all(client: WireClient) -> None:
    """Keep reading a client's frames (into ``client.frames``) until its connection closes."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            await client.recv(timeout=60)


async def settle(clients: list[WireClient], seq: int) -> None:
    """Read until every client has seen the state after action ``seq``."""
    for client in clients:
        while client.state is None or client.state["seq"] < seq:
            await client.recv()


async def advance(
    clients: list[WireClient], rng: random.Random, until: object, *, limit: int = 400
) -> int:
    """Random legal moves, one at a time, until ``until(state of clients[0])``; returns seq."""
    await settle(clients, 1)
    assert clients[0].state is not None
    seq: int = clients[0].state["seq"]
    for _ in range(limit):
        await settle(clients, seq)
        if until(clients[0].state):  # type: ignore[operator]
            return seq
        mover = next(c for c in clients if c.my_turn())
        assert mover.state is not None
        await mover.send(**rng.choice(mover.state["view"]["legal"]))
        seq += 1
    raise AssertionError("the condition never came")


def pegging_choice(state: dict[str, object] | None) -> bool:
    """Alice is on turn in the play with at least two cards she may play."""
    assert state is not None
    view = state["view"]
    assert isinstance(view, dict)
    return bool(
        view["phase"] == "play" and view["seat"] in view["waiting_for"] and len(view["legal"]) >= 2
    )


async def passing_turn(redis: RedisServer, code: str) -> list[dict[str, object]]:
    """Seat 0's legal moves after which seat 0 is no longer waited for (so any two conflict)."""
    match = await stored_log(redis, code)
    moves = []
    for action in match.legal_actions(0):
        after = Match.replay(match.options, match.seed, [*match.log, (0, action)])
        if 0 not in after.waiting_for():
            moves.append(action.model_dump(mode="json"))
    return moves
