"""Duplicate deals: the same cards for both players, and the per-pair figures."""

from __future__ import annotations

import json

import pytest

from muggins.client.cli import main
from muggins.shared.actions import GameOptions
from muggins.shared.bots.arena import play_seated
from muggins.shared.bots.duplicate import DuplicateTally, mean_ci, mirrored, pair_seed, play_pair
from muggins.shared.match import Match


def test_both_games_of_a_pair_deal_the_same_cards() -> None:
    """The two games of a pair have equal deal commitments and the same first dealer's cards."""
    for index in range(3):
        pair = play_pair("standard", "random", seed=5, index=index)
        a, b = pair.games
        assert pair.deals_agree
        assert a.commitments[0] == b.commitments[0]
        # The seat that deals first is the same, so the players swap who deals first.
        assert a.first_dealer != b.first_dealer


def test_self_play_of_a_deterministic_level_is_a_mirror() -> None:
    """A level against itself plays each pair to a draw: win difference 0, margin 0."""
    tally = DuplicateTally()
    for index in range(3):
        tally.add(play_pair("standard", "standard", seed=2, index=index))
    assert tally.win_difference()[0] == 0.0 and tally.points_margin()[0] == 0.0
    assert tally.swept == [0, 0]


@pytest.mark.parametrize("level", ["random", "easy", "standard", "expert"])
def test_self_play_second_game_is_the_first_mirrored(level: str) -> None:
    """A level's pair against itself plays its second game only as the first with the names
    swapped: the record is exactly what playing it would give."""
    for index in (0, 1):
        seed = pair_seed(4, index)
        first, second = (
            play_seated(
                Match(seed=seed, options=GameOptions(), keep_events=False),
                (level, level),
                player_of,
                index=2 * index + k,
            )
            for k, player_of in enumerate([(0, 1), (1, 0)])
        )
        assert first != second
        assert mirrored(first, index=2 * index + 1) == second
        assert play_pair(level, level, seed=4, index=index).games == (first, second)


def test_pair_margin_caps_scores_at_the_target() -> None:
    """The margin sums capped score differences; the win difference is wins less one."""
    pair = play_pair("standard", "random", seed=1, index=0)
    expected = sum(min(g.scores[0], 121) - min(g.scores[1], 121) for g in pair.games)
    assert pair.margin == expected
    assert pair.win_difference == sum(g.winner == 0 for g in pair.games) - 1


def test_mean_ci_matches_a_hand_calculation() -> None:
    """Values 1, 0, 0, 1: mean 0.5, sd 0.577, half-width 1.96 * 0.577 / 2."""
    mean, low, high = mean_ci(2.0, 2.0, 4)
    assert mean == 0.5
    assert high - mean == pytest.approx(1.959964 * (1 / 3) ** 0.5 / 2)
    assert low == pytest.approx(1 - high)


def test_tournament_duplicate_json(capsys: pytest.CaptureFixture[str]) -> None:
    """--duplicate --json adds the per-pair figures; --games counts pairs."""
    code = main(
        ["tournament", "standard", "random", "--duplicate", "--games", "3", "--workers", "1",
         "--json"]
    )  # fmt: skip
    out, _ = capsys.readouterr()
    assert code == 0
    data = json.loads(out)
    assert data["games"] == 6
    dup = data["duplicate"]
    assert dup["pairs"] == 3 and dup["deals_disagree"] == 0
    assert set(dup) >= {"win_difference", "win_difference_ci95", "points_margin", "swept"}
    low, high = dup["points_margin_ci95"]
    assert low <= dup["points_margin"] <= high


def test_tournament_duplicate_text(capsys: pytest.CaptureFixture[str]) -> None:
    """The text report names the win difference, the margin and the sweeps."""
    args = ["tournament", "standard", "random", "--duplicate", "--games", "2", "--workers", "1"]
    code = main(args)
    out, _ = capsys.readouterr()
    assert code == 0
    assert "win difference per pair" in out and "points margin per pair" in out
    assert "pairs won both games" in out
