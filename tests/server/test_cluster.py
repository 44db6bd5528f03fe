"""Cluster mode: server nodes in one process sharing a real redis-server started on a free port."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections import Counter
from collections.abc import AsyncIterator, Iterator
from contextlib import AsyncExitStack
from dataclasses import replace
from pathlib import Path

import pytest
from redis_helpers import RedisServer, running_redis
from websockets.exceptions import ConnectionClosed
from wire_client import WireClient, play_randomly

from server.app import Server, running_server
from server.cluster.coordination import ClusterStore
from server.cluster.redis_store import RedisStore
from server.config import ServerConfig
from shared.match import Match


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[RedisServer]:
    with running_redis(tmp_path) as server:
        yield server


def node_config(redis: RedisServer, **changes: object) -> ServerConfig:
    config = ServerConfig(
        port=0,
        redis=redis.url,
        bot_delay=0.0,
        grace=0.3,
        sweep_interval=3600,
        rate=1e4,
        burst=10**4,
    )
    return replace(config, **changes)  # type: ignore[arg-type]


@contextlib.asynccontextmanager
async def nodes(redis: RedisServer, count: int, **changes: object) -> AsyncIterator[list[Server]]:
    async with AsyncExitStack() as stack:
        yield [
            await stack.enter_async_context(running_server(node_config(redis, **changes)))
            for _ in range(count)
        ]


async def stored_log(redis: RedisServer, code: str) -> Match:
    store = RedisStore(redis.url)
    try:
        number = await store.current_match(code)
        record = await store.load_match(code, number)
    finally:
        await store.close()
    assert record is not None
    return Match.replay(record.options, record.seed, record.actions)


async def test_two_nodes_play_a_full_game_and_list_each_others_rooms(
    redis_server: RedisServer,
) -> None:
    """Alice on node A and Bob on node B finish a game; both lobbies list rooms of both nodes."""
    async with nodes(redis_server, 2) as (a, b):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        carol = await WireClient.open(b.url, name="Carol")
        created = await alice.request(type="create_room", options={"game": {"target": 61}})
        other = await carol.request(type="create_room", options={"game": {"target": 121}})
        for node in (a, b):
            lister = await WireClient.open(node.url, name="Lister")
            listed = await lister.request(type="list_rooms")
            assert {r["code"] for r in listed["rooms"]} == {created["code"], other["code"]}
            await lister.close()
        joined = await bob.request(type="join_room", code=created["code"])
        assert joined["type"] == "room" and joined["you"] == 1
        await asyncio.gather(
            play_randomly(alice, random.Random(1)), play_randomly(bob, random.Random(2))
        )
        match = await stored_log(redis_server, created["code"])
        assert match.over
        for client in (alice, bob):
            [over] = [f for f in client.frames if f["type"] == "game_over"]
            assert over["match_over"] is True
            assert client.state is not None
            assert client.state["seq"] == len(match.log) + 1
            assert client.state["view"]["scores"] == list(match.view(None).scores)
        listed = await carol.request(type="list_rooms")
        [summary] = [r for r in listed["rooms"] if r["code"] == created["code"]]
        assert summary["status"] == "over" and summary["names"] == ["Alice", "Bob"]


async def read_all(client: WireClient) -> None:
    """Keep reading a client's frames (into ``client.frames``) until its connection closes."""
    with contextlib.suppress(ConnectionClosed):
        while True:
            await client.recv(timeout=60)


async def settle(clients: list[WireClient], seq: int) -> None:
    """Read until every client has seen the state after action ``seq``."""
    for client in clients:
        while client.state is None or client.state["seq"] < seq:
            await client.recv()


async def advance(
    clients: list[WireClient], rng: random.Random, until: object, *, limit: int = 400
) -> int:
    """Random legal moves, one at a time, until ``until(state of clients[0])``; returns seq."""
    await settle(clients, 1)
    assert clients[0].state is not None
    seq: int = clients[0].state["seq"]
    for _ in range(limit):
        await settle(clients, seq)
        if until(clients[0].state):  # type: ignore[operator]
            return seq
        mover = next(c for c in clients if c.my_turn())
        assert mover.state is not None
        await mover.send(**rng.choice(mover.state["view"]["legal"]))
        seq += 1
    raise AssertionError("the condition never came")


def pegging_choice(state: dict[str, object] | None) -> bool:
    """Alice is on turn in the play with at least two cards she may play."""
    assert state is not None
    view = state["view"]
    assert isinstance(view, dict)
    return bool(
        view["phase"] == "play" and view["seat"] in view["waiting_for"] and len(view["legal"]) >= 2
    )


async def passing_turn(redis: RedisServer, code: str) -> list[dict[str, object]]:
    """Seat 0's legal moves after which seat 0 is no longer waited for (so any two conflict)."""
    match = await stored_log(redis, code)
    moves = []
    for action in match.legal_actions(0):
        after = Match.replay(match.options, match.seed, [*match.log, (0, action)])
        if 0 not in after.waiting_for():
            moves.append(action.model_dump(mode="json"))
    return moves


async def test_conflicting_moves_on_two_nodes_one_wins_one_clean_error(
    redis_server: RedisServer,
) -> None:
    """Alice's seat plays two different cards through two nodes at once: one is accepted."""
    async with nodes(redis_server, 2) as (a, b):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        created = await alice.request(type="create_room", options={"game": {"target": 121}})
        await bob.request(type="join_room", code=created["code"])
        twin = await WireClient.open(b.url, hello=False)
        welcome = await twin.hello("Alice", token=alice.token)
        assert welcome["resumed"] is True and welcome["room"] == created["code"]
        rng = random.Random(5)
        for round in range(4):
            while True:
                seq = await advance([alice, bob, twin], rng, pegging_choice)
                exclusive = await passing_turn(redis_server, created["code"])
                if len(exclusive) >= 2:
                    break
                assert alice.state is not None
                await alice.send(**rng.choice(alice.state["view"]["legal"]))
                await settle([alice, bob, twin], seq + 1)
            assert twin.state is not None and twin.state["seq"] == seq
            first, second = rng.sample(exclusive, 2)
            ids = (f"a{round}", f"b{round}")
            await asyncio.gather(alice.send(id=ids[0], **first), twin.send(id=ids[1], **second))
            answers = []
            for client, id in ((alice, ids[0]), (twin, ids[1])):
                while True:
                    frame = await client.recv()
                    if frame.get("id") == id:
                        answers.append(frame)
                        break
            kinds = sorted(f["type"] for f in answers)
            assert kinds == ["error", "state"], answers
            [error] = [f for f in answers if f["type"] == "error"]
            assert error["code"] in ("not_your_turn", "illegal")
            winner = first if answers[0]["type"] == "state" else second
            match = await stored_log(redis_server, created["code"])
            assert len(match.log) == seq
            assert match.log[-1][0] == 0
            assert match.log[-1][1].model_dump(mode="json") == winner


async def test_redis_restart_mid_game_loses_nothing_and_clients_get_errors(
    tmp_path: Path,
) -> None:
    """Redis (AOF, fsync everysec) is killed mid-game: moves get a storage error; after it returns
    the game goes on from the same state to the end, with every earlier action kept."""
    with running_redis(tmp_path, fsync="everysec") as redis:
        async with nodes(redis, 2) as (a, b):
            alice = await WireClient.open(a.url, name="Alice")
            bob = await WireClient.open(b.url, name="Bob")
            created = await alice.request(type="create_room", options={"game": {"target": 61}})
            await bob.request(type="join_room", code=created["code"])
            seq = await advance([alice, bob], random.Random(8), pegging_choice)
            before = await stored_log(redis, created["code"])
            assert len(before.log) == seq - 1
            redis.stop(kill=True)
            assert alice.state is not None
            move = alice.state["view"]["legal"][0]
            refused = await alice.request(**move)
            assert refused["type"] == "error" and refused["code"] == "storage"
            listing = await bob.request(type="list_rooms")
            assert listing["type"] == "error" and listing["code"] == "storage"
            redis.start()
            accepted = await alice.request(**move)
            assert accepted["type"] == "state" and accepted["seq"] == seq + 1
            await asyncio.gather(
                play_randomly(alice, random.Random(3)), play_randomly(bob, random.Random(4))
            )
            after = await stored_log(redis, created["code"])
            assert after.over
            assert after.log[: len(before.log)] == before.log
            assert after.log[len(before.log)][1].model_dump(mode="json") == move
            assert alice.state is not None and alice.state["seq"] == len(after.log) + 1


async def test_seated_computer_moves_once_with_three_nodes(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The room is cached on three nodes, each with the computer in it; every computer move is
    made by exactly one node, also after one node stops mid-game."""
    from server.cluster.bot import ClusterBot
    from server.cluster.room import ClusterRoom

    made: list[str] = []
    refused: list[str] = []
    act = ClusterRoom.act

    async def counting_act(self: ClusterRoom, seat: int, move: object, **kwargs: object) -> None:
        origin = kwargs.get("origin")
        try:
            await act(self, seat, move, **kwargs)  # type: ignore[arg-type]
        except Exception:
            if isinstance(origin, ClusterBot):
                refused.append(self.lobby.node)
            raise
        if isinstance(origin, ClusterBot):
            made.append(self.lobby.node)

    monkeypatch.setattr(ClusterRoom, "act", counting_act)
    claims: Counter[bool] = Counter()
    claim = ClusterStore.claim

    async def counting_claim(self: ClusterStore, name: str, **kwargs: object) -> bool:
        won = await claim(self, name, **kwargs)  # type: ignore[arg-type]
        if name.startswith("bot:"):
            claims[won] += 1
        return won

    monkeypatch.setattr(ClusterStore, "claim", counting_claim)
    async with AsyncExitStack() as stack:
        servers = [
            await stack.enter_async_context(running_server(node_config(redis_server)))
            for _ in range(3)
        ]
        alice = await WireClient.open(servers[0].url, name="Alice")
        created = await alice.request(type="create_room", options={"game": {"target": 121}})
        code = created["code"]
        await alice.request(type="seat_bot", level="easy")
        watchers = []
        for node in servers[1:]:
            watcher = await WireClient.open(node.url, name="Watcher")
            watched = await watcher.request(type="spectate", code=code)
            assert watched["type"] == "room"
            watchers.append(watcher)
        reading = [asyncio.create_task(read_all(w)) for w in watchers]
        for node in servers:
            room = node.lobby.rooms[code]
            assert isinstance(room.seats[1].bot, ClusterBot)
        await play_randomly(alice, random.Random(6), until="play")
        await watchers[1].close()
        await servers[2].stop()
        rng = random.Random(7)
        if alice.my_turn():
            assert alice.state is not None
            await alice.send(**rng.choice(alice.state["view"]["legal"]))
        await play_randomly(alice, rng)
        match = await stored_log(redis_server, code)
        assert match.over
        bot_moves = sum(1 for seat, _ in match.log if seat == 1)
        assert len(made) == bot_moves and refused == []
        assert claims[False] > 0, "the other nodes' computers never competed for a move"
        assert alice.state is not None
        async with asyncio.timeout(5):
            while watchers[0].state is None or watchers[0].state["seq"] < alice.state["seq"]:
                await asyncio.sleep(0.01)
        assert watchers[0].state["view"]["phase"] == "match_over"
        await watchers[0].close()
        await asyncio.gather(*reading)
        print("computer moves by node:", Counter(made).most_common(), "claims:", dict(claims))


async def test_node_whose_cache_is_ahead_of_redis_reloads_redis_truth(
    redis_server: RedisServer,
) -> None:
    """If Redis lost the last acknowledged move (say a power cut under fsync everysec), the next
    write conflicts, the node reloads the room from Redis and the players get Redis's state."""
    async with nodes(redis_server, 1) as (a,):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(a.url, name="Bob")
        created = await alice.request(type="create_room", options={"game": {"target": 121}})
        await bob.request(type="join_room", code=created["code"])
        seq = await advance([alice, bob], random.Random(9), pegging_choice)
        store = RedisStore(redis_server.url)
        try:
            await store.redis.rpop(store.log_key(created["code"], 1))
        finally:
            await store.close()
        assert alice.state is not None
        answer = await alice.request(**alice.state["view"]["legal"][0])
        truth = await stored_log(redis_server, created["code"])
        assert answer["type"] in ("state", "error")
        for client, seat in ((alice, 0), (bob, 1)):
            while client.state is None or client.state["seq"] != len(truth.log) + 1:
                await client.recv()
            assert client.state["seq"] == len(truth.log) + 1 <= seq
            assert client.state["view"]["hand"] == [str(c) for c in truth.view(seat).hand]


async def test_opponent_on_another_node_drops_returns_and_can_be_claimed(
    redis_server: RedisServer,
) -> None:
    """Bob (node B) drops: Alice (node A) is told, sees him disconnected, and sees him return;
    when he drops again, after the grace period she claims the game from node A."""
    async with nodes(redis_server, 2) as (a, b):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        created = await alice.request(type="create_room", options={"game": {"target": 121}})
        await bob.request(type="join_room", code=created["code"])
        await settle([alice, bob], 1)
        early = await alice.request(type="claim", take="win")
        assert early["type"] == "error" and early["code"] == "illegal"
        seen_on_a = a.lobby.rooms[created["code"]]
        async with asyncio.timeout(5):
            while not seen_on_a.seen[1]:  # type: ignore[attr-defined]
                await asyncio.sleep(0.01)
        token = bob.token
        await bob.close()
        notice = await alice.expect("notice")
        assert notice["code"] == "disconnected" and "Bob" in notice["text"]
        room = await alice.expect("room")
        assert room["seats"][1]["connected"] is False
        bob = await WireClient.open(b.url, hello=False)
        welcome = await bob.hello("Bob", token=token)
        assert welcome["resumed"] is True
        notice = await alice.expect("notice")
        assert notice["code"] == "returned"
        await bob.close()
        notice = await alice.expect("notice")
        assert notice["code"] == "disconnected"
        await asyncio.sleep(0.4)  # the grace period of these nodes is 0.3 s
        claimed = await alice.request(type="claim", take="win")
        assert claimed["type"] == "state"
        match = await stored_log(redis_server, created["code"])
        assert match.over and match.winner == 0
        assert match.log[-1][0] == 1 and match.log[-1][1].type == "resign"
        await alice.close()


async def test_abandoned_room_is_closed_once_by_one_node(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both players gone and no move for abandon_after: exactly one node closes the room and
    records its match as abandoned; a room with a player still connected stays open."""
    closes: list[str] = []
    close_room = RedisStore.close_room

    async def counting_close(self: RedisStore, code: str) -> None:
        closes.append(code)
        await close_room(self, code)

    monkeypatch.setattr(RedisStore, "close_room", counting_close)
    async with nodes(redis_server, 3, abandon_after=0.5, sweep_interval=0.1) as (a, b, _):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        created = await alice.request(type="create_room", options={"game": {"target": 121}})
        await bob.request(type="join_room", code=created["code"])
        carol = await WireClient.open(b.url, name="Carol")
        kept = await carol.request(type="create_room")
        await alice.close()
        await bob.close()
        store = RedisStore(redis_server.url)
        try:
            async with asyncio.timeout(10):
                while await store.load_room(created["code"]) is not None:
                    await asyncio.sleep(0.05)
            await asyncio.sleep(0.5)
            [done] = await store.finished_matches()
            assert (done.room, done.result) == (created["code"], "abandoned")
            assert await store.load_room(kept["code"]) is not None
        finally:
            await store.close()
        assert closes == [created["code"]]
        await carol.close()


async def test_chat_restart_and_rematch_agreements_cross_nodes(redis_server: RedisServer) -> None:
    """Chat, a restart proposal and its acceptance, and rematch wishes work between players on
    two nodes: each side sees the other's line, proposal and wish, and the new match starts."""
    async with nodes(redis_server, 2) as (a, b):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        created = await alice.request(type="create_room", options={"game": {"target": 61}})
        await bob.request(type="join_room", code=created["code"])
        await settle([alice, bob], 1)
        said = await alice.request(type="chat", text="good luck")
        assert said["type"] == "chat"
        heard = await bob.expect("chat")
        assert (heard["sender"], heard["text"]) == ("Alice", "good luck")

        proposed = await alice.request(type="propose_restart")
        assert proposed["type"] == "room" and proposed["restart_proposed_by"] == 0
        notice = await bob.expect("notice")
        assert notice["code"] == "restart_proposed"
        while bob.room is None or bob.room["restart_proposed_by"] != 0:
            await bob.recv()
        accepted = await bob.request(type="answer_restart", accept=True)
        assert accepted["type"] in ("room", "state")
        for client in (alice, bob):
            while client.room is None or client.room["match_number"] != 2:
                await client.recv()

        await alice.request(type="resign")
        wish = await bob.request(type="rematch")
        assert wish["type"] == "room" and wish["rematch_wanted"] == [False, True]
        while alice.room is None or alice.room["rematch_wanted"] != [False, True]:
            await alice.recv()
        await alice.request(type="rematch")
        for client in (alice, bob):
            while client.room is None or client.room["match_number"] != 3:
                await client.recv()
        store = RedisStore(redis_server.url)
        try:
            assert await store.current_match(created["code"]) == 3
            results = {m.number: m.result for m in await store.finished_matches()}
        finally:
            await store.close()
        assert results == {1: "restarted", 2: "won"}
        await alice.close()
        await bob.close()


async def test_two_joiners_on_two_nodes_race_for_the_last_seat(redis_server: RedisServer) -> None:
    """Bob (node A) and Carol (node B) join the same room at once: one sits, the other is told
    the room is full, and every node agrees on who sits."""
    async with nodes(redis_server, 2) as (a, b):
        for _ in range(5):
            alice = await WireClient.open(a.url, name="Alice")
            bob = await WireClient.open(a.url, name="Bob")
            carol = await WireClient.open(b.url, name="Carol")
            created = await alice.request(type="create_room")
            code = created["code"]
            answers = await asyncio.gather(
                bob.request(type="join_room", code=code), carol.request(type="join_room", code=code)
            )
            kinds = sorted(f["type"] for f in answers)
            assert kinds == ["error", "room"], answers
            [refused] = [f for f in answers if f["type"] == "error"]
            assert refused["code"] == "room_full"
            winner = "Bob" if answers[0]["type"] == "room" else "Carol"
            store = RedisStore(redis_server.url)
            try:
                snapshot = await store.load_room(code)
            finally:
                await store.close()
            assert snapshot is not None
            assert [s.name for s in snapshot.room.seats] == ["Alice", winner]
            for node in (a, b):
                await node.lobby.rooms[code].sync()  # type: ignore[attr-defined]
                assert node.lobby.rooms[code].names() == ("Alice", winner)
            for client in (alice, bob, carol):
                await client.close()


async def test_turn_timer_moves_once_for_a_slow_player_across_three_nodes(
    redis_server: RedisServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A 5 s turn timer runs on every node that has the room; when it runs out exactly one node
    moves for the slow player, once."""
    won: list[str] = []
    claim = ClusterStore.claim

    async def counting_claim(self: ClusterStore, name: str, **kwargs: object) -> bool:
        result = await claim(self, name, **kwargs)  # type: ignore[arg-type]
        if name.startswith("timer:") and result:
            won.append(name)
        return result

    monkeypatch.setattr(ClusterStore, "claim", counting_claim)
    async with nodes(redis_server, 3) as (a, b, c):
        alice = await WireClient.open(a.url, name="Alice")
        bob = await WireClient.open(b.url, name="Bob")
        watcher = await WireClient.open(c.url, name="Watcher")
        created = await alice.request(type="create_room", options={"turn_timer": 5})
        await bob.request(type="join_room", code=created["code"])
        await watcher.request(type="spectate", code=created["code"])
        await settle([alice, bob], 1)
        assert alice.state is not None
        await alice.send(**alice.state["view"]["legal"][0])
        await settle([alice, bob], 2)
        notice = await bob.expect("notice", timeout=15)
        assert notice["code"] == "timeout" and "Bob" in notice["text"]
        await settle([alice, bob], 3)
        await asyncio.sleep(0.5)
        match = await stored_log(redis_server, created["code"])
        assert [seat for seat, _ in match.log] == [0, 1]
        assert won == [f"timer:{created['code']}:2"]
        for client in (alice, bob, watcher):
            await client.close()
