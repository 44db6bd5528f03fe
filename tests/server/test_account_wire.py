"""Accounts over real sockets: register, sign in elsewhere, sign out everywhere, look-alikes,
one answer for a wrong name and a wrong password, brute force slowed, a guest upgrading
mid-game, records and history after a played match."""

from __future__ import annotations

import asyncio
import random
import time

from wire_client import Frame, WireClient, play_randomly

from muggins.server.app import Server


async def register(
    url: str, name: str, password: str = "correct horse"
) -> tuple[WireClient, Frame]:
    client = await WireClient.open(url, name=name)
    reply = await client.request(type="register", name=name, password=password)
    assert reply["type"] == "account", reply
    return client, reply


async def test_register_sign_in_elsewhere_and_sign_out_everywhere(server: Server) -> None:
    """A session from one device signs in; signing out everywhere ends every session."""
    first, made = await register(server.url, "Alice")
    assert made["name"] == "Alice" and made["session"] and made["rating"]["provisional"]
    second = await WireClient.open(server.url, name="phone")
    signed = await second.request(type="sign_in", name="alice", password="correct horse")
    assert signed["type"] == "account" and signed["account"] == made["account"]
    third = await WireClient.open(server.url, name="tablet")
    again = await third.request(type="sign_in", session=made["session"])
    assert again["type"] == "account" and again["session"] is None
    out = await second.request(type="sign_out", everywhere=True)
    assert out == {**out, "type": "signed_out", "sessions": 2}
    fourth = await WireClient.open(server.url, name="laptop")
    for session in (made["session"], signed["session"]):
        refused = await fourth.request(type="sign_in", session=session)
        assert refused["code"] == "bad_credentials"
    mine = await first.request(type="profile")
    assert mine["code"] == "not_signed_in"
    for client in (first, second, third, fourth):
        await client.close()


async def test_look_alike_names_are_refused(server: Server) -> None:
    """After Alice: ALICE and A1ice are taken, and the mixed-script АIice is refused."""
    alice, _ = await register(server.url, "Alice")
    other = await WireClient.open(server.url, name="x")
    for name, code in (("ALICE", "name_taken"), ("A1ice", "name_taken"), ("АIice", "bad_name")):
        reply = await other.request(type="register", name=name, password="another one")
        assert reply["type"] == "error" and reply["code"] == code, (name, reply)
    await alice.close()
    await other.close()


async def test_wrong_name_and_wrong_password_get_the_same_answer(server: Server) -> None:
    """'No such name' and 'wrong password' are the same frame, apart from the id."""
    alice, _ = await register(server.url, "Alice")
    probe = await WireClient.open(server.url, name="probe")
    wrong_name = await probe.request(type="sign_in", name="Nobody", password="correct horse", id=1)
    wrong_password = await probe.request(type="sign_in", name="Alice", password="incorrect", id=1)
    assert wrong_name == wrong_password
    assert wrong_name["code"] == "bad_credentials"
    await alice.close()
    await probe.close()


async def test_brute_force_is_slowed(server: Server) -> None:
    """After 5 failures a name is locked: even the right password is refused, without a check."""
    alice, _ = await register(server.url, "Alice")
    attacker = await WireClient.open(server.url, name="mallory")
    started = time.perf_counter()
    codes = []
    for n in range(8):
        reply = await attacker.request(type="sign_in", name="Alice", password=f"guess{n:04}")
        codes.append(reply["code"])
    elapsed = time.perf_counter() - started
    assert codes == ["bad_credentials"] * 5 + ["rate_limited"] * 3
    right = await attacker.request(type="sign_in", name="Alice", password="correct horse")
    assert right["code"] == "rate_limited" and "try again in" in right["message"]
    # Five scrypt checks at least: each takes tens of milliseconds.
    assert elapsed > 5 * 0.01
    await alice.close()
    await attacker.close()


async def test_a_guest_keeps_the_game_when_registering_mid_game(server: Server) -> None:
    """A guest who registers mid-game keeps the seat; the finished match lands in the record."""
    guest = await WireClient.open(server.url, name="guest")
    room = await guest.request(type="create_room", options={"game": {"target": 61}})
    other = await WireClient.open(server.url, name="Bob")
    await other.request(type="join_room", code=room["code"])
    await guest.expect("state")
    reply = await guest.request(type="register", name="Gwen", password="correct horse")
    assert reply["type"] == "account"
    assert guest.room is not None
    seats = guest.room["seats"]
    assert seats[0]["name"] == "Gwen" and seats[0]["kind"] == "human"
    assert guest.state is not None and guest.state["view"]["phase"] in ("discard", "play")
    rng = random.Random(5)
    await asyncio.gather(play_randomly(guest, rng), play_randomly(other, rng))
    history = await guest.request(type="history")
    [game] = history["games"]
    assert game["game"] == f"{room['code']}-1" and game["opponent"] == "Bob"
    assert game["rated"] is False
    final = guest.state["view"] if guest.state else {}
    won = final["games"][-1]["winner"] == 0
    assert game["result"] == ("won" if won else "lost")
    profile = await guest.request(type="profile")
    assert profile["counts"]["matches"] == 1 and profile["counts"]["games"] == 1
    assert profile["counts"]["wins"] == (1 if won else 0)
    assert profile["rating"]["games"] == 0
    record = await guest.request(type="game", game=game["game"], steps=True)
    assert record["type"] == "game" and record["winner"] == (0 if won else 1)
    # The server's replay: the opening, one step per action (and per new deal), to the end.
    steps = record["steps"]
    assert len([s for s in steps if s["action"] is not None]) == len(record["actions"])
    assert [len(h) for h in steps[0]["hands"]] == [6, 6] and steps[0]["action"] is None
    assert max(steps[-1]["scores"]) >= 61 and steps[-1]["scores"][1 - record["winner"]] < 61
    plain = await guest.request(type="game", game=game["game"])  # steps only when asked for
    assert plain["steps"] == [] and plain["actions"] == record["actions"]
    await guest.close()
    await other.close()
