"""Tournaments in the terminal: the plain mode's make-one commands, the standings in words, and
a late reply that does not print older standings than the news heard before it."""

from __future__ import annotations

import asyncio
import io

import pytest
from harness import real_server, wait_for

from muggins.client.accounts import Link
from muggins.client.plain import PlainClient
from muggins.client.session import Goal
from muggins.client.tournaments import create_message, list_lines, standings_lines
from muggins.server.accounts.roles import grant
from muggins.shared.protocol import ServerMessage
from muggins.shared.protocol.accounts import Account, Register, SignIn
from muggins.shared.protocol.tournaments import (
    CreateTournament,
    JoinTournament,
    Standing,
    TournamentGame,
    TournamentInfo,
    Tournaments,
    TournamentSummary,
)

SUMMARY = TournamentSummary(
    tournament="T1A2B3", name="Swiss Cup", kind="swiss", status="playing", duplicate=True,
    bots=False, players=4, rounds=4, round=2,
)  # fmt: skip


def test_the_commands_make_the_messages() -> None:
    """`swiss 4 duplicate Friday Cup` is a four-round Swiss on duplicate deals named Friday Cup."""
    swiss = create_message("swiss", ["4", "duplicate", "Friday", "Cup"])
    assert (swiss.kind, swiss.rounds, swiss.duplicate, swiss.bots, swiss.name) == (
        "swiss", 4, True, False, "Friday Cup",
    )  # fmt: skip
    arena = create_message("arena", ["45", "bots", "Late", "Arena"])
    assert (arena.kind, arena.minutes, arena.bots, arena.name) == ("arena", 45, True, "Late Arena")
    with pytest.raises(ValueError, match="many rounds"):
        create_message("swiss", ["Cup"])


def test_the_standings_read_in_words() -> None:
    """Points, W-D-L and Buchholz for a Swiss; the games newest first with their ids."""
    info = TournamentInfo(
        summary=SUMMARY,
        standings=(
            Standing(rank=1, name="Ann", points=2, games=2, wins=2, draws=0, losses=0, streak=2,
                     buchholz=1.5, active=True),
            Standing(rank=2, name="Deep Peg [bot]", points=0.5, games=2, wins=0, draws=1,
                     losses=1, streak=0, buchholz=2.5, active=False),
        ),
        games=(
            TournamentGame(game="ABCDEF-1", names=("Ann", "Deep Peg [bot]"), round=1, result=1.0),
            TournamentGame(game="GHIJKL-1", names=("Deep Peg [bot]", "Ann"), round=2, result=None),
        ),
        joined=True,
    )  # fmt: skip
    lines = standings_lines(info)
    assert lines[0] == (
        "Swiss Cup (T1A2B3): Swiss, 4 rounds · playing, round 2 · 4 players · duplicate deals · "
        "people only · you are in"
    )
    assert lines[2].split() == ["1", "Ann", "2", "2", "2-0-0", "1.5"]
    assert lines[3].split() == ["2", "Deep", "Peg", "[bot]", "(left)", "0.5", "2", "0-1-1", "2.5"]
    assert lines[4].split() == ["round", "2:", "Deep", "Peg", "[bot]", "-", "Ann", "playing",
                                "(GHIJKL-1)"]  # fmt: skip
    assert list_lines(Tournaments(tournaments=(SUMMARY,)))[0].startswith("T1A2B3  Swiss Cup: ")


async def test_a_late_reply_prints_the_newest_standings_heard() -> None:
    """Ann types `enter ID` in plain mode and her reply is held on its way while Bob joins: she
    hears the news of his join first, and when her reply (one player) comes at last, the
    standings printed are the newer ones, with both players."""
    out = io.StringIO()
    async with real_server() as server:
        async with Link(server.url) as link:
            assert isinstance(
                await link.ask(Register(name="Boss", password="long enough")), Account
            )
        await grant(server.store, "Boss", "admin")
        async with Link(server.url) as link:
            await link.ask(SignIn(name="Boss", password="long enough"))
            made = await link.ask(CreateTournament(name="Late News", kind="swiss", rounds=2))
        assert isinstance(made, TournamentInfo)
        tid = made.summary.tournament
        async with Link(server.url) as link:
            ann = await link.ask(Register(name="Ann", password="long enough"))
        assert isinstance(ann, Account)
        client = PlainClient(
            url=server.url, name="Ann", goal=Goal("lobby", session=ann.session), out=out
        )
        deliver = client.link.on_message  # type: ignore[attr-defined]
        held: list[ServerMessage] = []
        heard: list[TournamentInfo] = []

        def on_message(message: ServerMessage) -> None:
            if isinstance(message, TournamentInfo) and message.id is not None:
                held.append(message)  # the reply, on its way still
                return
            if isinstance(message, TournamentInfo):
                heard.append(message)
            deliver(message)

        client.link.on_message = on_message  # type: ignore[attr-defined]
        lines: asyncio.Queue[str | None] = asyncio.Queue()
        task = asyncio.create_task(client.run(lines))
        await wait_for(lambda: client.session.signed_in)
        await lines.put(f"enter {tid}")
        await wait_for(lambda: held)
        async with Link(server.url) as link:
            await link.ask(Register(name="Bob", password="long enough"))
            assert isinstance(await link.ask(JoinTournament(tournament=tid)), TournamentInfo)
            # The news of Bob's join, before Ann's reply.
            await wait_for(lambda: any(info.summary.players == 2 for info in heard))
        [reply] = held
        assert isinstance(reply, TournamentInfo) and reply.summary.players == 1
        deliver(reply)
        await wait_for(lambda: "Late News (" in out.getvalue())
        await lines.put(None)
        await task
    printed = [line for line in out.getvalue().splitlines() if line.startswith("| Late News")]
    assert printed == [
        f"| Late News ({tid}): Swiss, 2 rounds · not started yet · 2 players · people only"
        " · you are in"
    ]
