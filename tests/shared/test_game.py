"""One game's deal, play and show: the BGA example round and the rules of the play."""

from __future__ import annotations

import pytest
from stacked import discard, play, play_all, stacked_match

from muggins.shared.actions import (
    CardPlayed,
    CountReset,
    Discard,
    Discarded,
    Event,
    Go,
    HandScored,
    HandShown,
    IllegalAction,
    Play,
    Scored,
    StarterCut,
)
from muggins.shared.cards import parse_card, parse_cards
from muggins.shared.match import Match

ALICE, BOB = 0, 1


def bga_round() -> Match:
    """Alice (seat 0) deals 5S 4S 2S 8D 6H 8C to herself, 10S 6D JH 4H KC 7C to Bob; starter 5H."""
    match = stacked_match(
        dealer=ALICE,
        dealer_cards="5S 4S 2S 8D 6H 8C",
        pone_cards="10S 6D JH 4H KC 7C",
        starter="5H",
    )
    discard(match, ALICE, "8D 8C")
    discard(match, BOB, "10S KC")
    return match


BGA_PLAY = [(BOB, "JH"), (ALICE, "5S"), (BOB, "7C"), (ALICE, "6H")]
BGA_PLAY += [(ALICE, "2S"), (BOB, "6D"), (ALICE, "4S"), (BOB, "4H")]


def pegs(events: list[Event]) -> list[tuple[str, int, int]]:
    """(what, seat, points) for every scoring event of the play, in order."""
    out: list[tuple[str, int, int]] = []
    for event in events:
        if isinstance(event, CardPlayed) and event.points:
            out.append((str(event.card), event.seat, event.points))
        elif isinstance(event, Scored):
            out.append((event.reason, event.seat, event.points))
    return out


def test_bga_example_play() -> None:
    """J-5 fifteen 2, 5-6-7 run 3, go 1 to Alice, then Bob's 4-4 pair 2 and last card 1."""
    match = bga_round()
    assert match.view(None).starter == parse_card("5H")
    events = play_all(match, BGA_PLAY)
    assert pegs(events)[:5] == [
        ("5S", ALICE, 2),
        ("6H", ALICE, 3),
        ("go", ALICE, 1),
        ("4H", BOB, 2),
        ("last_card", BOB, 1),
    ]
    [go] = [e for e in events if isinstance(e, Go)]
    assert go.seat == BOB


def test_bga_example_show() -> None:
    """The show counts Bob's hand 9, then Alice's 12, then Alice's crib 6; Alice 24, Bob 12."""
    match = bga_round()
    events = play_all(match, BGA_PLAY)
    shown = [(e.seat, e.kind, e.total) for e in events if isinstance(e, HandScored)]
    assert shown == [(BOB, "hand", 9), (ALICE, "hand", 12), (ALICE, "crib", 6)]
    [crib] = [e for e in events if isinstance(e, HandShown) and e.kind == "crib"]
    assert sorted(crib.cards) == sorted(parse_cards("8D 8C 10S KC"))
    assert match.view(None).scores == (24, 12)
    assert match.view(None).deal_number == 2
    assert match.view(None).dealer == BOB


def test_pegging_example_6_8_7_5_4_then_go_and_a_nine_after_the_reset() -> None:
    """7 scores 3, 5 scores 4, 4 scores 5 then 1 for the go; the dealer leads 9 and scores 0."""
    match = stacked_match(
        dealer=0, dealer_cards="8H 5H 9H QH 10D JS", pone_cards="6C 7C 4C KC 2D 3D", starter="AS"
    )
    discard(match, 0, "10D JS")
    discard(match, 1, "2D 3D")
    events = play_all(match, [(1, "6C"), (0, "8H"), (1, "7C"), (0, "5H"), (1, "4C")])
    assert pegs(events) == [("7C", 1, 3), ("5H", 0, 4), ("4C", 1, 5), ("go", 1, 1)]
    [reset] = [e for e in events if isinstance(e, CountReset)]
    assert reset.leader == 0
    [nine] = play(match, 0, "9H")
    assert isinstance(nine, CardPlayed)
    assert (nine.count, nine.points) == (9, 0)


def test_go_rules() -> None:
    """After a go the other player plays on alone; the count restarts; the non-last player leads."""
    match = bga_round()
    play_all(match, BGA_PLAY[:4])  # count 28: Bob holds 6D 4H, Alice 2S 4S
    view = match.view(BOB)
    assert view.said_go == (False, True)
    assert view.turn == ALICE
    assert match.legal_actions(BOB) == []
    assert match.legal_actions(ALICE) == [Play(card=parse_card("2S"))]  # 4S would pass 31
    with pytest.raises(IllegalAction, match="It is not your turn"):
        play(match, BOB, "4H")
    events = play(match, ALICE, "2S")
    assert [type(e).__name__ for e in events] == ["CardPlayed", "Scored", "CountReset"]
    assert match.view(None).count == 0
    assert match.view(None).turn == BOB  # Alice played the last card, so Bob leads


def test_thirty_one_on_the_last_card_scores_two_not_three() -> None:
    """A 31 made with the last card of the play is 2 for 31 and no extra point for last card."""
    match = stacked_match(
        dealer=0, dealer_cards="KH 6H KS 6S 2D 3D", pone_cards="KC 5C KD 5D 2H 3H", starter="AS"
    )
    discard(match, 0, "2D 3D")
    discard(match, 1, "2H 3H")
    events = play_all(match, [(1, "KC"), (0, "KH"), (1, "5C"), (0, "6H")])
    assert pegs(events) == [("KH", 0, 2), ("6H", 0, 2)]
    assert match.view(None).turn == 1  # the count restarted and the pone leads
    events = play_all(match, [(1, "KD"), (0, "KS"), (1, "5D"), (0, "6S")])
    assert pegs(events)[:2] == [("KS", 0, 2), ("6S", 0, 2)]
    assert not [e for e in events if isinstance(e, Scored) and e.reason in ("go", "last_card")]


def test_run_broken_by_a_reset() -> None:
    """9-10-J scores 3; after the go a Q starts a new count and does not extend the run."""
    match = stacked_match(
        dealer=0, dealer_cards="10H QH QD QS 2D 3D", pone_cards="9C JC KC KD 2H 3H", starter="AS"
    )
    discard(match, 0, "2D 3D")
    discard(match, 1, "2H 3H")
    events = play_all(match, [(1, "9C"), (0, "10H"), (1, "JC")])
    assert pegs(events) == [("JC", 1, 3), ("go", 1, 1)]
    [queen] = play(match, 0, "QH")
    assert isinstance(queen, CardPlayed)
    assert (queen.count, queen.points, queen.parts) == (10, 0, ())


def test_heels_scores_two_for_the_dealer() -> None:
    """A jack starter gives the dealer 2 at once, and no one his nobs for it in the show."""
    match = stacked_match(
        dealer=1, dealer_cards="2C 4C 6C 8C 10C QC", pone_cards="2D 4D 6D 8D 10D QD", starter="JC"
    )
    discard(match, 0, "10D QD")
    events = discard(match, 1, "10C QC")
    cut, heels = events[1], events[2]
    assert isinstance(cut, StarterCut) and cut.heels
    assert isinstance(heels, Scored)
    assert (heels.seat, heels.reason, heels.points) == (1, "heels", 2)
    assert match.view(None).scores == (0, 2)


def test_no_heels_without_a_jack() -> None:
    """Any other starter scores nothing when cut."""
    match = bga_round()
    assert match.view(None).scores == (0, 0)


def test_discards_in_either_order_and_the_crib_is_hidden_until_shown() -> None:
    """Either seat may discard first; the starter is cut once both have; the crib stays hidden."""
    match = stacked_match(
        dealer=0, dealer_cards="5S 4S 2S 8D 6H 8C", pone_cards="10S 6D JH 4H KC 7C", starter="5H"
    )
    assert match.waiting_for() == (0, 1)
    [event] = discard(match, ALICE, "8D 8C")
    assert event == Discarded(seat=ALICE)
    assert match.waiting_for() == (BOB,)
    view = match.view(BOB)
    assert (view.crib_count, view.crib, view.starter, view.discards) == (2, None, None, ())
    assert match.view(ALICE).discards == parse_cards("8C 8D")
    discard(match, BOB, "10S KC")
    view = match.view(BOB)
    assert (view.phase, view.crib_count, view.crib, view.turn) == ("play", 4, None, BOB)


@pytest.mark.parametrize(
    ("seat", "action", "message"),
    [
        (ALICE, Play(card=parse_card("5S")), "It is not time to play a card"),
        (BOB, Discard(cards=parse_cards("10S 9S")), "9♠ is not in your hand"),
        (BOB, Discard(cards=parse_cards("5S 4S")), "5♠ is not in your hand"),
        (BOB, Discard(cards=parse_cards("10S 10S")), "Discard two different cards"),
        (2, Discard(cards=parse_cards("10S KC")), "only seats 0 and 1"),
    ],
)
def test_illegal_discards(seat: int, action: Discard | Play, message: str) -> None:
    """A wrong discard is refused with a sentence, and nothing changes."""
    match = stacked_match(
        dealer=0, dealer_cards="5S 4S 2S 8D 6H 8C", pone_cards="10S 6D JH 4H KC 7C", starter="5H"
    )
    before = match.view(BOB)
    with pytest.raises(IllegalAction, match=message):
        match.apply(seat, action)
    assert match.view(BOB) == before
    assert match.log == []


def test_discarding_twice_is_refused() -> None:
    """A seat lays away two cards once."""
    match = stacked_match(
        dealer=0, dealer_cards="5S 4S 2S 8D 6H 8C", pone_cards="10S 6D JH 4H KC 7C", starter="5H"
    )
    discard(match, BOB, "10S KC")
    with pytest.raises(IllegalAction, match="already laid away"):
        discard(match, BOB, "6D JH")


def test_illegal_plays() -> None:
    """Out of turn, a card not held, a card past 31, and discarding in the play are refused."""
    match = bga_round()
    with pytest.raises(IllegalAction, match="It is not your turn"):
        play(match, ALICE, "5S")
    with pytest.raises(IllegalAction, match="5♠ is not in your hand"):
        play(match, BOB, "5S")
    with pytest.raises(IllegalAction, match="K♣ is not in your hand"):
        play(match, BOB, "KC")  # laid away to the crib
    with pytest.raises(IllegalAction, match="It is not time to discard"):
        discard(match, BOB, "6D JH")
    play_all(match, BGA_PLAY[:3])  # count 22; Alice holds 4S 2S 6H
    play(match, ALICE, "6H")  # 28
    play(match, ALICE, "2S")  # 30 and the go; Bob leads again
    play(match, BOB, "6D")
    with pytest.raises(IllegalAction, match="It is not your turn"):
        play(match, BOB, "4H")
    assert len(match.log) == 2 + 6


def test_past_31_is_refused() -> None:
    """A card that would take the count past 31 is refused and named."""
    match = bga_round()
    play_all(match, BGA_PLAY[:3])  # count 22
    play(match, ALICE, "6H")  # 28; Bob says go
    with pytest.raises(IllegalAction, match="4♠ would take the count past 31"):
        play(match, ALICE, "4S")
