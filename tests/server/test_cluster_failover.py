"""Kill -9 of a cluster node mid-pegging: real node processes, a real redis-server, real clients.

Both players sit on node A. Mid-pegging A is killed with SIGKILL; the players' connections (the
client's own reconnecting link, given both nodes' URLs) move to node B with their resume tokens,
and the game resumes at the exact state and finishes. The final log in Redis must equal the log
of the same seed and the same choices played without any fault.
"""

from __future__ import annotations

import asyncio
import signal
import time

from cluster_nodes import Node, Player, choose, close_players
from redis_helpers import RedisServer

from muggins.server.cluster.redis_store import RedisStore
from muggins.shared.actions import Action, Discard, Seat
from muggins.shared.match import Match
from muggins.shared.protocol import (
    CreateRoom,
    JoinRoom,
    Room,
    RoomOptions,
    SeatBot,
    State,
    Welcome,
)
from muggins.shared.view import SeatView


def mid_pegging(view: SeatView) -> bool:
    """Second deal, three cards into the play."""
    return view.deal_number == 2 and view.phase == "play" and len(view.played) == 3


def normalised(log: list[tuple[Seat, Action]]) -> list[tuple[Seat, Action]]:
    """The log with each deal's two discards in seat order (they may come in either order)."""
    out = list(log)
    for i in range(len(out) - 1):
        first, second = out[i], out[i + 1]
        if (
            isinstance(first[1], Discard)
            and isinstance(second[1], Discard)
            and first[0] > second[0]
        ):
            out[i], out[i + 1] = second, first
    return out


def no_fault_log(match: Match) -> list[tuple[Seat, Action]]:
    """The same seed and options played straight through with the same choices."""
    played = Match(seed=match.seed, options=match.options)
    while not played.over:
        seat = played.waiting_for()[0]
        played.apply(seat, choose(played.view(seat)))
    return list(played.log)


async def test_kill_9_mid_pegging_resumes_on_the_other_node(redis_server: RedisServer) -> None:
    """SIGKILL the node holding both players mid-pegging: both resume on the other node at the
    exact state, finish, and the stored log equals the no-fault log of the same seed."""
    a, b = Node(redis_server), Node(redis_server)
    alice = bob = None
    try:
        alice = Player("Alice", [a.url, b.url])
        bob = Player("Bob", [a.url, b.url])
        await alice.next(Welcome)
        await bob.next(Welcome)
        await alice.link.send(CreateRoom(options=RoomOptions()))
        room = await alice.next(Room)
        assert isinstance(room, Room)
        await bob.link.send(JoinRoom(code=room.code))
        await bob.next(State)

        await asyncio.gather(alice.play(pause_when=mid_pegging), bob.play(pause_when=mid_pegging))
        alice.paused = bob.paused = True
        await asyncio.sleep(0.2)  # nothing in flight: the kill hits a quiet, mid-pegging table
        while not alice.messages.empty() or not bob.messages.empty():
            for player in (alice, bob):
                while not player.messages.empty():
                    player.take(player.messages.get_nowait())
        assert alice.state is not None and bob.state is not None
        before = {p.name: p.state for p in (alice, bob) if p.state is not None}
        assert before["Alice"].seq == before["Bob"].seq

        killed = time.perf_counter()
        a.kill()
        for player in (alice, bob):
            welcome = await player.next(Welcome)
            assert isinstance(welcome, Welcome)
            assert welcome.resumed and welcome.room == room.code
            await player.next(State)
        resumed = time.perf_counter() - killed
        print(f"time to resume on the other node after kill -9: {resumed * 1000:.0f} ms")
        for player in (alice, bob):
            assert player.link.url == b.url
            assert player.state is not None
            assert player.state.seq == before[player.name].seq
            assert player.state.view == before[player.name].view

        alice.paused = bob.paused = False
        await asyncio.gather(alice.play(), bob.play())
        assert alice.state is not None and alice.state.view.phase == "match_over"

        store = RedisStore(redis_server.url)
        try:
            record = await store.load_match(room.code, 1)
        finally:
            await store.close()
        assert record is not None
        stored = Match.replay(record.options, record.seed, record.actions)
        assert stored.over
        assert normalised(list(record.actions)) == normalised(no_fault_log(stored))
        assert alice.state.seq == len(record.actions) + 1
        assert [(e.code, e.message) for e in alice.errors + bob.errors] == []
    finally:
        await close_players(alice, bob)
        a.stop()
        b.stop()


async def test_a_client_on_a_frozen_node_moves_to_the_other_while_it_stays_frozen(
    redis_server: RedisServer,
) -> None:
    """SIGSTOP the node a seated player is on (its sockets stay open, nothing answers): the
    client's link notices by its pings and resumes the seat on the other node, where the game
    goes on while the first node is still frozen. How soon is a benchmark's (bench/failover.py),
    not this test's: a busy machine must not fail it."""
    a, b = Node(redis_server), Node(redis_server)
    alice = None
    try:
        alice = Player("Alice", [a.url, b.url])
        await alice.next(Welcome)
        await alice.link.send(CreateRoom(options=RoomOptions()))
        room = await alice.next(Room)
        assert isinstance(room, Room)
        await alice.link.send(SeatBot(level="random"))
        await alice.next(State)
        assert alice.link.url == a.url

        frozen = time.perf_counter()
        a.signal(signal.SIGSTOP)
        welcome = await alice.next(Welcome, timeout=15)
        moved = time.perf_counter() - frozen
        print(f"moved off the frozen node after {moved:.1f} s")
        assert isinstance(welcome, Welcome) and welcome.resumed and welcome.room == room.code
        assert alice.link.url == b.url
        state = await alice.next(State)
        assert isinstance(state, State) and state.view.seat == 0
        assert any(s.state == "reconnecting" for s in alice.statuses)
    finally:
        await close_players(alice)
        a.stop()
        b.stop()
