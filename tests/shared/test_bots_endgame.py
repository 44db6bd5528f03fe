"""The expert's endgame (``shared/bots/endgame.py``) against ``expert-2``: positions where adding
up weighted points plays a card that can lose the game and the search for the chance to win
does not. Each is checked against every hand the opponent may hold, played out exactly."""

from __future__ import annotations

import importlib.util
import sys
from itertools import combinations
from pathlib import Path

import pytest

from muggins.shared.actions import Play
from muggins.shared.bots import make_strategy
from muggins.shared.bots.endgame import ShowOdds, in_reach
from muggins.shared.cards import DECK, parse_card, parse_cards
from muggins.shared.match import Match
from muggins.shared.view import SeatView

TOOLS = Path(__file__).resolve().parents[2] / "tools"
spec = importlib.util.spec_from_file_location("best_response", TOOLS / "best_response.py")
assert spec is not None and spec.loader is not None
br = importlib.util.module_from_spec(spec)
sys.modules["best_response"] = br
spec.loader.exec_module(br)


def dealer_view(
    hand: str,
    played: list[tuple[int, str]],
    *,
    scores: tuple[int, int],
    discards: str,
    starter: str,
) -> SeatView:
    """Seat 0 deals and is to play ``hand``; ``played`` is the play so far as (seat, card)."""
    base = Match(seed=1).view(0)
    cards = parse_cards(hand)
    pile = tuple({"seat": s, "card": parse_card(c)} for s, c in played)
    count = sum(parse_card(c).value for _, c in played)
    theirs = 4 - sum(1 for s, _ in played if s == 1)
    return SeatView.model_validate(
        {
            **base.model_dump(),
            "phase": "play",
            "dealer": 0,
            "turn": 0,
            "waiting_for": (0,),
            "hand": cards,
            "discards": parse_cards(discards),
            "hand_counts": (len(cards), theirs),
            "starter": parse_card(starter),
            "count": count,
            "pile": pile,
            "played": pile,
            "scores": scores,
            "legal": tuple(Play(card=c) for c in cards if count + c.value <= 31),
        }
    )


def first_home(peg: object, need: tuple[int, int]) -> float:
    """1 if this seat (side 0) reaches ``need[0]`` points before the opponent reaches
    ``need[1]``, both playing perfectly with both hands in view; 0.5 if neither does."""
    if peg.points[0] >= need[0]:  # type: ignore[attr-defined]
        return 1.0
    if peg.points[1] >= need[1]:  # type: ignore[attr-defined]
        return 0.0
    if peg.over:  # type: ignore[attr-defined]
        return 0.5
    values = [first_home(peg.play(c), need) for c in peg.legal()]  # type: ignore[attr-defined]
    return max(values) if peg.turn == 0 else min(values)  # type: ignore[attr-defined]


def losing_hands(view: SeatView, card: str, need: tuple[int, int]) -> int:
    """How many hands the opponent may hold let it peg out first after this seat plays ``card``."""
    seen = {*view.hand, *view.discards, *(p.card for p in view.played)}
    assert view.starter is not None
    unseen = [c for c in DECK if c not in seen and c != view.starter]
    pile = tuple((0 if p.seat == 0 else 1, p.card) for p in view.pile)
    losses = 0
    for theirs in combinations(unseen, view.hand_counts[1]):
        peg = br.Peg(hands=(view.hand, theirs), played=pile, pile=pile, count=view.count, turn=0)
        if first_home(peg.play(parse_card(card)), need) < 1.0:
            losses += 1
    return losses


@pytest.mark.parametrize(
    ("hand", "played", "starter", "discards", "old", "new"),
    [
        # Dealer at 120 needs one point, the pone at 118 three. After the 9 (25) a pone with
        # a 6 makes 31 and may score 2 on its last card; after the 10 (26) no hand gets there.
        ("3H 10S 9H", [(1, "QD"), (0, "5S"), (1, "AC")], "KH", "6C 4D", "9H", "10S"),
        # Here some hands peg out first after the ace (27), none after the 2 (28).
        ("2H 7C AS", [(1, "JD"), (0, "JH"), (1, "6C")], "3C", "KH 4D", "AS", "2H"),
    ],
)
def test_the_dealer_one_point_from_home_plays_so_the_pone_cannot_peg_out(
    hand: str, played: list[tuple[int, str]], starter: str, discards: str, old: str, new: str
) -> None:
    """Needing one point against a pone that needs three, play the card after which no hand
    the pone may hold pegs out first; expert-2 plays one that some hands punish."""
    view = dealer_view(hand, played, scores=(120, 118), discards=discards, starter=starter)
    need = (1, 3)
    assert losing_hands(view, new, need) == 0
    assert losing_hands(view, old, need) > 0
    for level, card in (("expert-2", old), ("expert", new)):
        action = make_strategy(level).choose(view)
        assert isinstance(action, Play)
        assert action.card == parse_card(card), level


def test_the_pone_counts_first() -> None:
    """After the play, a pone whose hand reaches the target wins before the dealer counts, and a
    dealer wins only with the pone short of it."""
    dealer = ShowOdds(
        mine=(6,), theirs=((2, 0.5), (4, 0.5)), crib=((0, 1.0),), i_deal=True, target=121
    )
    assert dealer.after_play(115, 118) == pytest.approx(0.5)  # a 4 for the pone wins first
    pone = ShowOdds(mine=(6,), theirs=((20, 1.0),), crib=((0, 1.0),), i_deal=False, target=121)
    assert pone.after_play(115, 118) == 1.0


def test_the_search_starts_within_reach_of_the_target() -> None:
    """The win search is used once either side is 30 points from home."""
    assert not in_reach(90, 60, target=121)
    assert in_reach(91, 60, target=121)
    assert in_reach(20, 95, target=121)
