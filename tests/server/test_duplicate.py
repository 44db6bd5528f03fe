"""A duplicate match end to end over real sockets: two rated tables on the same deals with the
seats swapped, the leak audit on every frame of both players and a spectator of each table, and
the result scored by the difference."""

from __future__ import annotations

import asyncio
import json
import random

from conftest import with_options
from test_leak import Hidden, check_frames, play_fast, secrets_at
from test_outsider_findings import PROXIED, from_address
from wire_client import WireClient

from muggins.client.bot_account import play_account
from muggins.server.app import Server, running_server
from muggins.server.lobby.duplicate import DuplicateTables
from muggins.shared.actions import GameOptions, Outcome
from muggins.shared.duplicate import compare, deal_lines, verdict
from muggins.shared.match import Match
from muggins.shared.names import name_key


def audit(raw: list[str], receiver: int | None, match: Match) -> int:
    """The leak audit of one receiver's frames of one table (see test_leak). A ``story`` (the
    match so far, told to who comes in) is checked for its running deal: the deals before it
    are revealed, and their cards are dealt again in the running one."""
    raw = [current_deal(text) for text in raw]
    replay = Match(seed=match.seed, options=match.options)
    cut = [[str(a), str(b)] for a, b in replay.cut_rounds]
    timeline: list[Hidden] = []
    for step in range(len(match.log) + 1):
        if step:
            replay.apply(*match.log[step - 1])
        timeline.append(secrets_at(replay)[receiver])
    return check_frames(raw, receiver, timeline, cut)


def current_deal(text: str) -> str:
    frame = json.loads(text)
    if frame["type"] != "story":
        return text
    kinds = [line["event"]["type"] for line in frame["lines"]]
    start = max((i for i, kind in enumerate(kinds) if kind == "deal_started"), default=0)
    return json.dumps({**frame, "lines": frame["lines"][start:]}, ensure_ascii=False)


def split_at_room(raw: list[str], code: str) -> tuple[list[str], list[str]]:
    """A player's frames before the second table's first ``room`` frame, and from it on."""
    for i, text in enumerate(raw):
        frame = json.loads(text)
        if frame["type"] == "room" and frame["code"] == code:
            return raw[:i], raw[i:]
    raise AssertionError(f"no frame of room {code}")


def capped(outcomes: list[Outcome], seat: int) -> int:
    return sum(min(o.scores[seat], 121) - min(o.scores[1 - seat], 121) for o in outcomes)


async def watch(url: str, code: str, name: str) -> WireClient:
    watcher = await WireClient.open(url, name=name)
    reply = await watcher.request(type="spectate", code=code)
    assert reply["type"] == "room" and reply["you"] is None
    return watcher


async def test_a_rated_duplicate_match_over_sockets(server: Server) -> None:
    """Ann and Bob seek a duplicate match: table 1, then table 2 on the same deals with the
    seats swapped; no frame to either, nor to a spectator of each table, shows a card that
    table's own play has not revealed; both hear who won by how many points, once."""
    ann = await WireClient.open(server.url, name="Ann")
    bob = await WireClient.open(server.url, name="Bob")
    made = {}
    for client in (ann, bob):
        made[client.name] = await client.request(
            type="register", name=client.name, password="long enough"
        )
        reply = await client.request(type="seek", duplicate=True)
        assert reply["type"] == "seeking" and reply["duplicate"]
    for client in (ann, bob):
        while client.room is None or client.room["status"] != "playing":
            await client.recv(timeout=15)
    first_code = ann.room["code"]
    assert ann.room["duplicate_table"] == 1 and ann.room["options"]["rated"]
    tables: DuplicateTables = server.lobby.duplicates[first_code]
    one, two = (ann, bob) if ann.room["you"] == 0 else (bob, ann)
    watcher_one = await watch(server.url, first_code, "Watcher")
    one.raw.clear()  # the frames before the spectator came are not compared with its own
    two.raw.clear()
    rng = random.Random(36)
    await asyncio.gather(play_fast(one, rng, 0), play_fast(two, rng, 1))
    while tables.second is None or tables.second.match is None:
        await asyncio.sleep(0.01)  # the second table is being made and sat at
    second_code = tables.second.code
    watcher_two = await watch(server.url, second_code, "Onlooker")
    # At the second table the seats are swapped: the first player now sits in seat 1.
    await asyncio.gather(play_fast(one, rng, 1), play_fast(two, rng, 0))
    results = {}
    for client in (one, two, watcher_two):
        frame = await client.expect("duplicate_result", timeout=15)
        results[client.name] = frame
    first, second = tables.first.match, tables.second.match
    assert first is not None and second is not None and first.over and second.over
    # The same deals: every deal both tables dealt gave each seat the same six cards.
    lines = deal_lines(first.options, first.seed, first.log)
    again = deal_lines(second.options, second.seed, second.log)
    both = min(len(lines), len(again))
    assert both >= 1
    assert [line.hands for line in lines[:both]] == [line.hands for line in again[:both]]
    # Scored by the difference, told to each from their side.
    names = (one.name, two.name)
    margin = capped(first.games, 0) + capped(second.games, 1)
    for client, you in ((one, 0), (two, 1), (watcher_two, None)):
        result = results[client.name]
        assert result["margin"] == margin and result["you"] == you
        assert result["names"] == list(names)
        assert result["text"] == verdict(names, margin, you)
        assert result["games"] == [f"{first_code}-1", f"{second_code}-1"]
    for client in (one, two):
        kinds = [json.loads(text)["type"] for text in client.raw]
        told = kinds.index("duplicate_result")
        assert told > max(i for i, kind in enumerate(kinds) if kind == "state")
    expected = compare(lines, again)
    assert len(results[one.name]["hands"]) == len(expected) > 0
    # The leak audit, table by table, every frame of each receiver.
    counted = 0
    for client, seat in ((one, 0), (two, 1)):
        before, after = split_at_room(client.raw, second_code)
        counted += audit(before, seat, first) + audit(after, 1 - seat, second)
    counted += audit(watcher_one.raw, None, first) + audit(watcher_two.raw, None, second)
    assert counted > 40
    # Settled once, rated, as one match under the first table's id.
    history = await ann.request(type="history")
    [entry] = history["games"]
    assert entry["game"] == f"{first_code}-1" and entry["rated"]
    won = margin > 0 if ann is one else margin < 0
    assert entry["result"] == ("drawn" if margin == 0 else "won" if won else "lost")
    for client in (ann, bob, watcher_one, watcher_two):
        await client.close()


async def test_duplicate_matches_keep_the_servers_limit_on_rated_matches_of_one_pair() -> None:
    """With rated_pair_per_day at 4, two accounts' first four duplicate matches are all rated
    and the fifth is not, as for plain matches (the limit was the default 3 for duplicates)."""
    async with running_server(with_options(rated_pair_per_day=4)) as server:
        bots = [
            play_account(
                server.url,
                level="random",
                account=name,
                password="long enough",
                register=True,
                matches=5,
                duplicate=True,
                seed=seed,
            )
            for seed, name in enumerate(("Ann", "Bob"))
        ]
        await asyncio.gather(*bots)
        store = server.lobby.store
        account = await store.find_account(key=name_key("Ann"))
        assert account is not None
        history = await store.account_history(account.id, limit=10)
        assert [entry.rated for entry in reversed(history)] == [True] * 4 + [False]
        assert account.rated_games == 4


async def test_a_duplicate_match_from_one_public_address_moves_no_rating() -> None:
    """Two accounts behind one public address play a rated duplicate match: it is recorded but
    rated not at all, and the second table is told why, as for a plain rated match."""
    async with running_server(PROXIED) as server:
        ann = await from_address(server.url, "203.0.113.5", "Ann")
        bob = await from_address(server.url, "203.0.113.5", "Bob")
        for client in (ann, bob):
            made = await client.request(type="register", name=client.name, password="long enough")
            assert made["type"] == "account", made
            assert (await client.request(type="seek", duplicate=True))["type"] == "seeking"
        for client in (ann, bob):
            while client.room is None or client.room["status"] != "playing":
                await client.recv(timeout=15)
        tables: DuplicateTables = server.lobby.duplicates[ann.room["code"]]
        one, two = (ann, bob) if ann.room["you"] == 0 else (bob, ann)
        rng = random.Random(5)
        await asyncio.gather(play_fast(one, rng, 0), play_fast(two, rng, 1))
        while tables.second is None or tables.second.match is None:
            await asyncio.sleep(0.01)  # the second table is being made and sat at
        await asyncio.gather(play_fast(one, rng, 1), play_fast(two, rng, 0))
        await ann.expect("duplicate_result", timeout=15)
        while (notice := await ann.expect("notice"))["code"] != "rating":
            pass
        assert notice["text"] == "Not rated: both players connected from one address"
        history = await ann.request(type="history")
        assert [g["rated"] for g in history["games"]] == [False]
        profile = await ann.request(type="profile", name="Bob")
        assert profile["rating"]["rating"] == 1500.0
        for client in (ann, bob):
            await client.close()


async def test_a_duplicate_room_refuses_the_computer_and_a_rematch(server: Server) -> None:
    """A duplicate table is for two people, each table played once."""
    ann = await WireClient.open(server.url, name="Ann")
    room = await ann.request(type="create_room", options={"duplicate": True})
    assert room["type"] == "room" and room["duplicate_table"] == 1
    refused = await ann.request(type="seat_bot")
    assert refused["type"] == "error" and "duplicate" in refused["message"]
    await ann.close()


def test_a_table_alone_is_not_a_comparison() -> None:
    """Deals the other table did not play to their end are not compared."""
    options = GameOptions()
    lines = deal_lines(options, 11, [])
    assert compare(lines, lines) == []  # the first deal is not finished at either table
