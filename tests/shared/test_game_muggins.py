"""Muggins mode: players count their own hands; a short count can be taken by the opponent."""

from __future__ import annotations

import pytest
from stacked import discard, play_all, stacked_match

from shared.actions import (
    Accept,
    Count,
    CountClaimed,
    GameOptions,
    HandScored,
    HandShown,
    IllegalAction,
    Muggins,
    Play,
    Scored,
)
from shared.cards import parse_card
from shared.match import Match

ALICE, BOB = 0, 1
BGA_PLAY = [(BOB, "JH"), (ALICE, "5S"), (BOB, "7C"), (ALICE, "6H")]
BGA_PLAY += [(ALICE, "2S"), (BOB, "6D"), (ALICE, "4S"), (BOB, "4H")]


def at_the_show() -> Match:
    """The BGA deal in muggins mode, played out: Alice 6, Bob 3, Bob's hand (9) to count."""
    match = stacked_match(
        dealer=ALICE,
        dealer_cards="5S 4S 2S 8D 6H 8C",
        pone_cards="10S 6D JH 4H KC 7C",
        starter="5H",
        options=GameOptions(muggins=True),
    )
    discard(match, ALICE, "8D 8C")
    discard(match, BOB, "10S KC")
    events = play_all(match, BGA_PLAY)
    assert [e.seat for e in events if isinstance(e, HandShown)] == [BOB]
    assert not any(isinstance(e, HandScored) for e in events)
    return match


def test_nothing_is_counted_automatically() -> None:
    """In muggins mode the pone's hand is laid down and waits for its owner's count."""
    match = at_the_show()
    view = match.view(BOB)
    assert (view.phase, view.turn, view.scores) == ("show", BOB, (6, 3))
    assert view.show[-1].total is None
    assert match.legal_actions(ALICE) == []


def test_overclaim_is_refused() -> None:
    """Claiming more than the hand makes is refused: count again, nothing changes."""
    match = at_the_show()
    with pytest.raises(IllegalAction, match="Your hand makes 9, not 10; count again"):
        match.apply(BOB, Count(points=10))
    assert match.view(BOB).turn == BOB


def test_underclaim_stands_and_muggins_takes_the_missed_points() -> None:
    """Bob counts 7 of 9; Alice calls muggins and pegs the 2 he missed."""
    match = at_the_show()
    [claimed] = match.apply(BOB, Count(points=7))
    assert claimed == CountClaimed(seat=BOB, kind="hand", claimed=7)
    assert set(match.legal_actions(ALICE)) == {Accept(), Muggins()}
    events = match.apply(ALICE, Muggins())
    pegged = [(e.seat, e.reason, e.points) for e in events if isinstance(e, Scored)]
    assert pegged[:2] == [(BOB, "hand", 7), (ALICE, "muggins", 2)]
    [bob_hand] = match.view(None).show[:1]
    assert (bob_hand.total, bob_hand.claimed, bob_hand.muggins) == (9, 7, 2)
    assert match.view(None).scores == (8, 10)


def test_accepting_a_short_count_leaves_the_points_unclaimed() -> None:
    """If the opponent accepts, the owner pegs only what he claimed."""
    match = at_the_show()
    match.apply(BOB, Count(points=7))
    match.apply(ALICE, Accept())
    assert match.view(None).scores == (6, 10)


def test_muggins_on_a_right_count_is_refused() -> None:
    """There is nothing to take from an exact count; only Accept is offered."""
    match = at_the_show()
    match.apply(BOB, Count(points=9))
    assert match.legal_actions(ALICE) == [Accept()]
    with pytest.raises(IllegalAction, match="nothing to take: the count of 9 is right"):
        match.apply(ALICE, Muggins())
    match.apply(ALICE, Accept())
    assert match.view(None).scores == (6, 12)


def test_the_whole_show_dealer_hand_and_crib() -> None:
    """After the pone's hand the dealer counts her hand, then her crib; the other answers each."""
    match = at_the_show()
    match.apply(BOB, Count(points=9))
    match.apply(ALICE, Accept())
    assert match.view(ALICE).turn == ALICE
    with pytest.raises(IllegalAction, match="Your hand makes 12, not 13"):
        match.apply(ALICE, Count(points=13))
    match.apply(ALICE, Count(points=12))
    match.apply(BOB, Accept())
    with pytest.raises(IllegalAction, match="Your crib makes 6, not 8"):
        match.apply(ALICE, Count(points=8))
    match.apply(ALICE, Count(points=4))
    match.apply(BOB, Muggins())
    assert match.view(None).scores == (6 + 12 + 4, 12 + 2)
    assert (match.view(None).deal_number, match.view(None).phase) == (2, "discard")


def test_out_of_turn_counting_and_answering_are_refused() -> None:
    """Only the owner counts, only the opponent answers, and no card is played in the show."""
    match = at_the_show()
    with pytest.raises(IllegalAction, match="It is not your turn to count"):
        match.apply(ALICE, Count(points=9))
    with pytest.raises(IllegalAction, match="There is no count to answer"):
        match.apply(ALICE, Accept())
    with pytest.raises(IllegalAction, match="It is not time to play a card"):
        match.apply(BOB, Play(card=parse_card("6D")))
    match.apply(BOB, Count(points=9))
    with pytest.raises(IllegalAction, match="It is not time to count"):
        match.apply(BOB, Count(points=9))
    with pytest.raises(IllegalAction, match="It is not your turn"):
        match.apply(BOB, Accept())
