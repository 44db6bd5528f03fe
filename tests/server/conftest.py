"""Servers on free ports for the server tests, and a redis-server for the cluster tests."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace

import pytest
from pg_helpers import postgres  # noqa: F401 (a fixture, for the PostgreSQL tests)
from redis_helpers import redis_server  # noqa: F401 (a fixture, for the cluster tests)

from muggins.server.app import Server, running_server
from muggins.server.config import ServerConfig

TEST_CONFIG = ServerConfig(
    port=0, memory=True, bot_delay=0.0, grace=0.3, sweep_interval=3600, rate=10_000, burst=10_000,
    max_per_address=10_000, rooms_per_minute=1e6, rooms_per_minute_per_address=1e6,
    registrations_per_hour=1e6, reads_per_second=1e6,
)  # fmt: skip
"""Tests make rooms and connections from one address far faster than people do: the limits on
that are lifted here, and tested where they are set on purpose."""


@pytest.fixture
def config() -> ServerConfig:
    return TEST_CONFIG


@pytest.fixture
async def server(config: ServerConfig) -> AsyncIterator[Server]:
    async with running_server(config) as running:
        yield running


def with_options(**changes: object) -> ServerConfig:
    return replace(TEST_CONFIG, **changes)  # type: ignore[arg-type]
