"""``muggins score``: one hand's breakdown, the distribution of all hands, and clear errors."""

from __future__ import annotations

import json

import pytest

from muggins.client.cli import main
from muggins.shared.distribution import published_hand_table


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["score", *args])
    out, err = capsys.readouterr()
    return code, out, err


def test_29_hand_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    """The 29 hand prints every part and the total 29."""
    code, out, err = run(capsys, "5H", "5S", "5C", "JD", "--starter", "5D")
    assert (code, err) == (0, "")
    assert "one for his nobs" in out
    assert out.count("fifteen ") >= 8
    assert "29" in out.splitlines()[-2]
    assert "twenty-nine" in out


def test_starter_may_be_the_fifth_card(capsys: pytest.CaptureFixture[str]) -> None:
    """Five cards without --starter take the last as the starter."""
    assert (
        run(capsys, "5H", "5S", "5C", "JD", "5D", "--json")[1]
        == run(capsys, "5H", "5S", "5C", "JD", "-s", "5D", "--json")[1]
    )


def test_hand_json(capsys: pytest.CaptureFixture[str]) -> None:
    """--json prints one object with the total and every part with its cards."""
    code, out, _ = run(capsys, "5H", "5S", "5C", "JD", "--starter", "5D", "--json")
    result = json.loads(out)
    assert code == 0
    assert result["total"] == 29
    assert sum(part["points"] for part in result["parts"]) == 29
    assert {"kind": "nobs", "points": 1, "cards": ["JD"]} in result["parts"]
    assert (result["starter"], result["crib"]) == ("5D", False)


def test_crib_rule(capsys: pytest.CaptureFixture[str]) -> None:
    """--crib drops the four-card flush that a hand would score."""
    hand = json.loads(run(capsys, "2H", "4H", "6H", "8H", "-s", "KS", "--json")[1])
    crib = json.loads(run(capsys, "2H", "4H", "6H", "8H", "-s", "KS", "--crib", "--json")[1])
    assert (hand["total"], crib["total"], crib["crib"]) == (4, 0, True)
    code, out, _ = run(capsys, "2H", "4H", "6H", "8H", "-s", "KS", "--crib")
    assert code == 0 and out.startswith("Crib:")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["5H", "5S", "5C", "XX", "-s", "5D"], "'XX' is not a card"),
        (["5H", "5S", "5C", "5H", "-s", "5D"], "5H is given twice"),
        (["5H", "5S", "5C", "JD", "-s", "5H"], "5H is given twice"),
        (["5H", "5S", "5C", "-s", "5D"], "four cards, not 3"),
        (["5H", "5S", "5C", "JD"], "not 4 cards"),
        (["5H", "5S", "5C", "JD", "5D", "6D"], "not 6 cards"),
        ([], "give four cards and --starter"),
        (["--distribution", "5H"], "do not give cards"),
    ],
)
def test_errors_exit_2_with_a_message(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    """Bad cards, duplicates and wrong counts print a clear message on stderr and exit 2."""
    code, out, err = run(capsys, *args)
    assert (code, out) == (2, "")
    assert err.startswith("muggins score: ")
    assert message in err


def test_distribution_json(capsys: pytest.CaptureFixture[str]) -> None:
    """--distribution --json prints hands, counts by score, the mean and the seconds taken."""
    code, out, _ = run(capsys, "--distribution", "--json")
    result = json.loads(out)
    assert code == 0
    assert result["hands"] == 12_994_800
    assert {int(k): v for k, v in result["counts"].items()} == published_hand_table()
    assert result["counts"]["0"] == 1_009_008
    assert result["mean"] == 4.7692
    assert result["seconds"] >= 0


def test_distribution_crib_json(capsys: pytest.CaptureFixture[str]) -> None:
    """With --crib the table follows the crib rule: 1,022,208 zeros and mean 4.7348."""
    result = json.loads(run(capsys, "--distribution", "--crib", "--json")[1])
    assert (result["rule"], result["counts"]["0"], result["mean"]) == ("crib", 1_022_208, 4.7348)


def test_distribution_table(capsys: pytest.CaptureFixture[str]) -> None:
    """The text table lists every score, the mean, the check against the published table, time."""
    code, out, _ = run(capsys, "--distribution")
    assert code == 0
    assert "1,009,008" in out
    assert "mean 4.7692" in out
    assert "impossible scores: 19, 25, 26, 27" in out
    assert "matches the published table" in out
    assert "hands/s" in out
    crib = run(capsys, "--distribution", "--crib")[1]
    assert "matches the published crib figures" in crib
