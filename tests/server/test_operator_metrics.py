"""What an operator watches in ``/metrics``: every series there before any traffic (each label at
0), and the figures moving as players connect, sign in, fail to, flood, and play."""

from __future__ import annotations

import asyncio
import random
import urllib.error
import urllib.request
from dataclasses import replace
from pathlib import Path

from conftest import TEST_CONFIG
from prometheus_client.parser import text_string_to_metric_families
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed, InvalidStatus
from wire_client import WireClient, play_randomly

from muggins.server.app import Server, running_server
from muggins.server.runtime.metrics import REFUSALS, SIGN_IN_REFUSALS, client_message_types
from muggins.shared.build import build, version
from muggins.shared.protocol import PROTOCOL_VERSION

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]


def scrape(server: Server) -> Samples:
    """Every sample of ``/metrics``, fetched over HTTP as Prometheus does."""
    with urllib.request.urlopen(f"http://127.0.0.1:{server.port}/metrics", timeout=5) as reply:
        text = reply.read().decode()
    return {
        (sample.name, tuple(sorted(sample.labels.items()))): sample.value
        for family in text_string_to_metric_families(text)
        for sample in family.samples
    }


def value(samples: Samples, name: str, **labels: str) -> float:
    return samples[(name, tuple(sorted(labels.items())))]


GAUGES = (
    "muggins_games_in_progress",
    "muggins_players_connected",
    "muggins_players_signed_in",
    "muggins_stored_rooms_open",
    "muggins_queue_length",
    "muggins_review_backlog",
    "muggins_connections",
    "muggins_rooms",
)


async def test_every_series_is_there_before_any_traffic(tmp_path: Path) -> None:
    """Process, build, games, players, queue, backlog, latency and every refusal reason: at 0."""
    config = replace(TEST_CONFIG, memory=False, db=tmp_path / "muggins.db")
    async with running_server(config) as server:
        samples = await asyncio.to_thread(scrape, server)
    for name in GAUGES:
        assert value(samples, name) == 0, name
    assert value(samples, "muggins_ready") == 1
    info = {"version": version(), "build": build(), "protocol": str(PROTOCOL_VERSION)}
    assert value(samples, "muggins_build_info", **info) == 1
    for name in ("process_cpu_seconds_total", "process_resident_memory_bytes",
                 "process_open_fds", "process_start_time_seconds"):  # fmt: skip
        assert value(samples, name) > 0, name
    for reason in REFUSALS:
        assert value(samples, "muggins_connections_refused_total", reason=reason) == 0
    for reason in SIGN_IN_REFUSALS:
        assert value(samples, "muggins_sign_ins_refused_total", reason=reason) == 0
    for kind in client_message_types():
        assert value(samples, "muggins_messages_total", type=kind) == 0
    for code in ("storage", "rate_limited", "bad_credentials", "internal"):
        assert value(samples, "muggins_errors_total", code=code) == 0
    for name in ("muggins_moves_total", "muggins_rate_limit_closes_total",
                 "muggins_action_seconds_count", "muggins_store_ping_errors_total"):  # fmt: skip
        assert value(samples, name) == 0, name
    assert value(samples, "muggins_store_ping_seconds_count") >= 1  # asked once at start


async def test_the_figures_move_as_players_come_sign_in_and_play(tmp_path: Path) -> None:
    """Players, sign-ins, a lock-out, a flood, a refused connection, moves and a finished
    match each show in the figure an operator would watch."""
    config = replace(
        TEST_CONFIG, memory=False, db=tmp_path / "muggins.db", max_per_address=3,
        flood_close_after=3, rate=1.0, burst=200,
    )  # fmt: skip
    async with running_server(config) as server:
        ann = await WireClient.open(server.url, name="Ann")
        await ann.request(type="register", name="Ann", password="long enough")
        bob = await WireClient.open(server.url, name="Bob")
        await bob.request(type="register", name="Bob", password="long enough")
        room = await ann.request(type="create_room", options={"game": {"target": 61}})
        await bob.request(type="join_room", code=room["code"])
        await ann.expect("state")
        samples = await asyncio.to_thread(scrape, server)
        assert value(samples, "muggins_players_connected") == 2
        assert value(samples, "muggins_players_signed_in") == 2
        assert value(samples, "muggins_games_in_progress") == 1
        rng = random.Random(1)
        await asyncio.gather(play_randomly(ann, rng), play_randomly(bob, rng))
        await server.census.count()
        samples = await asyncio.to_thread(scrape, server)
        assert value(samples, "muggins_games_in_progress") == 0
        moves = value(samples, "muggins_moves_total")
        assert moves > 20 and value(samples, "muggins_action_seconds_count") == moves
        assert value(samples, "muggins_review_backlog") == 1  # no reviewer runs here
        assert value(samples, "muggins_stored_rooms_open") == 1
        # A third connection from this address is the last allowed; a fourth is refused (429).
        eve = await WireClient.open(server.url, name="Eve")
        try:
            await connect(server.url)
            raise AssertionError("a fourth connection from one address was let in")
        except InvalidStatus as refused:
            assert refused.response.status_code == 429
        for n in range(6):
            await eve.request(type="sign_in", name="Ann", password=f"guess {n}")
        samples = await asyncio.to_thread(scrape, server)
        assert value(samples, "muggins_sign_ins_refused_total", reason="bad_credentials") == 5
        assert value(samples, "muggins_sign_ins_refused_total", reason="locked_out") == 1
        assert value(samples, "muggins_connections_refused_total", reason="per_address") == 1
        await eve.close()
        flood = await WireClient.open(server.url, name="Flood")
        try:
            for _ in range(400):
                await flood.send(type="ping")
            while True:
                await flood.recv()
        except ConnectionClosed:
            pass
        samples = await asyncio.to_thread(scrape, server)
        assert value(samples, "muggins_rate_limit_closes_total") == 1


def get(port: int, path: str, **headers: str) -> tuple[int, bytes]:
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers=headers)
    try:
        with urllib.request.urlopen(request, timeout=5) as reply:
            return int(reply.status), reply.read()
    except urllib.error.HTTPError as error:
        return int(error.code), error.read()


async def test_metrics_have_their_own_port_and_are_not_served_through_a_proxy() -> None:
    """--metrics-port serves /metrics (and the health checks, no game); the public port serves
    /metrics to this machine only, not to a request a proxy passed on."""
    config = replace(TEST_CONFIG, metrics_port=0)
    async with running_server(config) as server:
        internal = server.metrics_port
        assert internal is not None and internal != server.port
        status, body = await asyncio.to_thread(get, internal, "/metrics")
        assert status == 200 and b"muggins_build_info" in body
        assert (await asyncio.to_thread(get, internal, "/readyz"))[0] == 200
        assert (await asyncio.to_thread(get, internal, "/"))[0] == 404
        assert (await asyncio.to_thread(get, server.port, "/metrics"))[0] == 200
        proxied = await asyncio.to_thread(
            get, server.port, "/metrics", **{"X-Forwarded-For": "203.0.113.9"}
        )
        assert proxied[0] == 404 and b"muggins_" not in proxied[1]
