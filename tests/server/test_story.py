"""The story of the current match: whoever comes back (or starts watching) is told every step's
sentence since the match began and the latest chat, after the state."""

from __future__ import annotations

import random

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
