"""How much a perfect adversary could gain against a level's pegging, per deal.

    python tools/best_response.py --level expert --deals 60 --samples 20000 --seed 1
    python tools/best_response.py --level expert --deals 100 --worlds 48 --seed 1
    python tools/best_response.py --level expert-mixed:0.3 --deals 12 --samples 5000 --seed 1

For each deal (drawn from ``--seed``) the adversary gets six cards and the starter is cut; it
lays away two as the level would. The level's hand is hidden from the adversary: hands of six
are dealt from the cards the adversary has not seen, and the level lays away two of each by its
own discard policy, so the hands kept are drawn from exactly what the adversary may believe about
the level's four cards given both discards. Then the adversary's best response to the level's
pegging policy is solved exactly over the pegging tree (:mod:`muggins.shared.bots.exploit`). The
figure is the adversary's mean pegging balance (its points in the play less the level's) under
that best response, less its balance when it plays as the level itself would (the level against
itself): the most a perfect adversary gains per deal by knowing how the level pegs. Roles
alternate: even deals the adversary deals.

A level that mixes (``expert-mixed:M``, the expert playing by chance among the cards within ``M``
points of its best, :mod:`muggins.shared.bots.mixing`) is answered by its odds: the adversary
cannot see the draw, so each world parts into one branch per card the level may play, weighted
by its chance. Playing "as the level" is then mixed too, so compare levels by the best
response's own balance on the same deals as well as by the gain.

``--samples N`` (rank worlds): the level's pegging reads its hand only through its ranks, the
ranks it laid away (they are out of the unseen cards it draws the adversary's hand from) and its
show total (which sets what a point is worth); and the adversary sees the ranks the level plays.
So a world is a set of four ranks kept, weighted by how many of ``N`` hands dealt keep them, its
hidden rest that of the first of those hands (``--every-state``: every hidden state dealt is a
world, far costlier). With weights over all the sets kept the belief is nearly the true one; a
second ``N`` hands, dealt alike, weigh the held-out worlds, on which the same best response is
played unchanged.

``--worlds K`` (card worlds): ``K`` hands, each kept four a world; the adversary sees the cards.
With few worlds the adversary's belief is far sharper than the true one (a few worlds are soon
told apart where the true belief holds many hands), so the figure leans high; the same best
response played against ``K`` other worlds (where it meets a history it was not solved for it
plays as the level would) is a strategy the adversary could really follow, so that figure leans
low. The exact gain lies between the two.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import pairwise

from muggins.shared.actions import Discard, Play
from muggins.shared.bots import Strategy, make_strategy
from muggins.shared.bots.endgame import in_reach
from muggins.shared.bots.evaluation import hand_points
from muggins.shared.bots.exploit import (
    ADVERSARY,
    LEVEL,
    History,
    Observe,
    Peg,
    Policy,
    World,
    best_response,
    follow,
    rank,
    replayed,
    same,
)
from muggins.shared.bots.mixing import MixedExpert, Mixes
from muggins.shared.cards import DECK, Card
from muggins.shared.match import Match
from muggins.shared.view import PlayedCard, SeatView

__all__ = ["ADVERSARY", "LEVEL", "Peg", "best_response", "follow", "replayed"]


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
        self.strategy = strategy_of(level, seed)
        self.side = side
        self.template = template
        self.discards = discards
        self.scores = scores
        self.memo: dict[
            tuple[tuple[Card, ...], tuple[tuple[int, Card], ...]], Card | Mapping[Card, float]
        ] = {}

    def __call__(self, peg: Peg) -> Card | Mapping[Card, float]:
        key = (peg.hands[self.side], peg.played)
        card = self.memo.get(key)
        if card is None:
            card = self.memo[key] = self._choose(peg)
        return card

    def _choose(self, peg: Peg) -> Card | Mapping[Card, float]:
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
        if isinstance(self.strategy, Mixes):  # the policy's odds, not one draw from them
            return self.strategy.play_odds(view)
        action = self.strategy.choose(view)
        assert isinstance(action, Play)
        return action.card


MIXED = "expert-mixed:"
"""A level named ``expert-mixed:M`` is the expert with its play mixed within ``M`` points
(:class:`~muggins.shared.bots.mixing.MixedExpert`)."""


def strategy_of(level: str, seed: int) -> Strategy:
    """The named level, baseline or mixed expert."""
    if level.startswith(MIXED):
        return MixedExpert(seed, margin=float(level[len(MIXED) :]))
    return make_strategy(level, seed=seed)


def discard_of(level: str, template: SeatView, six: tuple[Card, ...], seed: int) -> Discard:
    """The two cards ``level`` lays away from ``six`` in ``template``'s seat and role."""
    view = template.model_copy(
        update={"phase": "discard", "hand": six, "legal": _discards(six), "starter": None}
    )
    action = strategy_of(level, seed).choose(view)
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
    """The same best response's balance over other worlds, drawn alike (where it meets a history
    it was not solved for, it plays as the level does)."""
    held_out_own: float
    """Its balance playing as the level does over those other worlds."""
    adversary_deals: bool
    worlds: int = 0
    """How many worlds the best response was solved on."""
    by_card: tuple[float, ...] = ()
    """The gain on the worlds solved, split by the adversary's card (its 1st to 4th): each is
    what playing the best response for one card more, and as the level after, adds."""


@dataclass(frozen=True)
class Deal:
    """One deal as the tool sets it up: the adversary's six and its keep, the starter, the cards
    it has not seen, and a real view of each seat at the start of the play (the level in seat 0)."""

    six: tuple[Card, ...]
    kept: tuple[Card, ...]
    away: tuple[Card, ...]
    starter: Card
    rest: tuple[Card, ...]
    templates: tuple[SeatView, SeatView]
    adversary_deals: bool
    rng: random.Random

    @property
    def first(self) -> int:
        """The side that plays first (the pone)."""
        return LEVEL if self.adversary_deals else ADVERSARY


def setup(level: str, *, seed: int, index: int, scores: tuple[int, int]) -> Deal:
    """Deal ``index`` of ``seed``; its generator goes on to deal the level's hands."""
    rng = random.Random(f"best-response:{seed}:{index}")
    adversary_deals = index % 2 == 0
    deck = list(DECK)
    rng.shuffle(deck)
    six, starter, rest = tuple(deck[:6]), deck[6], tuple(deck[7:])
    base = Match(seed=rng.getrandbits(64))
    dealer = 1 if adversary_deals else 0
    t0, t1 = (
        base.view(s).model_copy(update={"dealer": dealer, "starter": starter, "scores": scores})
        for s in (0, 1)
    )
    away = discard_of(level, t1, six, seed=index).cards
    kept = tuple(sorted(c for c in six if c not in away))
    return Deal(six, kept, away, starter, rest, (t0, t1), adversary_deals, rng)


def own_policy(level: str, deal: Deal, *, index: int, scores: tuple[int, int]) -> SeatPolicy:
    """The adversary playing as the level would in its seat."""
    return SeatPolicy(
        level,
        side=ADVERSARY,
        template=deal.templates[1],
        discards=deal.away,
        scores=(scores[1], scores[0]),
        seed=index,
    )


def solve_deal(
    level: str, *, seed: int, index: int, worlds: int, scores: tuple[int, int] = (0, 0)
) -> DealResult:
    """One deal over card worlds: ``worlds`` hands for the level (a hand kept twice is one world
    of twice the weight), and as many held out."""
    deal = setup(level, seed=seed, index=index, scores=scores)
    policies: dict[tuple[Card, ...], SeatPolicy] = {}

    def draw() -> list[World]:
        weights: dict[tuple[Card, ...], float] = {}
        for _ in range(worlds):
            theirs = tuple(deal.rng.sample(deal.rest, 6))
            laid = discard_of(level, deal.templates[0], theirs, seed=index)
            four = tuple(sorted(c for c in theirs if c not in laid.cards))
            weights[four] = weights.get(four, 0.0) + 1.0
            if four not in policies:
                policies[four] = SeatPolicy(
                    level,
                    side=LEVEL,
                    template=deal.templates[0],
                    discards=laid.cards,
                    scores=scores,
                    seed=index * 1000 + len(policies),
                )
        return [(Peg(hands=(four, deal.kept), turn=deal.first), w) for four, w in weights.items()]

    def level_policy(peg: Peg) -> Card | Mapping[Card, float]:
        four = tuple(sorted((*peg.hands[LEVEL], *(c for s, c in peg.played if s == LEVEL))))
        return policies[four](peg)

    own = own_policy(level, deal, index=index, scores=scores)
    solved, other = draw(), draw()
    return _result(deal, solved, other, level_policy, own, same)


def _result(
    deal: Deal,
    solved: list[World],
    other: list[World],
    level: Policy,
    own: Policy,
    observe: Observe,
) -> DealResult:
    """Solve the best response on ``solved`` and play it, and the level's own play, on both."""
    choices: dict[History, Card] = {}
    best = best_response(solved, level, choices, observe=observe)
    replay = replayed(choices, own, observe=observe)

    def mean(positions: list[World], adversary: Policy) -> float:
        mass = sum(w for _, w in positions)
        return sum(w * follow(p, level, adversary) for p, w in positions) / mass

    def first_cards(n: int) -> Policy:
        """The best response for the adversary's first ``n`` cards, then the level's play."""

        def policy(peg: Peg) -> Card | Mapping[Card, float]:
            mine = sum(1 for s, _ in peg.played if s == ADVERSARY)
            return (replay if mine < n else own)(peg)

        return policy

    steps = [mean(solved, first_cards(n)) for n in range(5)]
    return DealResult(
        best=best,
        own=steps[0],
        held_out=mean(other, replay),
        held_out_own=mean(other, own),
        adversary_deals=deal.adversary_deals,
        worlds=len(solved),
        by_card=tuple(b - a for a, b in pairwise(steps)),
    )


Hidden = tuple[tuple[int, ...], tuple[int, ...], int, tuple[Card, ...]]
"""The level's hidden state as its pegging reads it: the ranks it kept, the ranks it laid away,
its show total, and the cards laid away when the deal may end the game (the endgame search reads
its crib's chances, suits and all); a choice between cards of one rank is no choice."""


def hidden(kept: Sequence[Card], laid: Sequence[Card], starter: Card, *, end: bool) -> Hidden:
    """The hidden state of a level that kept ``kept`` and laid away ``laid``."""
    return (
        tuple(sorted(c.rank for c in kept)),
        tuple(sorted(c.rank for c in laid)),
        hand_points(list(kept), starter),
        tuple(sorted(laid)) if end else (),
    )


Hand = tuple[tuple[Card, ...], tuple[Card, ...]]
"""A hand of the level's: the four cards kept and the two laid away."""


def weigh(
    level: str, deal: Deal, *, samples: int, index: int, scores: tuple[int, int], keeps: bool
) -> dict[Hidden, tuple[float, Hand]]:
    """``samples`` hands of six for the level, dealt from the cards the adversary has not seen and
    laid away by the level: how many lead to each hidden state, and a hand for each. With
    ``keeps``, hands that keep the same ranks count as one state, that of the first of them (a
    draw from the states those ranks hide, the ranks weighed by all the hands)."""
    end = in_reach(scores[0], scores[1], target=deal.templates[0].options.target)
    out: dict[Hidden, tuple[float, Hand]] = {}
    first: dict[tuple[int, ...], Hidden] = {}
    for _ in range(samples):
        six = tuple(deal.rng.sample(deal.rest, 6))
        laid = discard_of(level, deal.templates[0], six, seed=index).cards
        kept = tuple(sorted(c for c in six if c not in laid))
        key = hidden(kept, laid, deal.starter, end=end)
        if keeps:
            key = first.setdefault(key[0], key)
        count, hand = out.get(key, (0.0, (kept, laid)))
        out[key] = (count + 1.0, hand)
    return out


def solve_ranks(
    level: str,
    *,
    seed: int,
    index: int,
    samples: int,
    scores: tuple[int, int] = (0, 0),
    keeps: bool = True,
) -> DealResult:
    """One deal over rank worlds: the hidden states of ``samples`` hands (with ``keeps``, one per
    ranks kept), each weighted by how many hands lead to it, and those of as many others held
    out."""
    deal = setup(level, seed=seed, index=index, scores=scores)
    solved = weigh(level, deal, samples=samples, index=index, scores=scores, keeps=keeps)
    other = weigh(level, deal, samples=samples, index=index, scores=scores, keeps=keeps)
    hands = {key: hand for key, (_, hand) in (*solved.items(), *other.items())}
    keys = list(hands)
    ids = {key: i for i, key in enumerate(keys)}
    policies = [
        SeatPolicy(
            level,
            side=LEVEL,
            template=deal.templates[0],
            discards=hands[key][1],
            scores=scores,
            seed=index,
        )
        for key in keys
    ]

    def worlds(states: dict[Hidden, tuple[float, Hand]]) -> list[World]:
        return [
            (Peg(hands=(hand[0], deal.kept), turn=deal.first, world=ids[k]), w / samples)
            for k, (w, hand) in states.items()
        ]

    def level_policy(peg: Peg) -> Card | Mapping[Card, float]:
        return policies[peg.world](peg)

    own = own_policy(level, deal, index=index, scores=scores)
    return _result(deal, worlds(solved), worlds(other), level_policy, own, rank)


def _solve(job: tuple[str, int, int, int, int, tuple[int, int], bool]) -> DealResult:
    level, seed, index, worlds, samples, scores, keeps = job
    if samples:
        return solve_ranks(
            level, seed=seed, index=index, samples=samples, scores=scores, keeps=keeps
        )
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
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--samples", type=int, default=0, help="hands dealt to weigh rank worlds")
    parser.add_argument(
        "--every-state",
        action="store_true",
        help="a rank world for every hidden state dealt, not one for each ranks kept",
    )
    parser.add_argument("--worlds", type=int, default=48, help="card worlds (without --samples)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--first", type=int, default=0, help="the first deal's index")
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
    indices = range(args.first, args.first + args.deals)
    keeps = not args.every_state
    jobs = [(args.level, args.seed, i, args.worlds, args.samples, scores, keeps) for i in indices]
    if args.workers > 1:
        from multiprocessing import get_context

        with get_context().Pool(args.workers) as pool:
            results = pool.map(_solve, jobs, chunksize=1)
    else:
        results = []
        for job in jobs:
            results.append(_solve(job))
            r = results[-1]
            print(
                f"  deal {job[2]}: {r.best - r.own:+.3f} solved ({r.worlds} worlds),"
                f" {r.held_out - r.held_out_own:+.3f} held out;"
                f" best response {r.best:+.3f}, as the level plays {r.own:+.3f}",
                flush=True,
            )
    mode = f"{args.worlds} card worlds"
    if args.samples:
        mode = (
            f"rank worlds from {args.samples} hands ({'every state' if not keeps else 'by keep'})"
        )
    print(
        f"{args.level}: {args.deals} deals from {scores[0]}-{scores[1]}, {mode} a deal"
        f" (mean {sum(r.worlds for r in results) / len(results):.0f} solved),"
        f" seed {args.seed}, first deal {args.first} ({time.perf_counter() - start:.0f} s)"
    )
    for name, pick in (
        ("all", results),
        ("adversary deals", [r for r in results if r.adversary_deals]),
        ("adversary is pone", [r for r in results if not r.adversary_deals]),
    ):
        if not pick:
            continue
        gain, half = mean_ci([r.best - r.own for r in pick])
        out, out_half = mean_ci([r.held_out - r.held_out_own for r in pick])
        best, _ = mean_ci([r.best for r in pick])
        own, _ = mean_ci([r.own for r in pick])
        gap, gap_half = mean_ci([(r.best - r.own) - (r.held_out - r.held_out_own) for r in pick])
        cards = " ".join(f"{sum(r.by_card[k] for r in pick) / len(pick):+.3f}" for k in range(4))
        print(
            f"  {name:<18} gain {gain:+.3f} ± {half:.3f} points a deal on the worlds solved"
            f" (best response {best:+.3f}, as the level plays {own:+.3f});"
            f" {out:+.3f} ± {out_half:.3f} on held-out worlds"
            f" (the gap {gap:+.3f} ± {gap_half:.3f});"
            f" by its card {cards}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
