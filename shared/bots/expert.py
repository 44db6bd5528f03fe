"""The previous expert (``expert-2``), kept as a baseline and as the base of the expert:
discards that value the play, a searched play against a read opponent, and every point weighed
by the board.

- **Discards**: each keep's expected hand over the 46 starters, plus (dealer) or minus (pone) the
  crib table's value of the two cards laid away, plus the keep's expected pegging balance in this
  role from the play tables (``tools/play_tables.py``: the mean of the play solved with every
  card in view and the play of two players who do not see each other's cards), so low,
  pegging-friendly cards are kept when they are worth it.
- **The play**: the opponent's hand is drawn many times from a belief (unseen cards weighted by
  how often its role keeps each rank, and narrowed by its goes), and for each draw the rest of
  the play is solved to the last card (:mod:`muggins.shared.bots.playout`); the card with the best
  mean balance is played. Leads and replies are chosen by the whole play, not the next reply.
- **The board**: every point is weighed by what it does to the chance of winning the game, read
  from the win table (``tools/win_table.py``), at every score, not only near the end.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import cache
from importlib import resources
from typing import TYPE_CHECKING

from muggins.shared.actions import Action, Discard, Play
from muggins.shared.bots.belief import Belief, view_belief
from muggins.shared.bots.board import point_weights
from muggins.shared.bots.evaluation import (
    DiscardValue,
    crib_table,
    discard_values,
    hand_points,
    play_points,
)
from muggins.shared.bots.expert1 import board_discard
from muggins.shared.bots.opening_tables import REPLY_WEIGHTS, lead_table, reply_table
from muggins.shared.bots.playout import PIP, best_moves, searcher
from muggins.shared.bots.show import show_action
from muggins.shared.cards import Card
from muggins.shared.view import SeatView

if TYPE_CHECKING:
    from muggins.shared.bots.reading import Posterior


@dataclass(frozen=True)
class Reader:
    """What the opponent's plays say about its hand: ``posterior`` (see
    :func:`muggins.shared.bots.reading.posterior`) gives the hands it may hold with their
    weights, or None to draw from the belief alone; with ``answer`` the dealer's answer to the
    opening lead is searched over ``answer_draws`` of those hands rather than read from the
    reply table (which knows only that the lead is out of the pone's hand)."""

    posterior: Callable[[SeatView, Belief], Posterior | None]
    answer: bool = False
    answer_draws: int = 32


DEAL_POINTS = {True: 16.2, False: 10.2}
"""Points a dealer (True) and a pone score in a deal, on average (Colvert)."""
CRIB_POINTS = 4.6
SHOW_POINTS = 8.0
HIGH_FOLLOW = 0.08
"""Points per pip credited to the card played when following (not leading). The search assumes
both sides see every card, so it undervalues keeping low cards back: unseen by the opponent, they
fit any count later, for a go, a 31 or a pair, and the opponent cannot play around them. The
search alone answers a 7 lead from A-2-2-10 with a 2 (by about 0.3 over the 10), where rollouts
against players who do not see the cards prefer the 10 by 2.2; this credit, 0.64 between a ten
and a two, is calibrated on those rollouts and never outweighs a point pegged."""
EXACT_CARDS = 2
"""The opponent's hand is enumerated exactly when it holds this many cards or fewer."""


Pegging = dict[str, dict[tuple[int, ...], float]]
"""Role -> four ranks kept -> their expected pegging balance in that role."""


@dataclass(frozen=True)
class PlayTables:
    """How often each role keeps each rank, and the pegging balance of each keep by role: solved
    with every card in view (``solved``), played by two sides who do not see each other's cards
    (``played``), and the mean of the two, which the discards read (``pegging``)."""

    keep: dict[str, tuple[float, ...]]
    solved: Pegging
    played: Pegging
    pegging: Pegging
    source: str


@cache
def play_tables() -> PlayTables:
    """The play tables shipped with the package (made by ``tools/play_tables.py``)."""
    text = resources.files("muggins.shared.bots").joinpath("data/play.json").read_text()
    data = json.loads(text)

    def table(name: str) -> Pegging:
        return {
            role: {tuple(int(r) for r in k.split("-")): float(v) for k, v in rows.items()}
            for role, rows in data[name].items()
        }

    solved, played = table("pegging"), table("played")
    if any(solved[role].keys() != played[role].keys() for role in solved):
        raise ValueError("play.json's solved and played tables hold different keeps")
    return PlayTables(
        keep={role: tuple(float(x) for x in row) for role, row in data["keep"].items()},
        solved=solved,
        played=played,
        pegging={
            role: {k: (v + played[role][k]) / 2 for k, v in rows.items()}
            for role, rows in solved.items()
        },
        source=str(data.get("source", "")),
    )


@dataclass(frozen=True)
class ExpertDiscard(DiscardValue):
    """A discard valued by hand, crib and the play, weighed by the board."""

    pegging: float = 0.0
    """The keep's expected pegging balance in this role (own points less the opponent's)."""
    weights: tuple[float, float] = (1.0, 1.0)
    """What a point is worth to this seat and to the opponent at this score."""

    @property
    def net(self) -> float:
        mine, theirs = self.weights
        crib = mine * self.crib if self.dealer else -theirs * self.crib
        return mine * self.hand + crib + (mine + theirs) / 2 * self.pegging


def board_weights(view: SeatView, expect: tuple[float, float]) -> tuple[float, float]:
    """What a point is worth to this seat and to the opponent now (see ``point_weights``)."""
    assert view.seat is not None
    me, them = view.seat, 1 - view.seat
    return point_weights(
        view.scores[me],
        view.scores[them],
        i_deal=view.dealer == me,
        target=view.options.target,
        expect=expect,
    )


def expert_discards(view: SeatView) -> list[ExpertDiscard]:
    """Every discard valued by hand, crib and pegging, weighed by the board, best first."""
    dealer = view.dealer == view.seat
    weights = board_weights(view, (DEAL_POINTS[dealer], DEAL_POINTS[not dealer]))
    pegging = play_tables().pegging["dealer" if dealer else "pone"]
    values = [
        ExpertDiscard(
            v.discard,
            v.kept,
            v.hand,
            v.crib,
            v.dealer,
            pegging=pegging[tuple(sorted(c.rank for c in v.kept))],
            weights=weights,
        )
        for v in discard_values(view.hand, dealer=dealer, table=crib_table())
    ]
    values.sort(key=lambda v: -v.net)
    return values


def opponent_belief(view: SeatView) -> Belief:
    """What the opponent may hold, weighted by its role's keeps and narrowed by its goes."""
    role = "pone" if view.dealer == view.seat else "dealer"
    return view_belief(view, play_tables().keep[role])


def opponent_hands(
    belief: Belief, rng: random.Random, draws: int
) -> list[tuple[tuple[int, ...], float]]:
    """Hands the opponent may hold with their weights: all of them when it holds few cards."""
    if belief.cards > EXACT_CARDS:
        return [(hand, 1.0) for hand in belief.sample(rng, draws)]
    weights = belief.card_weights()
    per_card = [w / u if u else 0.0 for w, u in zip(weights, belief.unseen, strict=True)]
    out: list[tuple[tuple[int, ...], float]] = []
    if belief.cards == 1:
        out = [((r,), weights[r]) for r in range(1, 14) if weights[r] > 0]
    elif belief.cards == 2:
        for a in range(1, 14):
            for b in range(a, 14):
                if a == b:
                    ways = belief.unseen[a] * (belief.unseen[a] - 1) / 2
                else:
                    ways = belief.unseen[a] * belief.unseen[b]
                w = ways * per_card[a] * per_card[b]
                if w > 0:
                    out.append(((a, b), w))
    return out or [((), 1.0)]


def draws_for(cards: int) -> int:
    """How many opponent hands to draw: fewer when the play ahead is long (and costly). Three
    cards against three (the pone's second card, the commonest search left once the lead and the
    dealer's answer come from tables) gets 48: at 24 its choice cost 0.046 points a decision
    against a 256-draw search, at 48 0.023, and the early stop leaves it about 32 on average."""
    return 16 if cards >= 8 else 24 if cards == 7 else 48 if cards == 6 else 32


def lead_value(entry: tuple[float, float, float], weights: tuple[float, float]) -> float:
    """A lead's balance at ``weights`` from the table's three weightings.

    Scaling both weights scales the balance (the same moves stay best), so the balance at
    (a, b) is ``b`` times the balance at (a/b, 1) when a <= b, and ``a`` times that at (1, b/a)
    otherwise; between the weightings solved it is read on the straight line through them.
    """
    half_mine, even, half_theirs = entry
    a, b = weights
    if a <= b:
        r = a / b
        return b * (even + (r - 1.0) * (even - half_mine) / 0.5)
    r = b / a
    return a * (even + (r - 1.0) * (even - half_theirs) / 0.5)


REPLY_DRAWS = 32
"""Pone hands drawn for each entry of the reply table."""


def reply_values(
    hand: tuple[int, ...], lead: int, *, draws: int, seed: int
) -> dict[int, list[float]]:
    """The dealer's answers to the opening ``lead`` from four ``hand`` ranks: each rank's mean
    balance over ``draws`` pone hands (its three other cards) at each of ``REPLY_WEIGHTS``. What
    ``tools/reply_table.py`` writes; a pure function of its arguments."""
    rng = random.Random(f"reply-table:{seed}:{hand}:{lead}")
    return drawn_balances(
        hand, (lead,), role="pone", cards=3, rng=rng, draws=draws, weightings=REPLY_WEIGHTS
    )


def drawn_balances(
    hand: tuple[int, ...],
    pile: tuple[int, ...],
    *,
    role: str,
    cards: int,
    rng: random.Random,
    draws: int,
    weightings: tuple[tuple[float, float], ...],
) -> dict[int, list[float]]:
    """Each rank of ``hand`` played on ``pile``: its mean balance over ``draws`` hands of
    ``cards`` ranks for the opponent, drawn from the ranks this seat has not seen (its hand and
    the pile are out), weighted by how often a player in the opponent's ``role`` keeps each rank,
    and solved to the last card at each of ``weightings``. The offline tables (opening leads,
    the dealer's replies) are written from it."""
    unseen = [0] + [4] * 13
    for r in (*hand, *pile):
        unseen[r] -= 1
    belief = Belief(unseen=tuple(unseen), cards=cards, weights=play_tables().keep[role])
    count = sum(PIP[r] for r in pile)
    totals: dict[int, list[float]] = {}
    for theirs in belief.sample(rng, draws):
        for k, weights in enumerate(weightings):
            for rank, value in best_moves(hand, theirs, pile, count, weights=weights).items():
                totals.setdefault(rank, [0.0] * len(weightings))[k] += value
    return {rank: [t / draws for t in total] for rank, total in sorted(totals.items())}


def play_values(view: SeatView, rng: random.Random, read: Reader | None = None) -> dict[int, float]:
    """The mean weighted balance of the rest of the play after each playable rank, plus the
    credit for following high (``HIGH_FOLLOW``): what the expert plays on. With ``read``, the
    opponent's hands come from what its plays say (``expert-2`` and the expert read none)."""
    assert view.seat is not None
    me = view.seat
    i_deal = view.dealer == me
    mine = tuple(sorted(c.rank for c in view.hand))
    pile = tuple(p.card.rank for p in view.pile)
    kept = [*view.hand, *(p.card for p in view.played if p.seat == me)]
    show = (
        float(hand_points(kept, view.starter)) if view.starter and len(kept) == 4 else SHOW_POINTS
    )
    expect = (
        show + (CRIB_POINTS if i_deal else 0.0),
        SHOW_POINTS + (0.0 if i_deal else CRIB_POINTS),
    )
    weights = quantised(board_weights(view, expect))
    if not view.played and len(mine) == 4:  # the opening lead, searched offline with more draws
        return {rank: lead_value(e, weights) for rank, e in lead_table()[mine].items()}
    credit = {r: HIGH_FOLLOW * min(r, 10) if pile else 0.0 for r in set(mine)}
    answer = i_deal and len(mine) == 4 and len(view.played) == 1  # to the opening lead
    if answer and (read is None or not read.answer):
        replies = reply_table()[(mine, pile[0])]
        return {rank: lead_value(e, weights) + credit[rank] for rank, e in replies.items()}
    belief = opponent_belief(view)
    draws = draws_for(len(mine) + belief.cards)
    if answer and read is not None:
        draws = read.answer_draws
    exact = belief.cards <= EXACT_CARDS
    # Drawn hands are drawn as the search asks for them: it may stop early (see ``settled``).
    hands: Iterable[tuple[tuple[int, ...], float]]
    posterior = read.posterior(view, belief) if read is not None else None
    if posterior is not None:
        hands = posterior.hands if exact else posterior.draw(rng, draws)
        size = len(posterior.hands) if exact else draws
    elif exact:
        hands = opponent_hands(belief, rng, draws)
        size = len(hands)
    else:
        hands = ((hand, 1.0) for hand in belief.draw(rng, draws))
        size = draws
    rows: list[dict[int, float]] = []
    totals: dict[int, float] = {}
    mass = 0.0
    seen: dict[tuple[int, ...], dict[int, float]] = {}  # a hand drawn again is not searched again
    search = searcher(mine, pile, view.count, weights=weights)
    for n, (hand, weight) in enumerate(hands, 1):
        row = seen.get(hand)
        if row is None:
            row = seen[hand] = search(hand)
        for rank, value in row.items():
            totals[rank] = totals.get(rank, 0.0) + weight * value
        mass += weight
        if not exact:
            rows.append(row)
            if n >= SETTLE_AFTER and n < size and settled(rows, credit, totals):
                break
    return {rank: total / mass + credit[rank] for rank, total in totals.items()}


SETTLE_AFTER = 8
"""Opponent hands searched before the expert may stop early (see :func:`settled`)."""
SETTLE_Z = 3.0


def settled(
    rows: list[dict[int, float]], credit: dict[int, float], sums: dict[int, float] | None = None
) -> bool:
    """Whether the best rank so far is clearly best: for every other rank, its mean lead over
    the draws so far is more than ``SETTLE_Z`` standard errors (and more than a tenth of a point
    when the draws all agree). More draws would then almost never change the card played.
    ``sums`` (each rank's values added up in the order of ``rows``) saves adding them again."""
    n = len(rows)
    ranks = list(rows[0])
    if len(ranks) < 2:
        return True
    if sums is None:
        sums = {r: sum(row[r] for row in rows) for r in ranks}
    means = {r: sums[r] / n + credit[r] for r in ranks}
    best = max(ranks, key=lambda r: means[r])
    for r in ranks:
        if r == best:
            continue
        mean = means[best] - means[r]
        if mean <= 0.1:
            return False
        cb, cr = credit[best], credit[r]
        var = sum((row[best] - row[r] - mean + cb - cr) ** 2 for row in rows) / (n - 1)
        if mean * mean * n <= SETTLE_Z * SETTLE_Z * var:
            return False
    return True


def decision_rng(seed: int, view: SeatView, purpose: str = "expert") -> random.Random:
    """The generator for one decision: the same seed and view always draw the same hands.
    ``purpose`` keeps apart the draws made for different ends in the same decision (the
    hands sampled, the card mixed, the suit)."""
    return random.Random(f"{purpose}:{seed}:{view.commitment}:{view.seat}:{len(view.played)}")


def quantised(weights: tuple[float, float]) -> tuple[float, float]:
    """Weights to the nearest eighth, so the solver's memo serves many decisions."""
    return (round(weights[0] * 8) / 8, round(weights[1] * 8) / 8)


def expert_play(
    view: SeatView, plays: list[Play], rng: random.Random, read: Reader | None = None
) -> Play:
    """The card with the best mean balance over the rest of the play; one that pegs out wins."""
    assert view.seat is not None
    need = view.options.target - view.scores[view.seat]
    pile = tuple(p.card.rank for p in view.pile)
    if len({p.card.rank for p in plays}) == 1:  # one rank: suits never peg
        return max(plays, key=lambda p: p.card)
    values = play_values(view, rng, read)

    def key(play: Play) -> tuple[bool, float, Card]:
        wins = play_points(pile, view.count, play.card.rank) >= need
        return (wins, round(values.get(play.card.rank, -99.0), 6), play.card)

    return max(plays, key=key)


class ExpertStrategy:
    """Discards for hand, crib and the play; searches the play against a read opponent; plays to
    the board at every score."""

    level = "expert-2"

    def __init__(self, seed: int = 0) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Action:
        if not view.legal:
            raise ValueError("there is nothing legal to do in this view")
        show = show_action(view, self.rng)  # exact: counts every point, catches every slip
        if show is not None:
            return show
        plays = [a for a in view.legal if isinstance(a, Play)]
        if plays:
            return expert_play(view, plays, decision_rng(self.seed, view))
        if any(isinstance(a, Discard) for a in view.legal):
            values = expert_discards(view)
            choice = board_discard(view, list(values))
            if choice is not values[0]:
                return Discard(cards=choice.discard)
            best = values[0].net
            ties = [v for v in values if v.net > best - 1e-9]
            return Discard(cards=self.rng.choice(ties).discard)
        return view.legal[0]
