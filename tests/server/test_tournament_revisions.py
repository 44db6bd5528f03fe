"""A tournament's revision rises with every change, on one server and in a cluster whose nodes
each write some of the changes (real sockets; a real redis-server for the cluster)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from cluster_nodes import make_admin, nodes, registered
from redis_helpers import RedisServer
from wire_client import Frame, WireClient

from muggins.server.app import Server


async def until(client: WireClient, ok: Callable[[Frame], bool]) -> Frame:
    """Read ``tournament`` frames until one satisfies ``ok``."""
    while True:
        frame = await client.expect("tournament", timeout=30)
        if ok(frame):
            return frame


async def seated(client: WireClient) -> None:
    """Wait until ``client`` is seated at a table and has its first state."""
    room = await client.expect("room", timeout=30)
    while room["you"] is None or room["status"] == "over":
        room = await client.expect("room", timeout=30)
    client.state = None
    await client.expect("state", timeout=30)


async def each_change_raises_the_revision(
    urls: tuple[str, str, str], promote: Callable[[str], Awaitable[None]]
) -> None:
    """The director (on ``urls[0]``) makes a one-round Swiss; Ann (``urls[1]``) and Bob
    (``urls[2]``) join, Ann leaves and comes back, it starts, it is told to finish while the
    game is on, and Ann resigns, which finishes it. The reply to each change carries a higher
    revision than the one before; a reply that changes nothing, the same; the news the
    director hears never goes back, and the last of it, finished, is the highest of all."""
    boss, boss_account = await registered(urls[0], "Director")
    await promote(boss_account)
    ann, _ = await registered(urls[1], "Ann")
    bob, _ = await registered(urls[2], "Bob")
    made = await boss.request(
        type="create_tournament", name="Numbered", kind="swiss", rounds=1, target=61
    )
    tid = made["summary"]["tournament"]
    assert made["revision"] >= 1
    followed = await boss.request(type="get_tournament", tournament=tid)
    assert followed["revision"] == made["revision"]  # nothing changed
    replies = [made]
    for client, change in (
        (ann, {"type": "join_tournament"}),
        (bob, {"type": "join_tournament"}),
        (ann, {"type": "leave_tournament"}),
        (ann, {"type": "join_tournament"}),
        (boss, {"type": "start_tournament"}),
    ):
        reply = await client.request(**change, tournament=tid, timeout=30)
        assert reply["type"] == "tournament", reply
        assert reply["revision"] > replies[-1]["revision"], (change, reply, replies[-1])
        replies.append(reply)
    assert replies[-2]["summary"]["players"] == 2 and replies[-2]["joined"]
    await seated(ann)
    await seated(bob)
    ending = await boss.request(type="start_tournament", tournament=tid, finish=True, timeout=30)
    assert ending["revision"] > replies[-1]["revision"]
    assert ending["summary"]["status"] == "playing"  # ending: its last game is on
    await ann.send(type="resign")
    last = await until(boss, lambda f: f["summary"]["status"] == "finished")
    assert last["revision"] > ending["revision"]
    news = [f["revision"] for f in boss.frames if f["type"] == "tournament" and f["id"] is None]
    assert news == sorted(news) and news[-1] == last["revision"]
    assert max(f["revision"] for f in boss.frames if f["type"] == "tournament") == news[-1]
    for client in (boss, ann, bob):
        await client.close()


async def test_each_change_raises_the_revision_on_one_server(server: Server) -> None:
    async def promote(account: str) -> None:
        await server.lobby.store.set_role(account, "admin")

    await each_change_raises_the_revision((server.url, server.url, server.url), promote)


async def test_each_change_raises_the_revision_across_a_clusters_nodes(
    redis_server: RedisServer,
) -> None:
    """The director's node writes the state, and Ann's node (the other one) her joins and her
    leave: the revision, kept in Redis beside them, rises across both."""

    async def promote(account: str) -> None:
        await make_admin(redis_server, account)

    async with nodes(redis_server, 2) as (a, b):
        await each_change_raises_the_revision((a.url, b.url, a.url), promote)
