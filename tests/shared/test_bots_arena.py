"""Tournament games: seeds, alternating deals, and points attributed by role and source."""

from __future__ import annotations

from muggins.shared.actions import GameOptions
from muggins.shared.bots.arena import Scorekeeper, Tally, game_seed, play_game, wilson
from muggins.shared.bots.base import make_strategy
from muggins.shared.match import Match


def test_game_seeds_differ_per_game_and_repeat_per_tournament() -> None:
    """Each game of a tournament has its own seed, the same every time the tournament runs."""
    seeds = {game_seed(1, i) for i in range(100)}
    assert len(seeds) == 100
    assert game_seed(1, 5) == game_seed(1, 5) != game_seed(2, 5)


def test_the_first_player_deals_first_in_even_games() -> None:
    """Game i is dealt first by player i % 2, whichever seat won the cut."""
    for index in range(6):
        record = play_game("easy", "random", seed=3, index=index)
        assert record.first_dealer == index % 2
        assert play_game("easy", "random", seed=3, index=index) == record


def test_scorekeeper_points_add_up_to_the_scores() -> None:
    """Points by role and source, plus the unfinished last deal, add up to each final score
    (the winner's raw points may pass the game hole, where the final score stops)."""
    match = Match(seed=21)
    dealer = match.game.dealer
    keeper = Scorekeeper((0, 1), dealer)
    bots = [make_strategy("standard", seed=s) for s in (0, 1)]
    while not match.over:
        seat = match.waiting_for()[0]
        for event in match.apply(seat, bots[seat].choose(match.view(seat))):
            keeper.feed(event)
    outcome = match.games[-1]
    for seat in (0, 1):
        done = sum(n for (p, _, _), n in keeper.points.items() if p == seat)
        pending = sum(n for (p, _, _), n in keeper.pending.items() if p == seat)
        assert min(done + pending, match.options.target) == outcome.scores[seat]
    assert not any(source == "crib" and role == "pone" for (_, role, source) in keeper.points)
    assert sum(keeper.deals) >= 5


def test_tally_counts_wins_skunks_and_the_first_dealer() -> None:
    """A tally adds games up; its JSON has the documented keys."""
    tally = Tally(players=("standard", "random"))
    for index in range(4):
        tally.add(play_game("standard", "random", seed=1, index=index, options=GameOptions()))
    data = tally.to_json()
    assert data["games"] == 4 and sum(tally.wins) == 4
    assert set(data) >= {"games", "wins", "win_rate", "ci95", "points_per_deal"}
    low, high = data["ci95"]  # type: ignore[misc]
    assert 0 <= low <= tally.win_rate(0) <= high <= 1


def test_wilson_interval() -> None:
    """The Wilson 95% interval: 60 of 100 gives about 50.2% to 69.1%, and it stays in [0, 1]."""
    low, high = wilson(60, 100)
    assert round(low, 3) == 0.502 and round(high, 3) == 0.691
    assert wilson(0, 10)[0] == 0.0 and wilson(10, 10)[1] == 1.0
