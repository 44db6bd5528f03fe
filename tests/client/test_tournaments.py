"""Tournaments in the terminal: the plain mode's make-one commands, and the standings in words."""

from __future__ import annotations

import pytest

from muggins.client.tournaments import create_message, list_lines, standings_lines
from muggins.shared.protocol.tournaments import (
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
