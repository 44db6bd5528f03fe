"""The turn clock each state carries: what each waited-for seat has left as it was sent, its
move time running from when a state first waited for it (not restarted by the other seat's
discard), so both players count down the same figures."""

from __future__ import annotations

import asyncio

from test_concurrency import settle
from wire_client import Frame, WireClient

from muggins.server.app import Server
from muggins.server.rooms.turn_clock import TurnClock


async def timed_pair(server: Server, options: dict[str, object]) -> tuple[WireClient, WireClient]:
    alice = await WireClient.open(server.url, name="Alice")
    bob = await WireClient.open(server.url, name="Bob")
    created = await alice.request(type="create_room", options=options)
    await bob.request(type="join_room", code=created["code"])
    for client in (alice, bob):
        while client.state is None:
            await client.recv()
    return alice, bob


def clock(client: WireClient) -> list[dict[str, float] | None]:
    assert client.state is not None
    shown: list[dict[str, float] | None] = client.state["clock"]
    return shown


async def test_the_discard_clock_runs_from_the_deal_for_the_seat_still_laying_away(
    server: Server,
) -> None:
    """A casual room with 60 s a move and a 90 s bank: the deal's state gives both seats their
    time; after Alice lays away, the state says Bob has less than at the deal (his time was not
    restarted), both players and a newcomer are told the same, and the play's first move then
    gets its time afresh."""
    alice, bob = await timed_pair(server, {"turn_timer": 60, "turn_bank": 90})
    assert alice.room is not None and alice.room["bank"] == [90.0, 90.0]
    dealt = clock(alice)
    assert dealt == clock(bob), "one broadcast: the same figures on both sides"
    assert dealt[0] is not None and dealt[1] is not None
    assert 0 < dealt[1]["move"] <= 60 and dealt[1]["bank"] == 90
    assert alice.state is not None
    seq = alice.state["seq"]
    await asyncio.sleep(0.5)  # Alice takes her time: Bob's runs meanwhile
    await alice.send(type="discard", cards=alice.state["view"]["hand"][:2])
    await settle(seq + 1, alice, bob)
    after = clock(alice)
    assert after == clock(bob)
    assert after[0] is None, "Alice has laid away: nothing waits for her"
    assert after[1] is not None
    assert after[1]["move"] < dealt[1]["move"], (dealt, after)
    assert after[1]["bank"] == 90
    watcher = await WireClient.open(server.url, name="Watcher")
    assert alice.room is not None
    await watcher.request(type="spectate", code=alice.room["code"])
    while watcher.state is None:
        await watcher.recv()
    seen = clock(watcher)[1]
    assert seen is not None and seen["move"] <= after[1]["move"]
    assert bob.state is not None
    await bob.send(type="discard", cards=bob.state["view"]["hand"][:2])
    await settle(seq + 2, alice, bob)
    assert alice.state is not None
    view = alice.state["view"]
    assert view["phase"] == "play"
    [pone] = view["waiting_for"]
    playing = clock(alice)[pone]
    assert playing is not None and playing["move"] > after[1]["move"], "a new move, a new time"
    assert clock(alice)[1 - pone] is None


async def test_an_untimed_room_has_no_clock_and_a_bank_needs_a_clock(server: Server) -> None:
    alice, _ = await timed_pair(server, {})
    assert alice.state is not None and alice.state["clock"] is None
    assert alice.room is not None and alice.room["bank"] is None
    carol = await WireClient.open(server.url, name="Carol")
    refused: Frame = await carol.request(type="create_room", options={"turn_bank": 60})
    assert refused["type"] == "error" and refused["code"] == "bad_message", refused
    assert "needs a per-move clock" in refused["message"], refused


def test_each_seat_s_time_runs_from_when_it_was_first_waited_for() -> None:
    """Seat 0 moving does not restart seat 1's time; a seat that moves and is waited for again
    (a second card in the play after a go) starts afresh; time past the move comes out of the
    bank, and what is left now counts both."""
    now = [0.0]
    turn = TurnClock(30, 60, clock=lambda: now[0])
    log: list[tuple[int, object]] = []
    turn.wait((0, 1), log)
    now[0] = 10
    turn.charge(0)
    log.append((0, "discard"))
    turn.wait((1,), log)
    now[0] = 40
    left = turn.left_now()
    assert left[0] is None and left[1] is not None
    assert (left[1].move, left[1].bank) == (0.0, 50.0)
    assert turn.limit((1,)) == 50
    turn.charge(1)
    log.append((1, "discard"))
    assert turn.left() == (60.0, 50.0)
    turn.wait((1,), log)  # seat 1 again: its own move since, so a new move time
    assert turn.limit((1,)) == 80
    log.append((0, "play"))
    now[0] = 45
    turn.wait((1,), log)  # only the other seat moved: seat 1's time runs on
    assert turn.limit((1,)) == 75
    assert not turn.due(1)
    now[0] = 120
    assert turn.due(1)
    turn.reset()
    assert turn.left() == (60.0, 60.0) and turn.left_now() == (None, None)
