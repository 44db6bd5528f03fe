"""A browser follows close code 4001: a room's link opened on a node that does not own the room
seats the player on the owner, where the game is played; an owner it cannot reach sends it back
to the node it came from with stay=1, which serves it."""

from __future__ import annotations

from contextlib import AsyncExitStack
from typing import Any

import redis
from cdp import Browser, Page
from cluster_nodes import node_config
from redis_helpers import RedisServer, free_port
from site_helpers import leased_room
from table_driver import read_table
from test_friend_game import named_page
from test_resume import MID_PEGGING, SHOW, play_until

from muggins.server.app import Server, running_server


async def owned_room(browser: Browser, a: Server, store: redis.Redis) -> tuple[Page, str]:
    """Alice's page on node A with a room she made there (A holds its lease); its code."""
    alice = await named_page(browser, f"http://127.0.0.1:{a.port}/", "Alice")
    await alice.click("#create-room")
    return alice, await leased_room(alice, store, who="node A")


async def addressed_node(
    stack: AsyncExitStack, redis_server: RedisServer, address: str | None = None
) -> Server:
    """A cluster node on a free port, given its own address (``--node-url``), or ``address``."""
    port = free_port()
    address = address or f"ws://127.0.0.1:{port}"
    config = node_config(redis_server, port=port, host="127.0.0.1", node_url=address, grace=30.0)
    return await stack.enter_async_context(running_server(config))


async def test_the_room_link_on_another_node_seats_the_player_on_the_owner(
    browser: Browser, redis_server: RedisServer
) -> None:
    """Alice makes a room on node A (its owner); Bob opens the room's link on node B, is sent on
        to A with 4001 and sits down there; reloaded on B, he is sent to A again and keeps his seat
    and hand (his token); both play to the show on A while B holds nobody."""
    store = redis.Redis.from_url(redis_server.url, decode_responses=True)
    async with AsyncExitStack() as stack:
        a = await addressed_node(stack, redis_server)
        b = await addressed_node(stack, redis_server)
        alice, code = await owned_room(browser, a, store)
        bob = await named_page(browser, f"http://127.0.0.1:{b.port}/", "Bob")
        await bob.goto(f"http://127.0.0.1:{b.port}/r/{code}")
        await bob.wait("!!document.querySelector('#hand button')", what="Bob's hand")
        assert (len(a.connections), len(b.connections)) == (2, 0)

        await play_until({0: alice, 1: bob}, MID_PEGGING)
        before = await read_table(bob)
        await bob.reload()  # on B again: sent on to A, back in his seat with his token
        await bob.wait(
            f"+document.querySelector('#table')?.dataset.seq === {before['seq']}",
            what="Bob's table after the reload",
        )
        after = await read_table(bob)
        assert [h["card"] for h in after["hand"]] == [h["card"] for h in before["hand"]]
        assert (len(a.connections), len(b.connections)) == (2, 0)
        await play_until({0: alice, 1: bob}, SHOW)
        assert (len(a.connections), len(b.connections)) == (2, 0)
        for page in (alice, bob):
            assert page.errors == [] and page.dialogs == []
    store.close()


async def test_an_owner_the_page_cannot_reach_sends_it_back_with_stay(
    browser: Browser, redis_server: RedisServer
) -> None:
    """Node A owns the room but gives an address nothing listens on: Bob's page, sent there by
    B, fails to connect, comes back to B naming stay=1 and is seated and plays there."""
    store = redis.Redis.from_url(redis_server.url, decode_responses=True)
    async with AsyncExitStack() as stack:
        a = await addressed_node(stack, redis_server, "ws://127.0.0.1:1")  # nothing listens
        b = await addressed_node(stack, redis_server)
        alice, code = await owned_room(browser, a, store)
        bob = await named_page(browser, f"http://127.0.0.1:{b.port}/", "Bob")
        opened: list[str] = []
        heard = bob.on_event

        def spy(method: str, params: dict[str, Any]) -> None:
            if method == "Network.webSocketCreated":
                opened.append(params["url"])
            heard(method, params)

        bob.on_event = spy  # type: ignore[method-assign]
        await bob.call("Network.enable")
        await bob.goto(f"http://127.0.0.1:{b.port}/r/{code}")
        await bob.wait("!!document.querySelector('#hand button')", what="Bob's hand")
        here = f"ws://127.0.0.1:{b.port}/?room={code}"
        assert opened == [
            f"{here}&follow=1",
            f"ws://127.0.0.1:1/?room={code}&follow=1",
            f"{here}&stay=1&follow=1",
        ]
        assert (len(a.connections), len(b.connections)) == (1, 1)
        await play_until({0: alice, 1: bob}, MID_PEGGING)
        for page in (alice, bob):
            assert page.dialogs == []
    store.close()
