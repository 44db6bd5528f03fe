"""Saved seats: a token is used only for the seat it was issued for, never by a spectator, and
never by a second live client on the same account; two clients on one token do not fight."""

from __future__ import annotations

import asyncio
from pathlib import Path

from harness import real_server

from muggins.client.connection import Connection, LinkStatus
from muggins.client.seats import Seats
from muggins.client.session import Goal, Session
from muggins.shared.protocol import Room, RoomOptions, SeatInfo, ServerMessage, Welcome

URL = "ws://h:1"


def seated(name: str, code: str, you: int | None, goal: Goal | None = None) -> Session:
    """A session seated (or watching, with ``you`` None) in room ``code``."""
    session = Session(name=name, goal=goal or Goal("lobby"))
    session.room = Room(
        code=code,
        options=RoomOptions(),
        seats=(
            SeatInfo(seat=0, name="Alice", kind="human", connected=True),
            SeatInfo(seat=1, name="Bob", kind="human", connected=True),
        ),
        spectators=0,
        you=you,
        status="playing",
        match_number=1,
    )
    return session


def test_a_second_client_on_the_account_does_not_take_the_first_ones_seat(tmp_path: Path) -> None:
    """Alice's running client holds her token: Bob's --join of her room (same data file) and
    a --watch get no token; once Alice's client ends, her token is hers again."""
    alice = Seats(tmp_path / "seats.json")
    alice.save(URL, "alice-token", seated("me", "KXPWTR", 0))
    bob = Seats(tmp_path / "seats.json")
    assert bob.token_for(URL, Goal("join", code="KXPWTR"), fresh=False) is None
    assert bob.token_for(URL, Goal("lobby"), fresh=False) is None
    assert bob.token_for(URL, Goal("spectate", code="KXPWTR"), fresh=False) is None
    bob.save(URL, "bob-token", seated("me", "KXPWTR", 1, Goal("join", code="KXPWTR")))
    alice.release()
    later = Seats(tmp_path / "seats.json")
    # Bob's client still runs: the free token for that room is Alice's.
    assert later.token_for(URL, Goal("join", code="KXPWTR"), fresh=False) == "alice-token"


def test_a_spectator_never_uses_or_keeps_a_token(tmp_path: Path) -> None:
    """--watch sends no token even when one for that room is saved, and saves none."""
    seats = Seats(tmp_path / "seats.json")
    seats.save(URL, "player-token", seated("me", "KXPWTR", 0))
    seats.release()
    watcher = Seats(tmp_path / "seats.json")
    assert watcher.token_for(URL, Goal("spectate", code="KXPWTR"), fresh=False) is None
    watcher.save(URL, "watch-token", seated("me", "KXPWTR", None, Goal("spectate", "KXPWTR")))
    assert "watch-token" not in (tmp_path / "seats.json").read_text()


def test_a_join_uses_only_a_token_seated_in_that_room(tmp_path: Path) -> None:
    """A token that only watched a room, or sits in another, is not used to --join it."""
    seats = Seats(tmp_path / "seats.json")
    seats.save(URL, "lobby-token", seated("me", "KXPWTR", None))
    seats.save(URL, "other-token", seated("me", "ABCDEF", 0))
    seats.release()
    again = Seats(tmp_path / "seats.json")
    assert again.token_for(URL, Goal("join", code="KXPWTR"), fresh=False) is None
    assert again.token_for(URL, Goal("join", code="ABCDEF"), fresh=False) == "other-token"


async def test_two_clients_on_one_token_do_not_fight() -> None:
    """The same token connected twice: the older client is told its seat was taken over and
    stops; the newer keeps the seat, welcomed once, with no reconnection loop."""
    async with real_server() as server:
        statuses: list[LinkStatus] = []
        welcomes: list[ServerMessage] = []
        first = Connection(
            server.url, name="Alice", on_message=lambda m: None, on_status=statuses.append
        )
        first_run = asyncio.create_task(first.run())
        while first.token is None:
            await asyncio.sleep(0.02)
        second = Connection(
            server.url,
            name="Alice",
            token=first.token,
            on_message=lambda m: welcomes.append(m) if isinstance(m, Welcome) else None,
            on_status=lambda s: None,
        )
        second_run = asyncio.create_task(second.run())
        await asyncio.wait_for(first_run, 5)
        assert statuses[-1].state == "replaced"
        assert "took over this seat" in statuses[-1].sentence()
        await asyncio.sleep(1.0)
        assert len(welcomes) == 1 and second.connected
        await second.close()
        await asyncio.wait_for(second_run, 5)


def test_the_newest_twenty_tokens_are_kept_and_older_lock_files_go(tmp_path: Path) -> None:
    """Each server keeps its 20 newest tokens; a dropped token's lock file is removed."""
    from muggins.client.seats import KEEP

    writer = Seats(tmp_path / "seats.json")
    for n in range(KEEP):
        writer.save(URL, f"token-{n}", seated("me", "KXPWTR", 0))
    writer.release()
    assert len(list((tmp_path / "locks").iterdir())) == KEEP
    later = Seats(tmp_path / "seats.json")
    later.save(URL, "token-new", seated("me", "ABCDEF", 0))
    saved = [e["token"] for e in later.load()[URL]]
    assert len(saved) == KEEP and "token-0" not in saved and saved[-1] == "token-new"
    assert len(list((tmp_path / "locks").iterdir())) == KEEP
