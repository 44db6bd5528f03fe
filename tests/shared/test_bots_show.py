"""The computer in the show of muggins mode: it counts from the cards it sees, by level."""

from __future__ import annotations

import random
from collections import Counter

from stacked import discard, play_all, stacked_match

from muggins.shared.actions import Accept, Action, Challenge, Count, GameOptions, Muggins
from muggins.shared.bots import make_strategy
from muggins.shared.bots.base import stand_in_move
from muggins.shared.match import Match
from muggins.shared.scoring import score_hand
from muggins.shared.view import SeatView

ALICE, BOB = 0, 1
BGA_PLAY = [(BOB, "JH"), (ALICE, "5S"), (BOB, "7C"), (ALICE, "6H")]
BGA_PLAY += [(ALICE, "2S"), (BOB, "6D"), (ALICE, "4S"), (BOB, "4H")]


def bga_show() -> Match:
    """The BGA deal in muggins mode at its show: Bob's hand (9) waits for his count."""
    match = stacked_match(
        dealer=ALICE,
        dealer_cards="5S 4S 2S 8D 6H 8C",
        pone_cards="10S 6D JH 4H KC 7C",
        starter="5H",
        options=GameOptions(muggins=True),
    )
    discard(match, ALICE, "8D 8C")
    discard(match, BOB, "10S KC")
    play_all(match, BGA_PLAY)
    return match


def answering_view(claim: int) -> SeatView:
    match = bga_show()
    match.apply(BOB, Count(points=claim))
    return match.view(ALICE)


def test_the_expert_counts_exactly() -> None:
    """The expert claims what the shown cards make (9), reading no total from the view."""
    view = bga_show().view(BOB)
    assert view.show[-1].total is None
    for seed in range(20):
        assert make_strategy("expert", seed=seed).choose(view) == Count(points=9)


def test_the_expert_catches_every_wrong_count() -> None:
    """Against every claim from 0 to 29 for a 9: muggins below, challenge above, accept on it."""
    for claim in range(30):
        expected: Action = Muggins() if claim < 9 else Challenge() if claim > 9 else Accept()
        assert make_strategy("expert").choose(answering_view(claim)) == expected, claim


def slips(level: str, seeds: int = 400) -> tuple[Counter[str], Counter[str]]:
    """How a level counts a 9 and answers a 7 and a 12, over many seeds."""
    counting = bga_show().view(BOB)
    short, over = answering_view(7), answering_view(12)
    counts: Counter[str] = Counter()
    answers: Counter[str] = Counter()
    for seed in range(seeds):
        bot = make_strategy(level, seed=seed)
        count = bot.choose(counting)
        assert isinstance(count, Count) and count.points <= 9, "the computer never over-claims"
        counts["exact" if count.points == 9 else "short"] += 1
        for view, right in ((short, Muggins()), (over, Challenge())):
            answer = make_strategy(level, seed=seed).choose(view)
            assert answer in (right, Accept()), "the computer never makes a wrong call"
            answers["caught" if answer == right else "passed"] += 1
    return counts, answers


def test_easier_levels_slip_more_by_level() -> None:
    """Easy overlooks and lets pass more often than standard; the expert never does."""
    rates = {}
    for level in ("easy", "standard", "expert"):
        counts, answers = slips(level)
        rates[level] = (counts["short"] / 400, answers["passed"] / 800)
    assert rates["expert"] == (0.0, 0.0)
    assert 0.15 < rates["easy"][0] < 0.35 and 0.4 < rates["easy"][1] < 0.6
    assert 0.04 < rates["standard"][0] < 0.17 and 0.12 < rates["standard"][1] < 0.28


def test_slips_are_deterministic_given_the_seed() -> None:
    """The same level and seed make the same choices in the same views."""
    views = [bga_show().view(BOB), answering_view(7), answering_view(12)]
    for level in ("easy", "standard"):
        for seed in range(30):
            first = [make_strategy(level, seed=seed).choose(v) for v in views]
            again = [make_strategy(level, seed=seed).choose(v) for v in views]
            assert first == again


def test_a_whole_muggins_match_between_computers_ends_with_exact_scores() -> None:
    """Expert against expert: every claim is exact and accepted, so scores match the true counts."""
    match = Match(seed=5, options=GameOptions(muggins=True, target=61))
    bots = [make_strategy("expert", seed=s) for s in (0, 1)]
    rng = random.Random(0)
    while not match.over:
        seat = rng.choice(match.waiting_for())
        view = match.view(seat)
        action = bots[seat].choose(view)
        if isinstance(action, Count):
            pending = view.show[-1]
            true = score_hand(pending.cards, pending.starter, crib=pending.kind == "crib").total
            assert action.points == true
        if isinstance(action, Muggins | Challenge):
            raise AssertionError("an exact count was called")
        match.apply(seat, action)


def test_the_server_moves_exactly_for_a_player_whose_time_is_up() -> None:
    """A timed-out player's count is exact and their answer right (never a slip of the easy
    level); outside the show the stand-in plays the easy level's move."""
    assert stand_in_move(bga_show().view(BOB)) == Count(points=9)
    for claim, right in ((7, Muggins()), (9, Accept()), (12, Challenge())):
        assert stand_in_move(answering_view(claim)) == right
    match = Match(seed=2, options=GameOptions(muggins=True))
    view = match.view(0)
    assert stand_in_move(view) == make_strategy("easy").choose(view)
