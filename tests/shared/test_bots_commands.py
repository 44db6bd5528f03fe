"""``muggins analyze`` and ``muggins tournament``: figures, JSON shapes and clear errors."""

from __future__ import annotations

import json

import pytest

from muggins.client.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_analyze_ranks_all_fifteen_discards(capsys: pytest.CaptureFixture[str]) -> None:
    """analyze --json lists 15 discards, best net first, each with its hand-score chances."""
    code, out, _ = run(capsys, "analyze", "5H", "5S", "5C", "JD", "2C", "9D", "--dealer", "--json")
    assert code == 0
    data = json.loads(out)
    rows = data["discards"]
    assert len(rows) == 15
    assert rows[0]["discard"] == ["2C", "9D"]
    assert [r["net"] for r in rows] == sorted((r["net"] for r in rows), reverse=True)
    for row in rows:
        assert abs(sum(row["hand_scores"].values()) - 1) < 1e-3
        assert abs(row["net"] - (row["hand"] + row["crib"])) < 1e-2


def test_analyze_as_pone_subtracts_the_crib(capsys: pytest.CaptureFixture[str]) -> None:
    """As pone the crib goes to the opponent, so the net is hand minus crib."""
    code, out, _ = run(capsys, "analyze", "5H", "5S", "5C", "JD", "2C", "9D", "--pone", "--json")
    assert code == 0
    for row in json.loads(out)["discards"]:
        assert abs(row["net"] - (row["hand"] - row["crib"])) < 1e-2


def test_analyze_table_and_errors(capsys: pytest.CaptureFixture[str]) -> None:
    """The table names the role; five cards or a repeated card is refused with exit code 2."""
    code, out, _ = run(capsys, "analyze", "5H", "5S", "5C", "JD", "2C", "9D", "--pone")
    assert code == 0 and "pone" in out and "net" in out
    code, _, err = run(capsys, "analyze", "5H", "5S", "5C", "JD", "2C", "--dealer")
    assert code == 2 and "six" in err
    code, _, err = run(capsys, "analyze", "5H", "5H", "5C", "JD", "2C", "9D", "--dealer")
    assert code == 2 and "twice" in err


def test_tournament_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints games, wins, win_rate, ci95 and points per deal by role."""
    code, out, _ = run(
        capsys, "tournament", "standard", "random", "--games", "4", "--workers", "1", "--json"
    )
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 4
    assert sum(data["wins"].values()) == 4
    assert set(data["win_rate"]) == {"standard", "random"}
    low, high = data["ci95"]
    assert 0 <= low <= data["win_rate"]["standard"] <= high <= 1
    assert set(data["points_per_deal"]["standard"]) == {"dealer", "pone"}
    assert data["points_per_deal"]["random"]["pone"]["crib"] == 0


def test_tournament_self_play_and_round_robin(capsys: pytest.CaptureFixture[str]) -> None:
    """The same level twice is told apart; three levels give a cross-table of every pairing."""
    code, out, _ = run(capsys, "tournament", "easy", "easy", "--games", "2", "--workers", "1")
    assert code == 0 and "easy (2)" in out
    code, out, _ = run(
        capsys, "tournament", "random", "easy", "standard", "--games", "2", "--workers", "1",
        "--json",
    )  # fmt: skip
    data = json.loads(out)
    assert len(data["pairings"]) == 3
    assert set(data["cross"]["standard"]) == {"random", "easy"}


def test_tournament_refuses_unknown_levels(capsys: pytest.CaptureFixture[str]) -> None:
    """An unknown level is named, with the choices, and nothing is played."""
    code, _, err = run(capsys, "tournament", "expert", "grandmaster")
    assert code == 2 and "grandmaster" in err and "expert" in err


@pytest.mark.parametrize(("option", "value"), [("--games", "0"), ("--workers", "0")])
def test_tournament_refuses_counts_under_one(
    capsys: pytest.CaptureFixture[str], option: str, value: str
) -> None:
    """A count that would play nothing (or on no worker) is refused by name, not run."""
    code, out, err = run(capsys, "tournament", "easy", "random", option, value)
    assert code == 2 and f"{option} must be at least 1" in err and out == ""


def test_tournament_reports_progress_as_lines_when_stderr_is_not_a_terminal(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """In a log there is no live bar: a line per tenth of the work says how far it has got."""
    code, out, err = run(
        capsys, "tournament", "random", "random", "--games", "100", "--workers", "1", "--json"
    )
    assert code == 0
    assert json.loads(out)["games"] == 100  # stdout stays one JSON object
    lines = [line for line in err.splitlines() if " games in " in line]
    # Chunks of 25 games: a line at each of 25, 50, 75 and 100, with the time left.
    assert [line.split(" ")[0] for line in lines] == ["25/100", "50/100", "75/100", "100/100"]
    assert all(line.endswith(" s left") for line in lines)
