"""The expert decides as it did when its strength was measured (issue 35: +0.0416 wins a pair over
20,000 duplicate pairs), however its searches are sped up: seeded self-play games play the
decisions recorded before them, the endgame's alpha-beta search finds the chance to win of a
full search over the rules, to the last bit, and the crib's odds counted by kind of card are
those of every pair counted one by one."""

from __future__ import annotations

import hashlib
import random

import pytest

from muggins.shared.bots import make_strategy
from muggins.shared.bots.arena import game_seed
from muggins.shared.bots.endgame import ShowOdds, WinSearch, crib_odds
from muggins.shared.bots.evaluation import hand_points
from muggins.shared.bots.exploit import Peg
from muggins.shared.cards import DECK, Card
from muggins.shared.match import Match

RECORDED = {
    # level: (games, tournament seed, decisions, SHA-256 of "seat action" lines), recorded with
    # the expert measured over 20,000 pairs (main at d74c75d).
    "expert": (4, 4, 408, "b85593714e518f81445b3af692b6506df03b6093c2faacf0ffb09ff29dd8b32b"),
    "expert-3": (1, 4, 90, "274ece3f859029c9286093a3d71c160942c80c979c021925af8bf1895b0764c2"),
}


def decisions(level: str, games: int, seed: int) -> tuple[int, str]:
    """How many decisions ``games`` self-play games of ``level`` take, and their digest."""
    sha = hashlib.sha256()
    made = 0
    for index in range(games):
        match = Match(seed=game_seed(seed, index))
        bots = [make_strategy(level, seed=index * 2 + s) for s in (0, 1)]
        while not match.over:
            seat = match.waiting_for()[0]
            action = bots[seat].choose(match.view(seat))
            sha.update(f"{seat} {action.model_dump_json()}\n".encode())
            made += 1
            match.apply(seat, action)
    return made, sha.hexdigest()


@pytest.mark.parametrize("level", sorted(RECORDED))
def test_seeded_self_play_makes_the_recorded_decisions(level: str) -> None:
    """Every discard and card of a few seeded self-play games (a few hundred decisions, the
    endgame searched and the opponent's plays read) is the one recorded."""
    games, seed, made, digest = RECORDED[level]
    assert decisions(level, games, seed) == (made, digest)


def full_search(peg: Peg, odds: ShowOdds, scores: tuple[int, int]) -> float:
    """Seat 0's chance to win from ``peg``, every line searched: 1 or 0 as soon as the side that
    just played reaches the target, else the chance after the show."""
    me, them = scores[0] + peg.points[0], scores[1] + peg.points[1]
    if me >= odds.target:
        return 1.0
    if them >= odds.target:
        return 0.0
    if peg.over:
        return odds.after_play(me, them)
    values = [full_search(peg.play(c), odds, scores) for c in peg.legal()]
    return max(values) if peg.turn == 0 else min(values)


def test_the_alpha_beta_endgame_finds_the_full_searchs_chances() -> None:
    """Over random positions near the end (three or four cards each, some cards already on
    the pile), each card's chance to win is the full search's, equal as floats."""
    rng = random.Random(35)
    checked = 0
    while checked < 24:
        deck = list(DECK)
        rng.shuffle(deck)
        first = rng.randrange(2)  # who led
        led = rng.randrange(3)  # cards played before this seat's turn
        hands: tuple[list[Card], list[Card]] = (deck[:4], deck[4:8])
        peg = Peg(hands=(tuple(hands[0]), tuple(hands[1])), turn=first)
        while len(peg.played) < led and not peg.over:
            peg = peg.play(rng.choice(peg.legal()))
        if peg.turn != 0 or peg.over:
            continue
        scores = (rng.randrange(105, 121), rng.randrange(105, 121))
        now = (scores[0] + peg.points[0], scores[1] + peg.points[1])  # with the points pegged
        if max(now) >= 121:
            continue
        i_deal = rng.random() < 0.5
        show = ((4, 0.25), (8, 0.5), (12, 0.25))
        odds = ShowOdds(
            mine=(rng.randrange(0, 13),),
            theirs=((rng.randrange(0, 13), 1.0),) if i_deal else show,
            crib=show if i_deal else ((0, 1.0),),
            i_deal=i_deal,
            target=121,
        )
        last = peg.pile[-1][0] if peg.pile else None
        search = WinSearch(odds, scores=now)
        found = search.moves(
            tuple(sorted(c.rank for c in peg.hands[0])),
            tuple(sorted(c.rank for c in peg.hands[1])),
            tuple(c.rank for _, c in peg.pile),
            peg.count,
            last=last,
        )
        full = {c.rank: full_search(peg.play(c), odds, scores) for c in peg.legal()}
        assert found == full
        checked += 1


def test_the_crib_odds_count_every_pair() -> None:
    """The crib's points, each with its chance, as counting every pair of the unseen cards with
    ``hand_points``, over random deals with flushes and his nobs made likely."""
    rng = random.Random(53)
    for case in range(300):
        deck = list(DECK)
        rng.shuffle(deck)
        if case % 3 == 0:  # the crib's own cards and the starter of one suit
            deck.sort(key=lambda c: c.suit != "H")
            deck[:13] = rng.sample(deck[:13], 13)
        discards, starter = deck[:2], deck[2]
        unseen = sorted(rng.sample(deck[3:], rng.randrange(0, 45)))
        counts: dict[int, float] = {}
        for i, a in enumerate(unseen):
            for b in unseen[i + 1 :]:
                x = hand_points([*discards, a, b], starter, crib=True)
                counts[x] = counts.get(x, 0.0) + 1.0
        n = len(unseen) * (len(unseen) - 1) // 2
        plain = tuple(sorted((x, c / n) for x, c in counts.items())) if n else ((0, 1.0),)
        assert crib_odds(discards, starter, unseen) == plain
