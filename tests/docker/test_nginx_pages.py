"""docker/nginx.conf run by Debian's real nginx in front of a real server: the browser pages and
the WebSocket game both pass through it.

The configuration is the committed file with only the upstream addresses and the listening port
changed to this machine's (the compose service names do not resolve outside Docker).
"""

from __future__ import annotations

import asyncio
import http.client
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from nginx_helpers import nginx_binary, run_shipped
from redis_helpers import free_port
from websockets.asyncio.client import connect

from muggins.server.app import running_server
from muggins.server.config import ServerConfig


@pytest.fixture
async def proxied(tmp_path: Path) -> AsyncIterator[int]:
    """A server on a free port behind nginx with docker/nginx.conf; yields nginx's port."""
    nginx_binary()  # skip (or fail under CI) before starting anything
    config = ServerConfig(port=0, memory=True, bot_delay=0.0)
    async with running_server(config) as server:
        port = free_port()
        # Both of the file's upstreams point at the one server. nginx is started in a thread:
        # it waits for /healthz through nginx, which this event loop's server must answer.
        here = f"127.0.0.1:{server.port}"
        nginx = await asyncio.to_thread(
            run_shipped, tmp_path / "nginx", port=port, upstreams=[here, here]
        )
        try:
            yield port
        finally:
            nginx.stop()


def fetch(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
    conn.request("GET", path)
    response = conn.getresponse()
    found = (response.status, {k.lower(): v for k, v in response.getheaders()}, response.read())
    conn.close()
    return found


async def test_nginx_passes_the_pages_and_the_game_through(proxied: int) -> None:
    """Through nginx: the front page and a room link with their security headers, a script with
    its type, /healthz, and a WebSocket that says hello."""
    status, headers, body = await asyncio.to_thread(fetch, proxied, "/r/KXPWTR")
    assert status == 200 and b"/static/app.js" in body
    assert "script-src 'self'" in headers["content-security-policy"]
    assert f"ws://127.0.0.1:{proxied}" in headers["content-security-policy"]  # nginx keeps Host
    assert headers["x-content-type-options"] == "nosniff"
    status, headers, body = await asyncio.to_thread(fetch, proxied, "/static/app.js")
    assert status == 200 and headers["content-type"].startswith("text/javascript") and body
    assert (await asyncio.to_thread(fetch, proxied, "/healthz"))[2] == b"ok\n"
    async with connect(f"ws://127.0.0.1:{proxied}/", origin=f"http://127.0.0.1:{proxied}") as ws:  # type: ignore[arg-type]
        await ws.send('{"type": "hello", "name": "Via nginx", "protocol": 4}')
        assert '"type":"welcome"' in str(await ws.recv())


async def test_nginx_does_not_serve_the_metrics(proxied: int) -> None:
    """/metrics through the public proxy is 404 (Prometheus reads each node's metrics port)."""
    status, _, body = await asyncio.to_thread(fetch, proxied, "/metrics")
    assert status == 404 and b"muggins_" not in body
