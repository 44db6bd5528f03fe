"""Cluster test helpers: server nodes in this process on one redis-server, and game drivers
(:class:`Player`: the client's own reconnecting link, moving by a fixed rule)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import signal
import ssl
import subprocess
import sys
import time
import urllib.request
from collections.abc import AsyncIterator, Callable
from contextlib import AsyncExitStack
from dataclasses import dataclass, field, replace
from pathlib import Path

from redis_helpers import RedisServer, free_port
from websockets.exceptions import ConnectionClosed
from wire_client import Frame, WireClient

from muggins.client.connection import Connection, LinkStatus
from muggins.server.app import Server, running_server
from muggins.server.cluster.lobby import ClusterNode, copy_of
from muggins.server.cluster.redis_store import RedisStore
from muggins.server.cluster.room import RoomCopy
from muggins.server.config import ServerConfig
from muggins.shared.actions import Action
from muggins.shared.match import Match
from muggins.shared.protocol import Error, Room, ServerMessage, State, Welcome, from_action
from muggins.shared.protocol.unpack import Unpacker
from muggins.shared.view import SeatView

ROOT = Path(__file__).resolve().parents[2]

NEVER = 1e12
"""A ``SAFETY_POLL`` no room reaches: each poll pass wakes the rooms of one slice of
SAFETY_POLL / (poll x passes), so 3600 s still woke a room in about 1 of 720 passes."""


class Node:
    """``muggins serve --redis URL`` in its own process (its log in ``log`` if given; with
    ``addressed``, its own address given as ``--node-url``, where other nodes send clients)."""

    def __init__(
        self,
        redis: RedisServer,
        *args: str,
        log: Path | None = None,
        addressed: bool = False,
        tls: tuple[Path, Path] | None = None,
    ) -> None:
        self.port = free_port()
        self.tls = tls
        """A certificate and its key: the node serves wss:// and https://."""
        self.url = f"{'wss' if tls else 'ws'}://127.0.0.1:{self.port}"
        if addressed:
            args = (*args, "--node-url", self.url)
        if tls is not None:
            args = (*args, "--certfile", str(tls[0]), "--keyfile", str(tls[1]))
        self.log = log
        self.command = [
            sys.executable, "-m", "muggins.client.cli", "serve",
            "--host", "127.0.0.1", "--port", str(self.port), "--redis", redis.url,
            "--bot-delay", "0", "--rate", "10000", "--burst", "10000",
            "--max-per-address", "10000", "--rooms-per-minute-per-address", "1000000", *args,
        ]  # fmt: skip
        self.start()

    def start(self) -> None:
        """Start the process (again, on the same port) and wait until it answers /healthz."""
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        output = subprocess.DEVNULL if self.log is None else self.log.open("ab")
        self.process = subprocess.Popen(
            self.command, cwd=ROOT, env=env, stdout=output, stderr=subprocess.STDOUT
        )
        if self.log is not None:
            output.close()  # type: ignore[union-attr]
        deadline = time.monotonic() + 30
        while not self.healthy():
            if self.process.poll() is not None:
                raise RuntimeError(f"node exited with {self.process.returncode}")
            if time.monotonic() > deadline:
                self.process.kill()
                raise RuntimeError("node did not answer /healthz in 30 s")
            time.sleep(0.05)

    def healthy(self) -> bool:
        scheme = "https" if self.tls else "http"
        context = ssl.create_default_context(cafile=str(self.tls[0])) if self.tls else None
        try:
            with urllib.request.urlopen(
                f"{scheme}://127.0.0.1:{self.port}/healthz", timeout=1, context=context
            ) as r:
                return bool(r.status == 200)
        except OSError:
            return False

    def accepting(self) -> bool:
        """Whether the node's port takes a TCP connection."""
        import socket

        try:
            with socket.create_connection(("127.0.0.1", self.port), timeout=0.5):
                return True
        except OSError:
            return False

    def signal(self, signum: int) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signum)

    def kill(self) -> None:
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=10)

    def stop(self) -> None:
        """End the process whatever its state (a frozen one is thawed first)."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)


def connections(port: int) -> int:
    """The open WebSocket connections of the server on ``port``, from its /metrics."""
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=2) as r:
        text = r.read().decode()
    [value] = re.findall(r"^muggins_connections (\S+)$", text, flags=re.M)
    return int(float(value))


async def wait_for(condition: Callable[[], bool], timeout: float = 20.0) -> None:
    """Until ``condition()`` holds (a failure after ``timeout`` seconds)."""
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "the condition never came"
        await asyncio.sleep(0.05)


def second_deal(view: object) -> bool:
    """Whether a player's view is at the second deal or later (where a test pauses play)."""
    return getattr(view, "deal_number", 0) >= 2


def node_of(server: Server) -> ClusterNode:
    """The cluster part of a node's lobby."""
    node = server.lobby.cluster
    assert isinstance(node, ClusterNode)
    return node


def copy_in(server: Server, code: str) -> RoomCopy:
    """Node ``server``'s copy of room ``code`` (held there)."""
    copy = copy_of(server.lobby.rooms[code])
    assert copy is not None
    return copy


async def presence_seen(server: Server, code: str, seat: int) -> RoomCopy:
    """Node ``server``'s copy of room ``code``, once it has seen ``seat``'s presence in Redis."""
    copy = copy_in(server, code)
    async with asyncio.timeout(5):
        while not copy.seen[seat]:
            await asyncio.sleep(0.01)
    return copy


def node_config(redis: RedisServer, **changes: object) -> ServerConfig:
    config = ServerConfig(
        port=0,
        redis=redis.url,
        bot_delay=0.0,
        grace=0.3,
        sweep_interval=3600,
        rate=1e4,
        burst=10**4,
        max_per_address=10_000,
        rooms_per_minute=1e6,
        rooms_per_minute_per_address=1e6,
        registrations_per_hour=1e6,
        reads_per_second=1e6,
    )
    return replace(config, **changes)  # type: ignore[arg-type]


@contextlib.asynccontextmanager
async def nodes(redis: RedisServer, count: int, **changes: object) -> AsyncIterator[list[Server]]:
    async with AsyncExitStack() as stack:
        yield [
            await stack.enter_async_context(running_server(node_config(redis, **changes)))
            for _ in range(count)
        ]


async def alice_and_bob(
    alice_url: str, bob_url: str, *, target: int = 121, settled: bool = True
) -> tuple[WireClient, WireClient, Frame]:
    """Alice (on ``alice_url``) makes a room for a game to ``target`` and Bob (on ``bob_url``)
    joins it; with ``settled``, both have then seen the first state. Returns both and the room
    made."""
    alice = await WireClient.open(alice_url, name="Alice")
    bob = await WireClient.open(bob_url, name="Bob")
    created = await alice.request(type="create_room", options={"game": {"target": target}})
    await bob.request(type="join_room", code=created["code"])
    if settled:
        await settle([alice, bob], 1)
    return alice, bob, created


async def registered(url: str, name: str) -> tuple[WireClient, str]:
    """A client named ``name`` on ``url`` that registered an account of that name, and its id."""
    client = await WireClient.open(url, name=name)
    made = await client.request(type="register", name=name, password="long enough")
    assert made["type"] == "account", made
    return client, str(made["account"])


async def make_admin(redis: RedisServer, account: str) -> None:
    """Make ``account`` an admin, in Redis (as `muggins admin` does)."""
    store = RedisStore(redis.url)
    await store.open()
    try:
        await store.set_role(account, "admin")
    finally:
        await store.close()


async def admin(redis: RedisServer, url: str, name: str) -> WireClient:
    """A signed-in admin on ``url``, who makes the tournaments."""
    client, account = await registered(url, name)
    await make_admin(redis, account)
    return client


async def rated_room(host: WireClient, guest: WireClient, *, target: int = 61) -> Frame:
    """``host`` makes a rated room for a game to ``target`` and ``guest`` joins it: the room."""
    room = await host.request(
        type="create_room", options={"game": {"target": target}, "rated": True}
    )
    await guest.request(type="join_room", code=room["code"])
    return room


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


def choose(view: SeatView) -> Action:
    """A deterministic choice from a seat's own view (the same with or without faults)."""
    return view.legal[(view.deal_number * 7 + len(view.played) * 3 + view.seat) % len(view.legal)]


@dataclass
class Player:
    """A person: the client's reconnecting link, and a hand that moves when it is their turn."""

    name: str
    urls: list[str]
    messages: asyncio.Queue[ServerMessage] = field(default_factory=asyncio.Queue)
    statuses: list[LinkStatus] = field(default_factory=list)
    welcomes: list[Welcome] = field(default_factory=list)
    errors: list[Error] = field(default_factory=list)
    state: State | None = None
    room: Room | None = None
    paused: bool = False
    sent_for: int = -1
    pending: int | None = None
    """The id of the move sent and not answered yet."""
    unpacker: Unpacker = field(default_factory=Unpacker)
    token: str | None = None
    """A seat's token to resume with (a player coming back in a new client)."""
    code: str | None = None
    """The room named in the URL from the first connection (joining by a link)."""

    def __post_init__(self) -> None:
        self.link = Connection(
            self.urls,
            name=self.name,
            token=self.token,
            room=self.code,
            on_message=self.messages.put_nowait,
            on_status=self.statuses.append,
            first_delay=0.05,
            max_delay=0.5,
        )
        self.task = asyncio.get_running_loop().create_task(self.link.run())

    async def next(self, kind: type[ServerMessage], timeout: float = 10) -> ServerMessage:
        async with asyncio.timeout(timeout):
            while True:
                message = await self.messages.get()
                self.take(message)
                if isinstance(message, kind):
                    return message

    def take(self, message: ServerMessage) -> None:
        if self.pending is not None and getattr(message, "id", None) == self.pending:
            self.pending = None
        if isinstance(message, State):
            # Kept with its whole view (a brief one is completed from the previous view).
            whole = self.unpacker.whole(message)
            self.state = message.model_copy(update={"view": whole, "brief": False})
        elif isinstance(message, Room):
            self.room = message
        elif isinstance(message, Welcome):
            self.welcomes.append(message)
            self.sent_for = -1  # after a reconnect, move again from the fresh state
            self.pending = None
        elif isinstance(message, Error):
            self.errors.append(message)

    async def move(self) -> None:
        state = self.state
        if self.paused or self.pending is not None or state is None or state.seq <= self.sent_for:
            return
        view = state.view
        if view.seat in view.waiting_for and view.legal:
            self.sent_for = self.pending = state.seq
            await self.link.send(from_action(choose(view), seq=state.seq, id=state.seq))

    async def play(self, *, pause_when: object = None) -> None:
        """Move whenever waited for until the match is over (or ``pause_when(view)`` holds)."""
        while self.state is None or self.state.view.phase != "match_over":
            if (
                pause_when is not None and self.state is not None and pause_when(self.state.view)  # type: ignore[operator]
            ):
                return
            await self.move()
            self.take(await asyncio.wait_for(self.messages.get(), 10))

    async def close(self) -> None:
        await self.link.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(self.task, 5)


async def close_players(*players: Player | None) -> None:
    """Close each player there is (a test's teardown: None, one never made)."""
    for player in players:
        if player is not None:
            await player.close()
