"""How a game ends: the instant a score reaches the target, skunks, game points, resigning.

To reach the end quickly these tests set ``match.game.scores`` directly just before the decisive
action; everything after that goes through ``apply``.
"""

from __future__ import annotations

import pytest
from stacked import discard, play, play_all, stacked_match

from muggins.shared.actions import (
    DealRevealed,
    Discarded,
    GameOptions,
    GameOver,
    HandScored,
    HandShown,
    IllegalAction,
    Resign,
    Resigned,
    Scored,
    StarterCut,
)
from muggins.shared.match import Match

ALICE, BOB = 0, 1
BGA_PLAY = [(BOB, "JH"), (ALICE, "5S"), (BOB, "7C"), (ALICE, "6H")]
BGA_PLAY += [(ALICE, "2S"), (BOB, "6D"), (ALICE, "4S"), (BOB, "4H")]


def bga_round(options: GameOptions | None = None) -> Match:
    """The BGA example deal: Alice (seat 0) deals; starter 5H; discards made."""
    match = stacked_match(
        dealer=ALICE,
        dealer_cards="5S 4S 2S 8D 6H 8C",
        pone_cards="10S 6D JH 4H KC 7C",
        starter="5H",
        options=options,
    )
    discard(match, ALICE, "8D 8C")
    discard(match, BOB, "10S KC")
    return match


def heels_deal(options: GameOptions | None = None) -> Match:
    """Seat 1 deals and the starter is a jack; seat 1 still has to discard."""
    match = stacked_match(
        dealer=1,
        dealer_cards="2C 4C 6C 8C 10C QC",
        pone_cards="2D 4D 6D 8D 10D QD",
        starter="JC",
        options=options,
    )
    discard(match, 0, "10D QD")
    return match


def test_dealer_reaches_121_with_heels() -> None:
    """Two for his heels at 119 wins at once: the deck is revealed and nothing else happens."""
    match = heels_deal()
    match.game.scores[:] = [80, 119]
    events = discard(match, 1, "10C QC")
    assert [type(e) for e in events] == [Discarded, StarterCut, Scored, DealRevealed, GameOver]
    over = events[-1]
    assert isinstance(over, GameOver)
    outcome = over.outcome
    assert (outcome.winner, outcome.scores, outcome.reason) == (1, (80, 121), "score")
    assert over.match_over
    view = match.view(0)
    assert (view.phase, view.legal, view.waiting_for) == ("match_over", (), ())
    with pytest.raises(IllegalAction, match="The match is over"):
        play(match, 0, "2D")


def test_pone_reaches_121_in_the_show_so_the_dealer_hand_is_not_counted() -> None:
    """Bob's hand takes him past 121 first: Alice's hand and crib are neither shown nor scored,
    and his peg stops in the game hole (121, not 122)."""
    match = bga_round()
    match.game.scores[:] = [105, 110]
    events = play_all(match, BGA_PLAY)
    shown = [(e.seat, e.kind) for e in events if isinstance(e, HandShown | HandScored)]
    assert shown == [(BOB, "hand"), (BOB, "hand")]
    over = events[-1]
    assert isinstance(over, GameOver)
    assert (over.outcome.winner, over.outcome.scores) == (BOB, (111, 121))
    assert match.view(None).scores == (111, 121)
    last_points = [e for e in events if isinstance(e, Scored)][-1]
    assert last_points.score == 122  # the event keeps the raw points
    view = match.view(None)
    assert view.last_deal is not None
    assert [r.seat for r in view.last_deal.show] == [BOB]
    assert view.last_deal.crib == ()


def test_reaching_121_in_the_play_stops_the_play() -> None:
    """Alice's fifteen 2 at 119 wins; Bob cannot play on."""
    match = bga_round()
    match.game.scores[:] = [119, 0]
    play(match, BOB, "JH")
    events = play(match, ALICE, "5S")
    over = events[-1]
    assert isinstance(over, GameOver)
    assert over.outcome.scores == (121, 0)
    assert over.outcome.double_skunk and over.outcome.game_points == 3
    with pytest.raises(IllegalAction, match="The match is over"):
        play(match, BOB, "7C")


@pytest.mark.parametrize(
    ("target", "scheme", "loser", "skunk", "double", "points"),
    [
        (121, "standard", 91, False, False, 1),
        (121, "standard", 90, True, False, 2),
        (121, "standard", 61, True, False, 2),
        (121, "standard", 60, False, True, 3),
        (121, "acc", 91, False, False, 2),
        (121, "acc", 90, True, False, 3),
        (121, "acc", 60, False, True, 3),
        (61, "standard", 31, False, False, 1),
        (61, "standard", 30, True, False, 2),
        (61, "standard", 0, True, False, 2),
        (61, "acc", 30, True, False, 3),
    ],
)
def test_skunks_and_game_points(
    target: int, scheme: str, loser: int, skunk: bool, double: bool, points: int
) -> None:
    """Skunk below target-30, double skunk below 61 in a game to 121; points by scheme."""
    options = GameOptions.model_validate({"target": target, "scheme": scheme})
    match = heels_deal(options)
    match.game.scores[:] = [loser, target - 2]
    over = discard(match, 1, "10C QC")[-1]
    assert isinstance(over, GameOver)
    outcome = over.outcome
    assert outcome.scores == (loser, target)
    assert (outcome.skunk, outcome.double_skunk, outcome.game_points) == (skunk, double, points)


def test_a_61_point_game_ends_at_61() -> None:
    """In a game to 61, reaching 61 wins; 60 does not."""
    match = bga_round(GameOptions(target=61))
    match.game.scores[:] = [58, 0]
    play(match, BOB, "JH")
    events = play(match, ALICE, "5S")  # fifteen 2: 60
    assert not any(isinstance(e, GameOver) for e in events)
    play(match, BOB, "7C")
    over = play(match, ALICE, "6H")[-1]  # run of 3: 63 points, the peg in the game hole
    assert isinstance(over, GameOver)
    assert over.outcome.scores == (61, 0)


def test_resign_ends_the_game_for_the_opponent() -> None:
    """Either seat may resign at any time, even out of turn; skunks use the scores as they are."""
    match = bga_round()
    match.game.scores[:] = [100, 95]
    assert match.waiting_for() == (BOB,)
    events = match.apply(ALICE, Resign())
    assert [type(e) for e in events] == [Resigned, DealRevealed, GameOver]
    over = events[-1]
    assert isinstance(over, GameOver)
    outcome = over.outcome
    assert (outcome.winner, outcome.reason, outcome.scores) == (BOB, "resign", (100, 95))
    assert (outcome.skunk, outcome.game_points) == (False, 1)
    assert match.winner == BOB


def test_resign_while_far_behind_is_a_skunk() -> None:
    """Resigning below 91 gives the opponent a skunk's game points."""
    match = bga_round()
    match.game.scores[:] = [70, 100]
    over = match.apply(ALICE, Resign())[-1]
    assert isinstance(over, GameOver)
    assert (over.outcome.skunk, over.outcome.game_points) == (True, 2)


def test_resign_is_not_listed_but_always_allowed() -> None:
    """Legal actions never list Resign, yet either seat may resign in any phase."""
    for phase_steps in (0, 2, 4):
        match = bga_round()
        play_all(match, BGA_PLAY[:phase_steps])
        assert not any(isinstance(a, Resign) for seat in (0, 1) for a in match.legal_actions(seat))
        match.apply(BOB, Resign())
        assert match.winner == ALICE


def test_a_double_skunk_is_not_also_a_skunk() -> None:
    """The skunk flags are exclusive: a double skunk has skunk false, as the schema says."""
    match = bga_round()
    match.game.scores[:] = [119, 10]
    play(match, BOB, "JH")
    over = play(match, ALICE, "5S")[-1]
    assert isinstance(over, GameOver)
    assert (over.outcome.skunk, over.outcome.double_skunk) == (False, True)
    described = GameOver.model_json_schema()["$defs"]["Outcome"]["properties"]["skunk"]
    assert "exclusive" in described["description"]


def test_resign_is_never_listed_but_always_accepted() -> None:
    """legal never lists resign (a bot choosing at random must not resign), yet it is accepted
    in every phase of a game."""
    for steps in range(0, 12):
        match = bga_round()
        for seat, card in BGA_PLAY[:steps]:
            play(match, seat, card)
        seat = match.view(None).waiting_for[0] if match.view(None).waiting_for else ALICE
        assert all(not isinstance(a, Resign) for a in match.view(seat).legal)
        events = match.apply(seat, Resign())
        assert isinstance(events[0], Resigned)
