"""Rated rooms over real sockets: who may sit, the options, a rated match changing both ratings
exactly once (also across a restart), best of three, a claim forfeiting the match, the clock."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import pytest
from conftest import with_options
from wire_client import Frame, WireClient, play_randomly

from muggins.server.app import Server, running_server
from muggins.server.rooms.turn_clock import TurnClock
from muggins.shared.glicko2 import Rating, rate_game

RATED = {"game": {"target": 61}, "rated": True}


async def signed_in(url: str, name: str) -> WireClient:
    client = await WireClient.open(url, name=name)
    reply = await client.request(type="register", name=name, password="long enough")
    if reply["type"] == "error" and reply["code"] == "name_taken":
        reply = await client.request(type="sign_in", name=name, password="long enough")
    assert reply["type"] == "account", reply
    return client


async def rated_pair(
    url: str, options: dict[str, object] = RATED
) -> tuple[WireClient, WireClient, str]:
    ann, bob = await signed_in(url, "Ann"), await signed_in(url, "Bob")
    room = await ann.request(type="create_room", options=options)
    assert room["type"] == "room" and room["options"]["rated"], room
    joined = await bob.request(type="join_room", code=room["code"])
    assert joined["type"] == "room", joined
    return ann, bob, room["code"]


async def finish(ann: WireClient, bob: WireClient, seed: int = 3) -> None:
    rng = random.Random(seed)
    await asyncio.gather(play_randomly(ann, rng), play_randomly(bob, rng))


async def rating_notice(client: WireClient) -> Frame:
    for frame in client.frames:
        if frame["type"] == "notice" and frame["code"] == "rating":
            return frame
    while True:
        frame = await client.expect("notice")
        if frame["code"] == "rating":
            return frame


async def profile(client: WireClient, name: str) -> Frame:
    reply = await client.request(type="profile", name=name)
    assert reply["type"] == "profile", reply
    return reply


async def test_rated_rooms_are_for_two_signed_in_people(server: Server) -> None:
    """Guests, muggins, long matches, the computer and restarts are refused; one's own account
    on another device takes one's seat rather than the opponent's."""
    guest = await WireClient.open(server.url, name="guest")
    refused = await guest.request(type="create_room", options=RATED)
    assert refused["code"] == "not_signed_in"
    ann = await signed_in(server.url, "Ann")
    for game, why in (({"muggins": True}, "muggins"), ({"match_to": 3}, "best of three")):
        reply = await ann.request(type="create_room", options={"rated": True, "game": game})
        assert reply["code"] == "illegal" and why in reply["message"]
    room = await ann.request(type="create_room", options={"rated": True})
    assert room["options"]["turn_timer"] == 30 and room["bank"] == [180.0, 180.0]
    assert (await ann.request(type="seat_bot"))["code"] == "illegal"
    assert (await guest.request(type="join_room", code=room["code"]))["code"] == "not_signed_in"
    twin = await WireClient.open(server.url, name="ann again")
    await twin.request(type="sign_in", name="Ann", password="long enough")
    # Ann's own account elsewhere does not take the second seat: it takes Ann's over.
    taken = await twin.request(type="join_room", code=room["code"])
    assert taken["type"] == "room" and taken["you"] == 0, taken
    assert taken["seats"][1]["kind"] == "empty"
    bob = await signed_in(server.url, "Bob")
    assert (await bob.request(type="join_room", code=room["code"]))["type"] == "room"
    assert (await twin.request(type="propose_restart"))["code"] == "illegal"
    for client in (guest, ann, twin, bob):
        await client.close()


async def test_a_rated_match_changes_both_ratings_exactly_once(server: Server) -> None:
    """Both ratings move by Glicko-2 for one game; history and leaderboard agree."""
    ann, bob, code = await rated_pair(server.url)
    await finish(ann, bob)
    notice = await rating_notice(ann)
    assert notice["text"].startswith("Ratings: Ann 1500 -> ")
    assert ann.state is not None
    winner = ann.state["view"]["match_winner"]
    won, lost = rate_game(Rating(), Rating(), 1.0)
    profiles = [await profile(ann, "Ann"), await profile(ann, "Bob")]
    for seat, p in enumerate(profiles):
        expected = won if seat == winner else lost
        assert p["rating"]["rating"] == round(expected.rating, 1)
        assert p["rating"]["games"] == 1 and p["counts"]["matches"] == 1
    room = server.lobby.rooms[code]
    await room.settle()  # again: nothing changes
    again = [await profile(ann, n) for n in ("Ann", "Bob")]
    assert [{**p, "id": 0} for p in again] == [{**p, "id": 0} for p in profiles]
    history = await bob.request(type="history")
    assert [g["game"] for g in history["games"]] == [f"{code}-1"]
    assert history["games"][0]["rated"] and history["games"][0]["rating_after"] is not None


async def test_best_of_three_needs_two_game_wins(server: Server) -> None:
    """Scheme games, match to 2: the match ends at the second game won, and counts once."""
    options = {"game": {"target": 61, "scheme": "games", "match_to": 2}, "rated": True}
    ann, bob, _ = await rated_pair(server.url, options)
    await finish(ann, bob, seed=11)
    assert ann.state is not None
    view = ann.state["view"]
    assert 2 <= len(view["games"]) <= 3 and max(view["match_points"]) == 2
    await rating_notice(ann)
    p = await profile(ann, "Ann")
    assert p["rating"]["games"] == 1 and p["counts"]["games"] == len(view["games"])


@pytest.mark.parametrize("config", [with_options(grace=0.2)])
async def test_a_claim_forfeits_the_whole_rated_match(server: Server) -> None:
    """After the grace period the waiting player claims: the absent one loses the match."""
    options = {"game": {"target": 61, "scheme": "games", "match_to": 2}, "rated": True}
    ann, bob, _ = await rated_pair(server.url, options)
    await ann.expect("state")
    await bob.close()
    while (told := await ann.expect("notice"))["code"] != "claimable":
        pass
    assert "computer" not in told["text"], told  # it cannot sit in a rated room
    reply = await ann.request(type="claim", take="win")
    assert reply["type"] in ("state", "room"), reply
    await rating_notice(ann)
    assert ann.state is not None and ann.state["view"]["match_winner"] == 0
    p = await profile(ann, "Ann")
    assert p["counts"]["match_wins"] == 1 and p["rating"]["games"] == 1


async def test_ratings_settle_once_across_restarts(tmp_path: Path) -> None:
    """A server stopped before settling (simulated) settles on the next start, and only then."""
    config = with_options(memory=False, db=tmp_path / "m.db")
    import muggins.server.rooms.referee as referee_module

    real = referee_module.settle_match

    async def dies_first(*args: object, **kwargs: object) -> str:
        return ""  # the process "dies" between storing the last move and settling

    referee_module.settle_match = dies_first  # type: ignore[assignment]
    try:
        async with running_server(config) as server:
            ann, bob, _ = await rated_pair(server.url)
            await finish(ann, bob)
            assert (await profile(ann, "Ann"))["rating"]["games"] == 0
    finally:
        referee_module.settle_match = real
    ratings = []
    for _ in range(2):
        async with running_server(config) as server:
            probe = await WireClient.open(server.url, name="probe")
            ratings.append([(await profile(probe, n))["rating"] for n in ("Ann", "Bob")])
            await probe.close()
    assert ratings[0] == ratings[1]
    assert [r["games"] for r in ratings[0]] == [1, 1]
    assert ratings[0][0]["rating"] != 1500


def test_the_turn_clock_spends_the_bank_past_the_move_limit() -> None:
    """Time past the per-move limit comes out of the bank; the timer allows limit + bank."""
    now = [0.0]
    clock = TurnClock(30, 180, clock=lambda: now[0])
    clock.wait((0, 1), ())
    assert clock.limit((0, 1)) == 210
    now[0] = 50
    clock.charge(0)
    assert clock.left() == (160.0, 180.0)
    clock.wait((1,), ((0, None),))
    now[0] = 60
    clock.charge(1)
    assert clock.left() == (160.0, 150.0)
    clock.wait((0,), ((0, None), (1, None)))
    assert clock.limit((0,)) == 190
    clock.spent(1)
    clock.wait((0, 1), ((0, None), (1, None)))
    assert clock.limit((0, 1)) == 30
    clock.reset()
    assert clock.left() == (180.0, 180.0)


async def test_sigkill_of_a_sqlite_server_at_the_last_move_rates_once(tmp_path: Path) -> None:
    """`muggins serve --db` killed with SIGKILL as the last move is told: the next start settles
    the match if it was not, and both ratings changed once after two restarts."""
    from test_rated_cluster import play_until_the_end
    from test_restart import server_process

    db, errors = tmp_path / "games.db", tmp_path / "server.log"
    async with server_process(db, errors) as (process, url):
        ann, bob, _ = await rated_pair(url)
        over = await play_until_the_end([ann, bob], random.Random(4))
        process.kill()
        await process.wait()
    ratings = []
    for _ in range(2):
        async with server_process(db, errors) as (process, url):
            probe = await WireClient.open(url, name="probe")
            ratings.append([(await profile(probe, n))["rating"] for n in ("Ann", "Bob")])
            await probe.close()
    assert ratings[0] == ratings[1]
    assert [r["games"] for r in ratings[0]] == [1, 1]
    winner = over["outcome"]["winner"]
    assert ratings[0][winner]["rating"] > 1500 > ratings[0][1 - winner]["rating"]
