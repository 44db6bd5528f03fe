"""The story of the current match: whoever comes back (or starts watching) is told every step's
sentence since the match began and the latest chat, after the state."""

from __future__ import annotations

import random
from pathlib import Path

from test_restart import play, reconnect, server_process
from test_your_games import seated_against_computer
from wire_client import WireClient, event_lines, play_randomly

from muggins.server.app import Server


async def test_a_resumed_player_is_told_the_match_so_far(server: Server) -> None:
    """After a deal against the computer and a chat line, a resume gets the state, then a story
    whose lines begin with every event line sent so far, in order, and the chat line."""
    first = await WireClient.open(server.url, name="Ann")
    code = await seated_against_computer(first)
    await first.request(type="chat", text="hello there")
    await play_randomly(first, random.Random(3), until="show")
    await play_randomly(first, random.Random(4), until="discard")
    sent = event_lines(first.frames)
    await first.close()
    back = await WireClient.open(server.url, hello=False)
    await back.hello("Ann", token=first.token)
    await back.expect("state")
    story = await back.expect("story")
    assert story["room"] == code and story["match_number"] == 1
    told = [line["text"] for line in story["lines"]]
    assert told[: len(sent)] == [line["text"] for line in sent]  # (the computer may move on)
    assert [(c["sender"], c["text"]) for c in story["chat"]] == [("Ann", "hello there")]
    revealed = [line for line in story["lines"] if line["event"]["type"] == "deal_revealed"]
    assert revealed and len(revealed[0]["event"]["deck"]) == 52
    watcher = await WireClient.open(server.url, name="Zoe")
    await watcher.request(type="spectate", code=code)
    watched = await watcher.expect("story")
    assert len(watched["lines"]) >= len(sent)
    await back.close()
    await watcher.close()


async def test_the_story_s_chat_survives_a_restart_of_the_server(tmp_path: Path) -> None:
    """Two players and a spectator chat mid-deal; the SQLite server is killed (SIGKILL) and
    started again: a player who comes back is told the same story, its chat lines included
    (sender, seat, text and line id, in order)."""
    db, errors = tmp_path / "games.db", tmp_path / "server.log"
    async with server_process(db, errors) as (process, url):
        alice = await WireClient.open(url, name="Alice")
        bob = await WireClient.open(url, name="Bob")
        room = await alice.request(type="create_room", options={"game": {"target": 121}})
        await bob.request(type="join_room", code=room["code"])
        await alice.expect("state")
        await bob.expect("state")
        watcher = await WireClient.open(url, name="Zoe")
        await watcher.request(type="spectate", code=room["code"])
        await play({0: alice, 1: bob}, random.Random(2), 6, [])
        said = []
        for client, text in ((alice, "hello Bob"), (bob, "hi Alice"), (watcher, "good luck")):
            answer = await client.request(type="chat", text=text)
            assert answer["type"] == "chat", answer
            said.append((answer["sender"], answer["seat"], answer["text"], answer["line"]))
        sent = [line["text"] for line in event_lines(alice.frames)]
        process.kill()
        await process.wait()
    async with server_process(db, errors) as (process, url):
        back = await reconnect(url, alice, "Alice")
        story = await back.expect("story")
        chat = [(c["sender"], c["seat"], c["text"], c["line"]) for c in story["chat"]]
        assert chat == said
        assert [line["text"] for line in story["lines"]][: len(sent)] == sent
