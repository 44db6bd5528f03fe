"""The belief read from the opponent's plays (``shared/bots/reading.py``): what the replay of a
deal's cards says, how the likelihood weighs a hand, and a position where reading the dealer's
answer changes the pone's card for the better against a dealer that answers as ``expert-2``."""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable

from test_bots_expert import changed, play_view, pone_view

from muggins.shared.actions import Play
from muggins.shared.bots import make_strategy
from muggins.shared.bots.expert import opponent_belief, play_tables
from muggins.shared.bots.playout import PIP, best_moves
from muggins.shared.bots.reading import Likelihood, TheirPlay, posterior, their_plays
from muggins.shared.cards import Card, parse_card, parse_cards
from muggins.shared.view import SeatView

NAMES = "A23456789TJQK"


def test_the_replay_restarts_the_count_and_names_each_card() -> None:
    """Pone seat 0 led a 10, the dealer answered a 5 (15), the pone a K (25), the dealer could
    not play, the pone a 6 (31), and the dealer led the next count with a 9."""
    view = pone_view("AS 2S", "10S", "5H")
    cards = [(0, "10S"), (1, "5H"), (0, "KS"), (0, "6S"), (1, "9H")]
    played = tuple({"seat": s, "card": parse_card(c)} for s, c in cards)
    view = changed(view, {"played": played, "pile": played[-1:], "count": 9})
    assert their_plays(view) == [
        TheirPlay(pile=(10,), count=10, rank=5, kind="answer", lead=10, others=3),
        TheirPlay(pile=(), count=0, rank=9, kind="card", others=1),
    ]


def test_a_card_not_paired_says_the_pair_was_not_held() -> None:
    """A player that answered a 7 with a 3 is less likely to have held a 7 (pairing pegs 2)."""
    likely = Likelihood([TheirPlay(pile=(7,), count=7, rank=3, kind="card", others=3)])
    assert likely.of((9, 12)) > 3 * likely.of((7, 12))
    assert likely.of((3, 12)) > 0.0


def test_the_posterior_weighs_every_hand_that_could_have_played_so() -> None:
    """Every hand of three ranks the dealer may hold after answering, none ruled out by the
    model (each card has some chance), and weights that sum to something positive."""
    view = pone_view("10D 4H AS", "8D", "6C")
    post = posterior(view, opponent_belief(view))
    assert post is not None
    assert all(len(hand) == 3 and w > 0 for hand, w in post.hands)
    assert len(post.hands) == len({hand for hand, _ in post.hands}) > 300


def solved_over_their_hands(
    hand: str,
    seen: list[Card],
    role: str,
    played: Card,
    view_of: Callable[[str], SeatView],
    pile: tuple[int, ...],
    count: int,
) -> dict[int, float]:
    """Each rank of ``hand``'s mean balance, solved to the end with every card in view from
    ``pile`` at ``count``, over the opponent's hands of three ranks (weighted as the expert's
    belief weighs them before any card is played: the unseen cards of each rank and how often
    ``role`` keeps it) from which ``expert-2``, seated in ``view_of`` those three cards and
    ``played``, plays ``played``."""
    mine = [parse_card(c) for c in hand.split()]
    keep = play_tables().keep[role]
    unseen = [0] + [4] * 13
    for c in [*mine, *seen, parse_card("QH"), parse_card("QC"), parse_card("KD")]:
        unseen[c.rank] -= 1
    them = make_strategy("expert-2")
    totals: dict[int, float] = {}
    mass = 0.0
    ranks = [r for r in range(1, 14) if unseen[r] > 0]
    for held in itertools.combinations_with_replacement(ranks, 3):
        prior = 1.0
        for r in set(held):
            prior *= math.comb(unseen[r], held.count(r)) * keep[r] ** held.count(r)
        if prior == 0:
            continue
        suits = iter("SHDC" * 4)
        cards = [f"{'10' if r == 10 else NAMES[r - 1]}{next(suits)}" for r in (*held, played.rank)]
        action = them.choose(view_of(" ".join(cards)))
        assert isinstance(action, Play)
        if action.card.rank != played.rank:
            continue
        mass += prior
        for r, v in best_moves(tuple(sorted(c.rank for c in mine)), held, pile, count).items():
            totals[r] = totals.get(r, 0.0) + prior * v
    return {r: t / mass for r, t in totals.items()}


def truth(hand: str, lead: str, reply: str) -> dict[int, float]:
    """Each card's mean balance over the dealer hands from which ``expert-2`` itself answers
    ``lead`` with ``reply``: what a pone facing it should play."""
    led, answer = parse_card(lead), parse_card(reply)
    return solved_over_their_hands(
        hand,
        [led, answer],
        "dealer",
        answer,
        lambda cards: play_view(cards, dealer=True, pile=lead),
        (led.rank, answer.rank),
        PIP[led.rank] + PIP[answer.rank],
    )


def test_reading_the_dealers_answer_takes_the_fifteen_the_expert_feared() -> None:
    """Pone with 10-4-A led an 8 and the dealer answered with a 6 (14). ``expert-3``, which
    draws the dealer's hand as if the 6 told nothing, plays its 10 to 24 rather than the ace
    for fifteen-2; the expert reads the answer (a dealer that answers an 8 with a 6 rarely
    holds the cards that punish the ace) and takes the fifteen. Against the hands from which
    ``expert-2`` answers so, the ace is worth more than a point more than the 10."""
    view = pone_view("10D 4H AS", "8D", "6C")
    old = make_strategy("expert-3", seed=1).choose(view)
    new = make_strategy("expert", seed=1).choose(view)
    assert isinstance(old, Play) and isinstance(new, Play)
    assert (old.card.rank, new.card.rank) == (10, 1)
    right = truth("10D 4H AS", "8D", "6C")
    assert right[1] > right[10] + 1.0


def lead_view(hand: str) -> SeatView:
    """Seat 0, the pone, to lead its four cards."""
    view = pone_view("AS 2S", "10S", "5H")
    cards = parse_cards(hand)
    return changed(
        view,
        {
            "hand": cards,
            "hand_counts": (4, 4),
            "count": 0,
            "pile": (),
            "played": (),
            "legal": tuple(Play(card=c) for c in cards),
        },
    )


def answer_truth(hand: str, lead: str) -> dict[int, float]:
    """Each answer's mean balance over the pone hands from which ``expert-2`` itself leads
    ``lead``: what a dealer facing it should answer."""
    led = parse_card(lead)
    return solved_over_their_hands(hand, [led], "pone", led, lead_view, (led.rank,), led.value)


def test_reading_the_opening_lead_changes_the_dealers_answer() -> None:
    """Dealer with 4-7-9-K, the pone led a 4. ``expert-3`` answers from the reply table, which
    drew the pone's hand knowing only that the 4 was out of it, and pairs the 4; the expert
    searches the hands from which a player would lead that 4 and answers with the king. Against
    the hands from which ``expert-2`` leads the 4, the king is worth 1.43 points of balance and
    the pair 0.64."""
    view = play_view("4H 7S 9D KC", dealer=True, pile="4D")
    old = make_strategy("expert-3", seed=1).choose(view)
    new = make_strategy("expert", seed=1).choose(view)
    assert isinstance(old, Play) and isinstance(new, Play)
    assert (old.card.rank, new.card.rank) == (4, 13)
    right = answer_truth("4H 7S 9D KC", "4D")
    assert right[13] > right[4] + 0.5
