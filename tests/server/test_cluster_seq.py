"""Moves that name their seq, on a cluster: frozen nodes, lost Redis answers, a stopped Redis.

Real ``redis-server`` processes; node processes where a node must be frozen (SIGSTOP/SIGCONT).
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import signal
import time
from collections.abc import Iterator
from dataclasses import replace

import pytest
from cluster_nodes import (
    advance,
    alice_and_bob,
    node_config,
    nodes,
    pegging_choice,
    settle,
    stored_log,
)
from redis_helpers import RedisServer
from test_cluster_failover import Node
from wire_client import WireClient

from muggins.server.app import running_server
from muggins.server.cluster.redis_store import RedisStore
from muggins.server.store.games import MatchRecord, move_key
from muggins.shared.match import Match


@contextlib.contextmanager
def frozen(node: Node) -> Iterator[None]:
    node.process.send_signal(signal.SIGSTOP)
    try:
        yield
    finally:
        node.process.send_signal(signal.SIGCONT)


def card_moves(match: Match, seat: int) -> list[dict[str, object]]:
    return [a.model_dump(mode="json") for a in match.legal_actions(seat) if a.type == "play"]


async def test_a_move_held_by_a_frozen_node_is_stale_when_it_thaws(
    redis_server: RedisServer,
) -> None:
    """A play sent to a node that froze, replayed after the player moved on elsewhere: stale."""
    a, b = Node(redis_server), Node(redis_server)
    try:
        alice, bob, created = await alice_and_bob(a.url, b.url)
        code = created["code"]
        await advance([alice, bob], random.Random(4), pegging_choice)
        assert alice.state is not None
        seq = alice.state["seq"]
        match = await stored_log(redis_server, code)
        plays = card_moves(match, 0)
        # The card sent late: one that stays playable after Alice plays another and Bob answers,
        # so a node that applied it late would have made a move for Alice's next turn.
        late, now = plays[-1], plays[0]
        with frozen(a):
            await alice.send(**late, seq=seq, id="late")
            await asyncio.sleep(0.3)
            # Alice gives up on the frozen node and carries on through the other one.
            again = await WireClient.open(b.url, hello=False)
            welcome = await again.hello("Alice", token=alice.token)
            assert welcome["resumed"] is True
            await again.expect("state")
            answer = await again.request(**now, seq=seq)
            assert answer["type"] == "state", answer
            await settle([bob], seq + 1)
            if bob.my_turn():
                assert bob.state is not None
                reply = await bob.request(**bob.state["view"]["legal"][0])
                assert reply["type"] == "state", reply
        deadline = time.monotonic() + 5
        stale = None
        with contextlib.suppress(Exception):
            while time.monotonic() < deadline and stale is None:
                frame = await alice.recv(timeout=deadline - time.monotonic())
                if frame.get("id") == "late":
                    stale = frame
        await asyncio.sleep(0.5)  # whatever the thawed node does, it has done it now
        log = (await stored_log(redis_server, code)).log
        before = len(match.log)
        assert log[before][1].model_dump(mode="json") == now
        assert all(action.model_dump(mode="json") != late for _, action in log[before + 1 :]), (
            "the late card was applied at a later turn"
        )
        if stale is not None:  # its connection may have been replaced by the resume
            assert stale["type"] == "error" and stale["code"] == "stale"
    finally:
        a.stop()
        b.stop()


async def test_a_turn_timer_does_not_fire_for_a_turn_taken_while_its_node_was_frozen(
    redis_server: RedisServer,
) -> None:
    """A node frozen past a turn's timer, thawed after the player moved: no move, no notice."""
    a, b = Node(redis_server), Node(redis_server)
    try:
        alice = await WireClient.open(b.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        created = await alice.request(
            type="create_room", options={"game": {"target": 121}, "turn_timer": 5}
        )
        code = created["code"]
        await bob.request(type="join_room", code=code)
        watcher = await WireClient.open(a.url, name="Watcher")  # node A caches the room
        await watcher.request(type="spectate", code=code)
        await settle([alice, bob], 1)
        await advance([alice, bob], random.Random(5), pegging_choice)
        assert alice.state is not None
        seq = alice.state["seq"]
        with frozen(a):
            frozen_at = time.monotonic()
            await asyncio.sleep(1.0)
            answer = await alice.request(**alice.state["view"]["legal"][0])
            assert answer["type"] == "state"
            await settle([bob], seq + 1)
            await asyncio.sleep(max(0.0, frozen_at + 3.0 - time.monotonic()))
            mover = next((c for c in (alice, bob) if c.my_turn()), None)
            if mover is not None and mover.state is not None:
                # Whoever is on turn now moves at +3 s, so no timer on node B runs out before
                # +8 s: any timeout before that is node A's timer for the turn Alice took.
                await mover.request(**mover.state["view"]["legal"][0])
            await asyncio.sleep(max(0.0, frozen_at + 5.5 - time.monotonic()))
            moved = len((await stored_log(redis_server, code)).log)
        await asyncio.sleep(1.3)  # node A thaws, finds its timer overdue, and must do nothing
        log = (await stored_log(redis_server, code)).log
        assert time.monotonic() - frozen_at < 7.9, "the machine was too slow for this check"
        notices = [f for c in (alice, bob) for f in c.frames if f["type"] == "notice"]
        with contextlib.suppress(TimeoutError):
            while time.monotonic() < frozen_at + 7.5:
                frame = await alice.recv(timeout=frozen_at + 7.5 - time.monotonic())
                # (a notice read after +7.9 s, the loop being late on a slow machine, might be
                # node B's own timer for the turn taken at +3 s: only earlier ones count)
                if frame["type"] == "notice" and time.monotonic() - frozen_at < 7.9:
                    notices.append(frame)
        assert len(log) == moved, "a timer moved for a turn it was not armed for"
        assert not [n for n in notices if n["code"] == "timeout"], notices
    finally:
        a.stop()
        b.stop()


async def test_the_computer_moves_after_redis_stops_during_its_move(
    redis_server: RedisServer,
) -> None:
    """Redis stops while the computer is about to move and starts again: the move is made."""
    async with nodes(redis_server, 1, bot_delay=1.0) as (node,):
        alice = await WireClient.open(node.url, name="Alice")
        created = await alice.request(type="create_room", options={"game": {"target": 61}})
        await alice.request(type="seat_bot", level="easy")
        room = node.lobby.find(created["code"])
        while alice.state is None or not alice.my_turn():
            await alice.recv()
        while True:  # play until it is the computer's turn alone
            assert alice.state is not None
            answer = await alice.request(**alice.state["view"]["legal"][0])
            assert answer["type"] == "state", answer
            view = answer["view"]
            if view["waiting_for"] == [1]:
                break
            while not alice.my_turn():
                await alice.recv()
        seq = answer["seq"]
        await asyncio.sleep(0.3)  # the computer has claimed its move and is thinking
        redis_server.stop(kill=True)
        await asyncio.sleep(2.5)  # its move fails against the stopped store
        redis_server.start()
        async with asyncio.timeout(20):
            while alice.state is None or alice.state["seq"] <= seq:
                await alice.recv()
        assert room.match is not None and room.match.log[-1][0] == 1
        log = (await stored_log(redis_server, created["code"])).log
        assert log == room.match.log


async def test_a_timer_claimed_late_for_a_taken_turn_moves_nobody(
    redis_server: RedisServer,
) -> None:
    """A node whose cache still shows turn s (as after a freeze) claims s's timer: nothing."""
    async with nodes(redis_server, 2) as (a, b):
        alice = await WireClient.open(b.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        created = await alice.request(
            type="create_room", options={"game": {"target": 121}, "turn_timer": 60}
        )
        code = created["code"]
        await bob.request(type="join_room", code=code)
        watcher = await WireClient.open(a.url, name="Watcher")
        await watcher.request(type="spectate", code=code)
        await settle([alice, bob], 1)
        await advance([alice, bob], random.Random(6), pegging_choice)
        assert alice.state is not None
        seq = alice.state["seq"]
        cached = a.lobby.rooms[code]
        assert cached.match is not None
        while cached.seq != seq:
            await asyncio.sleep(0.01)
        thawed_view = list(cached.match.log)
        await alice.request(**alice.state["view"]["legal"][0])
        await settle([bob], seq + 1)
        if bob.my_turn():
            assert bob.state is not None
            await bob.request(**bob.state["view"]["legal"][0])
        moved = len((await stored_log(redis_server, code)).log)
        # Node A as it thaws: its cache still at turn s, and turn s's timer overdue.
        cached.match = Match.replay(cached.match.options, cached.match.seed, thawed_view)
        await cached.time_out(seq)
        await asyncio.sleep(0.3)
        assert len((await stored_log(redis_server, code)).log) == moved
        notices = [f for c in (alice, bob) for f in c.frames if f["type"] == "notice"]
        with contextlib.suppress(TimeoutError):
            while True:
                frame = await alice.recv(timeout=0.3)
                if frame["type"] == "notice":
                    notices.append(frame)
        assert not [n for n in notices if n["code"] == "timeout"], notices


class AnswerLosingProxy:
    """A TCP proxy in front of Redis that can lose the answers to the next action appends:
    the script runs in Redis, then the connection drops before its answer reaches the node."""

    def __init__(self, upstream_port: int, *, what: str = "answer") -> None:
        self.upstream_port = upstream_port
        self.what = what
        """"answer": the append runs and its answer is lost; "request": it never reaches Redis."""
        self.lose = 0
        self.lost = 0
        self.server: asyncio.Server | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        port = self.server.sockets[0].getsockname()[1]
        return f"redis://127.0.0.1:{port}/0"

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._serve, "127.0.0.1", 0)

    async def stop(self) -> None:
        if self.server is not None:
            self.server.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        up_reader, up_writer = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        losing = False

        async def requests() -> None:
            nonlocal losing
            while data := await reader.read(65536):
                if self.lose and b'"key":' in data and b"log:" in data:
                    self.lose -= 1
                    if self.what == "request":  # drop it unsent, with the connection
                        self.lost += 1
                        return
                    losing = True
                up_writer.write(data)
                await up_writer.drain()

        async def answers() -> None:
            while data := await up_reader.read(65536):
                if losing and data.startswith(b":"):  # the append's answer: it ran; lose it
                    self.lost += 1
                    writer.transport.abort()
                    return
                writer.write(data)
                await writer.drain()

        tasks = [asyncio.ensure_future(requests()), asyncio.ensure_future(answers())]
        with contextlib.suppress(Exception):
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in tasks:
            task.cancel()
        writer.transport.abort()
        up_writer.transport.abort()


@pytest.mark.parametrize("lose", [1, 2])
async def test_a_move_whose_redis_answer_is_lost_is_answered_as_made(
    redis_server: RedisServer, lose: int
) -> None:
    """The append ran in Redis but its answer was lost (once: the client library's retry; twice:
    the server's read-back): the player gets the new state, no error, and the move is stored once.
    """
    proxy = AnswerLosingProxy(redis_server.port)
    await proxy.start()
    try:
        config = replace(node_config(redis_server), redis=proxy.url)
        async with running_server(config) as node:
            alice, bob, created = await alice_and_bob(node.url, node.url)
            await advance([alice, bob], random.Random(3), pegging_choice)
            assert alice.state is not None
            seq = alice.state["seq"]
            before = len((await stored_log(redis_server, created["code"])).log)
            proxy.lose = lose
            answer = await alice.request(**alice.state["view"]["legal"][0], id="lost-answer")
            assert proxy.lost == lose
            assert answer["type"] == "state" and answer["seq"] == seq + 1, answer
            log = (await stored_log(redis_server, created["code"])).log
            assert len(log) == before + 1
            room = node.lobby.rooms[created["code"]]
            assert room.match is not None and room.match.log == log
    finally:
        await proxy.stop()


async def test_a_move_told_storage_is_not_stored_and_a_retry_gets_the_first_answer(
    redis_server: RedisServer,
) -> None:
    """A move whose append never reached Redis (twice: the client library's retry too) is told
    ``storage`` and is not in the stored log, by its seq and key. Sent again (same id and seq) it
    is applied once; sent a third time, to this node or to another, it gets that answer again
    (the state after it), never ``stale`` and never a second entry."""
    proxy = AnswerLosingProxy(redis_server.port, what="request")
    await proxy.start()
    try:
        config = replace(node_config(redis_server), redis=proxy.url)
        async with running_server(config) as node, nodes(redis_server, 1) as (other,):
            alice, bob, created = await alice_and_bob(node.url, node.url)
            code = created["code"]
            await advance([alice, bob], random.Random(8), pegging_choice)
            assert alice.state is not None
            seq = alice.state["seq"]
            move = alice.state["view"]["legal"][0]
            before = len((await stored_log(redis_server, code)).log)
            key = move_key(0, "the-move")

            proxy.lose = 2
            refused = await alice.request(**move, seq=seq, id="the-move")
            assert proxy.lost == 2
            assert refused["type"] == "error" and refused["code"] == "storage", refused
            record = await stored_record(redis_server, code)
            assert len(record.actions) == before
            assert (seq, key) not in record.tags

            made = await alice.request(**move, seq=seq, id="the-move")
            assert made["type"] == "state" and made["seq"] == seq + 1, made
            record = await stored_record(redis_server, code)
            assert len(record.actions) == before + 1
            assert record.tags[before] == (seq, key)

            again = await alice.request(**move, seq=seq, id="the-move")
            assert again["type"] == "state" and again["seq"] == seq + 1, again
            elsewhere = await WireClient.open(other.url, hello=False)
            assert (await elsewhere.hello("Alice", token=alice.token))["resumed"] is True
            await elsewhere.expect("state")
            there = await elsewhere.request(**move, seq=seq, id="the-move")
            assert there["type"] == "state" and there["seq"] == seq + 1, there
            record = await stored_record(redis_server, code)
            assert [tag for tag in record.tags if tag == (seq, key)] == [(seq, key)]
            assert len(record.actions) == before + 1
    finally:
        await proxy.stop()


async def test_moves_refused_as_stale_or_out_of_turn_are_never_stored(
    redis_server: RedisServer,
) -> None:
    """On two nodes: a move naming a past seq is told ``stale``, a move out of turn
    ``not_your_turn``; neither is in the stored log by its seq and key, whichever node heard it."""
    async with nodes(redis_server, 2) as (a, b):
        alice, bob, created = await alice_and_bob(a.url, b.url)
        code = created["code"]
        await advance([alice, bob], random.Random(9), pegging_choice)
        assert alice.state is not None
        seq = alice.state["seq"]
        first, second = alice.state["view"]["legal"][:2]
        made = await alice.request(**first, seq=seq, id="made")
        assert made["type"] == "state", made
        await settle([bob], seq + 1)
        stale = await alice.request(**second, seq=seq, id="late")
        assert stale["type"] == "error" and stale["code"] == "stale", stale
        if not alice.my_turn():
            assert alice.state is not None
            early = await alice.request(**second, seq=alice.state["seq"], id="early")
            assert early["type"] == "error" and early["code"] in ("not_your_turn", "illegal")
        record = await stored_record(redis_server, code)
        keys = {key for _, key in record.tags}
        assert move_key(0, "made") in keys
        assert move_key(0, "late") not in keys and move_key(0, "early") not in keys


async def stored_record(redis: RedisServer, code: str) -> MatchRecord:
    """The current match as Redis holds it, with each move's (seq, key) tag."""
    store = RedisStore(redis.url)
    try:
        record = await store.load_match(code, await store.current_match(code))
    finally:
        await store.close()
    assert record is not None
    return record
