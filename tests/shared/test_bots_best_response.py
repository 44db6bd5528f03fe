"""The best-response tool (``tools/best_response.py``): its exact solve on cases worked by hand,
and its play of the rules against the engine's."""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import ModuleType

import pytest

from muggins.shared.bots.exploit import rank
from muggins.shared.cards import parse_cards

TOOLS = Path(__file__).resolve().parents[2] / "tools"


def tool() -> ModuleType:
    spec = importlib.util.spec_from_file_location("best_response", TOOLS / "best_response.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules["best_response"] = module
    spec.loader.exec_module(module)
    return module


br = tool()


def lowest(peg: object) -> object:
    """A policy: the lowest card it may play."""
    return min(peg.legal(), key=lambda c: (c.rank, c.suit))  # type: ignore[attr-defined]


def worlds(adversary: str, *hands: str) -> list[tuple[object, float]]:
    """The adversary to lead ``adversary`` against each of the level's ``hands``, as likely."""
    mine = parse_cards(adversary)
    return [(br.Peg(hands=(parse_cards(h), mine), turn=br.ADVERSARY), 1.0) for h in hands]


def test_worked_case_the_adversary_cannot_see_the_hand() -> None:
    """Worked by hand: the adversary holds 4-9 and leads; the level holds a 6 or a 4.

    Lead 4: against the 6 (count 10) the 9 makes 19 and last card, +1; against the 4 the level
    pairs (2) and the 9 takes last card, -1. Mean 0.
    Lead 9: against the 6 the level makes fifteen (2), the 4 takes last card, -1; against the 4
    (count 13) the adversary's 4 pairs it (2) and takes last card, +3. Mean +1.
    So the best response leads the 9 for +1, while an adversary who saw the hand would get
    (1 + 3) / 2 = 2; the lowest-card player leads the 4 for 0.
    """
    both = worlds("4H 9S", "6D", "4C")
    choices: dict[object, object] = {}
    assert br.best_response(both, lowest, choices) == pytest.approx(1.0)
    assert choices[((), (False, False))] == parse_cards("9S")[0]
    # Played against the worlds alone, the 9 lead it found is worth -1 and +3.
    replay = br.replayed(choices, lowest)
    assert [br.follow(p, lowest, replay) for p, _ in both] == [-1, 3]
    assert [br.best_response([w], lowest) for w in both] == [pytest.approx(1.0), 3.0]
    assert [br.follow(p, lowest, lowest) for p, _ in both] == [1, -1]


def test_a_go_tells_the_worlds_apart() -> None:
    """Worked by hand: at count 20 (the level's Q-Q) the adversary holds 9-K; the level holds an
    ace or a ten, and only the ace can follow. So in one world the level plays on and in the
    other it says go, and the adversary sees which.

    9 (29): the ace makes 30; the king does not fit, so the go is the level's (+1), and the king
    led anew is the last card (+1): 0. Against the ten the level cannot play, the go is the
    adversary's (+1); the level leads the ten, the king (20) is the last card (+1): +2.
    K (30): the ace makes 31 (2 to the level); the 9 led anew is the last card (+1): -1. Against
    the ten: go to the adversary (+1), the ten led, the 9 (19) last (+1): +2.
    Best: the 9, (0 + 2) / 2 = 1 (the king gives (-1 + 2) / 2 = 0.5).
    """
    mine = parse_cards("9S KS")
    pile = tuple((br.LEVEL, c) for c in parse_cards("QD QH"))
    both = [
        (br.Peg(hands=(parse_cards(h), mine), pile=pile, count=20, turn=br.ADVERSARY), 1.0)
        for h in ("AD", "10C")
    ]
    assert [br.best_response([w], lowest) for w in both] == [0.0, 2.0]
    assert br.best_response(both, lowest) == pytest.approx(1.0)


def test_worked_case_the_worlds_weigh_as_their_hands() -> None:
    """Worked by hand: the adversary holds 5-10 and leads; in two hidden states the level holds
    the same ranks, 5-10, but answers with the lower card in one (A) and the higher in the other
    (B), as a level whose discards differ would. The adversary sees only ranks, so it cannot tell
    A from B, and only their weights choose its lead.

    Lead 5: in A the 5 pairs (2), the 10s pair at 30 (2) and the last card (1): -5; in B the 10
    makes fifteen (2), the 10s pair (2 to the adversary), the 5 at 30 is the last card: -1.
    Lead 10: in A the 5 makes fifteen (2), the 5s pair (2 to the adversary), the last card: -1;
    in B the 10 pairs (2), the 5 at 25, the 5s pair at 30 (2) and the last card: -5.
    With A three times as likely as B: lead 5 is (3 x -5 - 1) / 4 = -4, lead 10 is
    (3 x -1 - 5) / 4 = -2, so it leads the 10; the other way round it leads the 5.
    """
    mine = parse_cards("5S 10H")

    def level(peg: object) -> object:
        legal = peg.legal()  # type: ignore[attr-defined]
        pick = min if peg.world == 0 else max  # type: ignore[attr-defined]
        return pick(legal, key=lambda c: c.rank)

    def states(a: float, b: float) -> list[tuple[object, float]]:
        return [
            (br.Peg(hands=(parse_cards("5D 10C"), mine), turn=br.ADVERSARY, world=0), a),
            (br.Peg(hands=(parse_cards("5H 10D"), mine), turn=br.ADVERSARY, world=1), b),
        ]

    for (a, b), lead, value in (((3.0, 1.0), 10, -2.0), ((1.0, 3.0), 5, -2.0)):
        choices: dict[object, object] = {}
        assert br.best_response(states(a, b), level, choices, observe=rank) == value
        assert choices[((), (False, False))].rank == lead  # type: ignore[attr-defined]
    assert br.best_response(states(0.75, 0.25), level, observe=rank) == -2.0
    assert [br.best_response([w], level) for w in states(1.0, 1.0)] == [-1.0, -1.0]


def test_worked_case_a_mixed_level_is_answered_by_its_odds() -> None:
    """Worked by hand: the adversary holds 5-10 and leads against the level's 5-10, as in the
    case above, but in one world: the level answers with its 5 at chance ``p`` and with its 10
    otherwise. The adversary cannot see the draw before it leads, so it answers the odds.

    Lead 5: the level's 5 gives -5, its 10 gives -1: -1 - 4p. Lead 10: the 5 gives -1, the 10
    gives -5: -5 + 4p. Against either pure answer (p = 0 or 1) the best response gets -1; at
    p = 3/4 it leads the 10 for -2; at p = 1/2 both leads give -3, the least it can be held to.
    """
    mine = parse_cards("5S 10H")
    five, ten = parse_cards("5D 10C")
    start = br.Peg(hands=((five, ten), mine), turn=br.ADVERSARY)

    def mixed(p: float) -> object:
        def level(peg: object) -> object:
            legal = peg.legal()  # type: ignore[attr-defined]
            if len(legal) == 1:
                return legal[0]
            return {five: p, ten: 1.0 - p}

        return level

    def lead(rank: int) -> object:
        return lambda peg: next(c for c in peg.legal() if c.rank == rank or len(peg.legal()) == 1)

    for p, value, first in ((1.0, -1.0, 10), (0.0, -1.0, 5), (0.75, -2.0, 10)):
        choices: dict[object, object] = {}
        assert br.best_response([(start, 1.0)], mixed(p), choices) == pytest.approx(value)
        assert choices[((), (False, False))].rank == first  # type: ignore[attr-defined]
    assert br.best_response([(start, 1.0)], mixed(0.5)) == pytest.approx(-3.0)
    # Followed line by line, each lead's mean over the level's odds is as worked above.
    for p in (0.0, 0.25, 0.5, 1.0):
        assert br.follow(start, mixed(p), lead(5)) == pytest.approx(-1 - 4 * p)
        assert br.follow(start, mixed(p), lead(10)) == pytest.approx(-5 + 4 * p)
    # A pure policy given as odds of 1 is the same policy.
    assert br.best_response([(start, 1.0)], lambda peg: {lowest(peg): 1.0}) == br.best_response(
        [(start, 1.0)], lowest
    )


def test_hands_that_hide_the_same_state_peg_alike() -> None:
    """The rank worlds rest on this: two hands of the level's with the same ranks kept, the same
    ranks laid away and the same show total get the same ranks played, whatever their suits, in
    every line of the play against the adversary's every card."""
    level = "expert-2"
    deal = br.setup(level, seed=4, index=1, scores=(0, 0))
    first: dict[object, tuple[object, ...]] = {}
    pairs = []
    for _ in range(400):
        six = tuple(deal.rng.sample(deal.rest, 6))
        laid = br.discard_of(level, deal.templates[0], six, seed=1).cards
        kept = tuple(sorted(c for c in six if c not in laid))
        key = br.hidden(kept, laid, deal.starter, end=False)
        if key in first and first[key] != (kept, laid):
            pairs.append((first[key], (kept, laid)))
        first.setdefault(key, (kept, laid))
    assert len(pairs) >= 3
    for hands in pairs[:3]:
        lines = []
        for kept, laid in hands:
            policy = br.SeatPolicy(
                level,
                side=br.LEVEL,
                template=deal.templates[0],
                discards=laid,
                scores=(0, 0),
                seed=1,
            )
            lines.append(plays(br.Peg(hands=(kept, deal.kept), turn=deal.first), policy))
        assert lines[0] == lines[1]


def plays(peg: object, level: object) -> list[tuple[int, ...]]:
    """The ranks the level plays in every line of the adversary's."""
    out: list[tuple[int, ...]] = []
    if peg.over:  # type: ignore[attr-defined]
        return [tuple(c.rank for s, c in peg.played if s == br.LEVEL)]  # type: ignore[attr-defined]
    if peg.turn == br.LEVEL:  # type: ignore[attr-defined]
        return plays(peg.play(level(peg)), level)  # type: ignore[attr-defined,operator]
    for card in peg.legal():  # type: ignore[attr-defined]
        out += plays(peg.play(card), level)  # type: ignore[attr-defined]
    return out


def test_the_ranks_kept_weigh_as_all_their_hands() -> None:
    """Merged by the ranks kept, each world weighs as many hands as kept those ranks, over all
    the states they hide (the same hands dealt again, for the same deal)."""
    level = "expert-2"
    merged = br.weigh(
        level,
        br.setup(level, seed=5, index=2, scores=(0, 0)),
        samples=300,
        index=2,
        scores=(0, 0),
        keeps=True,
    )
    every = br.weigh(
        level,
        br.setup(level, seed=5, index=2, scores=(0, 0)),
        samples=300,
        index=2,
        scores=(0, 0),
        keeps=False,
    )
    by_keep: dict[object, float] = {}
    for key, (count, _) in every.items():
        by_keep[key[0]] = by_keep.get(key[0], 0.0) + count
    assert {key[0]: count for key, (count, _) in merged.items()} == by_keep
    assert sum(by_keep.values()) == 300
    assert len(every) > len(merged)
    for key, (_, (kept, laid)) in merged.items():
        assert every[key][1] == (kept, laid)  # the state of the first hand to keep those ranks


def test_the_best_response_does_at_least_as_well_as_the_level() -> None:
    """Playing as the level does is one of the adversary's strategies, so the best response is
    never worse (on real deals, the level being expert-2 with a few worlds)."""
    for index in range(3):
        result = br.solve_deal("expert-2", seed=3, index=index, worlds=3)
        assert result.best >= result.own - 1e-9
    ranked = br.solve_ranks("expert-2", seed=3, index=1, samples=40)
    assert ranked.best >= ranked.own - 1e-9
    assert sum(ranked.by_card) == pytest.approx(ranked.best - ranked.own)


def test_the_tool_scores_the_play_as_the_engine_does() -> None:
    """Random hands played out card by card: the tool's points, goes and last cards are the
    rules engine's."""
    from muggins.shared.actions import CardPlayed, Discard, Play, Scored
    from muggins.shared.match import Match

    rng = random.Random(5)
    for seed in range(30):
        match = Match(seed=seed)
        game = match.game
        for seat in (0, 1):
            hand = sorted(game.hands[seat], key=lambda c: (c.rank, c.suit))
            match.apply(seat, Discard(cards=(hand[0], hand[1])))
        if game.phase != "play":  # his heels ended it
            continue
        pegged = [0, 0]
        peg = br.Peg(hands=(tuple(game.hands[0]), tuple(game.hands[1])), turn=game.turn)
        while game.phase == "play":
            assert peg.turn == game.turn
            card = rng.choice(peg.legal())
            for event in match.apply(game.turn, Play(card=card)):
                if isinstance(event, CardPlayed) or (
                    isinstance(event, Scored) and event.reason in ("go", "last_card")
                ):
                    pegged[event.seat] += event.points
            peg = peg.play(card)
        assert peg.over
        assert peg.points == (pegged[0], pegged[1])
