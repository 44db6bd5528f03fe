"""What the opponent's plays say about its hand: a belief updated from each card it has played.

:mod:`~muggins.shared.bots.belief` weighs each unseen card by how often the opponent's role keeps
its rank and rules out what a go says it cannot hold, but a card the opponent chose to play says
more: a pone that led a 4 rather than its other cards, or a dealer that did not pair a 7 it could
have paired, is unlikely to hold some hands. Here every hand the opponent may hold now is
weighted by the prior (the keep weights, the go) times the chance that a sensible player holding
it would have played the cards it did, each chosen by a softmax over a cheap value of the ranks
it could play then:

- the opening lead by the lead table's value of each lead from its four ranks (even weights);
- the dealer's answer to the opening lead by the reply table's value of each answer;
- any later card by the points it pegs less a share of what the next card may peg back.

The hands are enumerated exactly (at most 455 sets of three ranks), so the search draws from
the posterior itself, and when the opponent holds two cards or fewer it weighs every hand.

>>> after_seven = TheirPlay(pile=(7,), count=7, rank=3, kind="card", others=3)
>>> one_ply(after_seven, 7) > one_ply(after_seven, 3)  # pairing the 7 pegs 2
True
>>> likely = Likelihood([after_seven])  # it played a 3 on the 7: did it hold a 7?
>>> likely.of((9, 12)) > 3 * likely.of((7, 12))
True
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache
from itertools import combinations_with_replacement

from muggins.shared.bots.belief import Belief
from muggins.shared.bots.evaluation import play_points
from muggins.shared.bots.playout import PIP, _relevant
from muggins.shared.view import SeatView

Ranks = tuple[int, ...]

TABLE_BETA = 2.0
"""How sharply the opponent prefers its better leads and answers, per point of the tables'
balance: a lead worse by half a point is ``exp(-1)`` as likely. Moderate on purpose: the model
is of a sensible player, not of this program's own tables."""
PLAY_BETA = 1.5
"""The same for later cards, per point of the one-ply value."""
DANGER = 0.5
"""The share of the expected points of the next card, per card the answering side holds, that
the one-ply value charges a card with."""


@dataclass(frozen=True)
class TheirPlay:
    """One card the opponent played: the scoring end of the pile and the count before it, the
    rank, which of the deal's cards it was (``opening`` lead, dealer's ``answer`` to it, or a
    later ``card``), and how many cards the other side held then."""

    pile: Ranks
    count: int
    rank: int
    kind: str
    lead: int = 0
    """The opening lead, for an ``answer``."""
    others: int = 4


def their_plays(view: SeatView) -> list[TheirPlay]:
    """The opponent's cards this deal, in order, each with the pile and count it was played on.
    The count restarts after 31 and before a card that would pass 31 (a card played after a go
    that would still fit is never the other side's, as its go said it held none that fit)."""
    assert view.seat is not None
    them = 1 - view.seat
    out: list[TheirPlay] = []
    pile: list[int] = []
    count = 0
    mine = 4
    for i, p in enumerate(view.played):
        value = p.card.value
        if count + value > 31:
            count, pile = 0, []
        rank = p.card.rank
        if p.seat == them:
            kind = "opening" if i == 0 else "answer" if i == 1 else "card"
            lead = view.played[0].card.rank if kind == "answer" else 0
            out.append(TheirPlay(_relevant(tuple(pile), count), count, rank, kind, lead, mine))
        else:
            mine -= 1
        count += value
        pile.append(rank)
        if count == 31:
            count, pile = 0, []
    return out


def one_ply(play: TheirPlay, rank: int) -> float:
    """A later card's cheap value: the points it pegs, less ``DANGER`` times the expected points
    of one answering card (every rank as likely) times the cards the other side holds."""
    pegged = play_points(play.pile, play.count, rank)
    after = play.count + PIP[rank]
    if after == 31 or play.others == 0:
        return float(pegged)
    pile = _relevant((*play.pile, rank), after)
    back = sum(play_points(pile, after, r) for r in range(1, 14) if after + PIP[r] <= 31) / 13
    return pegged - DANGER * play.others * back


class Likelihood:
    """The chance of the opponent's plays given the hand it holds now, with what does not depend
    on that hand worked out once per play (see :func:`play_chances`)."""

    def __init__(self, plays: list[TheirPlay]) -> None:
        self.plays = plays
        # Newest first: each play's remembered chances and the ranks it and the plays after it
        # add back to the hand held now.
        self.steps: list[tuple[PlayChances, Ranks]] = []
        later: Ranks = ()
        for play in reversed(plays):
            later = (*later, play.rank)
            self.steps.append((play_chances(play), later))

    def of(self, hand: Ranks) -> float:
        """The likelihood of every play seen, given ``hand`` (the ranks it holds now)."""
        total = 1.0
        for chances, back in self.steps:
            then = tuple(sorted(hand + back))
            found = chances.memo.get(then)
            total *= found if found is not None else chances.chance(then)
        return total


class PlayChances:
    """The chance that one of the opponent's plays was chosen, by the ranks it held then,
    remembered as it is asked for: a play seen is weighed again at each later decision of the
    deal (over the same hands), and the same play recurs in other deals."""

    def __init__(self, play: TheirPlay) -> None:
        from muggins.shared.bots.opening_tables import lead_table, reply_table

        self.play = play
        self.leads = lead_table()
        self.replies = reply_table()
        self.values: dict[int, float] | None = None
        self.memo: dict[Ranks, float] = {}

    def chance(self, then: Ranks) -> float:
        """The chance that the play was chosen from the ranks ``then`` held."""
        found = self.memo.get(then)
        if found is not None:
            return found
        play = self.play
        scores: dict[int, float] | None = None
        if play.kind == "opening" and len(then) == 4:
            scores = {r: TABLE_BETA * v[1] for r, v in self.leads[then].items()}
        elif play.kind == "answer" and len(then) == 4:
            replies = self.replies.get((then, play.lead))
            if replies is not None:
                scores = {r: TABLE_BETA * v[1] for r, v in replies.items()}
        if scores is None:  # a later card, or a lead or answer past the tables
            values = self.values
            if values is None:
                values = self.values = {
                    r: PLAY_BETA * one_ply(play, r)
                    for r in range(1, 14)
                    if play.count + PIP[r] <= 31
                }
            scores = {r: values[r] for r in set(then) if r in values}
        chance = softmax_of(scores, play.rank)
        self.memo[then] = chance
        return chance


CHANCES_LIMIT = 400
"""Plays whose chances are remembered (about 10 MB at most); past that, the play used longest
ago is forgotten first."""


@lru_cache(maxsize=CHANCES_LIMIT)
def play_chances(play: TheirPlay) -> PlayChances:
    """The remembered chances of ``play`` (a pure function of the play and the ranks held).
    Computer players decide in threads (server/rooms/computer.py): ``lru_cache`` keeps its
    order whole across them, and a play worked out twice at once is the same either way."""
    return PlayChances(play)


def softmax_of(scores: dict[int, float], rank: int) -> float:
    """The softmax share of ``rank`` among ``scores`` (1 when it is the only choice)."""
    if rank not in scores:
        return 0.0
    top = max(scores.values())
    total = sum(math.exp(s - top) for s in scores.values())
    return math.exp(scores[rank] - top) / total


@dataclass
class Posterior:
    """Hands the opponent may hold now, with their weights (not normalised)."""

    hands: list[tuple[Ranks, float]]
    _cumulative: list[float] = field(default_factory=list)

    def draw(self, rng: random.Random, draws: int) -> Iterator[tuple[Ranks, float]]:
        """``draws`` hands drawn in proportion to weight, each of weight 1."""
        cumulative = self._cumulative
        if not cumulative:  # built aside and set whole: a posterior may be shared (see below)
            total = 0.0
            cumulative = []
            for _, w in self.hands:
                total += w
                cumulative.append(total)
            self._cumulative = cumulative
        top = cumulative[-1]
        for _ in range(draws):
            i = bisect.bisect_right(cumulative, rng.random() * top)
            yield self.hands[min(i, len(self.hands) - 1)][0], 1.0


def posterior(view: SeatView, belief: Belief) -> Posterior | None:
    """Every hand of ``belief.cards`` ranks the opponent may hold, weighted by the prior (the
    belief's card weights, counted over the unseen cards of each rank) times the likelihood of
    the cards it has played this deal; None when it has played none or holds none, or when its
    cards played and held do not make the four of a deal (a view made up by hand). The last one
    worked out is remembered, since the endgame asks again for the same decision when the chances
    to win tie; it is handed out as it is (to any thread asking with the same plays and belief), so
    nothing changes it but its draw table, set whole."""
    global _LAST
    plays = their_plays(view)
    if not plays or belief.cards <= 0 or len(plays) + belief.cards != 4:
        return None
    key = (tuple(plays), belief)
    last = _LAST  # read once: another thread may replace it meanwhile
    if last is not None and last[0] == key:
        return last[1]
    weights = belief.card_weights()
    per_card = [w / u if u else 0.0 for w, u in zip(weights, belief.unseen, strict=True)]
    ranks = [r for r in range(1, 14) if weights[r] > 0]
    # The prior of k cards of rank r, as the product over a hand's ranks takes it.
    terms = [
        [math.comb(belief.unseen[r], k) * per_card[r] ** k for k in range(belief.cards + 1)]
        for r in range(14)
    ]
    likelihood = Likelihood(plays)
    hands: list[tuple[Ranks, float]] = []
    for hand, held in hands_of(tuple(ranks), belief.cards):
        prior = 1.0
        for r, k in held:
            prior *= terms[r][k]
        if prior > 0:
            w = prior * likelihood.of(hand)
            if w > 0:
                hands.append((hand, w))
    # Nothing that fits the model: fall back on the prior.
    found = Posterior(hands) if hands else None
    _LAST = (key, found)
    return found


_LAST: tuple[tuple[tuple[TheirPlay, ...], Belief], Posterior | None] | None = None


@lru_cache(maxsize=64)
def hands_of(ranks: Ranks, cards: int) -> tuple[tuple[Ranks, tuple[tuple[int, int], ...]], ...]:
    """Every hand of ``cards`` of ``ranks`` (sorted), each with how many of each rank it holds,
    in the order ``set(hand)`` gives them (the prior is a product taken in that order)."""
    return tuple(
        (hand, tuple((r, hand.count(r)) for r in set(hand)))
        for hand in combinations_with_replacement(ranks, cards)
    )
