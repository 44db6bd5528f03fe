"""Moderation over real sockets, on each store (memory, SQLite, a cluster node on a real
redis-server): roles, bans, mutes, reports, blocks, hidden chat, voids, renames, closed rooms."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from cluster_nodes import node_config, nodes
from conftest import TEST_CONFIG
from redis_helpers import RedisServer, redis_flush, running_redis
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed
from wire_client import Frame, WireClient

from muggins.server.accounts.roles import grant
from muggins.server.app import Server, running_server
from muggins.server.lobby.matchmaking import pair
from muggins.server.store.accounts import QueueEntry

PASSWORD = "correct horse"


@pytest.fixture(scope="module")
def redis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RedisServer]:
    with running_redis(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture(params=["memory", "sqlite", "redis"])
async def server(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Server]:
    config = replace(TEST_CONFIG, trusted_proxies=("127.0.0.1",))
    if request.param == "sqlite":
        config = replace(config, memory=False, db=tmp_path / "muggins.db")
    elif request.param == "redis":
        redis: RedisServer = request.getfixturevalue("redis_server")
        await redis_flush(redis)
        config = replace(node_config(redis), trusted_proxies=("127.0.0.1",))
    async with running_server(config) as running:
        yield running


async def person(server: Server, name: str, *, address: str = "198.51.100.1") -> WireClient:
    """A registered, signed-in player connecting from ``address``."""
    ws = await connect(server.url, max_size=2**22, additional_headers={"X-Forwarded-For": address})
    client = WireClient(ws, name=name)
    await client.hello(name)
    reply = await client.request(type="register", name=name, password=PASSWORD)
    assert reply["type"] == "account", reply
    return client


async def account_id(server: Server, name: str) -> str:
    found = await server.lobby.accounts.find_named(name)
    assert found is not None
    return found.id


async def admin(server: Server) -> WireClient:
    client = await person(server, "Boss", address="192.0.2.1")
    await grant(server.store, "Boss", "admin")
    return client


async def moderate(client: WireClient, **fields: object) -> Frame:
    return await client.request(type="moderate", **fields)


async def table(server: Server) -> tuple[WireClient, WireClient, str]:
    """Ann and Bob (from different addresses) seated in a casual room, the match begun."""
    ann = await person(server, "Ann", address="198.51.100.1")
    bob = await person(server, "Bob", address="203.0.113.7")
    room = await ann.request(type="create_room")
    await bob.request(type="join_room", code=room["code"])
    for client in (ann, bob):
        while client.state is None:
            await client.recv()
    return ann, bob, room["code"]


async def test_only_moderators_and_admins_may_moderate(server: Server) -> None:
    """A player is refused the view and every action (not_allowed); a moderator may both."""
    ann = await person(server, "Ann")
    assert (await ann.request(type="moderation"))["code"] == "not_allowed"
    assert (await moderate(ann, action="ban", name="Ann"))["code"] == "not_allowed"
    await grant(server.store, "Ann", "moderator")
    view = await ann.request(type="moderation")
    assert view["type"] == "moderation" and "Ann" in view["online"]


async def test_a_ban_resigns_the_match_and_keeps_the_player_and_address_out(
    server: Server,
) -> None:
    """Banned mid-game with the address: Bob is told why and until when, his connection closes
    (4003), Ann wins the match; Bob cannot sign in, nor register from that address; unbanned,
    he signs in again. The log has both actions, newest first."""
    boss = await admin(server)
    ann, bob, _ = await table(server)
    done = await moderate(
        boss, action="ban", name="Bob", minutes=60, reason="cheating", address=True
    )
    assert done["type"] == "moderated" and "Bob is banned until" in done["text"]
    told = await bob.expect("sanctioned")
    assert told["kind"] == "ban" and told["reason"] == "cheating" and told["until"] is not None
    assert "You are banned until" in told["text"] and told["text"].endswith(": cheating")
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await bob.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003
    while ann.state is None or ann.state["view"]["phase"] != "match_over":
        await ann.recv()
    assert ann.state["view"]["match_points"][0] > ann.state["view"]["match_points"][1]
    again = await connect(
        server.url, additional_headers={"X-Forwarded-For": "203.0.113.7"}, max_size=2**22
    )
    bob = WireClient(again, name="Bob")
    await bob.hello("Bob")
    refused = await bob.request(type="sign_in", name="Bob", password=PASSWORD)
    assert refused["code"] == "banned" and "cheating" in refused["message"]
    other = await bob.request(type="register", name="Bobby", password=PASSWORD)
    assert other["code"] == "banned"
    assert (await moderate(boss, action="unban", name="Bob"))["type"] == "moderated"
    assert (await bob.request(type="sign_in", name="Bob", password=PASSWORD))["type"] == "account"
    view = await boss.request(type="moderation")
    assert [(e["action"], e["target"]) for e in view["log"][:2]] == [
        ("unban", "Bob"),
        ("ban", "Bob"),
    ]


async def test_a_muted_player_is_told_and_cannot_chat_until_unmuted(server: Server) -> None:
    """Muted: Ann sees it, her chat is refused (muted) while Bob's goes on; unmuted, she
    chats again."""
    boss = await admin(server)
    ann, bob, _ = await table(server)
    await moderate(boss, action="mute", name="Ann", minutes=10, reason="spam")
    told = await ann.expect("sanctioned")
    assert told["kind"] == "mute" and "You are muted until" in told["text"]
    refused = await ann.request(type="chat", text="hello?")
    assert refused["code"] == "muted" and "spam" in refused["message"]
    assert (await bob.request(type="chat", text="hi"))["type"] == "chat"
    await moderate(boss, action="unmute", name="Ann")
    assert (await ann.expect("sanctioned"))["text"] == "You may chat again"
    assert (await ann.request(type="chat", text="thanks"))["type"] == "chat"


async def test_reports_from_a_chat_line_and_a_profile_reach_the_view_oldest_first(
    server: Server,
) -> None:
    """A report of a chat line carries the line and the room's chat; one from a profile has no
    room; the view lists both oldest first until a moderator closes them."""
    boss = await admin(server)
    ann, bob, code = await table(server)
    said = await bob.request(type="chat", text="you are a donkey")
    line = said["line"]
    first = await ann.request(type="report", name="Bob", reason="insult", room=code, line=line)
    assert first["type"] == "moderated"
    await ann.request(type="report", name="Bob", reason="again, on his profile")
    view = await boss.request(type="moderation")
    [by_line, by_profile] = view["reports"]
    assert by_line["line"]["text"] == "you are a donkey" and by_line["room"] == code
    assert [x["text"] for x in by_line["chat"]] == ["you are a donkey"]
    assert by_profile["room"] is None and by_profile["reason"] == "again, on his profile"
    closed = await moderate(boss, action="close_report", report=by_line["id"])
    assert closed["type"] == "moderated"
    view = await boss.request(type="moderation")
    assert [r["id"] for r in view["reports"]] == [by_profile["id"]]
    await moderate(boss, action="remove_line", room=code, line=line)
    view = await boss.request(type="moderation")
    assert view["reports"][0]["chat"] == []


async def test_hidden_chat_is_not_sent_and_a_block_keeps_two_apart_in_the_queue(
    server: Server,
) -> None:
    """Ann hides Bob's chat: Bob's line reaches Bob, not Ann, whose next line is her own. Ann
    blocks Bob: the queue does not pair them; unblocked, it does."""
    ann, bob, _ = await table(server)
    assert (await ann.request(type="block", name="Bob", what="hide_chat"))["type"] == "moderated"
    await bob.request(type="chat", text="from Bob")
    await ann.request(type="chat", text="from Ann")
    lines = [f["text"] for f in ann.frames if f["type"] == "chat"]
    assert lines == ["from Ann"]
    assert (await ann.request(type="block", name="Bob"))["type"] == "moderated"
    apart = await server.lobby.sanctions.apart()
    ann_id, bob_id = [await account_id(server, name) for name in ("Ann", "Bob")]
    entries = [
        QueueEntry(account=a, name=a, rating=1500.0, best_of=1, since=0.0, seen=0.0)
        for a in (ann_id, bob_id)
    ]
    assert pair(entries, 1.0, apart=apart) == []
    await ann.request(type="block", name="Bob", on=False)
    assert len(pair(entries, 1.0, apart=await server.lobby.sanctions.apart())) == 1


async def rated_win(ann: WireClient, carl: WireClient) -> str:
    """Ann's rated room; Carl joins and resigns: the game's id."""
    room = await ann.request(type="create_room", options={"rated": True})
    await carl.request(type="join_room", code=room["code"])
    while carl.state is None or not carl.state["view"]["legal"]:
        await carl.recv()
    await carl.send(type="resign")
    while ann.state is None or ann.state["view"]["phase"] != "match_over":
        await ann.recv()
    while True:
        notice = await ann.expect("notice")
        if notice["code"] == "rating":
            return f"{room['code']}-1"


async def rating(client: WireClient, name: str) -> dict[str, float]:
    profile = await client.request(type="profile", name=name)
    return dict(profile["rating"])


async def test_a_void_puts_both_ratings_back_exactly(server: Server) -> None:
    """After a rated win, voiding it restores both ratings (rating, deviation, volatility and
    the count of rated games) exactly; a second void finds nothing to void."""
    boss = await admin(server)
    ann = await person(server, "Ann", address="198.51.100.1")
    carl = await person(server, "Carl", address="203.0.113.9")
    before = {n: await rating(boss, n) for n in ("Ann", "Carl")}
    game = await rated_win(ann, carl)
    moved = {n: await rating(boss, n) for n in ("Ann", "Carl")}
    assert moved["Ann"]["rating"] > before["Ann"]["rating"] and moved["Ann"]["games"] == 1
    done = await moderate(boss, action="void", game=game, reason="arranged")
    assert done["type"] == "moderated", done
    assert {n: await rating(boss, n) for n in ("Ann", "Carl")} == before
    assert (await moderate(boss, action="void", game=game))["code"] == "no_game"


async def test_a_forced_rename_and_a_closed_room(server: Server) -> None:
    """A rename changes the account's name at once (its table shows it) and frees the old
    one; closing a room sends everyone in it away and the room is gone."""
    boss = await admin(server)
    ann, bob, code = await table(server)
    done = await moderate(boss, action="rename", name="Bob", new_name="Robert", reason="rude")
    assert done["text"] == "Bob is now called Robert"
    assert (await ann.request(type="profile", name="Robert"))["name"] == "Robert"
    assert (await ann.request(type="profile", name="Bob"))["code"] == "no_account"
    taken = await moderate(boss, action="rename", name="Robert", new_name="ANN")
    assert taken["code"] == "name_taken"
    closed = await moderate(boss, action="close_room", room=code, reason="abuse")
    assert closed["type"] == "moderated"
    for client in (ann, bob):
        left = await client.expect("left")
        assert left["code"] == code
    assert code not in server.lobby.rooms
    assert (await boss.request(type="join_room", code=code))["type"] == "error"


async def test_in_a_cluster_a_ban_and_a_mute_reach_players_on_another_node(
    redis_server: RedisServer,
) -> None:
    """A moderator on node A bans Bob and mutes Cy, both connected to node B: Bob is told and
    his connection closes (4003), Cy is told and her chat is refused, on node B."""
    await redis_flush(redis_server)
    async with nodes(redis_server, 2) as (a, b):
        boss = await admin(a)
        bob = await person(b, "Bob", address="203.0.113.7")
        cy = await person(b, "Cyd", address="203.0.113.8")
        await moderate(boss, action="mute", name="Cyd", minutes=5, reason="shouting")
        assert (await cy.expect("sanctioned"))["kind"] == "mute"
        await cy.request(type="create_room")
        assert (await cy.request(type="chat", text="HEY"))["code"] == "muted"
        await moderate(boss, action="ban", name="Bob", reason="abuse")
        told = await bob.expect("sanctioned")
        assert told["kind"] == "ban" and told["until"] is None
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await bob.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4003


async def test_a_ban_with_the_address_of_a_player_not_connected_uses_their_last_one(
    server: Server,
) -> None:
    """Bob signed in from one address and signed out: banned with his address, no account can
    be registered from it; from another address, one can."""
    boss = await admin(server)
    bob = await person(server, "Bob", address="203.0.113.9")
    assert (await bob.request(type="sign_out"))["type"] == "signed_out"
    await bob.close()
    await moderate(boss, action="ban", name="Bob", minutes=60, reason="abuse", address=True)
    for address, answer in (("203.0.113.9", "error"), ("203.0.113.10", "account")):
        ws = await connect(server.url, additional_headers={"X-Forwarded-For": address})
        other = WireClient(ws, name="Newcomer")
        await other.hello("Newcomer")
        reply = await other.request(type="register", name=f"New{address[-2:]}", password=PASSWORD)
        assert reply["type"] == answer, reply
        await other.close()
