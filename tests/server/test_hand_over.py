"""True records after the computer takes a seat: over a real server and its SQLite file, the
history, a profile's games, the replay and the `muggins history` and `replay` commands name who
held each seat at the end, and the replay shows the hand-over."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from wire_client import WireClient, play_randomly

from muggins.client.cli import main
from muggins.server.app import running_server
from muggins.server.config import ServerConfig

COMPUTER = "Computer (expert)"


async def signed_in(url: str, name: str) -> WireClient:
    client = await WireClient.open(url, name=name)
    reply = await client.request(type="register", name=name, password="long enough")
    assert reply["type"] == "account", reply
    return client


async def notice(client: WireClient, code: str) -> None:
    while (await client.expect("notice"))["code"] != code:
        pass


async def test_the_computer_that_took_a_seat_is_credited_everywhere(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ann leaves after her discard; Bob gives her seat to the computer and plays the match
    out. Bob's record says he played the computer, not Ann; Ann's has no such game; the replay
    has a step saying the computer took over from Ann; `muggins history` names the computer
    (who took over from Ann), and `muggins replay` shows the moment."""
    db = tmp_path / "games.db"
    config = ServerConfig(port=0, db=db, bot_delay=0.0, grace=0.2, rate=10_000, burst=10_000)
    async with running_server(config) as server:
        ann, bob = await signed_in(server.url, "Ann"), await signed_in(server.url, "Bob")
        room = await ann.request(type="create_room", options={"game": {"target": 61}})
        await bob.request(type="join_room", code=room["code"])
        while ann.state is None:
            await ann.recv()
        await ann.request(type="discard", cards=ann.state["view"]["hand"][:2])
        await ann.close()
        await notice(bob, "claimable")
        answer = await bob.request(type="claim", take="bot")
        assert answer["type"] == "room" and answer["seats"][0]["name"] == COMPUTER
        await play_randomly(bob, random.Random(7))
        game = f"{room['code']}-1"

        [entry] = (await bob.request(type="history"))["games"]
        assert entry["game"] == game and entry["opponent"] == COMPUTER
        watcher = await WireClient.open(server.url, name="Cy")
        assert (await watcher.request(type="history", name="Ann"))["games"] == []
        record = await watcher.request(type="game", game=game, steps=True)
        assert record["names"] == ["Ann", "Bob"]
        [hand_over] = record["hand_overs"]
        assert hand_over == {"seat": 0, "at": 1, "before": "Ann", "after": COMPUTER}
        said = [" ".join(step["texts"]) for step in record["steps"]]
        taken = said.index(f"{COMPUTER} takes over from Ann")
        assert record["steps"][taken]["seat"] is None
        assert all("Ann" not in text for text in said[taken + 1 :])
        winner = record["winner"]
    capsys.readouterr()

    assert await asyncio.to_thread(main, ["history", "--db", str(db)]) == 0
    listed = capsys.readouterr().out
    assert f"{COMPUTER} (took over from Ann) v Bob" in listed
    assert f"{(COMPUTER, 'Bob')[winner]} won" in listed and "Ann won" not in listed
    assert await asyncio.to_thread(main, ["replay", game, "--db", str(db)]) == 0
    replayed = capsys.readouterr().out
    assert f"({COMPUTER} takes over from Ann, in seat 1)" in replayed
    assert replayed.index("takes over from Ann") < replayed.index(f"{COMPUTER} lays away")
