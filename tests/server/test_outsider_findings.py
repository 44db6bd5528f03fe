"""What an outside attacker found, each over real sockets: replays as a denial of service, the
computer's name, look-alike names, lock-outs, registrations, sign-in timing, guests and seats,
rate farming, big ids, HTTP methods and headers. Each test failed on the server before the fix."""

from __future__ import annotations

import asyncio
import json
import random
import urllib.request
from collections.abc import AsyncIterator, Callable, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from cluster_nodes import node_config
from conftest import TEST_CONFIG, with_options
from redis_helpers import RedisServer, redis_flush, running_redis
from websockets.asyncio.client import connect
from wire_client import Frame, WireClient, play_randomly

from muggins.server.app import Server, running_server

PASSWORD = "correct horse"
PROXIED = with_options(trusted_proxies=("127.0.0.1",))
"""Clients name their address in X-Forwarded-For, as behind a proxy."""


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with running_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def server(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Server]:
    """A server keeping everything in memory, in SQLite, or a cluster node on a redis-server."""
    config = TEST_CONFIG
    if request.param == "sqlite":
        config = replace(config, memory=False, db=tmp_path / "muggins.db")
    elif request.param == "redis":
        redis: RedisServer = request.getfixturevalue("redis_server")
        await redis_flush(redis)
        config = node_config(redis)
    async with running_server(config) as running:
        yield running


async def from_address(url: str, address: str, name: str) -> WireClient:
    """A client whose address, as the server counts it, is ``address``."""
    ws = await connect(url, max_size=2**22, additional_headers={"X-Forwarded-For": address})
    client = WireClient(ws, name=name)
    await client.hello(name)
    return client


async def registered_from(url: str, address: str, name: str) -> WireClient:
    """A client whose address is ``address``, with a new account ``name``."""
    client = await from_address(url, address, name)
    made = await client.request(type="register", name=name, password=PASSWORD)
    assert made["type"] == "account", made
    return client


async def recorded_unrated(client: WireClient, game: str, opponent: str) -> None:
    """Once settled, ``game`` is the only one in ``client``'s history, not rated, and
    ``opponent``'s rating did not move."""
    while not (history := await client.request(type="history"))["games"]:
        pass  # settled just after the players are told the end
    assert [(g["game"], g["rated"]) for g in history["games"]] == [(game, False)]
    profile = await client.request(type="profile", name=opponent)
    assert profile["rating"]["rating"] == 1500.0 and profile["rating"]["games"] == 0


async def register(client: WireClient, name: str) -> Frame:
    return await client.request(type="register", name=name, password=PASSWORD)


async def finished_game(server: Server) -> str:
    alice = await WireClient.open(server.url, name="Alice")
    created = await alice.request(type="create_room", options={"game": {"target": 61}})
    await alice.request(type="seat_bot", level="random")
    await play_randomly(alice, random.Random(5))
    await alice.close()
    return f"{created['code']}-1"


async def test_a_flood_of_replays_is_refused_past_the_budget_and_built_once() -> None:
    """Three connections of one address ask for a replay 30 times at once each: past the
    per-connection and per-address budget they get rate_limited (cheaply, with their id); the
    replay is built once and every answer carries its own request's id."""
    config = with_options(reads_per_second=2.0, send_buffer=64 * 1024 * 1024)
    async with running_server(config) as server:
        game = await finished_game(server)
        flooders = [await WireClient.open(server.url, name=f"f{n}") for n in range(3)]

        async def flood(client: WireClient, base: int) -> list[Frame]:
            async def read() -> list[Frame]:
                return [await client.expect("game", "error") for _ in range(30)]

            reading = asyncio.create_task(read())
            for n in range(30):
                await client.send(type="game", game=game, steps=True, id=base + n)
            return await reading

        answers = await asyncio.gather(*(flood(c, 1000 * (k + 1)) for k, c in enumerate(flooders)))
        frames = [frame for answer in answers for frame in answer]
        served = [f for f in frames if f["type"] == "game"]
        refused = [f for f in frames if f["type"] == "error"]
        assert {f["code"] for f in refused} == {"rate_limited"}
        assert 0 < len(served) <= 20 + 3 and len(refused) == 90 - len(served)
        assert len({f["id"] for f in frames}) == 90  # every answer with its own request's id
        assert all(f["steps"] and f["game"] == game for f in served)
        assert server.lobby.accounts.records.built == 1


@pytest.mark.parametrize("name", ["Сomputer (expert)", "C0mputer (expert)", "COMPUTER"])
async def test_a_name_that_folds_to_the_computer_is_refused(server: Server, name: str) -> None:
    """With a Cyrillic С, a zero for the o, or in capitals: bad_name for a guest and an account."""
    client = await WireClient.open(server.url, hello=False)
    welcome = await client.hello(name)
    assert welcome["type"] == "error" and welcome["code"] == "bad_name", welcome
    other = await WireClient.open(server.url, name="Someone")
    reply = await register(other, name)
    assert reply["type"] == "error" and reply["code"] == "bad_name", reply


async def test_dotless_i_dotted_capital_i_and_accents_fold_into_one_name(server: Server) -> None:
    """After Alice: Alıce, ALİCE and Alíce are the same name (name_taken)."""
    alice = await WireClient.open(server.url, name="x")
    assert (await register(alice, "Alice"))["type"] == "account"
    other = await WireClient.open(server.url, name="y")
    for name in ("Alıce", "ALİCE", "Alíce"):
        reply = await register(other, name)
        assert reply["type"] == "error" and reply["code"] == "name_taken", (name, reply)


@pytest.mark.parametrize("name", ["Ann (2)", "Ann (guest)"])
async def test_the_marks_the_server_adds_are_refused_in_names(server: Server, name: str) -> None:
    """ "Ann (2)" is how a second Ann is shown, "(guest)" marks a guest: nobody may pick them."""
    client = await WireClient.open(server.url, hello=False)
    assert (await client.hello(name))["code"] == "bad_name"
    other = await WireClient.open(server.url, name="Someone")
    assert (await register(other, name))["code"] == "bad_name"


async def test_a_guest_cannot_take_a_registered_name(server: Server) -> None:
    """A guest saying hello as a registered name is shown as that name marked (guest), at the
    table too; signing in to the account then gives the plain name."""
    owner = await WireClient.open(server.url, name="x")
    assert (await register(owner, "Alice"))["type"] == "account"
    guest = await WireClient.open(server.url, hello=False)
    welcome = await guest.hello("alice")
    assert welcome["name"] == "alice (guest)"
    room = await guest.request(type="create_room")
    assert [s["name"] for s in room["seats"] if s["name"]] == ["alice (guest)"]
    signed = await guest.request(type="sign_in", name="Alice", password=PASSWORD)
    assert signed["type"] == "account" and signed["name"] == "Alice"


async def test_signing_in_to_another_account_while_seated_is_refused(server: Server) -> None:
    """Ann, seated in a game as her account, cannot sign in to Bob's: the seat keeps Ann's name
    and rating together."""
    bob = await WireClient.open(server.url, name="x")
    assert (await register(bob, "Bob"))["type"] == "account"
    ann = await WireClient.open(server.url, name="y")
    assert (await register(ann, "Ann"))["type"] == "account"
    created = await ann.request(type="create_room")
    carl = await WireClient.open(server.url, name="Carl")
    await carl.request(type="join_room", code=created["code"])
    refused = await ann.request(type="sign_in", name="Bob", password=PASSWORD)
    assert refused["type"] == "error" and refused["code"] == "illegal", refused
    seats = server.lobby.find(created["code"]).seats
    assert seats[0].player is not None and seats[0].player.name == "Ann"


async def test_a_stranger_cannot_lock_someone_out_nor_lock_an_unregistered_name() -> None:
    """Five wrong passwords for Alice from one address lock that address out of Alice only:
    Alice signs in from hers. Failures for a name nobody has lock nothing."""
    async with running_server(PROXIED) as server:
        owner = await from_address(server.url, "198.51.100.7", "x")
        assert (await register(owner, "Alice"))["type"] == "account"
        attacker = await from_address(server.url, "203.0.113.9", "y")
        codes = [
            (await attacker.request(type="sign_in", name="Alice", password=f"guess {n}"))["code"]
            for n in range(6)
        ]
        assert codes == ["bad_credentials"] * 5 + ["rate_limited"]
        alice = await from_address(server.url, "198.51.100.7", "z")
        reply = await alice.request(type="sign_in", name="Alice", password=PASSWORD)
        assert reply["type"] == "account", reply
        for n in range(6):
            wrong = await attacker.request(type="sign_in", name="Nobody", password=f"x {n}")
            assert wrong["code"] == "bad_credentials"
        newcomer = await from_address(server.url, "203.0.113.9", "w")
        assert (await register(newcomer, "Nobody"))["type"] == "account"
        again = await from_address(server.url, "203.0.113.9", "v")
        reply = await again.request(type="sign_in", name="Nobody", password=PASSWORD)
        assert reply["type"] == "account", reply


async def test_registrations_are_limited_per_address() -> None:
    """The fourth account from one address in an hour is refused before any hashing; another
    address may still register."""
    async with running_server(replace(PROXIED, registrations_per_hour=3.0)) as server:
        client = await from_address(server.url, "203.0.113.1", "x")
        for n in range(3):
            made = await register(client, f"Maker{n}")
            assert made["type"] == "account", made
            await client.request(type="sign_out")
        refused = await register(client, "Maker3")
        assert refused["type"] == "error" and refused["code"] == "rate_limited", refused
        elsewhere = await from_address(server.url, "203.0.113.2", "y")
        assert (await register(elsewhere, "Maker3"))["type"] == "account"


async def test_a_wrong_name_costs_the_same_password_check_as_a_wrong_password(
    server: Server, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each sign-in with a wrong name or a wrong password runs exactly one password check."""
    import muggins.server.accounts.service as service

    checks: list[str | None] = []
    real: Callable[[str, str | None], bool] = service.verify_password

    def counted(password: str, stored: str | None) -> bool:
        checks.append(stored)
        return real(password, stored)

    monkeypatch.setattr(service, "verify_password", counted)
    client = await WireClient.open(server.url, name="x")
    assert (await register(client, "Alice"))["type"] == "account"
    other = await WireClient.open(server.url, name="y")
    wrong_password = await other.request(type="sign_in", name="Alice", password="not it at all")
    assert len(checks) == 1
    wrong_name = await other.request(type="sign_in", name="Nobody", password="not it at all")
    assert len(checks) == 2 and checks[1] is None
    assert wrong_name["message"] == wrong_password["message"]


async def rated_match(ann: WireClient, bob: WireClient) -> Frame:
    """Ann's rated room, Bob joins and resigns at once: the rating notice Ann gets."""
    room = await ann.request(type="create_room", options={"rated": True})
    assert room["type"] == "room", room
    assert (await bob.request(type="join_room", code=room["code"]))["type"] == "room"
    while bob.state is None or not bob.state["view"]["legal"]:
        await bob.recv()
    await bob.send(type="resign")
    while True:
        frame = await ann.expect("notice")
        if frame["code"] == "rating":
            return frame


async def leave_both(ann: WireClient, bob: WireClient) -> None:
    for client in (ann, bob):
        assert (await client.request(type="leave"))["type"] == "left"
        client.state = None


async def rating(client: WireClient, name: str) -> float:
    reply = await client.request(type="profile", name=name)
    return float(reply["rating"]["rating"])


async def test_rated_results_between_one_address_or_one_pair_too_often_do_not_count() -> None:
    """Two accounts on one address: the result is recorded but moves no rating, and the room is
    told why. From two addresses the first three matches of a pair in 24 hours count, the
    fourth does not."""
    async with running_server(PROXIED) as server:
        ann = await from_address(server.url, "203.0.113.5", "x")
        bob = await from_address(server.url, "203.0.113.5", "y")
        assert (await register(ann, "Ann"))["type"] == "account"
        assert (await register(bob, "Bob"))["type"] == "account"
        notice = await rated_match(ann, bob)
        assert notice["text"] == "Not rated: both players connected from one address"
        assert await rating(ann, "Ann") == 1500.0
        history = await ann.request(type="history")
        assert [g["rated"] for g in history["games"]] == [False]

        await leave_both(ann, bob)
        carl = await from_address(server.url, "198.51.100.20", "z")
        assert (await register(carl, "Carl"))["type"] == "account"
        ratings = []
        for _ in range(4):
            notice = await rated_match(ann, carl)
            ratings.append(await rating(ann, "Ann"))
            await leave_both(ann, carl)
        assert notice["text"] == (
            "Not rated: these two played 3 rated matches in the last 24 hours"
        )
        assert ratings[0] > 1500.0 and ratings[0] < ratings[1] < ratings[2] == ratings[3]


async def test_a_huge_id_is_echoed_in_the_error(server: Server) -> None:
    """An id of 2**63 (or more) on a message that is refused comes back as sent, not null."""
    client = await WireClient.open(server.url, name="x")
    for big in (2**63, 2**64 + 5):
        await client.send_raw(json.dumps({"type": "no such thing", "id": big}))
        error = await client.expect("error")
        assert error["id"] == big


async def raw_http(port: int, request: bytes) -> bytes:
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(request)
    await writer.drain()
    async with asyncio.timeout(10):
        answer = await reader.read()
    writer.close()
    return answer


@pytest.mark.parametrize(
    "request_bytes",
    [
        b"POST / HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
        b"PUT /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n",
        b"DELETE /healthz HTTP/1.1\r\nHost: x\r\n\r\n",
        b"OPTIONS / HTTP/1.1\r\nHost: x\r\n\r\n",
    ],
)
async def test_a_request_other_than_get_is_answered_405(
    server: Server, request_bytes: bytes
) -> None:
    """Every method but GET and HEAD gets 405 with Allow, not a silent close or a page."""
    answer = await raw_http(server.port, request_bytes)
    assert answer.startswith(b"HTTP/1.1 405 "), answer[:80]
    assert b"\r\nAllow: GET, HEAD\r\n" in answer


async def test_a_request_sent_byte_by_byte_is_still_read(server: Server) -> None:
    """The method check waits for enough bytes: a GET arriving one byte at a time is served."""
    reader, writer = await asyncio.open_connection("127.0.0.1", server.port)
    for byte in b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n":
        writer.write(bytes([byte]))
        await writer.drain()
    async with asyncio.timeout(10):
        answer = await reader.read()
    writer.close()
    assert answer.startswith(b"HTTP/1.1 200 ")


@pytest.mark.parametrize("path", ["/healthz", "/metrics"])
async def test_health_and_metrics_say_nosniff(server: Server, path: str) -> None:
    """/healthz and /metrics carry X-Content-Type-Options: nosniff like every page."""

    def fetch() -> str | None:
        with urllib.request.urlopen(f"http://127.0.0.1:{server.port}{path}") as response:
            return response.headers.get("X-Content-Type-Options")

    assert await asyncio.to_thread(fetch) == "nosniff"
