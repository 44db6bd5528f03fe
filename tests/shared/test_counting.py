"""The muggins settlement rule: what an answered claim pegs, for every claim, total and answer."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from muggins.shared.counting import (
    MAX_CLAIM,
    WRONG_CALL_PENALTY,
    Answer,
    call_is_right,
    settle,
)

POINTS = st.integers(0, MAX_CLAIM)
ANSWERS: tuple[Answer, ...] = ("accept", "muggins", "challenge")


@given(claimed=POINTS, total=POINTS)
def test_accepting_lets_any_claim_stand(claimed: int, total: int) -> None:
    """Accept: the owner pegs exactly the claim, over or short, and nobody else pegs."""
    settlement = settle(claimed, total, "accept")
    assert (settlement.credited, settlement.taken, settlement.penalty) == (claimed, 0, 0)
    assert call_is_right(claimed, total, "accept") is None


@given(claimed=POINTS, total=POINTS)
def test_a_right_muggins_call_takes_the_missed_points(claimed: int, total: int) -> None:
    """Muggins on a short count: owner pegs the claim, the caller the rest; together the total."""
    settlement = settle(claimed, total, "muggins")
    if claimed < total:
        assert (settlement.credited, settlement.taken, settlement.penalty) == (
            claimed,
            total - claimed,
            0,
        )
        assert settlement.credited + settlement.taken == total
    else:
        assert (settlement.credited, settlement.taken) == (claimed, 0)
        assert settlement.penalty == WRONG_CALL_PENALTY


@given(claimed=POINTS, total=POINTS)
def test_a_right_challenge_puts_the_owner_back(claimed: int, total: int) -> None:
    """Challenge of an over-count: owner pegs the true total, the challenger the excess."""
    settlement = settle(claimed, total, "challenge")
    if claimed > total:
        assert (settlement.credited, settlement.taken, settlement.penalty) == (
            total,
            claimed - total,
            0,
        )
    else:
        assert (settlement.credited, settlement.taken) == (claimed, 0)
        assert settlement.penalty == WRONG_CALL_PENALTY


@given(claimed=POINTS, total=POINTS, answer=st.sampled_from(ANSWERS))
def test_nobody_pegs_less_than_nothing_and_a_wrong_call_never_pays(
    claimed: int, total: int, answer: Answer
) -> None:
    """Points are never negative; a call pays its caller only when right, and only then."""
    settlement = settle(claimed, total, answer)
    assert min(settlement.credited, settlement.taken, settlement.penalty) >= 0
    right = call_is_right(claimed, total, answer)
    assert (settlement.taken > 0) == bool(right)
    assert (settlement.penalty > 0) == (right is False)
    assert settlement.owner_points == settlement.credited + settlement.penalty


@pytest.mark.parametrize(("claimed", "total"), [(-1, 5), (30, 5), (5, 30)])
def test_counts_outside_0_to_29_are_refused(claimed: int, total: int) -> None:
    """No hand makes more than 29, so settle refuses anything outside 0-29 with a sentence."""
    with pytest.raises(ValueError, match="a count is from 0 to 29"):
        settle(claimed, total, "accept")
