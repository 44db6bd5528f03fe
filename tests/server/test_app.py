"""The listener's hygiene: hello and idle timeouts, allowed origins, TLS, the connection cap."""

from __future__ import annotations

import asyncio
import ssl
import subprocess
import time
from pathlib import Path

import pytest
from conftest import with_options
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from wire_client import WireClient

from muggins.server.app import running_server


async def test_a_connection_that_never_says_hello_is_closed() -> None:
    """No hello within hello_timeout: the server closes the socket with 1008."""
    async with running_server(with_options(hello_timeout=0.2)) as server:
        client = await WireClient.open(server.url, hello=False)
        with pytest.raises(ConnectionClosed) as closed:
            await client.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008


async def test_a_silent_player_is_closed_after_the_idle_timeout_and_not_before() -> None:
    """Every frame restarts the idle clock; silence for idle_timeout closes with 1001."""
    async with running_server(with_options(idle_timeout=0.6)) as server:
        client = await WireClient.open(server.url, name="Quiet")
        for _ in range(4):  # 1.2 s in all, but never 0.6 s of silence
            await asyncio.sleep(0.3)
            assert (await client.request(type="ping"))["type"] == "pong"
        started = time.monotonic()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await client.recv(timeout=5)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1001
        assert time.monotonic() - started > 0.3  # not before a whole idle_timeout of silence


async def test_only_allowed_browser_origins_may_connect() -> None:
    """With --allowed-origin, other browser origins get HTTP 403; non-browser clients pass."""
    config = with_options(allowed_origins=("https://cards.example",))
    async with running_server(config) as server:
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.url, origin="https://evil.example")  # type: ignore[arg-type]
        assert refused.value.response.status_code == 403
        async with connect(server.url, origin="https://cards.example") as ws:  # type: ignore[arg-type]
            await ws.send('{"type": "ping"}')
            assert "pong" in str(await ws.recv())
        plain = await WireClient.open(server.url, name="Cli")
        assert (await plain.request(type="ping"))["type"] == "pong"


async def test_tls_serves_wss(tmp_path: Path) -> None:
    """With a certificate and key the server speaks wss:// and plays as usual."""
    cert, key = tmp_path / "cert.pem", tmp_path / "key.pem"
    subprocess.run(
        ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
         "-subj", "/CN=localhost", "-keyout", str(key), "-out", str(cert)],
        check=True, capture_output=True,
    )  # fmt: skip
    async with running_server(with_options(certfile=cert, keyfile=key)) as server:
        assert server.url.startswith("wss://")
        trust = ssl.create_default_context(cafile=str(cert))
        trust.check_hostname = False
        async with connect(server.url, ssl=trust) as ws:
            await ws.send('{"type": "hello", "name": "Tess", "protocol": 4}')
            assert '"welcome"' in str(await ws.recv())


async def test_connections_past_the_cap_are_turned_away() -> None:
    """Past max_connections the HTTP upgrade gets 503; /healthz still answers."""
    async with running_server(with_options(max_connections=2)) as server:
        first = await WireClient.open(server.url, name="One")
        second = await WireClient.open(server.url, name="Two")
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.url)
        assert refused.value.response.status_code == 503
        await first.close()
        await second.close()


async def test_connections_past_the_per_address_cap_are_turned_away() -> None:
    """Past max_per_address from one address the upgrade gets 429; a closed one frees a place."""
    async with running_server(with_options(max_per_address=3)) as server:
        open_ = [await WireClient.open(server.url, name=f"P{n}") for n in range(3)]
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.url)
        assert refused.value.response.status_code == 429
        assert server.per_address == {"127.0.0.1": 3}
        await open_[0].close()
        for _ in range(100):
            if server.per_address["127.0.0.1"] < 3:
                break
            await asyncio.sleep(0.02)
        fourth = await WireClient.open(server.url, name="P3")
        assert fourth.token is not None
        for client in (*open_[1:], fourth):
            await client.close()


async def test_behind_a_trusted_proxy_the_forwarded_address_is_counted() -> None:
    """From a trusted proxy the last X-Forwarded-For hop is the address; from others, the peer."""
    proxied = with_options(max_per_address=2, trusted_proxies=("127.0.0.0/8",))
    async with running_server(proxied) as server:
        for n in range(4):  # two clients behind the proxy, two connections each: all admitted
            headers = {"X-Forwarded-For": f"203.0.113.9, 198.51.100.{n % 2}"}
            await connect(server.url, additional_headers=headers)
        await asyncio.sleep(0.05)
        assert server.per_address == {"198.51.100.0": 2, "198.51.100.1": 2}
        with pytest.raises(InvalidStatus) as refused:
            await connect(server.url, additional_headers={"X-Forwarded-For": "198.51.100.1"})
        assert refused.value.response.status_code == 429
    async with running_server(with_options(max_per_address=2)) as server:
        for n in range(2):  # an untrusted peer cannot pick its address with the header
            await connect(server.url, additional_headers={"X-Forwarded-For": f"192.0.2.{n}"})
        with pytest.raises(InvalidStatus):
            await connect(server.url, additional_headers={"X-Forwarded-For": "192.0.2.7"})


async def test_rooms_past_the_cap_are_refused() -> None:
    """Past max_rooms, create_room gets server_full and nothing is created."""
    async with running_server(with_options(max_rooms=1)) as server:
        one = await WireClient.open(server.url, name="One")
        two = await WireClient.open(server.url, name="Two")
        assert (await one.request(type="create_room"))["type"] == "room"
        refused = await two.request(type="create_room")
        assert refused["type"] == "error" and refused["code"] == "server_full"
        assert len(server.lobby.rooms) == 1


def test_json_logs_are_one_object_per_line_with_their_fields() -> None:
    """--log-json writes each record as a JSON object carrying its extra fields."""
    import json
    import logging

    from muggins.server.runtime.logs import JsonFormatter

    record = logging.makeLogRecord(
        {"name": "muggins.room", "levelname": "INFO", "msg": "match started", "room": "ABCDEF"}
    )
    entry = json.loads(JsonFormatter().format(record))
    assert entry["message"] == "match started" and entry["room"] == "ABCDEF"
    assert entry["level"] == "info" and entry["time"].endswith("Z")
