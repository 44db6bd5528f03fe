"""The review of a finished match over a real server: the `review` request and the terminal's
`muggins account review`."""

from __future__ import annotations

import asyncio
import io
import random
from pathlib import Path

import pytest
from wire_client import WireClient, play_randomly

from muggins.client.cli import main
from muggins.server.app import Server
from muggins.shared.bots.review_page import review_page
from muggins.shared.protocol.review import GameReview


async def finished_match(server: Server) -> tuple[WireClient, str]:
    """Bob hosts, Ann (signed in) joins in seat 1; they play a match to 61 at random."""
    bob = await WireClient.open(server.url, name="Bob")
    ann = await WireClient.open(server.url, name="Ann")
    assert (await ann.request(type="register", name="Ann", password="long enough"))["type"] == (
        "account"
    )
    room = await bob.request(type="create_room", options={"game": {"target": 61}})
    await ann.request(type="join_room", code=room["code"])
    rng = random.Random(3)
    await asyncio.gather(play_randomly(bob, rng), play_randomly(ann, rng))
    return ann, f"{room['code']}-1"


async def test_a_review_grades_the_asking_players_own_seat(server: Server) -> None:
    """Ann asks with no seat and gets her own (seat 1, by her record); a guest gets seat 0; each
    answer is the pure review of the stored match; an unfinished or unknown game is refused."""
    ann, game = await finished_match(server)
    mine = await ann.request(type="review", game=game)
    assert mine["type"] == "game_review" and mine["seat"] == 1
    assert mine["names"] == ["Bob", "Ann"]
    code, number = game.split("-")
    record = await server.store.load_match(code, int(number))
    assert record is not None
    expected = review_page(
        game=game, options=record.options, seed=record.seed, log=record.actions, seat=1,
        names=("Bob", "Ann"),
    )  # fmt: skip
    assert GameReview.model_validate(mine) == expected.model_copy(update={"id": mine["id"]})
    guest = await WireClient.open(server.url, name="Cy")
    assert (await guest.request(type="review", game=game))["seat"] == 0
    for bad in ("ZZZZZZ-1", "nonsense"):
        refused = await guest.request(type="review", game=bad)
        assert refused["type"] == "error" and refused["code"] == "no_game"


async def test_the_terminal_prints_a_review(
    server: Server,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`muggins account URL review ID --seat 1` prints the summary, the chance to win deal by
    deal, the worst moments and the points given away per deal."""
    _, game = await finished_match(server)
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    argv = ["account", server.url, "review", game, "--seat", "1", "--data-dir", str(tmp_path)]
    assert await asyncio.to_thread(main, argv) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"Review of {game}: Ann (seat 1) against Bob")
    assert "Chance to win, deal by deal:" in out and "game 1 deal  1   0-0" in out
    assert "Points given away per deal:" in out


async def test_a_flood_of_reviews_is_refused_past_the_queue(server: Server) -> None:
    """Reviews wait for the reviewer one at a time; past the most that may wait, a request (from
    another connection: one connection's requests are answered in turn) is refused in words
    (rate_limited) rather than queued without end; the other is answered."""
    ann, game = await finished_match(server)
    guest = await WireClient.open(server.url, name="Cy")
    server.lobby.accounts.reviews.waiting_most = 1
    await ann.send(type="review", game=game, seat=0, id=100)
    await guest.send(type="review", game=game, seat=1, id=101)
    answers = [await ann.answer(100), await guest.answer(101)]
    assert sorted(a["type"] for a in answers) == ["error", "game_review"]
    assert [a["code"] for a in answers if a["type"] == "error"] == ["rate_limited"]
    again = await guest.request(type="review", game=game, seat=1)
    assert again["type"] == "game_review" and again["seat"] == 1
