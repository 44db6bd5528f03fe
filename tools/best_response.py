"""How much a perfect adversary could gain against a level's pegging, per deal.

    python tools/best_response.py --level expert --deals 200 --worlds 24 --seed 1 [--workers 2]

For each deal (drawn from ``--seed``) the adversary gets six cards and the starter is cut; it
lays away two as the level would. The level's hand is hidden from the adversary: ``--worlds``
hands of six are dealt from the cards the adversary has not seen, and the level lays away two of
each by its own discard policy, so the worlds are drawn from exactly what the adversary may
believe about the level's four cards given both discards. Then the adversary's best response to
the level's pegging policy is solved exactly over the pegging tree: at its own turn the adversary
picks the card with the best mean over the worlds it cannot tell apart (it sees every card the
level plays, so worlds split as they play differently), and at the level's turn each world
follows the level's own choice from its own view. The figure is the adversary's mean pegging
balance (its points in the play less the level's) under that best response, less its balance
when it plays as the level itself would (the level against itself): the most a perfect adversary
gains per deal by knowing how the level pegs. Roles alternate: even deals the adversary deals.

The worlds are a sample, so the adversary's belief is sharper than the true one (a few worlds
are soon told apart by the level's cards, where the true belief holds many hands) and the figure
leans high; more worlds lower it towards the exact bound. So the best response is also played,
unchanged, against as many other worlds drawn the same way (where it meets a history it was not
solved for it plays as the level would): a strategy the adversary could really follow, so that
figure leans low. The exact gain lies between the two.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from muggins.shared.actions import Discard, Play
from muggins.shared.bots import make_strategy
from muggins.shared.bots.evaluation import play_points
from muggins.shared.cards import DECK, Card
from muggins.shared.match import Match
from muggins.shared.view import PlayedCard, SeatView

LEVEL, ADVERSARY = 0, 1
"""The two sides of the pegging: the level whose policy is measured, and the adversary."""


@dataclass(frozen=True)
class Peg:
    """A position of the play: both hands, every card played (side, card), the pile since the
    count restarted, the count, whose turn it is, who has said go, and each side's points."""

    hands: tuple[tuple[Card, ...], tuple[Card, ...]]
    played: tuple[tuple[int, Card], ...] = ()
    pile: tuple[tuple[int, Card], ...] = ()
    count: int = 0
    turn: int = 0
    said_go: tuple[bool, bool] = (False, False)
    points: tuple[int, int] = (0, 0)

    @property
    def over(self) -> bool:
        return not self.hands[0] and not self.hands[1]

    def legal(self) -> list[Card]:
        return [c for c in self.hands[self.turn] if self.count + c.value <= 31]

    def play(self, card: Card) -> Peg:
        """The position after the side to move plays ``card``, goes and resets scored as the rules
        score them (the engine's ``Game._advance_play``)."""
        side = self.turn
        ranks = [c.rank for _, c in self.pile]
        gained = play_points(ranks, self.count, card.rank)
        hands = list(self.hands)
        hands[side] = tuple(c for c in hands[side] if c != card)
        points = list(self.points)
        points[side] += gained
        pile = (*self.pile, (side, card))
        count = self.count + card.value
        said = list(self.said_go)
        turn = 1 - side
        while True:
            last = pile[-1][0] if pile else None
            if count == 31 and last is not None:
                pile, count, said = (), 0, [False, False]
                turn = 1 - last if hands[1 - last] else last
                continue
            if not hands[0] and not hands[1]:
                if last is not None:
                    points[last] += 1
                break
            if any(count + c.value <= 31 for c in hands[turn]):
                break
            if hands[turn]:
                said[turn] = True
            if any(count + c.value <= 31 for c in hands[1 - turn]):
                turn = 1 - turn
                continue
            assert last is not None
            points[last] += 1
            pile, count, said = (), 0, [False, False]
            turn = 1 - last if hands[1 - last] else last
        return Peg(
            hands=(hands[0], hands[1]),
            played=(*self.played, (side, card)),
            pile=pile,
            count=count,
            turn=turn,
            said_go=(said[0], said[1]),
            points=(points[0], points[1]),
        )

    @property
    def balance(self) -> int:
        """The adversary's points less the level's."""
        return self.points[ADVERSARY] - self.points[LEVEL]


Policy = Callable[[Peg], Card]
"""A side's choice of card in a position (it must read only what that side may see)."""
World = tuple[Peg, float]


History = tuple[tuple[tuple[int, Card], ...], tuple[bool, bool]]
"""What the adversary has seen of a position: the cards played in order and who has said go."""


def best_response(
    worlds: Sequence[World], level: Policy, choices: dict[History, Card] | None = None
) -> float:
    """The adversary's best mean balance over ``worlds`` (positions that differ only in the
    level's hidden hand, with their weights), the level playing by ``level`` in each. The
    adversary's card at each history it meets goes into ``choices`` when given."""
    mass = sum(w for _, w in worlds)
    return _respond(list(worlds), level, {} if choices is None else choices) / mass


def _respond(worlds: list[World], level: Policy, choices: dict[History, Card]) -> float:
    """The weighted sum of the best balance over worlds the adversary cannot tell apart."""
    parts: dict[tuple[int, tuple[bool, bool], bool], list[World]] = {}
    for p, w in worlds:  # a go, or a last card, tells the worlds apart too
        parts.setdefault((p.turn, p.said_go, p.over), []).append((p, w))
    if len(parts) > 1:
        return sum(_respond(part, level, choices) for part in parts.values())
    peg = worlds[0][0]
    if peg.over:
        return sum(w * p.balance for p, w in worlds)
    if peg.turn == ADVERSARY:
        by_rank = {c.rank: c for c in peg.legal()}  # suits never peg, and the level sees ranks
        values = {
            card: _respond([(p.play(card), w) for p, w in worlds], level, choices)
            for card in by_rank.values()
        }
        best = max(values, key=lambda c: values[c])
        choices[(peg.played, peg.said_go)] = best
        return values[best]
    groups: dict[Card, list[World]] = {}
    for p, w in worlds:
        card = level(p)
        groups.setdefault(card, []).append((p.play(card), w))
    return sum(_respond(group, level, choices) for group in groups.values())


def replayed(choices: dict[History, Card], fallback: Policy) -> Policy:
    """The adversary playing ``choices`` where it met the history, else ``fallback``."""

    def policy(peg: Peg) -> Card:
        card = choices.get((peg.played, peg.said_go))
        return card if card is not None else fallback(peg)

    return policy


def follow(peg: Peg, level: Policy, adversary: Policy) -> int:
    """The balance when both sides play by their policies."""
    while not peg.over:
        peg = peg.play((level if peg.turn == LEVEL else adversary)(peg))
    return peg.balance


class SeatPolicy:
    """A level's choice of card from the view its seat would get in this position.

    ``template`` is a real view at the start of the play (options, the deal's commitment), and the
    position's hands, pile and points are written over it; the seat sees its own hand, its
    discards, the starter and the cards played, and of the other side only how many it holds.
    Choices are remembered per position, so each is made once.
    """

    def __init__(
        self,
        level: str,
        *,
        side: int,
        template: SeatView,
        discards: tuple[Card, ...],
        scores: tuple[int, int],
        seed: int,
    ) -> None:
        self.strategy = make_strategy(level, seed=seed)
        self.side = side
        self.template = template
        self.discards = discards
        self.scores = scores
        self.memo: dict[tuple[tuple[Card, ...], tuple[tuple[int, Card], ...]], Card] = {}

    def __call__(self, peg: Peg) -> Card:
        key = (peg.hands[self.side], peg.played)
        card = self.memo.get(key)
        if card is None:
            card = self.memo[key] = self._choose(peg)
        return card

    def _choose(self, peg: Peg) -> Card:
        seat = self.template.seat
        assert seat is not None
        other = 1 - seat

        def seat_of(side: int) -> int:
            return seat if side == self.side else other

        def played(cards: tuple[tuple[int, Card], ...]) -> tuple[PlayedCard, ...]:
            return tuple(PlayedCard.trusted(seat=seat_of(s), card=c) for s, c in cards)

        scores = [0, 0]
        scores[seat] = self.scores[0] + peg.points[self.side]
        scores[other] = self.scores[1] + peg.points[1 - self.side]
        said = [False, False]
        said[seat], said[other] = peg.said_go[self.side], peg.said_go[1 - self.side]
        counts = [0, 0]
        counts[seat], counts[other] = len(peg.hands[self.side]), len(peg.hands[1 - self.side])
        view = self.template.model_copy(
            update={
                "phase": "play",
                "turn": seat,
                "waiting_for": (seat,),
                "hand": peg.hands[self.side],
                "discards": self.discards,
                "hand_counts": (counts[0], counts[1]),
                "count": peg.count,
                "pile": played(peg.pile),
                "played": played(peg.played),
                "said_go": (said[0], said[1]),
                "scores": (scores[0], scores[1]),
                "legal": tuple(Play(card=c) for c in peg.legal()),
            }
        )
        action = self.strategy.choose(view)
        assert isinstance(action, Play)
        return action.card


def discard_of(level: str, template: SeatView, six: tuple[Card, ...], seed: int) -> Discard:
    """The two cards ``level`` lays away from ``six`` in ``template``'s seat and role."""
    view = template.model_copy(
        update={"phase": "discard", "hand": six, "legal": _discards(six), "starter": None}
    )
    action = make_strategy(level, seed=seed).choose(view)
    assert isinstance(action, Discard)
    return action


def _discards(six: tuple[Card, ...]) -> tuple[Discard, ...]:
    return tuple(Discard(cards=(a, b)) for i, a in enumerate(six) for b in six[i + 1 :])


@dataclass(frozen=True)
class DealResult:
    best: float
    """The adversary's best-response balance over the worlds it was solved on."""
    own: float
    """Its balance playing as the level does, over the same worlds."""
    held_out: float
    """The same best response's balance over as many other worlds, drawn alike (where it meets a
    history it was not solved for, it plays as the level does)."""
    held_out_own: float
    """Its balance playing as the level does over those other worlds."""
    adversary_deals: bool


def solve_deal(
    level: str, *, seed: int, index: int, worlds: int, scores: tuple[int, int] = (0, 0)
) -> DealResult:
    """One deal: the adversary's hand and the starter, ``worlds`` hands for the level (a hand
    kept twice is one world of twice the weight)."""
    rng = random.Random(f"best-response:{seed}:{index}")
    adversary_deals = index % 2 == 0
    deck = list(DECK)
    rng.shuffle(deck)
    six, starter, rest = tuple(deck[:6]), deck[6], deck[7:]
    base = Match(seed=rng.getrandbits(64))
    # The level sits in seat 0, the adversary in seat 1; the dealer is whichever the deal says.
    dealer = 1 if adversary_deals else 0
    templates = [
        base.view(s).model_copy(update={"dealer": dealer, "starter": starter, "scores": scores})
        for s in (0, 1)
    ]
    away = discard_of(level, templates[1], six, seed=index)
    kept = tuple(sorted(c for c in six if c not in away.cards))
    policies: dict[tuple[Card, ...], SeatPolicy] = {}

    def draw() -> list[World]:
        """``worlds`` hands for the level, each kept four a world (weighted by how often)."""
        weights: dict[tuple[Card, ...], float] = {}
        for _ in range(worlds):
            theirs = tuple(rng.sample(rest, 6))
            laid = discard_of(level, templates[0], theirs, seed=index)
            four = tuple(sorted(c for c in theirs if c not in laid.cards))
            weights[four] = weights.get(four, 0.0) + 1.0
            if four not in policies:
                policies[four] = SeatPolicy(
                    level,
                    side=LEVEL,
                    template=templates[0],
                    discards=laid.cards,
                    scores=scores,
                    seed=index * 1000 + len(policies),
                )
        first = LEVEL if adversary_deals else ADVERSARY
        return [(Peg(hands=(four, kept), turn=first), w) for four, w in weights.items()]

    def level_policy(peg: Peg) -> Card:
        four = tuple(sorted((*peg.hands[LEVEL], *(c for s, c in peg.played if s == LEVEL))))
        return policies[four](peg)

    own_policy = SeatPolicy(
        level,
        side=ADVERSARY,
        template=templates[1],
        discards=away.cards,
        scores=(scores[1], scores[0]),
        seed=index,
    )
    solved, other = draw(), draw()
    choices: dict[History, Card] = {}
    best = best_response(solved, level_policy, choices)
    replay = replayed(choices, own_policy)

    def mean(positions: list[World], adversary: Policy) -> float:
        return sum(w * follow(p, level_policy, adversary) for p, w in positions) / worlds

    return DealResult(
        best=best,
        own=mean(solved, own_policy),
        held_out=mean(other, replay),
        held_out_own=mean(other, own_policy),
        adversary_deals=adversary_deals,
    )


def _solve(job: tuple[str, int, int, int, tuple[int, int]]) -> DealResult:
    level, seed, index, worlds, scores = job
    return solve_deal(level, seed=seed, index=index, worlds=worlds, scores=scores)


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its normal 95 % interval."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.959964 * math.sqrt(var / n)


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--level", default="expert")
    parser.add_argument("--deals", type=int, default=200)
    parser.add_argument("--worlds", type=int, default=24, help="hands of the level's per deal")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument(
        "--scores",
        type=int,
        nargs=2,
        default=(0, 0),
        metavar=("LEVEL", "ADVERSARY"),
        help="the scores the deal starts from (0 0)",
    )
    args = parser.parse_args()
    start = time.perf_counter()
    scores = (args.scores[0], args.scores[1])
    jobs = [(args.level, args.seed, i, args.worlds, scores) for i in range(args.deals)]
    if args.workers > 1:
        from multiprocessing import get_context

        with get_context().Pool(args.workers) as pool:
            results = pool.map(_solve, jobs, chunksize=1)
    else:
        results = [_solve(job) for job in jobs]
    print(
        f"{args.level}: {args.deals} deals from {scores[0]}-{scores[1]}, {args.worlds} worlds"
        f" a deal, seed {args.seed}"
        f" ({time.perf_counter() - start:.0f} s)"
    )
    for name, pick in (
        ("all", results),
        ("adversary deals", [r for r in results if r.adversary_deals]),
        ("adversary is pone", [r for r in results if not r.adversary_deals]),
    ):
        gain, half = mean_ci([r.best - r.own for r in pick])
        out, out_half = mean_ci([r.held_out - r.held_out_own for r in pick])
        best, _ = mean_ci([r.best for r in pick])
        own, _ = mean_ci([r.own for r in pick])
        print(
            f"  {name:<18} gain {gain:+.3f} ± {half:.3f} points a deal on the worlds solved"
            f" (best response {best:+.3f}, as the level plays {own:+.3f});"
            f" {out:+.3f} ± {out_half:.3f} on other worlds"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
