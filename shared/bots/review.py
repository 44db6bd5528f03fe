"""The reviewer: a finished game replayed, each of one seat's decisions set against the expert's.

:func:`review_match` rebuilds the match from its seed and log with the rules engine and, before
each of the seat's moves, asks the expert about that seat's view (nothing else: the opponent's
cards stay hidden, exactly as they were when the move was made). For every discard and every
play with a choice it gives the expert's move, the chosen move's expected loss in points (as the
expert weighs them, so a point is an average point of the game) and in chance to win, and a
sentence on the biggest ones. Short counts in muggins mode are losses too.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from muggins.shared.actions import Action, Count, Discard, GameOptions, Play
from muggins.shared.bots.board import win_per_point
from muggins.shared.bots.evaluation import pip, play_points
from muggins.shared.bots.expert import (
    ExpertDiscard,
    decision_rng,
    expert_discards,
    opponent_belief,
    play_values,
)
from muggins.shared.bots.pegging import hold_chance
from muggins.shared.cards import RANK_NAMES, format_cards
from muggins.shared.match import Match
from muggins.shared.view import SeatView

EXPLAIN = 0.5
"""Losses of at least this many points get a sentence."""


@dataclass(frozen=True)
class Moment:
    """One decision of the reviewed seat."""

    game: int
    deal: int
    kind: str
    """``discard``, ``play`` or ``count``."""
    scores: tuple[int, int]
    """The seat's score and the opponent's when the decision was made."""
    chosen: str
    best: str
    loss: float
    """Expected points given away against the expert's move (0 when it was the expert's)."""
    win_loss: float
    """The same loss as a share of the chance to win the game."""
    explanation: str = ""

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game,
            "deal": self.deal,
            "kind": self.kind,
            "scores": list(self.scores),
            "chosen": self.chosen,
            "best": self.best,
            "loss": round(self.loss, 3),
            "win_loss": round(self.win_loss, 4),
            "explanation": self.explanation,
        }


@dataclass
class Review:
    """Every decision of one seat in a match, and what they cost."""

    seat: int
    names: tuple[str, str]
    moments: list[Moment] = field(default_factory=list)

    def loss(self, kind: str) -> float:
        return sum(m.loss for m in self.moments if m.kind == kind)

    def worst(self, n: int = 3) -> list[Moment]:
        """The ``n`` costliest decisions, worst first."""
        ranked = sorted(self.moments, key=lambda m: (-m.loss, m.game, m.deal))
        return [m for m in ranked[:n] if m.loss > 0]

    def to_json(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "player": self.names[self.seat],
            "opponent": self.names[1 - self.seat],
            "decisions": [m.to_json() for m in self.moments],
            "summary": {
                "discards": round(self.loss("discard"), 3),
                "play": round(self.loss("play"), 3),
                "counts": round(self.loss("count"), 3),
                "agreed": sum(1 for m in self.moments if m.loss <= 1e-9),
                "decisions": len(self.moments),
                "worst": [m.to_json() for m in self.worst()],
            },
        }


def review_match(
    options: GameOptions,
    seed: int | bytes,
    log: Iterable[tuple[int, Action]],
    seat: int,
    names: Sequence[str] = ("seat 0", "seat 1"),
) -> Review:
    """Replay a match and review ``seat``'s decisions against the expert's."""
    match = Match(seed=seed, options=options, keep_events=False)
    review = Review(seat=seat, names=(names[0], names[1]))
    for who, action in log:
        if who == seat:
            moment = review_move(match.view(seat), action)
            if moment is not None:
                review.moments.append(moment)
        match.apply(who, action)
    return review


def review_decisions(
    decisions: Iterable[tuple[SeatView, Action]], names: Sequence[str] = ("seat 0", "seat 1")
) -> Review:
    """Review moves from the views they were made from (what a client kept during a game)."""
    pairs = list(decisions)
    seat = pairs[0][0].seat if pairs and pairs[0][0].seat is not None else 0
    review = Review(seat=seat, names=(names[0], names[1]))
    for view, action in pairs:
        if action not in view.legal:  # refused by the server: not a decision that counted
            continue
        moment = review_move(view, action)
        if moment is not None:
            review.moments.append(moment)
    return review


def review_move(view: SeatView, action: Action) -> Moment | None:
    """The expert's view of one move made from ``view`` (None when there was no choice)."""
    if isinstance(action, Discard):
        return _discard(view, action)
    if isinstance(action, Play):
        return _play(view, action)
    if isinstance(action, Count):
        best = max((a.points for a in view.legal if isinstance(a, Count)), default=action.points)
        loss = float(best - action.points)
        text = f"You counted {action.points}; the cards make {best}." if loss else ""
        return _moment(view, "count", str(action.points), str(best), loss, text)
    return None


def _moment(view: SeatView, kind: str, chosen: str, best: str, loss: float, text: str) -> Moment:
    assert view.seat is not None
    me, them = view.seat, 1 - view.seat
    per_point = win_per_point(
        view.scores[me], view.scores[them], i_deal=view.dealer == me, target=view.options.target
    )
    return Moment(
        game=view.game_number,
        deal=view.deal_number,
        kind=kind,
        scores=(view.scores[me], view.scores[them]),
        chosen=chosen,
        best=best,
        loss=max(0.0, loss),
        win_loss=max(0.0, loss) * per_point,
        explanation=text if loss >= EXPLAIN else "",
    )


def _discard(view: SeatView, action: Discard) -> Moment:
    values = expert_discards(view)
    chosen = next(v for v in values if set(v.discard) == set(action.cards))
    best = values[0]
    loss = best.net - chosen.net
    text = f"{_describe(chosen, 'You laid away')} {_describe(best, 'The expert lays away')}"
    parts = {
        "the hand": best.hand - chosen.hand,
        "the crib": (best.crib - chosen.crib) * (1 if best.dealer else -1),
        "the play": best.pegging - chosen.pegging,
    }
    where = max(parts, key=lambda k: parts[k])
    text += f" Most of the difference is in {where} ({signed(parts[where])})."
    return _moment(
        view, "discard", format_cards(action.cards), format_cards(best.discard), loss, text
    )


def _describe(value: ExpertDiscard, lead: str) -> str:
    sign = "+" if value.dealer else "−"
    return (
        f"{lead} {format_cards(value.discard, pretty=True)}, keeping "
        f"{format_cards(value.kept, pretty=True)}: hand {value.hand:.1f}, crib {sign}"
        f"{value.crib:.1f}, play {signed(value.pegging)}, {signed(value.net, plus='')} net."
    )


def _play(view: SeatView, action: Play) -> Moment | None:
    plays = [a for a in view.legal if isinstance(a, Play)]
    if len({a.card.rank for a in plays}) < 2:
        return None
    assert view.seat is not None
    pile = tuple(p.card.rank for p in view.pile)
    need = view.options.target - view.scores[view.seat]
    winners = [a for a in plays if play_points(pile, view.count, a.card.rank) >= need]
    chosen_rank = action.card.rank
    if winners and action not in winners:
        text = f"{winners[0].card.pretty} pegged out and won the game at once."
        return _moment(view, "play", str(action.card), str(winners[0].card), 10.0, text)
    values = play_values(view, decision_rng(0, view))
    best_rank = max(values, key=lambda r: (round(values[r], 6), r))
    best_card = next(a.card for a in plays if a.card.rank == best_rank)
    loss = values[best_rank] - values[chosen_rank]
    text = _explain_play(view, chosen_rank, best_rank, values)
    return _moment(view, "play", str(action.card), str(best_card), loss, text)


def _explain_play(view: SeatView, chosen: int, best: int, values: dict[int, float]) -> str:
    """Why the expert's card is better: what the chosen one risks now, or the longer play."""
    pile = tuple(p.card.rank for p in view.pile)
    belief = opponent_belief(view)
    unseen = sum(belief.unseen)
    count = view.count + pip(chosen)
    mine_now = play_points(pile, view.count, chosen)
    best_now = play_points(pile, view.count, best)
    text = f"Your {RANK_NAMES[chosen]} made {count}"
    text += f" for {mine_now}." if mine_now else "."
    risks = []
    if count < 31:
        for rank in range(1, 14):
            if belief.unseen[rank] and count + pip(rank) <= 31 and pip(rank) > belief.above:
                points = play_points((*pile, chosen), count, rank)
                if points >= 2:
                    chance = hold_chance(belief.unseen[rank], unseen, belief.cards)
                    risks.append((points * chance, points, chance, rank))
    if risks:
        _, points, chance, rank = max(risks)
        text += (
            f" An opponent's {RANK_NAMES[rank]} (held {100 * chance:.0f}% of the time) "
            f"would peg {points} on it."
        )
    if best_now > mine_now:
        text += f" The {RANK_NAMES[best]} pegs {best_now} now."
    text += (
        f" Over the rest of the play the {RANK_NAMES[best]} averages {signed(values[best])} "
        f"to your card's {signed(values[chosen])}."
    )
    return text


def signed(value: float, *, plus: str = "+") -> str:
    """``value`` to one decimal with a true minus sign (U+2212, as everywhere in a review) or
    ``plus`` before it; a value that rounds to zero has no sign."""
    text = f"{abs(value):.1f}"
    if text == "0.0":
        return text
    return ("−" if value < 0 else plus) + text


def format_review(review: Review, *, title: str = "Review") -> str:
    """The review as text: one line a decision, sentences for the big ones, then a summary."""
    me, them = review.names[review.seat], review.names[1 - review.seat]
    lines = [f"{title}: {me} (seat {review.seat}) against {them}"]
    for m in review.moments:
        lines.append(moment_line(m))
        if m.explanation:
            lines.append(f"      {m.explanation}")
    agreed = sum(1 for m in review.moments if m.loss <= 1e-9)
    lines += [
        "",
        f"{len(review.moments)} decisions, {agreed} the same as the expert's.",
        f"Points given away: discards {review.loss('discard'):.1f}, "
        f"play {review.loss('play'):.1f}"
        + (f", counts {review.loss('count'):.0f}" if review.loss("count") else "")
        + ".",
    ]
    worst = review.worst()
    if worst:
        lines.append("The worst moments:")
        for n, m in enumerate(worst, 1):
            lines.append(f"  {n}. {moment_line(m).strip()}")
    return "\n".join(lines)


def moment_line(m: Moment) -> str:
    where = f"game {m.game} deal {m.deal:>2} ({m.scores[0]}-{m.scores[1]})"
    if m.loss <= 1e-9:
        return f"  {where} {m.kind:<7} {m.chosen:<8} = expert"
    chance = f", −{100 * m.win_loss:.1f}% win chance" if m.win_loss >= 0.001 else ""
    return f"  {where} {m.kind:<7} {m.chosen:<8} expert {m.best:<8} −{m.loss:.2f} points{chance}"
