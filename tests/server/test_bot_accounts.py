"""Bot accounts: flagged for ever, marked wherever their name is shown, in the rated queue
over real sockets, and never paired with a person who asked for people only."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import TEST_CONFIG
from wire_client import WireClient, play_randomly

from muggins.client.bot_account import play_account
from muggins.client.cli import main
from muggins.client.remote_bot import RemoteError
from muggins.server.accounts.credentials import name_key
from muggins.server.app import Server, running_server
from muggins.server.lobby.matchmaking import pair
from muggins.server.results.settle import rate
from muggins.server.store.accounts import (
    AccountRecord,
    MatchResult,
    QueueEntry,
    account_from_json,
    account_json,
)
from muggins.server.store.sqlite_games import SqliteStore
from muggins.shared.names import name_problem


def entry(
    account: str, since: float, *, bot: bool = False, people_only: bool = False
) -> QueueEntry:
    return QueueEntry(account, account, 1500.0, 1, since, since, bot=bot, people_only=people_only)


def test_a_bot_is_never_paired_with_a_person_who_wants_people_only() -> None:
    """People-only meets a person, never a bot; a bot meets whoever did not ask."""
    bot, ann, bob = entry("bot", 0, bot=True), entry("ann", 1, people_only=True), entry("bob", 2)
    assert pair([bot, ann], now=1000.0) == []
    [(first, second)] = pair([bot, ann, bob], now=1000.0)
    assert {first.account, second.account} == {"bot", "bob"}
    [(first, second)] = pair([ann, bob], now=1000.0)
    assert {first.account, second.account} == {"ann", "bob"}


def test_the_bot_flag_is_kept_by_the_store() -> None:
    """The flag survives the stored record, and older records read as people."""
    record = AccountRecord(id="a", name="Deep Peg", key="deeppeg", password_hash="x", created=1.0)
    assert not account_from_json(account_json(record)).bot
    assert account_from_json(account_json(replace(record, bot=True))).bot


def test_a_guest_cannot_wear_the_bot_mark() -> None:
    """A name holding the mark is refused, so nobody passes for a bot account."""
    assert name_problem("Ann [bot]") is not None
    assert name_problem("Ann") is None


async def person(url: str, name: str, *, people_only: bool = False) -> WireClient:
    client = await WireClient.open(url, name=name)
    made = await client.request(type="register", name=name, password="long enough")
    assert made["type"] == "account" and not made["bot"]
    reply = await client.request(type="seek", people_only=people_only)
    assert reply["type"] == "seeking" and reply["active"] and reply["people_only"] == people_only
    return client


async def test_a_bot_account_in_the_queue_meets_only_those_who_accept_bots(
    server: Server,
) -> None:
    """The bot registers, seeks and plays a rated match with Bob, marked in the seat; Ann,
    who asked for people only, waits on in the queue."""
    rooms: list[str] = []
    seated = asyncio.Event()

    def on_room(code: str) -> None:
        rooms.append(code)
        seated.set()

    bot = asyncio.create_task(
        play_account(
            server.url,
            level="standard",
            account="Deep Peg",
            password="long enough",
            register=True,
            seed=7,
            on_room=on_room,
        )
    )
    store = server.lobby.store
    while not await store.queue_entries():
        await asyncio.sleep(0.01)  # the bot is queued before the people come
    [queued] = await store.queue_entries()
    assert queued.bot and queued.name == "Deep Peg"
    ann = await person(server.url, "Ann", people_only=True)
    bob = await person(server.url, "Bob")
    while bob.room is None or bob.room["status"] != "playing":
        await bob.recv(timeout=15)
    names = {s["name"] for s in bob.room["seats"]}
    assert names == {"Deep Peg [bot]", "Bob"}
    await seated.wait()
    assert rooms == [bob.room["code"]]
    [waiting] = await store.queue_entries()
    assert waiting.name == "Ann" and waiting.people_only
    profile = await bob.request(type="profile", name="Deep Peg [bot]")
    assert profile["type"] == "profile" and profile["bot"] and profile["name"] == "Deep Peg"
    await play_randomly(bob, random.Random(3))
    [result] = await bot
    assert result.code == bob.room["code"]
    assert ann.room is None
    for client in (ann, bob):
        await client.close()


async def test_a_person_account_cannot_seek_as_a_bot(server: Server) -> None:
    """``muggins bot --seek`` refuses an account that is not flagged a bot."""
    ann = await WireClient.open(server.url, name="Ann")
    await ann.request(type="register", name="Ann", password="long enough")
    with pytest.raises(RemoteError, match="not a bot account"):
        await play_account(server.url, level="standard", account="Ann", password="long enough")
    await ann.close()


def test_an_admin_flags_an_account_a_bot_for_ever(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`muggins admin bot NAME` flags a registered account in the store; the flag then
    survives a settled match (the store rewrites the record) and shows as the mark."""
    db = tmp_path / "server.db"
    asyncio.run(register(db, "Deep Peg"))
    assert main(["admin", "bot", "deep peg", "--db", str(db)]) == 0
    assert "Deep Peg is now a bot account" in capsys.readouterr().out
    assert asyncio.run(flagged(db, "Deep Peg"))
    assert main(["admin", "bot", "Nobody", "--db", str(db)]) == 1


async def flagged(db: Path, name: str) -> bool:
    store = SqliteStore(db)
    await store.open()
    try:
        account = await store.find_account(key=name_key(name))
        assert account is not None
        other = AccountRecord(id="b", name="Bob", key="bob", password_hash="x", created=1.0)
        await store.create_account(other)
        result = MatchResult(
            match="ABCD-1", finished=2.0, accounts=(account.id, "b"), names=(name, "Bob"),
            rated=True, score=1.0, match_points=(1, 0), stats=({}, {}),
        )  # fmt: skip
        assert await store.record_result(result, rate)
        settled = await store.find_account(id=account.id)
    finally:
        await store.close()
    assert settled is not None and settled.rated_games == 1
    return settled.bot


async def register(db: Path, name: str) -> None:
    async with running_server(replace(TEST_CONFIG, memory=False, db=db)) as server:
        client = await WireClient.open(server.url, name=name)
        reply = await client.request(type="register", name=name, password="long enough")
        assert reply["type"] == "account" and not reply["bot"]
        await client.close()


async def test_the_terminal_marks_a_bot_account_in_a_profile_and_the_leaderboard(
    server: Server,
) -> None:
    """`muggins account profile` and `leaderboard` lines carry the mark the server's flag asks."""
    from muggins.client.account_cli import describe
    from muggins.shared.protocol import parse_server

    bot = await WireClient.open(server.url, name="Deep Peg")
    await bot.request(type="register", name="Deep Peg", password="long enough", bot=True)
    profile = await bot.request(type="profile")
    [first, *_] = describe(parse_server(bot.raw[-1]))
    assert profile["bot"] and first.startswith("Deep Peg [bot]: rating ")
    await bot.close()
