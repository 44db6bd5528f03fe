"""Show and play scoring: the worked examples and named edge cases from the rules."""

from __future__ import annotations

import pytest

from muggins.shared.cards import parse_card, parse_cards
from muggins.shared.scoring import score_hand, score_play


def hand(cards: str, starter: str, *, crib: bool = False) -> tuple[int, dict[str, int]]:
    """Total and points by kind for a hand."""
    score = score_hand(parse_cards(cards), parse_card(starter), crib=crib)
    kinds = {part.kind for part in score.parts}
    return score.total, {kind: score.points_of(kind) for kind in sorted(kinds)}


# --- the show --------------------------------------------------------------------------------


def test_29_hand() -> None:
    """5-5-5-J with the fifth 5 cut, the jack matching its suit: 16 + 12 + nobs = 29."""
    score = score_hand(parse_cards("5H 5S 5C JD"), parse_card("5D"))
    assert score.total == 29
    assert score.points_of("fifteen") == 16
    assert score.points_of("pair") == 12
    [nobs] = [part for part in score.parts if part.kind == "nobs"]
    assert nobs.cards == (parse_card("JD"),)


def test_28_hand_four_fives_and_jack_starter() -> None:
    """Four fives with a jack starter make 28: the starter jack is not his nobs."""
    assert hand("5H 5S 5C 5D", "JH") == (28, {"fifteen": 16, "pair": 12})


def test_double_run() -> None:
    """6-7-8-8 with a king: two runs of three (6), a pair (2), 7+8 twice (4)."""
    score = score_hand(parse_cards("6C 7D 8H 8S"), parse_card("KC"))
    runs = [part for part in score.parts if part.kind == "run"]
    assert [len(run.cards) for run in runs] == [3, 3]
    assert score.total == 12


def test_double_run_of_four() -> None:
    """6-7-8-9-9: two runs of four (8), a pair (2), 6+9 twice and 7+8 (6) = 16."""
    assert hand("6C 7D 8H 9S", "9C") == (16, {"fifteen": 6, "pair": 2, "run": 8})


def test_triple_run() -> None:
    """3-3-3-4-5: three runs of three (9), three of a kind (6), 3+3+4+5 three ways (6) = 21."""
    assert hand("3C 3D 3H 4S", "5C") == (21, {"fifteen": 6, "pair": 6, "run": 9})


def test_double_double_run() -> None:
    """3-3-4-4-5: four runs of three (12), two pairs (4), 3+3+4+5 twice (4) = 20."""
    assert hand("3C 3D 4H 4S", "5C") == (20, {"fifteen": 4, "pair": 4, "run": 12})


def test_run_of_five_counts_once() -> None:
    """A run of five is one run of five, not also the runs of three and four inside it."""
    assert hand("AC 2D 3H 4S", "5C") == (7, {"fifteen": 2, "run": 5})


def test_no_wrap_around_run() -> None:
    """Q-K-A is not a run: the ace is low only."""
    assert hand("QC KD AH 7S", "9C") == (0, {})


def test_four_card_flush_in_hand_and_crib() -> None:
    """A four-card flush scores 4 in a hand and nothing in the crib."""
    assert hand("2H 4H 6H 8H", "KS") == (4, {"flush": 4})
    assert hand("2H 4H 6H 8H", "KS", crib=True) == (0, {})


def test_five_card_flush_in_hand_and_crib() -> None:
    """With the starter of the same suit the flush is 5, in a hand or a crib."""
    assert hand("2H 4H 6H 8H", "KH") == (5, {"flush": 5})
    assert hand("2H 4H 6H 8H", "KH", crib=True) == (5, {"flush": 5})


def test_three_suited_cards_and_starter_is_no_flush() -> None:
    """Three hand cards and the starter in one suit are no flush: the four in hand must match."""
    assert hand("2H 4H 6H 8S", "KH") == (0, {})


def test_nobs() -> None:
    """A jack in hand of the starter's suit is his nobs, 1 point."""
    assert hand("JH 2C 4D 8S", "6H") == (1, {"nobs": 1})


def test_jack_of_another_suit_is_not_nobs() -> None:
    """A jack whose suit differs from the starter's scores nothing."""
    assert hand("JD 2C 4D 8S", "6H") == (0, {})


def test_jack_starter_is_not_nobs() -> None:
    """A jack cut as the starter is not his nobs for any hand (it is heels, in the game)."""
    assert hand("2C 4D 6S 8C", "JC") == (0, {})
    assert hand("2C 4D 6S 8C", "JC", crib=True) == (0, {})


def test_flush_and_nobs_together() -> None:
    """A five-card flush holding the jack of the starter's suit adds his nobs: 5 + 1."""
    assert hand("2H 4H JH 8H", "KH") == (6, {"flush": 5, "nobs": 1})


def test_spoken_count() -> None:
    """The count reads as a player says it, pairs grouped, with a running total."""
    score = score_hand(parse_cards("3H 4S 5C KD"), parse_card("KH"))
    assert score.spoken() == "fifteen two, fifteen four, a pair is six, and a run of three is nine"
    triple = score_hand(parse_cards("3C 3D 3H 4S"), parse_card("5C"))
    assert "three of a kind is" in triple.spoken()


@pytest.mark.parametrize(
    ("cards", "starter", "said"),
    [
        ("5H 5S 4C 6D", "KC", "a pair is ten, and a double run of three is sixteen"),
        (
            "5H 5S 5C 6D",
            "4C",
            "three of a kind is fourteen, and a triple run of three is twenty-three",
        ),
        ("5H 5S 6C 6D", "4C", "a pair is twelve, and a double-double run of three is twenty-four"),
        ("5H 5S 6C 7D", "4C", "a pair is six, and a double run of four is fourteen"),
    ],
)
def test_runs_over_the_same_ranks_are_said_together(cards: str, starter: str, said: str) -> None:
    """A double, triple and double-double run is said as one, as players say it."""
    assert score_hand(parse_cards(cards), parse_card(starter)).spoken().endswith(said)


def test_itemised_breakdown() -> None:
    """The breakdown lists each combination with its cards and points, then the total."""
    lines = score_hand(parse_cards("5H 5S 4C 6D"), parse_card("KC")).itemised()
    assert lines[0].split() == ["fifteen", "5♥", "K♣", "2"]
    assert lines[-1].split() == ["total", "16"]
    assert len(lines) == 8


def test_score_hand_rejects_wrong_sizes_and_duplicates() -> None:
    """A show hand has four cards and the starter is a fifth, different card."""
    with pytest.raises(ValueError, match="4 cards, not 3"):
        score_hand(parse_cards("5H 5S 5C"), parse_card("5D"))
    with pytest.raises(ValueError, match="different"):
        score_hand(parse_cards("5H 5S 5C 5D"), parse_card("5D"))


# --- the play --------------------------------------------------------------------------------


def test_score_play_rejects_a_card_played_twice() -> None:
    """The same card twice in the pile is a ValueError, as in score_hand: 10C 10C is no pair."""
    with pytest.raises(ValueError, match="different"):
        score_play(parse_cards("10C 10C"))


def pegged(cards: str) -> list[int]:
    """Points scored by each card as the pile ``cards`` is played in order."""
    pile = parse_cards(cards)
    return [score_play(pile[: i + 1]).total for i in range(len(pile))]


def test_pegging_example_6_8_7_5_4() -> None:
    """6, 8, 7 (run of 3), 5 (run of 4), 4 (run of 5): 0, 0, 3, 4, 5."""
    assert pegged("6H 8S 7D 5C 4H") == [0, 0, 3, 4, 5]
    assert score_play(parse_cards("6H 8S 7D")).spoken() == "twenty-one for three"


def test_3_9_1_2_is_no_run() -> None:
    """3, 9, A, 2: the 9 breaks the run; the 2 makes fifteen and nothing else."""
    final = score_play(parse_cards("3H 9S AD 2C"))
    assert [part.kind for part in final.parts] == ["fifteen"]
    assert pegged("3H 9S AD 2C") == [0, 0, 0, 2]


def test_3_5_6_2_is_no_run_but_3_5_6_4_is() -> None:
    """2-3-5-6 is no run (the Turbo Cribbage help is wrong); 3, 5, 6, 4 is a run of four."""
    assert pegged("3H 5S 6D 2C") == [0, 0, 0, 0]
    final = score_play(parse_cards("3H 5S 6D 4C"))
    assert [(part.kind, part.points) for part in final.parts] == [("run", 4)]


def test_run_in_any_order_longest_wins() -> None:
    """The last N cards form a run in any order; only the longest run scores."""
    assert pegged("AH 3S 2D 4C") == [0, 0, 3, 4]


def test_pairs_pair_royal_and_double_pair_royal() -> None:
    """Consecutive equal ranks score 2, 6 and 12."""
    assert pegged("4H 4S 4D 4C") == [0, 2, 6, 12]


def test_pair_broken_by_another_card() -> None:
    """Only consecutive cards pair: 5, 6, 5 is no pair."""
    assert pegged("5H 6S 5D") == [0, 0, 0]


def test_fifteen_and_pair_royal_together() -> None:
    """Three fives make fifteen and a pair royal: 2 + 6."""
    final = score_play(parse_cards("5H 5S 5D"))
    assert sorted((part.kind, part.points) for part in final.parts) == [("fifteen", 2), ("pair", 6)]
    assert final.spoken() == "fifteen for eight"


def test_thirty_one() -> None:
    """Reaching 31 scores 2, on top of a pair made by the same card."""
    assert pegged("KH 10S QD AC") == [0, 0, 0, 2]
    final = score_play(parse_cards("KH 7S 7D 7C"))
    assert sorted((part.kind, part.points) for part in final.parts) == [
        ("pair", 6),
        ("thirty_one", 2),
    ]


def test_score_play_refuses_past_31_and_empty() -> None:
    """The count cannot pass 31 and there must be a card to score."""
    with pytest.raises(ValueError, match="cannot pass 31"):
        score_play(parse_cards("KH QS JD 2C"))
    with pytest.raises(ValueError):
        score_play([])
