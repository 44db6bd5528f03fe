"""The account contract every Store keeps: memory, SQLite, a real redis-server, and a cluster
store keeping accounts in a real PostgreSQL (the rated queue staying in Redis)."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest
from pg_helpers import PostgresServer, running_postgres
from redis_helpers import RedisServer
from test_store_contract import redis_server  # noqa: F401  (the shared fixture)

from muggins.server.cluster.redis_store import RedisStore
from muggins.server.results.settle import rate
from muggins.server.store.accounts import REVIEW_LEASE, AccountRecord, MatchResult
from muggins.server.store.games import Store, StoreConflict
from muggins.server.store.memory_games import MemoryStore
from muggins.server.store.postgres_accounts import PostgresAccounts
from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.glicko2 import Rating


@pytest.fixture(scope="module")
def postgres_server() -> Iterator[PostgresServer]:
    with running_postgres() as server:
        yield server


def fresh_database(server: PostgresServer) -> str:
    """The URL of a new, empty database on ``server``."""
    name = f"t{secrets.token_hex(4)}"
    with psycopg.connect(server.url, autocommit=True) as connection:
        connection.execute(f"CREATE DATABASE {name}".encode())
    return server.url.rsplit("/", 1)[0] + "/" + name


@pytest.fixture(params=["memory", "sqlite", "redis", "redis+postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Store]:
    made: Store
    if request.param == "memory":
        made = MemoryStore()
    elif request.param == "sqlite":
        made = SqliteStore(tmp_path / "muggins.db")
    else:
        server: RedisServer = request.getfixturevalue("redis_server")
        accounts = None
        if request.param == "redis+postgres":
            postgres: PostgresServer = request.getfixturevalue("postgres_server")
            accounts = PostgresAccounts(fresh_database(postgres))
        made = RedisStore(server.url, prefix=f"t{secrets.token_hex(4)}:", accounts=accounts)
    await made.open()
    yield made
    await made.close()


def account(id: str, name: str, *, rating: Rating | None = None) -> AccountRecord:
    return AccountRecord(
        id=id,
        name=name,
        key=name.lower(),
        password_hash="scrypt$x",
        created=1.0,
        rating=rating or Rating(),
    )


def result(
    match: str, score: float = 1.0, *, rated: bool = True, finished: float = 100.0
) -> MatchResult:
    return MatchResult(
        match=match,
        finished=finished,
        accounts=("a1", "a2"),
        names=("Ann", "Bob"),
        rated=rated,
        score=score,
        match_points=(1, 0) if score == 1.0 else (0, 1),
        stats=({"games": 1, "wins": 1}, {"games": 1, "losses": 1}),
    )


async def test_accounts_are_unique_by_key(store: Store) -> None:
    """A second account with the same name key is a conflict; lookups by id and key agree."""
    await store.create_account(account("a1", "Ann"))
    with pytest.raises(StoreConflict):
        await store.create_account(account("a9", "ANN"))
    assert (await store.find_account(key="ann")) == (await store.find_account(id="a1"))
    assert await store.find_account(key="nobody") is None


async def test_sessions_end_one_at_a_time_or_everywhere(store: Store) -> None:
    """A session finds its account until dropped; dropping all ends every one."""
    await store.create_account(account("a1", "Ann"))
    for h in ("h1", "h2", "h3"):
        await store.add_session("a1", h, 5.0)
    assert await store.session_account("h2") == "a1"
    await store.drop_session("h2")
    assert await store.session_account("h2") is None
    assert await store.drop_sessions("a1") == 2
    assert await store.session_account("h1") is None


async def test_a_result_is_settled_exactly_once_even_when_raced(store: Store) -> None:
    """Ten concurrent settlements of one match change the ratings once."""
    await store.create_account(account("a1", "Ann"))
    await store.create_account(account("a2", "Bob"))
    done = await asyncio.gather(*(store.record_result(result("ABCDEF-1"), rate) for _ in range(10)))
    assert sorted(done) == [False] * 9 + [True]
    ann, bob = await store.find_account(id="a1"), await store.find_account(id="a2")
    assert ann is not None and bob is not None
    expected = rate(Rating(), Rating(), 1.0)
    assert ann.rating == expected[0] and bob.rating == expected[1]
    assert ann.rated_games == bob.rated_games == 1
    assert ann.stats == {"games": 1, "wins": 1}
    [entry] = await store.account_history("a2", limit=10)
    assert (entry.match, entry.result, entry.opponent, entry.rated) == (
        "ABCDEF-1",
        "lost",
        "Ann",
        True,
    )
    assert entry.rating_after == pytest.approx(expected[1].rating)


async def test_history_is_newest_first_and_the_leaderboard_only_established(store: Store) -> None:
    """History comes newest first; a provisional rating stays off the leaderboard."""
    await store.create_account(account("a1", "Ann", rating=Rating(1700, 60)))
    await store.create_account(account("a2", "Bob", rating=Rating(1500, 300)))
    for n in range(3):
        await store.record_result(result(f"GAME-{n}", finished=100.0 + n), rate)
    games = [e.match for e in await store.account_history("a1", limit=2)]
    assert games == ["GAME-2", "GAME-1"]
    board = await store.leaderboard(limit=10)
    assert [a.id for a in board] == ["a1"]


async def test_casual_results_change_records_but_not_ratings(store: Store) -> None:
    """An unrated match adds to the record and history; the rating stays."""
    await store.create_account(account("a1", "Ann"))
    await store.create_account(account("a2", "Bob"))
    assert await store.record_result(result("CASUAL-1", rated=False), rate)
    ann = await store.find_account(id="a1")
    assert ann is not None and ann.rating == Rating() and ann.rated_games == 0
    assert ann.stats["wins"] == 1


async def test_deleting_an_account_frees_its_name_and_ends_its_sessions(store: Store) -> None:
    """After deletion the key is free, the sessions and history are gone."""
    await store.create_account(account("a1", "Ann"))
    await store.create_account(account("a2", "Bob"))
    await store.add_session("a1", "h1", 1.0)
    await store.record_result(result("X-1"), rate)
    await store.set_password("a1", "scrypt$new")
    found = await store.find_account(id="a1")
    assert found is not None and found.password_hash == "scrypt$new"
    await store.delete_account("a1")
    assert await store.find_account(id="a1") is None
    assert await store.session_account("h1") is None
    assert await store.account_history("a1", limit=5) == []
    await store.create_account(account("a3", "Ann"))


async def test_the_queue_takes_a_pair_once_and_tells_each_their_room(store: Store) -> None:
    """A pair leaves the queue atomically, once; each account learns its room once."""
    from muggins.server.store.accounts import QueueEntry

    for account_id, rating in (("a1", 1500.0), ("a2", 1520.0), ("a3", 1490.0)):
        await store.queue_put(QueueEntry(account_id, account_id, rating, 1, 1.0, 1.0))
    assert await store.queue_touch("a1", 5.0)
    assert {e.account: e.seen for e in await store.queue_entries()}["a1"] == 5.0
    taken = await asyncio.gather(
        store.queue_take("a1", "a2", "ROOMAA"), store.queue_take("a1", "a3", "ROOMBB")
    )
    assert sorted(taken) == [False, True]
    room = "ROOMAA" if taken[0] else "ROOMBB"
    assert await store.queue_paired("a1") == room
    assert await store.queue_paired("a1") is None
    assert not await store.queue_touch("a1", 6.0)
    left = [e.account for e in await store.queue_entries()]
    assert len(left) == 1 and await store.queue_remove(left[0])
    assert await store.queue_entries() == []


async def test_a_settled_match_is_queued_for_review_and_its_review_counts_once(
    store: Store,
) -> None:
    """Settling queues the review; one claim holds it; the review lands in both records once,
    even when recorded ten times at once, and leaves the queue."""
    await store.create_account(account("a1", "Ann"))
    await store.create_account(account("a2", "Bob"))
    assert await store.claim_reviews(limit=5, now=200.0) == []
    await store.record_result(result("ABCDEF-1"), rate)
    await store.record_result(result("ABCDEF-1"), rate)  # settled before: not queued twice
    [pending] = await store.claim_reviews(limit=5, now=200.0)
    assert (pending.match, pending.accounts) == ("ABCDEF-1", ("a1", "a2"))
    assert await store.claim_reviews(limit=5, now=201.0) == []  # held by the first claim
    review = (
        {"reviewed_deals": 7, "given_away_discard_milli": 1500, "given_away_play_milli": 250},
        {"reviewed_deals": 7, "given_away_discard_milli": 400, "given_away_play_milli": 900},
    )
    done = await asyncio.gather(*(store.record_review("ABCDEF-1", review) for _ in range(10)))
    assert sorted(done) == [False] * 9 + [True]
    ann, bob = await store.find_account(id="a1"), await store.find_account(id="a2")
    assert ann is not None and bob is not None
    assert ann.stats == {"games": 1, "wins": 1, **review[0]}
    assert bob.stats == {"games": 1, "losses": 1, **review[1]}
    assert ann.rating == rate(Rating(), Rating(), 1.0)[0]  # the rating is left as settled
    assert await store.claim_reviews(limit=5, now=200.0 + REVIEW_LEASE + 1) == []


async def test_a_lapsed_review_claim_is_claimed_again_oldest_first(store: Store) -> None:
    """A claim whose reviewer died runs out after the lease; claims take the oldest first."""
    await store.create_account(account("a1", "Ann"))
    await store.create_account(account("a2", "Bob"))
    for n in range(3):
        await store.record_result(result(f"GAME-{n}", finished=100.0 + n), rate)
    first = await store.claim_reviews(limit=2, now=500.0)
    assert [p.match for p in first] == ["GAME-0", "GAME-1"]
    assert [p.match for p in await store.claim_reviews(limit=2, now=501.0)] == ["GAME-2"]
    again = await store.claim_reviews(limit=5, now=500.0 + REVIEW_LEASE)
    assert [p.match for p in again] == ["GAME-0", "GAME-1"]
    assert await store.record_review("GAME-0", ({"reviewed_deals": 1}, {}))
    ann = await store.find_account(id="a1")
    assert ann is not None and ann.stats["reviewed_deals"] == 1


async def test_a_role_is_kept_through_a_settlement_and_can_be_taken_away(store: Store) -> None:
    """A granted role survives the rating update of a settled match; None takes it away."""
    await store.create_account(account("a1", "Ann"))
    await store.create_account(account("a2", "Bob"))
    await store.set_role("a1", "moderator")
    assert await store.record_result(result("ABCD-1"), rate)
    ann = await store.find_account(id="a1")
    assert ann is not None and ann.role == "moderator" and ann.rated_games == 1
    bob = await store.find_account(key="bob")
    assert bob is not None and bob.role is None
    await store.set_role("a1", None)
    ann = await store.find_account(key="ann")
    assert ann is not None and ann.role is None


async def test_a_rating_is_restored_exactly_and_a_rename_keeps_the_key_unique(store: Store) -> None:
    """restore_rating puts back rating, deviation, volatility and the count; a rename frees
    the old key, takes the new one, and is a conflict on a key another account holds."""
    await store.create_account(account("a1", "Ann"))
    await store.create_account(account("a2", "Bob"))
    before = await store.find_account(id="a1")
    assert before is not None
    assert await store.record_result(result("ABCD-1"), rate)
    await store.restore_rating("a1", before.rating, before.rated_games)
    again = await store.find_account(id="a1")
    assert again is not None
    assert (again.rating, again.rated_games) == (before.rating, before.rated_games)
    await store.rename_account("a1", "Cleo", "cleo")
    assert await store.find_account(key="ann") is None
    renamed = await store.find_account(key="cleo")
    assert renamed is not None and renamed.id == "a1" and renamed.name == "Cleo"
    with pytest.raises(StoreConflict):
        await store.rename_account("a1", "Bob", "bob")
    found = await store.find_account(key="cleo")
    assert found is not None and found.name == "Cleo"


async def test_two_nodes_racing_a_settlement_settle_it_once(
    postgres_server: PostgresServer,
) -> None:
    """Four stores on one PostgreSQL (four nodes, each its own connection) settle one match
    and record its review at once: the ratings change once, the review counts once."""
    url = fresh_database(postgres_server)
    nodes = [PostgresAccounts(url) for _ in range(4)]
    try:
        await nodes[0].create_account(account("a1", "Ann"))
        await nodes[1].create_account(account("a2", "Bob"))
        done = await asyncio.gather(
            *(node.record_result(result("RACE-1"), rate) for node in nodes for _ in range(3))
        )
        assert sorted(done) == [False] * 11 + [True]
        claimed = await asyncio.gather(*(n.claim_reviews(limit=5, now=200.0) for n in nodes))
        assert sorted(len(c) for c in claimed) == [0, 0, 0, 1]
        review = ({"reviewed_deals": 3}, {"reviewed_deals": 4})
        recorded = await asyncio.gather(*(n.record_review("RACE-1", review) for n in nodes))
        assert sorted(recorded) == [False] * 3 + [True]
        ann = await nodes[3].find_account(id="a1")
        assert ann is not None and ann.rated_games == 1
        assert ann.rating == rate(Rating(), Rating(), 1.0)[0]
        assert ann.stats == {"games": 1, "wins": 1, "reviewed_deals": 3}
        assert len(await nodes[2].account_history("a1", limit=10)) == 1
    finally:
        for node in nodes:
            await node.close()


async def test_a_lookup_is_answered_while_another_call_holds_a_connection(
    postgres_server: PostgresServer,
) -> None:
    """A node's calls share a pool of connections: a guest's name lookup is answered while a
    settlement-like call is still inside its transaction (on one shared connection it would
    wait for that call to end)."""
    url = fresh_database(postgres_server)
    link = PostgresAccounts(url)
    inside, release = asyncio.Event(), asyncio.Event()

    async def held(connection: psycopg.AsyncConnection[Any]) -> None:
        async with connection.transaction():
            await connection.execute("SELECT 1 FROM accounts FOR UPDATE")
            inside.set()
            await release.wait()

    try:
        await link.create_account(account("a1", "Ann"))
        holding = asyncio.create_task(link._run("held", held))
        await inside.wait()
        lookup = asyncio.create_task(link.find_account(key="ann"))
        # the timeout only keeps a failing run from hanging: the order is what is checked
        done, _ = await asyncio.wait({holding, lookup}, timeout=60, return_when="FIRST_COMPLETED")
        assert done == {lookup} and (await lookup) is not None
        release.set()
        await holding
    finally:
        release.set()
        await link.close()
