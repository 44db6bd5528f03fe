"""The browser against ``muggins serve --procs 2``: a room made through the shared port, its link
opened on the other process, is played in the process that owns the room."""

from __future__ import annotations

from pathlib import Path

import redis
from cdp import Browser
from cluster_nodes import connections, wait_for
from redis_helpers import RedisServer
from site_helpers import leased_room
from test_friend_game import named_page
from test_procs import Procs, healthy
from test_resume import MID_PEGGING, play_until


async def test_a_room_link_on_the_other_process_is_played_on_the_owner(
    browser: Browser, redis_server: RedisServer, tmp_path: Path
) -> None:
    """Alice makes a room on the shared port (one process owns it); Bob opens its link on the
    other process's own port, is sent on with 4001 to the owner's port (the page may open it:
    its host on any port) and both play there."""
    procs = Procs(redis_server, 2, tmp_path / "procs.log")
    store = redis.Redis.from_url(redis_server.url, decode_responses=True)
    try:
        await wait_for(lambda: len(procs.pids()) == 2 and all(map(healthy, procs.own)))
        alice = await named_page(browser, f"http://127.0.0.1:{procs.port}/", "Alice")
        await alice.click("#create-room")
        code = await leased_room(alice, store, who="any process")
        await wait_for(lambda: sum(connections(p) for p in procs.own) == 1)
        owner = 0 if connections(procs.own[0]) == 1 else 1
        other = procs.own[1 - owner]

        bob = await named_page(browser, f"http://127.0.0.1:{other}/", "Bob")
        await bob.goto(f"http://127.0.0.1:{other}/r/{code}")
        await bob.wait("!!document.querySelector('#hand button')", what="Bob's hand")
        await wait_for(lambda: connections(procs.own[owner]) == 2)
        assert connections(other) == 0
        await play_until({0: alice, 1: bob}, MID_PEGGING)
        assert (connections(procs.own[owner]), connections(other)) == (2, 0)
        for page in (alice, bob):
            assert page.errors == [] and page.dialogs == []
    finally:
        procs.stop()
        store.close()
