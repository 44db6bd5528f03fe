"""The coach: the expert's choice for a view, with a sentence saying why.

>>> from muggins.shared.match import Match
>>> advice = advise(Match(seed=3).view(0))
>>> advice.action in Match(seed=3).view(0).legal
True
"""

from __future__ import annotations

from dataclasses import dataclass

from muggins.shared.actions import Accept, Action, Challenge, Count, Discard, Muggins, Play
from muggins.shared.bots.evaluation import DiscardValue, play_points
from muggins.shared.bots.expert import expert_discards
from muggins.shared.bots.expert4 import ExpertFourStrategy
from muggins.shared.cards import format_cards
from muggins.shared.view import SeatView


@dataclass(frozen=True)
class Advice:
    """What the coach would do, and why, in one or two sentences."""

    action: Action
    explanation: str


def advise(view: SeatView) -> Advice:
    """The expert's move for ``view`` (which must be waiting for its seat) and its reason."""
    if not view.legal:
        raise ValueError("there is nothing to do in this view")
    action = ExpertFourStrategy(seed=0).choose(view)
    if isinstance(action, Discard):
        return Advice(action, explain_discard(view, action))
    if isinstance(action, Play):
        return Advice(action, explain_play(view, action))
    if isinstance(action, Count | Muggins | Challenge | Accept):
        return Advice(action, explain_show(view, action))
    return Advice(action, "")


def explain_show(view: SeatView, action: Count | Muggins | Challenge | Accept) -> str:
    """Muggins mode: the coach counts the cards on the table itself, as the player could."""
    if isinstance(action, Count):
        return f"Count {action.points}: that is exactly what the cards make."
    claimed = view.show[-1].claimed if view.show else None
    if isinstance(action, Muggins):
        return f"Call Muggins!: the cards make more than {claimed}, and you take what was missed."
    if isinstance(action, Challenge):
        return f"Challenge: the cards make less than {claimed}; you take the excess."
    return f"Accept: the count of {claimed} is right."


def describe_discard(value: DiscardValue) -> str:
    whose = "your" if value.dealer else "their"
    sign = "+" if value.dealer else "−"
    return (
        f"Lay away {format_cards(value.discard, pretty=True)}: keeping "
        f"{format_cards(value.kept, pretty=True)} is worth {value.hand:.1f} on average, "
        f"{sign}{value.crib:.1f} in {whose} crib, {value.net:.1f} net."
    )


def explain_discard(view: SeatView, action: Discard) -> str:
    values = expert_discards(view)
    chosen = next(v for v in values if set(v.discard) == set(action.cards))
    text = describe_discard(chosen)
    runner_up = next((v for v in values if v is not chosen), None)
    if runner_up is not None:
        text += (
            f" Next best: {format_cards(runner_up.discard, pretty=True)} ({runner_up.net:.1f} net)."
        )
    return text


def explain_play(view: SeatView, action: Play) -> str:
    pile = [p.card.rank for p in view.pile]
    points = play_points(pile, view.count, action.card.rank)
    count = view.count + action.card.value
    if points:
        return f"Play {action.card.pretty}: {count} for {points} now."
    if count < 5:
        reason = "no single card makes fifteen on it"
    else:
        reason = "of your cards it gives away least on the replies your opponent may hold"
    return f"Play {action.card.pretty} to make {count}: {reason}."
