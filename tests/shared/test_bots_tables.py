"""The expert's tables: a few entries recomputed independently from the scripts' seeds."""

from __future__ import annotations

import importlib.util
import json
import random
import sys
from importlib import resources
from pathlib import Path
from types import ModuleType

import pytest

from muggins.shared.actions import CardPlayed, Discard, Play, Scored
from muggins.shared.bots.belief import Belief
from muggins.shared.bots.evaluation import play_points
from muggins.shared.bots.expert import lead_value, play_tables
from muggins.shared.bots.opening_tables import lead_table, reply_table
from muggins.shared.bots.pegging import Pegging
from muggins.shared.cards import DECK, JACK
from tests.shared.stacked import stacked_match
from tests.shared.test_bots_playout import brute

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def tool(name: str) -> ModuleType:
    """A script of tools/ loaded as a module (they are scripts, not part of the package)."""
    spec = importlib.util.spec_from_file_location(name, TOOLS / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def source(name: str) -> str:
    text = resources.files("muggins.shared.bots").joinpath(f"data/{name}.json").read_text()
    return str(json.loads(text)["source"])


@pytest.mark.parametrize(("role", "keep"), [("pone", (1, 4, 5, 6)), ("dealer", (3, 6, 13, 13))])
def test_pegging_entries_match_plain_minimax(role: str, keep: tuple[int, ...]) -> None:
    """A solved entry is the mean of the play solved by plain minimax against the seeded
    opponents."""
    total = sum(
        brute(keep, theirs, (), 0, 0 if role == "pone" else 1, None)
        for theirs in opponents(role, keep, 960)
    )
    assert play_tables().solved[role][keep] == pytest.approx(total / 960, abs=0.001)


SOURCE = "tools/play_tables.py --hands 40000 --opponents 960 --played-opponents 240 --seed 1"


def opponents(role: str, keep: tuple[int, ...], samples: int) -> list[tuple[int, ...]]:
    """The first ``samples`` of the tool's seeded opponent hands that ``keep`` can face."""
    assert source("play") == SOURCE
    play = tool("play_tables")
    hands: list[tuple[int, ...]] = play.facing(
        keep, play.opponent_pool(role, opponents=960, seed=1), samples
    )
    assert len(hands) == samples
    return hands


def engine_balance(keep: tuple[int, ...], theirs: tuple[int, ...], *, pone: bool) -> int:
    """``keep``'s points in the play less ``theirs``', played through the rules engine (the
    deal stacked, two more cards each laid away), each card chosen as the tool's players choose:
    :meth:`Pegging.best` over the ranks the seat has not seen (the deck less its own four and
    the other's cards played). The engine decides whose turn it is, the goes and the points."""
    deck = list(DECK)
    hands = []
    for ranks in (keep, theirs):
        hand = []
        for r in ranks:
            card = next(c for c in deck if c.rank == r)
            deck.remove(card)
            hand.append(card)
        hands.append(hand)
    spare = [c for c in deck if c.rank != JACK]  # no heels: the test is of the play
    discards = (spare[0:2], spare[2:4])
    mine, other = (0, 1)
    dealer = other if pone else mine
    text = [" ".join(str(c) for c in (*hands[s], *discards[s])) for s in (0, 1)]
    match = stacked_match(
        dealer=dealer,
        dealer_cards=text[dealer],
        pone_cards=text[1 - dealer],
        starter=str(spare[4]),
    )
    for seat in (0, 1):
        match.apply(seat, Discard(cards=(discards[seat][0], discards[seat][1])))
    points = [0, 0]
    while True:
        seat = match.waiting_for()[0]
        view = match.view(seat)
        if not any(isinstance(a, Play) for a in view.legal):
            break
        me, them = seat, 1 - seat
        held = sorted(c.rank for c in view.hand)
        fits = sorted({r for r in held if view.count + min(r, 10) <= 31})
        rank = fits[0]
        if len(fits) > 1:
            unseen = [0] + [4] * 13
            own = [*held, *(p.card.rank for p in view.played if p.seat == me)]
            for r in (*own, *(p.card.rank for p in view.played if p.seat == them)):
                unseen[r] -= 1
            rank = Pegging(
                hand=tuple(held),
                unseen=tuple(unseen),
                opp_cards=view.hand_counts[them],
                opp_said_go=view.said_go[them],
            ).best(pile=tuple(p.card.rank for p in view.pile), count=view.count)
        card = next(c for c in view.hand if c.rank == rank)
        for event in match.apply(seat, Play(card=card)):
            pegged = isinstance(event, Scored) and event.reason in ("go", "last_card")
            if isinstance(event, CardPlayed) or pegged:
                points[event.seat] += event.points
    return points[0] - points[1]


@pytest.mark.parametrize(("role", "keep"), [("pone", (1, 4, 5, 6)), ("dealer", (2, 2, 10, 13))])
def test_played_entries_match_the_rules_engine(role: str, keep: tuple[int, ...]) -> None:
    """A played entry is the mean balance of the same hands played through the rules engine by
    players who see only their own cards."""
    hands = opponents(role, keep, 240)
    total = sum(engine_balance(keep, theirs, pone=role == "pone") for theirs in hands)
    assert play_tables().played[role][keep] == pytest.approx(total / 240, abs=0.001)


def test_the_discards_read_the_mean_of_the_solved_and_the_played_tables() -> None:
    tables = play_tables()
    for role in ("dealer", "pone"):
        for keep in [(1, 4, 5, 6), (5, 10, 10, 13)]:
            mean = (tables.solved[role][keep] + tables.played[role][keep]) / 2
            assert tables.pegging[role][keep] == pytest.approx(mean)


def test_keep_weights_favour_what_each_role_keeps() -> None:
    """Pones keep fives (they would feed the dealer's crib); weights average about one."""
    keep = play_tables().keep
    assert keep["pone"][5] == max(keep["pone"][1:])
    for role in ("dealer", "pone"):
        assert sum(keep[role][1:]) / 13 == pytest.approx(1.0, abs=0.02)


@pytest.mark.parametrize("hand", [(2, 6, 6, 6), (1, 4, 9, 13)])
def test_lead_entries_match_plain_minimax(hand: tuple[int, ...]) -> None:
    """An opening-lead entry is the mean, over the tool's seeded dealer hands, of each lead's
    play solved by plain minimax, at each of the three weightings of the two sides' points."""
    assert source("lead") == "tools/lead_table.py --draws 48 --seed 1"
    unseen = [0] + [4] * 13
    for r in hand:
        unseen[r] -= 1
    belief = Belief(unseen=tuple(unseen), cards=4, weights=play_tables().keep["dealer"])
    draws = belief.sample(random.Random(f"lead-table:1:{hand}"), 48)
    for lead in set(hand):
        rest = list(hand)
        rest.remove(lead)
        for k, w in enumerate([(0.5, 1.0), (1.0, 1.0), (1.0, 0.5)]):
            total = sum(
                brute(tuple(rest), theirs, (lead,), min(lead, 10), 1, 0, w) for theirs in draws
            )
            assert lead_table()[hand][lead][k] == pytest.approx(total / 48, abs=0.001)


@pytest.mark.parametrize(
    ("hand", "lead"), [((2, 3, 7, 10), 5), ((5, 5, 6, 11), 4), ((1, 1, 8, 13), 7)]
)
def test_reply_entries_match_plain_minimax(hand: tuple[int, ...], lead: int) -> None:
    """A reply entry is the mean, over the tool's seeded pone hands (its three cards after the
    lead), of each answer's play solved by plain minimax, at each of the three weightings of the
    dealer's and the pone's points."""
    assert source("reply") == "tools/reply_table.py --draws 32 --seed 1"
    unseen = [0] + [4] * 13
    for r in (*hand, lead):
        unseen[r] -= 1
    belief = Belief(unseen=tuple(unseen), cards=3, weights=play_tables().keep["pone"])
    draws = belief.sample(random.Random(f"reply-table:1:{hand}:{lead}"), 32)
    entry = reply_table()[(hand, lead)]
    assert set(entry) == set(hand)
    for reply in set(hand):
        rest = list(hand)
        rest.remove(reply)
        count = min(lead, 10) + min(reply, 10)
        for k, w in enumerate([(0.5, 1.0), (1.0, 1.0), (1.0, 0.5)]):
            total = sum(
                play_points((lead,), min(lead, 10), reply) * w[0]
                + brute(tuple(rest), theirs, (lead, reply), count, 1, 0, w)
                for theirs in draws
            )
            assert entry[reply][k] == pytest.approx(total / 32, abs=0.001)


def test_lead_values_between_the_weightings() -> None:
    """Scaling both weights scales the balance, and between the solved weightings the table is
    read on a straight line: exact at the three solved, and at twice them."""
    entry = (-3.0, -2.0, -1.5)
    assert lead_value(entry, (1.0, 1.0)) == pytest.approx(-2.0)
    assert lead_value(entry, (0.5, 1.0)) == pytest.approx(-3.0)
    assert lead_value(entry, (1.0, 0.5)) == pytest.approx(-1.5)
    assert lead_value(entry, (1.5, 0.75)) == pytest.approx(1.5 * -1.5)
    assert lead_value(entry, (0.75, 1.0)) == pytest.approx(-2.5)  # halfway from (0.5, 1)
