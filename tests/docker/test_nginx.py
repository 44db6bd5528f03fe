"""docker/nginx.conf run for real: Debian's nginx in front of two cluster nodes on a real Redis.

There is no Docker engine here, so the shipped file is rendered with its upstream addresses (the
compose service names) replaced by two local node processes and its port by a free one, plus the
paths an unprivileged nginx needs (pid, logs, temporary files); everything else runs as shipped.
A game is played through it over the WebSocket upgrade; the node behind one player is killed
with SIGKILL and that player's client, which knows only nginx's address, lands on the other node.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from cluster_nodes import Node, Player, close_players, connections, second_deal, wait_for
from nginx_helpers import nginx_binary, run_shipped
from redis_helpers import RedisServer, free_port

from muggins.shared.protocol import CreateRoom, JoinRoom, Room, RoomOptions, State, Welcome


async def test_shipped_nginx_conf_carries_a_game_and_fails_over(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Through nginx with docker/nginx.conf: two players on two nodes play over the upgrade;
    SIGKILL of Alice's node moves her (same nginx address) to the other node, and the game ends."""
    nginx_binary()  # skip (or fail under CI) before starting nodes
    a, b = Node(redis_server), Node(redis_server)
    port = free_port()
    upstreams = [f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"]
    nginx = run_shipped(tmp_path / "nginx", port=port, upstreams=upstreams)
    alice = bob = None
    try:
        url = f"ws://127.0.0.1:{port}"
        alice = Player("Alice", [url])
        await alice.next(Welcome)
        await wait_for(lambda: connections(a.port) + connections(b.port) == 1)
        home, other = (a, b) if connections(a.port) == 1 else (b, a)
        await alice.link.send(CreateRoom(options=RoomOptions()))
        room = await alice.next(Room)
        assert isinstance(room, Room)
        bob = Player("Bob", [url])
        await bob.next(Welcome)
        await wait_for(lambda: connections(other.port) == 1)  # least_conn: Bob on the other node
        await bob.link.send(JoinRoom(code=room.code))
        await bob.next(State)
        await alice.next(State)

        await asyncio.gather(alice.play(pause_when=second_deal), bob.play(pause_when=second_deal))
        home.kill()
        welcome = await alice.next(Welcome, timeout=20)
        assert isinstance(welcome, Welcome) and welcome.resumed and welcome.room == room.code
        await wait_for(lambda: connections(other.port) == 2)
        await asyncio.gather(alice.play(), bob.play())
        for player in (alice, bob):
            assert player.state is not None and player.state.view.phase == "match_over"
        log = (nginx.work / "access.log").read_text()
        assert " 101 " in log, log  # the upgrade went through nginx
    finally:
        await close_players(alice, bob)
        nginx.stop()
        a.stop()
        b.stop()


async def test_shipped_nginx_conf_routes_a_rooms_players_to_one_node(
    redis_server: RedisServer, tmp_path: Path
) -> None:
    """Through nginx with docker/nginx.conf: two players naming their room in the URL, each on a
    connection of their own, land on one node; SIGKILL of that node puts both on the same
    surviving node, where the match ends."""
    nginx_binary()
    a, b = Node(redis_server), Node(redis_server)
    port = free_port()
    nginx = run_shipped(
        tmp_path / "nginx", port=port, upstreams=[f"127.0.0.1:{a.port}", f"127.0.0.1:{b.port}"]
    )
    url = f"ws://127.0.0.1:{port}"
    creator = alice = bob = None
    try:
        # Alice makes a room from the lobby (a connection naming no room: any node) ...
        creator = Player("Alice", [url])
        await creator.next(Welcome)
        await creator.link.send(CreateRoom(options=RoomOptions()))
        room = await creator.next(Room)
        assert isinstance(room, Room) and creator.link.room == room.code
        token = creator.link.token
        await creator.close()
        await wait_for(lambda: connections(a.port) + connections(b.port) == 0)
        # ... then she and Bob each open the room's link: /?room=CODE, routed by the code.
        alice = Player("Alice", [url], token=token, code=room.code)
        welcome = await alice.next(Welcome)
        assert isinstance(welcome, Welcome) and welcome.resumed and welcome.room == room.code
        bob = Player("Bob", [url], code=room.code)
        await bob.next(Welcome)
        await bob.link.send(JoinRoom(code=room.code))
        await bob.next(State)
        await alice.next(State)
        await wait_for(lambda: {connections(a.port), connections(b.port)} == {2, 0})
        home, other = (a, b) if connections(a.port) == 2 else (b, a)

        await asyncio.gather(alice.play(pause_when=second_deal), bob.play(pause_when=second_deal))
        home.kill()
        for player in (alice, bob):
            back = await player.next(Welcome, timeout=20)
            assert isinstance(back, Welcome) and back.resumed and back.room == room.code
        await wait_for(lambda: connections(other.port) == 2)
        await asyncio.gather(alice.play(), bob.play())
        for player in (alice, bob):
            assert player.state is not None and player.state.view.phase == "match_over"
        log = (nginx.work / "access.log").read_text()
        assert f'/?room={room.code} HTTP/1.1" 101 ' in log, log
    finally:
        await close_players(creator, alice, bob)
        nginx.stop()
        a.stop()
        b.stop()
