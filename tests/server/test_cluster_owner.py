"""A room's owner (server.cluster.ownership), with node processes on one redis-server: a node
handed a connection for a room another node owns sends the client there (close code 4001), so
both players sit on one node; when the owner is killed, the node they come back to takes the
room over from the log and the match ends."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Iterator
from pathlib import Path

import pytest
import redis
from cluster_nodes import Node, Player, close_players, connections, second_deal, wait_for
from redis_helpers import RedisServer
from tls_helpers import make_pair

from muggins.client.remote_bot import RemoteResult, play_remote
from muggins.server.cluster.coordination import ClusterStore
from muggins.server.cluster.ownership import OWNER_TTL
from muggins.shared.protocol import CreateRoom, JoinRoom, Room, RoomOptions, State, Welcome


async def test_players_are_sent_to_the_owner_and_the_next_node_takes_the_room_over(
    redis_server: RedisServer,
) -> None:
    """Alice makes a room on node A (its owner); Bob, given node B first, is sent on to A and
    plays there. A is killed: both come back on B, which now owns the room, and finish."""
    a, b = Node(redis_server, addressed=True), Node(redis_server, addressed=True)
    store = redis.Redis.from_url(redis_server.url, decode_responses=True)
    alice = bob = None
    try:
        alice = Player("Alice", [a.url, b.url])
        await alice.next(Welcome)
        await alice.link.send(CreateRoom(options=RoomOptions()))
        room = await alice.next(Room)
        assert isinstance(room, Room)
        owner = f"muggins:owner:{room.code}"
        await wait_for(lambda: store.get(owner) is not None)
        holder_a = store.get(owner)
        bob = Player("Bob", [b.url, a.url], code=room.code)
        await bob.next(Welcome)
        await bob.link.send(JoinRoom(code=room.code))
        await bob.next(State)
        await alice.next(State)
        assert {connections(a.port), connections(b.port)} == {2, 0} and connections(a.port) == 2
        await asyncio.gather(alice.play(pause_when=second_deal), bob.play(pause_when=second_deal))

        a.kill()
        for player in (alice, bob):
            back = await player.next(Welcome, timeout=20)
            assert isinstance(back, Welcome) and back.resumed and back.room == room.code
        await wait_for(lambda: connections(b.port) == 2)
        assert store.get(owner) not in (None, holder_a)  # B took the lease over
        await asyncio.gather(alice.play(), bob.play())
        for player in (alice, bob):
            assert player.state is not None and player.state.view.phase == "match_over"
    finally:
        await close_players(alice, bob)
        a.stop()
        b.stop()
        store.close()


async def test_a_client_that_cannot_reach_the_owner_is_served_where_it_is(
    redis_server: RedisServer,
) -> None:
    """The owner's address is one the client cannot reach: sent there, the client comes back
    naming stay=1 and the other node serves it (two nodes serve the room, as without owners)."""
    a = Node(redis_server, "--node-url", "ws://127.0.0.1:1")  # nothing listens on port 1
    b = Node(redis_server, addressed=True)
    alice = bob = None
    try:
        alice, room = await alice_makes_a_room(redis_server, a)
        bob = Player("Bob", [b.url], code=room.code)
        await bob.next(Welcome)
        await bob.link.send(JoinRoom(code=room.code))
        await bob.next(State)
        await alice.next(State)
        assert (connections(a.port), connections(b.port)) == (1, 1)
        await asyncio.gather(alice.play(pause_when=second_deal), bob.play(pause_when=second_deal))
    finally:
        await close_players(alice, bob)
        a.stop()
        b.stop()


@pytest.fixture
def plain_owner_and_tls_node(
    redis_server: RedisServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> Iterator[tuple[Node, Node]]:
    """Node A, whose address is plain ws://, and node B serving wss:// (TLS ended at the node,
    as at a proxy), its certificate trusted by this process's clients."""
    cert, key = make_pair(tmp_path, "node")
    monkeypatch.setenv("SSL_CERT_FILE", str(cert))
    a = Node(redis_server, addressed=True)
    try:
        b = Node(redis_server, tls=(cert, key))
        try:
            yield a, b
        finally:
            b.stop()
    finally:
        a.stop()


async def alice_makes_a_room(redis_server: RedisServer, node: Node) -> tuple[Player, Room]:
    """Alice on ``node`` makes a room, and waits until the node holds its lease (owns it)."""
    alice = Player("Alice", [node.url])
    try:
        await alice.next(Welcome)
        await alice.link.send(CreateRoom(options=RoomOptions()))
        room = await alice.next(Room)
        assert isinstance(room, Room)
        store = redis.Redis.from_url(redis_server.url, decode_responses=True)
        await wait_for(lambda: store.get(f"muggins:owner:{room.code}") is not None)
        store.close()
    except BaseException:
        await alice.close()
        raise
    return alice, room


async def test_a_client_on_wss_is_never_sent_to_a_plain_ws_owner(
    redis_server: RedisServer, plain_owner_and_tls_node: tuple[Node, Node]
) -> None:
    """The room's owner gives a plain ws:// address and Bob came over wss://: following it
    would send his token in the clear, so he asks the node he reached to serve the room
    (stay=1) and the owner never sees him."""
    a, b = plain_owner_and_tls_node
    alice = bob = None
    try:
        alice, room = await alice_makes_a_room(redis_server, a)
        bob = Player("Bob", [b.url], code=room.code)
        await bob.next(Welcome)
        await bob.link.send(JoinRoom(code=room.code))
        await bob.next(State)
        await alice.next(State)
        assert connections(a.port) == 1  # Alice's alone: Bob is served over TLS where he is
        await asyncio.gather(alice.play(pause_when=second_deal), bob.play(pause_when=second_deal))
        assert connections(a.port) == 1
    finally:
        await close_players(alice, bob)


async def test_a_bot_on_wss_is_never_sent_to_a_plain_ws_owner(
    redis_server: RedisServer, plain_owner_and_tls_node: tuple[Node, Node]
) -> None:
    """`muggins bot` keeps to TLS the same way: joining over wss:// a room whose owner gives a
    plain ws:// address, it plays on the node it reached and the owner sees only Alice."""
    a, b = plain_owner_and_tls_node
    alice = None
    bot: asyncio.Task[RemoteResult] | None = None
    try:
        alice, room = await alice_makes_a_room(redis_server, a)
        bot = asyncio.create_task(play_remote(b.url, level="random", code=room.code, rate=1000))
        await alice.next(State)  # the bot sat down: the match has begun
        await alice.play(pause_when=second_deal)
        assert not bot.done() and connections(a.port) == 1
    finally:
        if bot is not None:
            bot.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await bot
        await close_players(alice)


async def test_players_of_a_frozen_owner_finish_on_the_other_node(
    redis_server: RedisServer,
) -> None:
    """The owner frozen (SIGSTOP) with both players on it: they give it up, are not bounced
    back to it for ever (its lease lapses, or a client that cannot reach it asks to stay), and
    finish the match on the other node."""
    a, b = Node(redis_server, addressed=True), Node(redis_server, addressed=True)
    alice = bob = None
    try:
        alice = Player("Alice", [a.url, b.url])
        await alice.next(Welcome)
        await alice.link.send(CreateRoom(options=RoomOptions()))
        room = await alice.next(Room)
        assert isinstance(room, Room)
        store = redis.Redis.from_url(redis_server.url, decode_responses=True)
        await wait_for(lambda: store.get(f"muggins:owner:{room.code}") is not None)
        store.close()
        bob = Player("Bob", [b.url, a.url], code=room.code)
        await bob.next(Welcome)
        await bob.link.send(JoinRoom(code=room.code))
        await bob.next(State)
        await alice.next(State)
        assert connections(a.port) == 2
        await asyncio.gather(alice.play(pause_when=second_deal), bob.play(pause_when=second_deal))

        a.signal(signal.SIGSTOP)
        for player in (alice, bob):
            back = await player.next(Welcome, timeout=40)
            assert isinstance(back, Welcome) and back.resumed and back.room == room.code
        await asyncio.gather(alice.play(), bob.play())
        for player in (alice, bob):
            assert player.state is not None and player.state.view.phase == "match_over"
    finally:
        a.signal(signal.SIGCONT)
        await close_players(alice, bob)
        a.stop()
        b.stop()


async def test_a_lease_holds_while_its_node_beats_and_lapses_with_its_heartbeat(
    redis_server: RedisServer,
) -> None:
    """Node A's lease keeps node B out while A's heartbeat lives (A renews no lease meanwhile),
    and B takes the room once A's heartbeat lapses, long before the lease's key would expire."""
    a, b = ClusterStore(redis_server.url), ClusterStore(redis_server.url)
    a.node, b.node = "a", "b"
    watcher = redis.Redis.from_url(redis_server.url, decode_responses=True)
    listening = watcher.pubsub()
    try:
        listening.subscribe(a.node_channel("a"))  # A's process runs: subscribed to its wake-ups
        await a.heartbeat(ttl=1.0, others=[])
        assert await a.own_room("ROOM", ttl=OWNER_TTL, stored=False) == ("a", None)
        assert await b.own_room("ROOM", ttl=OWNER_TTL, stored=False) == ("a", None)
        await wait_for(lambda: not watcher.exists("muggins:alive:a"))  # A stalls: no beat
        assert watcher.pttl("muggins:owner:ROOM") > 60_000  # the key itself has long to go
        assert await b.own_room("ROOM", ttl=OWNER_TTL, stored=False) == ("b", None)
        assert watcher.get("muggins:owner:ROOM") == "b"
    finally:
        listening.close()
        watcher.close()
        await a.close()
        await b.close()
