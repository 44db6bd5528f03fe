"""Muggins mode: players count their own hands; the opponent accepts, mugs or challenges."""

from __future__ import annotations

import pytest
from pydantic import ValidationError
from stacked import discard, play_all, stacked_match

from muggins.shared.actions import (
    Accept,
    Challenge,
    Count,
    CountAnswered,
    CountClaimed,
    GameOptions,
    GameOver,
    HandScored,
    HandShown,
    IllegalAction,
    Muggins,
    Play,
    Scored,
)
from muggins.shared.cards import parse_card
from muggins.shared.match import Match

ALICE, BOB = 0, 1
BGA_PLAY = [(BOB, "JH"), (ALICE, "5S"), (BOB, "7C"), (ALICE, "6H")]
BGA_PLAY += [(ALICE, "2S"), (BOB, "6D"), (ALICE, "4S"), (BOB, "4H")]
ALL_COUNTS = [Count(points=n) for n in range(30)]
ALL_ANSWERS = [Accept(), Muggins(), Challenge()]


def at_the_show(*, target: int = 121) -> Match:
    """The BGA deal in muggins mode, played out: Alice 6, Bob 3, Bob's hand (9) to count.

    Alice (dealer) holds 12 in hand and 6 in her crib.
    """
    match = stacked_match(
        dealer=ALICE,
        dealer_cards="5S 4S 2S 8D 6H 8C",
        pone_cards="10S 6D JH 4H KC 7C",
        starter="5H",
        options=GameOptions(muggins=True, target=target),  # type: ignore[arg-type]
    )
    discard(match, ALICE, "8D 8C")
    discard(match, BOB, "10S KC")
    events = play_all(match, BGA_PLAY)
    assert [e.seat for e in events if isinstance(e, HandShown)] == [BOB]
    assert not any(isinstance(e, HandScored) for e in events)
    return match


def pegged(events: list[object]) -> list[tuple[int, str, int]]:
    return [(e.seat, e.reason, e.points) for e in events if isinstance(e, Scored)]


def test_nothing_is_counted_automatically() -> None:
    """In muggins mode the pone's hand is laid down and waits for its owner's count."""
    match = at_the_show()
    view = match.view(BOB)
    assert (view.phase, view.turn, view.scores) == ("show", BOB, (6, 3))
    assert view.show[-1].total is None
    assert match.legal_actions(ALICE) == []


def test_the_legal_moves_do_not_depend_on_the_hand() -> None:
    """The owner may claim any of 0-29 and the opponent has all three answers, whatever it makes."""
    match = at_the_show()
    assert match.legal_actions(BOB) == ALL_COUNTS  # Bob's hand makes 9
    match.apply(BOB, Count(points=9))
    assert match.legal_actions(ALICE) == ALL_ANSWERS
    match.apply(ALICE, Accept())
    assert match.legal_actions(ALICE) == ALL_COUNTS  # Alice's hand makes 12
    match.apply(ALICE, Count(points=3))
    assert match.legal_actions(BOB) == ALL_ANSWERS


def test_an_over_claim_is_accepted_and_shown_to_everyone() -> None:
    """A claim over the total is not refused; both seats and a spectator see it, not the total."""
    match = at_the_show()
    [claimed] = match.apply(BOB, Count(points=29))
    assert claimed == CountClaimed(seat=BOB, kind="hand", claimed=29)
    for viewer in (ALICE, BOB, None):
        pending = match.view(viewer).show[-1]
        assert (pending.claimed, pending.total, pending.parts, pending.spoken) == (29, None, (), "")
        assert pending.answer is None
    assert match.view(None).scores == (6, 3)  # nothing is pegged before the answer


def test_a_claim_cannot_be_above_29() -> None:
    """Only 0-29 can be claimed: the most any hand makes (refused before the engine sees it)."""
    with pytest.raises(ValidationError):
        Count(points=30)
    with pytest.raises(ValidationError):
        Count(points=-1)


def test_challenging_an_over_count_puts_it_back() -> None:
    """Bob claims 12 for a 9: Alice challenges, Bob pegs 9 and Alice the 3 too many."""
    match = at_the_show()
    match.apply(BOB, Count(points=12))
    events = match.apply(ALICE, Challenge())
    answered = next(e for e in events if isinstance(e, CountAnswered))
    assert (answered.answer, answered.claimed, answered.total, answered.right) == (
        "challenge",
        12,
        9,
        True,
    )
    assert pegged(events)[:2] == [(BOB, "hand", 9), (ALICE, "challenge", 3)]
    bob_hand = match.view(None).show[0]
    assert (bob_hand.total, bob_hand.claimed, bob_hand.answer, bob_hand.taken) == (
        9,
        12,
        "challenge",
        3,
    )
    assert match.view(None).scores == (9, 12)


def test_accepting_an_over_count_lets_it_stand() -> None:
    """If the opponent accepts, the claim is pegged as made, even over the true total."""
    match = at_the_show()
    match.apply(BOB, Count(points=12))
    events = match.apply(ALICE, Accept())
    assert pegged(events)[0] == (BOB, "hand", 12)
    assert match.view(None).scores == (6, 15)


def test_muggins_takes_the_missed_points() -> None:
    """Bob counts 7 of 9; Alice calls muggins and pegs the 2 he missed."""
    match = at_the_show()
    match.apply(BOB, Count(points=7))
    events = match.apply(ALICE, Muggins())
    assert pegged(events)[:2] == [(BOB, "hand", 7), (ALICE, "muggins", 2)]
    [bob_hand] = match.view(None).show[:1]
    assert (bob_hand.total, bob_hand.claimed, bob_hand.taken, bob_hand.answer) == (
        9,
        7,
        2,
        "muggins",
    )
    assert match.view(None).scores == (8, 10)


def test_accepting_a_short_count_leaves_the_points_unclaimed() -> None:
    """If the opponent accepts, the owner pegs only what he claimed."""
    match = at_the_show()
    match.apply(BOB, Count(points=7))
    match.apply(ALICE, Accept())
    assert match.view(None).scores == (6, 10)


@pytest.mark.parametrize(
    ("claim", "call"),
    [(9, Muggins()), (12, Muggins()), (9, Challenge()), (7, Challenge())],
)
def test_a_wrong_call_costs_two_points(claim: int, call: Muggins | Challenge) -> None:
    """A muggins call on a count not short, or a challenge of one not over, gives the owner 2."""
    match = at_the_show()
    match.apply(BOB, Count(points=claim))
    events = match.apply(ALICE, call)
    answered = next(e for e in events if isinstance(e, CountAnswered))
    assert answered.right is False
    assert pegged(events)[:2] == [(BOB, "hand", claim), (BOB, "wrong_call", 2)]
    assert match.view(None).scores == (6, 3 + claim + 2)
    assert match.view(None).show[0].penalty == 2


def test_the_hand_is_not_even_scored_before_the_answer() -> None:
    """Taking a claim and listing the answers never scores the hand, so no timing can tell it."""
    match = at_the_show()
    match.legal_actions(BOB)
    match.apply(BOB, Count(points=12))
    match.legal_actions(ALICE)
    match.view(ALICE)
    assert match.game._show_scores == {}
    match.apply(ALICE, Accept())
    assert match.game._show_scores  # scored when settled


def test_the_total_is_told_only_when_the_claim_is_answered() -> None:
    """The breakdown (hand_scored) comes with the answer, never with the claim."""
    match = at_the_show()
    claim_events = match.apply(BOB, Count(points=5))
    assert not any(isinstance(e, HandScored | CountAnswered) for e in claim_events)
    answer_events = match.apply(ALICE, Accept())
    [scored] = [e for e in answer_events if isinstance(e, HandScored) and e.seat == BOB]
    assert scored.total == 9


def test_the_whole_show_dealer_hand_and_crib() -> None:
    """After the pone's hand the dealer counts her hand, then her crib; the other answers each."""
    match = at_the_show()
    match.apply(BOB, Count(points=9))
    match.apply(ALICE, Accept())
    assert match.view(ALICE).turn == ALICE
    match.apply(ALICE, Count(points=13))
    match.apply(BOB, Challenge())  # 12, not 13: Alice 12, Bob 1
    match.apply(ALICE, Count(points=4))
    match.apply(BOB, Muggins())  # 6, not 4: Alice 4, Bob 2
    assert match.view(None).scores == (6 + 12 + 4, 12 + 1 + 2)
    assert (match.view(None).deal_number, match.view(None).phase) == (2, "discard")
    show = match.view(None).last_deal.show  # type: ignore[union-attr]
    assert [(r.claimed, r.total, r.answer, r.taken) for r in show] == [
        (9, 9, "accept", 0),
        (13, 12, "challenge", 1),
        (4, 6, "muggins", 2),
    ]


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
        match.apply(BOB, Challenge())


# --- the end at the target ------------------------------------------------------------------------


def near_the_end(alice: int, bob: int) -> Match:
    match = at_the_show()
    match.game.scores = [alice, bob]
    return match


def winner(events: list[object]) -> tuple[int, tuple[int, int]]:
    """The winner and the final scores (the winner's at most the game hole, 121)."""
    [over] = [e for e in events if isinstance(e, GameOver)]
    first, second = (min(score, 121) for score in over.outcome.scores)
    return over.outcome.winner, (first, second)


def test_a_claim_alone_never_ends_the_game() -> None:
    """Bob at 115 claims 12: nothing is pegged until Alice answers, so the game goes on."""
    match = near_the_end(100, 115)
    events = match.apply(BOB, Count(points=12))
    assert not any(isinstance(e, GameOver) for e in events)
    assert match.view(None).scores == (100, 115)


def test_a_challenged_over_claim_falls_short_and_the_excess_can_win() -> None:
    """Bob at 110 claims 15 for a 9: put back to 119; Alice at 115 takes 6 and wins at 121."""
    match = near_the_end(115, 110)
    match.apply(BOB, Count(points=15))
    events = match.apply(ALICE, Challenge())
    assert pegged(events) == [(BOB, "hand", 9), (ALICE, "challenge", 6)]
    assert winner(events) == (ALICE, (121, 119))


def test_muggins_points_win_before_the_dealer_counts_her_hand() -> None:
    """Alice (dealer) at 119 mugs Bob's short count at his hand: she wins there and then."""
    match = near_the_end(119, 100)
    match.apply(BOB, Count(points=6))
    events = match.apply(ALICE, Muggins())
    assert pegged(events) == [(BOB, "hand", 6), (ALICE, "muggins", 3)]
    assert winner(events) == (ALICE, (121, 106))


def test_the_owner_reaching_the_target_first_wins_before_the_call_is_pegged() -> None:
    """Bob at 114 counts 7 of 9 and reaches 121: the game is over before Alice's muggins pegs."""
    match = near_the_end(119, 114)
    match.apply(BOB, Count(points=7))
    events = match.apply(ALICE, Muggins())
    assert pegged(events) == [(BOB, "hand", 7)]
    assert winner(events) == (BOB, (119, 121))


def test_a_wrong_call_can_give_the_owner_the_game() -> None:
    """Bob at 110 counts his 9 exactly; Alice's wrong challenge gives him 2 more: 121."""
    match = near_the_end(100, 110)
    match.apply(BOB, Count(points=9))
    events = match.apply(ALICE, Challenge())
    assert pegged(events) == [(BOB, "hand", 9), (BOB, "wrong_call", 2)]
    assert winner(events) == (BOB, (100, 121))
