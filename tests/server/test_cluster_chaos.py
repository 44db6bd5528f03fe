"""Chaos: three node processes on one redis-server, many games, nodes killed and frozen.

Every player is the project's own client link (client.connection.Connection) given the three
node URLs, so it moves on by itself when its node dies (SIGKILL) or hangs (SIGSTOP). Each move is
sent for the state it answers, and the test keeps every move sent, with that state's ``seq``,
and every answer. At the end Redis's logs must show that:

- every game finished;
- each stored move is one its seat sent for exactly that ``seq`` (the action at log index ``i``
  answers state ``i + 1``): no move applied twice, none applied at a later turn than it named;
- no player was told a move failed (an ``error`` answering it, other than ``unconfirmed``, which
  says the outcome is unknown) that Redis stored: a move is known by its seq and key (its seat and
  ``id``), as the server stores it, so a later move of the same cards is another move. A move
  told it failed and then sent again (same id and seq, on a new link) may be stored by that retry.

The normal suite runs a short version (8 games to 61, one node frozen for 10 s, a node killed
every 3 s); ``--run-slow`` runs the full one (40 games to 121).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from cluster_nodes import Node
from redis_helpers import RedisServer

from muggins.client.connection import Connection, LinkStatus
from muggins.server.cluster.redis_store import RedisStore
from muggins.server.store.games import move_key
from muggins.shared.actions import Action, Discard, GameOptions
from muggins.shared.protocol import (
    CreateRoom,
    Error,
    JoinRoom,
    Room,
    RoomOptions,
    ServerMessage,
    State,
    Welcome,
    from_action,
)

THINK = (0.05, 0.35)
"""Seconds a player thinks before each move, so the games last while the chaos goes on."""


@dataclass
class Seat:
    """One player: the client's link over every node, and a record of every move and answer."""

    name: str
    urls: list[str]
    rng: random.Random
    sent: dict[str, tuple[int, Action]] = field(default_factory=dict)
    """Each move's id: the seq of the state it answered and the move."""
    chosen: dict[int, tuple[str, Action]] = field(default_factory=dict)
    """The id and move sent for each seq (sent again unchanged if that seq comes back)."""
    refused: list[tuple[str, Error, int]] = field(default_factory=list)
    """Each move told it failed: its id, the error, and how many times it had been sent then."""
    sends: Counter[str] = field(default_factory=Counter)
    """How many times each move's id was sent."""
    state: State | None = None
    room: Room | None = None
    welcomes: int = 0
    moved_for: int = -1
    inbox: asyncio.Queue[ServerMessage] = field(default_factory=asyncio.Queue)
    statuses: list[LinkStatus] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.link = Connection(
            self.urls,
            name=self.name,
            on_message=self.inbox.put_nowait,
            on_status=self.statuses.append,
            first_delay=0.05,
            max_delay=0.5,
        )
        self.task = asyncio.get_running_loop().create_task(self.link.run())

    @property
    def over(self) -> bool:
        return self.state is not None and self.state.view.phase == "match_over"

    def take(self, message: ServerMessage) -> None:
        if isinstance(message, State):
            if self.state is None or message.seq >= self.state.seq:
                self.state = message
        elif isinstance(message, Room):
            self.room = message
        elif isinstance(message, Welcome):
            self.welcomes += 1
            # A new link: move again only from the state it brings (the move sent on the old
            # link may have been stored, so the old state is no guide).
            self.moved_for, self.state = -1, None
        elif isinstance(message, Error) and isinstance(message.id, str) and message.id in self.sent:
            self.refused.append((message.id, message, self.sends[message.id]))

    async def next(self, kind: type[ServerMessage], timeout: float = 30) -> ServerMessage:
        async with asyncio.timeout(timeout):
            while True:
                message = await self.inbox.get()
                self.take(message)
                if isinstance(message, kind):
                    return message

    async def play(self) -> None:
        """Move whenever waited for (once per state seq per link) until the match is over,
        after a short think. A move for a seq already answered once is sent again as it was
        (same id, same move): a retry, since the first may have been stored."""
        while not self.over:
            state = self.state
            if state is not None and state.seq > self.moved_for:
                view = state.view
                if view.seat in view.waiting_for and view.legal:
                    await asyncio.sleep(self.rng.uniform(*THINK))
                    id, action = self.chosen.get(state.seq) or (
                        f"{self.name}:{state.seq}",
                        self.rng.choice(view.legal),
                    )
                    if await self.link.send(from_action(action, seq=state.seq, id=id)):
                        self.chosen[state.seq] = (id, action)
                        self.sent[id] = (state.seq, action)
                        self.sends[id] += 1
                        self.moved_for = state.seq
            with contextlib.suppress(TimeoutError):
                self.take(await asyncio.wait_for(self.inbox.get(), 1.0))

    async def close(self) -> None:
        await self.link.close()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(self.task, 5)


async def chaos(nodes: list[Node], *, kill_every: float, freeze_for: float, log: list[str]) -> None:
    """Freeze node 0 (SIGSTOP, SIGCONT ``freeze_for`` seconds later) while SIGKILLing another
    node every ``kill_every`` seconds and starting it again on its port. Runs until cancelled."""
    rng = random.Random(7)
    frozen = nodes[0]
    thawed = asyncio.Event()

    async def freeze() -> None:
        frozen.signal(signal.SIGSTOP)
        log.append("froze node 0")
        try:
            await asyncio.sleep(freeze_for)
        finally:
            frozen.signal(signal.SIGCONT)
            thawed.set()
        log.append(f"thawed node 0 after {freeze_for:.0f} s")

    freezing = asyncio.create_task(freeze())
    try:
        while True:
            await asyncio.sleep(kill_every)
            victim = rng.choice(nodes if thawed.is_set() else nodes[1:])
            index = nodes.index(victim)
            await asyncio.to_thread(victim.kill)
            log.append(f"killed node {index}")
            await asyncio.sleep(0.5)
            await asyncio.to_thread(victim.start)
            log.append(f"restarted node {index}")
    finally:
        freezing.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await freezing
        frozen.signal(signal.SIGCONT)


async def run_chaos(
    redis: RedisServer, tmp_path: Path, *, games: int, target: int, budget: float
) -> None:
    nodes = [Node(redis, log=tmp_path / f"node-{i}.log") for i in range(3)]
    urls = [n.url for n in nodes]
    seats: list[Seat] = []
    rooms: list[str] = []
    happened: list[str] = []
    try:
        # Seat every game before the chaos starts, the two players of each on different nodes.
        for game in range(games):
            first = game % 3
            second = (first + 1) % 3
            pair = [
                Seat(f"P{game}a", urls[first:] + urls[:first], random.Random(2 * game)),
                Seat(f"P{game}b", urls[second:] + urls[:second], random.Random(2 * game + 1)),
            ]
            for seat in pair:
                await seat.next(Welcome)
            options = RoomOptions(game=GameOptions(target=target))
            await pair[0].link.send(CreateRoom(options=options, id="create"))
            room = await pair[0].next(Room)
            assert isinstance(room, Room)
            await pair[1].link.send(JoinRoom(code=room.code, id="join"))
            await pair[1].next(State)
            seats.extend(pair)
            rooms.append(room.code)
        begun = time.monotonic()
        chaos_task = asyncio.create_task(
            chaos(nodes, kill_every=3.0, freeze_for=10.0, log=happened)
        )
        try:
            async with asyncio.timeout(budget):
                await asyncio.gather(*(s.play() for s in seats))
        finally:
            chaos_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await chaos_task
        took = time.monotonic() - begun
        told_failed = await check(redis, rooms, seats)
        moves = sum(len(s.sent) for s in seats)
        reconnects = sum(s.welcomes - 1 for s in seats)
        refused = Counter(e.code for s in seats for _, e, _ in s.refused)
        print(
            f"{games} games to {target} in {took:.0f} s: {moves} moves sent, {reconnects} "
            f"reconnects, refusals {dict(refused)}; chaos: {', '.join(happened)}"
        )
        assert not told_failed, "\n".join(told_failed)
    finally:
        for seat in seats:
            await seat.close()
        for node in nodes:
            await asyncio.to_thread(node.stop)


async def check(redis: RedisServer, rooms: list[str], seats: list[Seat]) -> list[str]:
    """Assert every game finished and each stored move is one its seat sent, for the seq it is
    stored at; return the moves a player was told failed although Redis stored them.

    Moves are matched by their key (seat and ``id``, as the server stores them) and seq, never
    by their cards: the same cards sent again under a new ``id`` are another move.
    """
    store = RedisStore(redis.url)
    try:
        records = [await store.load_match(code, 1) for code in rooms]
    finally:
        await store.close()
    told_failed = []
    for index, record in enumerate(records):
        assert record is not None and record.finished is not None, f"game {rooms[index]} unfinished"
        assert len(record.tags) == len(record.actions), f"{record.id}: a move stored untagged"
        pair = seats[2 * index : 2 * index + 2]
        by_key = {
            move_key(seat, id): (seat, id) for seat, player in enumerate(pair) for id in player.sent
        }
        log = record.actions
        stored: set[tuple[int | None, str | None]] = set()
        for i, ((seat, action), tag) in enumerate(zip(log, record.tags, strict=True)):
            seq, key = tag
            assert (seq, key) not in stored, f"{record.id}: move {tag} stored twice"
            stored.add((seq, key))
            assert key in by_key, f"{record.id}: action {i} ({seat}: {action}) has key {key}"
            sender, id = by_key[key]
            sent_seq, sent_action = pair[sender].sent[id]
            assert (sender, sent_seq, sent_action) == (seat, seq, action), (
                f"{record.id}: action {i} ({seat}: {action} at seq {seq}) is not what {key} "
                f"sent ({sender}: {sent_action} at seq {sent_seq})"
            )
            assert seq is not None and in_place(log, i, seq), (
                f"{record.id}: action {i} ({seat}: {action}) was sent for seq {seq}, not {i + 1}"
            )
        for seat, player in enumerate(pair):
            for id, error, sends in player.refused:
                if error.code == "unconfirmed":
                    continue  # "the outcome is unknown": not a report that it failed
                if player.sends[id] > sends:
                    continue  # sent again after the answer; that later attempt may be stored
                seq, _ = player.sent[id]
                if (seq, move_key(seat, id)) in stored:
                    told_failed.append(
                        f"{record.id}: {player.name} was told {error.code} ({error.message}) "
                        f"for move {id!r}, which Redis stored at seq {seq}"
                    )
    return told_failed


def in_place(log: tuple[tuple[int, Action], ...], i: int, seq: int) -> bool:
    """Whether log entry ``i`` may answer the state ``seq``: it is that state's next action, or
    a discard made from that state while the other seat's discard was stored first (both lay
    away at once, so two discards answer the same state)."""
    if seq == i + 1:
        return True
    if seq != i or seq < 1:
        return False
    seat, action = log[i]
    other, earlier = log[i - 1]
    return isinstance(action, Discard) and isinstance(earlier, Discard) and other != seat


async def test_chaos_short(redis_server: RedisServer, tmp_path: Path) -> None:
    """Three nodes, 8 games to 61; one node frozen 10 s, a node killed every 3 s: every game
    finishes, each stored move was sent for its exact seq, no stored move was reported failed."""
    await run_chaos(redis_server, tmp_path, games=8, target=61, budget=150)


@pytest.mark.slow
@pytest.mark.timeout(1200)  # its games' own budget is 900 s, plus seating 80 players
async def test_chaos_full(redis_server: RedisServer, tmp_path: Path) -> None:
    """Three nodes, 40 games to 121; one node frozen 10 s, a node killed every 3 s: the same."""
    await run_chaos(redis_server, tmp_path, games=40, target=121, budget=900)
