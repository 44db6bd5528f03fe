"""The load generator: rooms of two random players over real sockets, run in a worker process.

A :class:`Fleet` opens its rooms (hello, create_room, join_room), waits for the go signal, then
every player answers each ``state`` that waits for it with a random legal move, at once (flat
out) or after ``pace`` seconds with +/-50 % jitter (human pace). A finished match is followed
by a rematch, so rooms keep playing for the whole window. Each move carries an ``id``; its round
trip ends when the ``state`` answering that id arrives. Only ``state`` and ``error`` frames are
parsed: the others are recognised by their ``type`` near the start of the text.

The players' sockets are :class:`~lean_socket.LeanSocket` (websockets' sans-I/O client protocol
under a plain :class:`asyncio.Protocol`); :mod:`abusers` are what ``--abuse`` runs beside them.
"""

from __future__ import annotations

import asyncio
import gc
import json
import random
import resource
import time
from array import array
from dataclasses import dataclass, field
from multiprocessing.synchronize import Event as MpEvent
from typing import Any

from lean_socket import LeanSocket

from muggins.shared.protocol.routing import moved_to, room_url

PROTOCOL = 4
SETUP_AT_ONCE = 40


def raise_nofile() -> int:
    """Lift the soft open-files limit to the hard one; return the limit now in force."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def frame_type(text: bytes) -> bytes:
    """The ``type`` of a server frame without parsing it (``id`` and ``type`` come first)."""
    start = text.find(b'"type":"', 0, 80)
    if start < 0:
        return b""
    start += 8
    return text[start : text.index(b'"', start)]


@dataclass
class Plan:
    url: str
    rooms: int
    pace: float
    """Seconds between a player's moves (with jitter); 0 plays flat out."""
    target: int = 121
    seed: int = 0
    report_every: float = 1.0
    deflate: bool = False
    host_urls: tuple[str, ...] = ()
    """Cluster mode: room ``n``'s host connects to ``host_urls[n % len]``..."""
    guest_urls: tuple[str, ...] = ()
    """...and its guest to ``guest_urls[n % len]`` (``url`` when empty)."""
    idle: bool = False
    """Seat the rooms, then never move: the players stay connected and idle."""
    route: bool = False
    """The guest names the room in its URL (``?room=CODE``) and follows a node that sends it
    on to the room's owner (close code 4001), as the clients do."""


@dataclass
class Tally:
    actions: int = 0
    bytes: int = 0
    """Bytes of the frames received while counting (the server's sending, per action)."""
    frames: int = 0
    errors: int = 0
    refused: dict[str, int] = field(default_factory=dict)
    dropped: int = 0
    games: int = 0
    latencies: array[float] = field(default_factory=lambda: array("d"))
    """Pairs: when the move was sent (epoch seconds), then its round trip in ms."""
    recent: list[float] = field(default_factory=list)


class Player:
    def __init__(self, fleet: Fleet, ws: LeanSocket, rng: random.Random) -> None:
        self.fleet = fleet
        self.ws = ws
        self.rng = rng
        self.view: dict[str, Any] | None = None
        self.seq = 0
        self.pending: tuple[int, float, bool, float] | None = None
        self.timer: asyncio.TimerHandle | None = None
        self.next_id = rng.getrandbits(24)
        self.counts_games = False

    def read(self) -> None:
        """Handle the socket's messages from now on (those already received first)."""
        self.ws.attach(self.on_message, self.on_lost)

    def on_message(self, message: bytes) -> None:
        if self.fleet.counting:
            self.fleet.tally.bytes += len(message)
            self.fleet.tally.frames += 1
        kind = frame_type(message)
        if kind == b"state":
            self.on_state(json.loads(message))
        elif kind == b"error":
            self.on_error(json.loads(message))

    def on_lost(self) -> None:
        if not self.fleet.stopping:
            self.fleet.tally.dropped += 1

    def on_state(self, frame: dict[str, Any]) -> None:
        view = frame["view"]
        if frame.get("brief") and self.view is not None:
            view = {**self.view, **view}  # protocol 4: the parts a brief view leaves out
        self.view = view
        if frame.get("game_over") is not None and self.counts_games:
            self.fleet.tally.games += 1
        self.seq = frame["seq"]
        pending = self.pending
        if pending is not None and frame.get("id") == pending[0]:
            self.pending = None
            if pending[2] and self.fleet.counting:
                took = (time.perf_counter() - pending[1]) * 1000
                tally = self.fleet.tally
                tally.actions += 1
                tally.latencies.append(pending[3])
                tally.latencies.append(took)
                tally.recent.append(took)
        if view["phase"] == "match_over":
            if self.fleet.playing:
                self.send({"type": "rematch"})
            return
        self.maybe_act()

    def on_error(self, frame: dict[str, Any]) -> None:
        tally = self.fleet.tally
        tally.errors += 1
        code = frame.get("code", "?")
        tally.refused[code] = tally.refused.get(code, 0) + 1
        if self.pending is not None and frame.get("id") == self.pending[0]:
            self.pending = None
            self.maybe_act()

    def maybe_act(self) -> None:
        view = self.view
        if not self.fleet.playing or self.pending is not None or self.timer is not None:
            return
        if view is None or view["seat"] not in view["waiting_for"] or not view["legal"]:
            return
        pace = self.fleet.plan.pace
        if pace <= 0:
            self.act()
        else:
            delay = pace * self.rng.uniform(0.5, 1.5)
            self.timer = asyncio.get_running_loop().call_later(delay, self.act)

    def act(self) -> None:
        self.timer = None
        view = self.view
        if not self.fleet.playing or view is None or self.pending is not None:
            return
        if view["seat"] not in view["waiting_for"] or not view["legal"]:
            return
        self.next_id += 1
        self.pending = (self.next_id, time.perf_counter(), self.fleet.counting, time.time())
        self.send({**self.rng.choice(view["legal"]), "seq": self.seq, "id": self.next_id})

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send(json.dumps(message))


class Fleet:
    def __init__(self, plan: Plan, worker: int) -> None:
        self.plan = plan
        self.worker = worker
        self.rng = random.Random(plan.seed * 1000 + worker)
        self.players: list[Player] = []
        self.tally = Tally()
        self.playing = False
        self.counting = False
        self.stopping = False
        self.setup_failures: dict[str, int] = {}

    def _url(self, n: int, *, guest: bool) -> str:
        urls = self.plan.guest_urls if guest else self.plan.host_urls
        return urls[n % len(urls)] if urls else self.plan.url

    async def _open(self, name: str, url: str) -> tuple[LeanSocket, dict[str, Any]]:
        for _ in range(3):
            async with asyncio.timeout(120):
                ws = await LeanSocket.open(url, deflate=self.plan.deflate)
            ws.send(json.dumps({"type": "hello", "name": name, "protocol": PROTOCOL}))
            try:
                welcome = json.loads(await ws.recv())
                break
            except ConnectionError:
                close = ws.protocol.close_rcvd
                target = moved_to(close.code, close.reason) if close is not None else None
                if target is None:
                    raise
                url = target  # another node owns the room: go there, as the clients do
        else:
            raise RuntimeError("sent on from node to node")
        if welcome["type"] != "welcome":
            raise RuntimeError(f"hello refused: {welcome}")
        return ws, welcome

    async def _room(self, n: int) -> None:
        host_ws, _ = await self._open(f"H{self.worker}-{n}", self._url(n, guest=False))
        options = {"game": {"target": self.plan.target}, "private": True, "spectators": False}
        host_ws.send(json.dumps({"type": "create_room", "options": options, "id": 1}))
        while True:
            frame = json.loads(await host_ws.recv())
            if frame.get("id") == 1:
                break
        if frame["type"] != "room":
            raise RuntimeError(f"create_room refused: {frame}")
        host = Player(self, host_ws, random.Random(self.rng.getrandbits(32)))
        host.counts_games = True
        self.players.append(host)
        host.read()
        guest_url = self._url(n, guest=True)
        if self.plan.route:
            guest_url = room_url(guest_url, frame["code"])
        guest_ws, _ = await self._open(f"G{self.worker}-{n}", guest_url)
        guest = Player(self, guest_ws, random.Random(self.rng.getrandbits(32)))
        self.players.append(guest)
        guest.read()
        guest_ws.send(json.dumps({"type": "join_room", "code": frame["code"]}))

    async def setup(self, progress: Any) -> None:
        gate = asyncio.Semaphore(SETUP_AT_ONCE)

        async def gated(n: int) -> None:
            async with gate:
                try:
                    await self._room(n)
                except Exception as failure:
                    kind = type(failure).__name__
                    self.setup_failures[kind] = self.setup_failures.get(kind, 0) + 1

        async def report() -> None:
            while True:
                await asyncio.sleep(self.plan.report_every)
                progress(("ramp", self.worker, len(self.players)))

        reporter = asyncio.ensure_future(report())
        await asyncio.gather(*(gated(n) for n in range(self.plan.rooms)))
        reporter.cancel()
        await asyncio.sleep(0.5)

    def start(self) -> None:
        """Go: every player waited for moves (after its pace's jitter); counting starts later."""
        self.playing = True
        for player in self.players:
            player.maybe_act()

    def stop(self) -> None:
        self.playing = False
        self.counting = False
        self.stopping = True
        for player in self.players:
            if player.timer is not None:
                player.timer.cancel()

    def take_recent(self) -> list[float]:
        recent, self.tally.recent = self.tally.recent, []
        return recent

    def abort(self) -> None:
        for player in self.players:
            player.ws.abort()


def percentile(sorted_values: list[float] | array[float], fraction: float) -> float:
    if not sorted_values:
        return float("nan")
    index = min(len(sorted_values) - 1, max(0, round(fraction * (len(sorted_values) - 1))))
    return sorted_values[index]


async def _run(
    plan: Plan, worker: int, queue: Any, go: MpEvent, count: MpEvent, stop: MpEvent
) -> None:
    fleet = Fleet(plan, worker)
    await fleet.setup(queue.put)
    queue.put(("ready", worker, len(fleet.players), fleet.setup_failures))
    while not go.is_set():
        await asyncio.sleep(0.02)
    if not plan.idle:
        fleet.start()
    while not count.is_set():
        await asyncio.sleep(0.02)
    fleet.counting = True
    while not stop.is_set():
        await asyncio.sleep(plan.report_every)
        recent = sorted(fleet.take_recent())
        tally = fleet.tally
        queue.put(
            (
                "progress",
                worker,
                tally.actions,
                tally.errors,
                tally.dropped,
                percentile(recent, 0.99),
                tally.games,
            )
        )
    fleet.stop()
    tally = fleet.tally
    result = {
        "actions": tally.actions,
        "bytes": tally.bytes,
        "frames": tally.frames,
        "errors": tally.errors,
        "refused": tally.refused,
        "dropped": tally.dropped,
        "games": tally.games,
        "latencies": tally.latencies.tobytes(),
        "setup_failures": fleet.setup_failures,
        "players": len(fleet.players),
    }
    queue.put(("done", worker, result))
    fleet.abort()


def worker_main(
    plan: Plan, worker: int, queue: Any, go: MpEvent, count: MpEvent, stop: MpEvent, uvloop: bool
) -> None:
    """Entry point of one load-generating process.

    Its garbage collector is off: a full collection over thousands of players' views would
    stall every socket of the process at once and be counted as the server's latency."""
    gc.disable()
    raise_nofile()
    run = _run(plan, worker, queue, go, count, stop)
    if uvloop:
        import uvloop as uv

        uv.run(run)
    else:
        asyncio.run(run)
