"""A real server on a free port, a redis-server and Debian's headless Chromium for browser tests.

Outside CI the tests skip, saying so, when no Chromium is installed; with CI=true a missing
Chromium is a failure (.ci/run installs it).
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from cdp import Browser, find_chromium
from redis_helpers import redis_server  # noqa: F401 (a fixture, for the cluster pages)
from site_helpers import site_config

from muggins.server.app import Server, running_server


@pytest.fixture(scope="session")
def chromium() -> str:
    binary = find_chromium()
    if binary is None:
        if os.environ.get("CI"):
            pytest.fail(
                "CI needs Debian's chromium for the browser tests (apt-get install chromium)"
            )
        pytest.skip("no Chromium installed (apt-get install chromium): browser tests skipped")
    return binary


@pytest.fixture
async def browser(chromium: str) -> AsyncIterator[Browser]:
    async with Browser.launch(chromium) as running:
        yield running


@pytest.fixture
async def site(tmp_path: Path) -> AsyncIterator[Server]:
    """A server on a free port keeping games in SQLite, as `muggins serve` does."""
    async with running_server(site_config(tmp_path / "games.db")) as server:
        yield server
