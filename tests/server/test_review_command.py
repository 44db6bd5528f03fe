"""`muggins review` sets a finished game's decisions against the expert's."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest
from test_commands import finished_game

from muggins.client.cli import main


def test_review_prints_each_decision_and_a_summary(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The human seat is reviewed by default; --json has every decision and the summary."""
    db = tmp_path / "games.db"
    game = asyncio.run(finished_game(db))
    assert main(["review", game, "--db", str(db)]) == 0
    text = capsys.readouterr().out
    assert text.startswith(f"Review of {game}: Alice (seat 0) against Computer (random)")
    assert "discard" in text and "Points given away: discards" in text
    assert main(["review", game, "--db", str(db), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["player"] == "Alice" and data["seat"] == 0
    kinds = {d["kind"] for d in data["decisions"]}
    assert {"discard", "play"} <= kinds
    summary = data["summary"]
    total = sum(d["loss"] for d in data["decisions"] if d["kind"] == "discard")
    assert summary["discards"] == pytest.approx(total, abs=0.01)
    assert len(summary["worst"]) <= 3
    assert main(["review", game, "--db", str(db), "--seat", "1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["player"] == "Computer (random)"


def test_review_refuses_unknown_games(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown id or a missing file is a clear message and a failing status."""
    assert main(["review", "NOSUCH-1", "--db", str(tmp_path / "none.db")]) == 1
    assert "does not exist" in capsys.readouterr().out
    assert main(["review", "not an id", "--db", str(tmp_path / "none.db")]) == 2
