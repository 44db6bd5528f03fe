"""Words for the player: what to do now, whose turn it is. Shared by the app and the plain mode."""

from __future__ import annotations

from shared.actions import Accept, Count, Discard, Muggins, Play
from shared.cards import Card
from shared.view import SeatView


def own_state(view: SeatView | None) -> object:
    """What the player's own moves change: after sending one, wait until this differs.

    Not the opponent's discard (both discard at once); in the play and the show the opponent
    cannot move before the player's move has landed.
    """
    if view is None:
        return None
    return (view.game_number, view.deal_number, view.hand, view.discards, view.show)


def need(view: SeatView | None) -> int:
    """How many cards the player must choose now: 2 to lay away, 1 to play, else 0."""
    if view is None:
        return 0
    if any(isinstance(a, Discard) for a in view.legal):
        return 2
    if any(isinstance(a, Play) for a in view.legal):
        return 1
    return 0


def unplayable(view: SeatView | None) -> frozenset[Card]:
    """Cards in hand that cannot be played now (they would take the count past 31)."""
    if view is None or view.phase != "play":
        return frozenset()
    if view.legal:
        legal = {a.card for a in view.legal if isinstance(a, Play)}
        return frozenset(c for c in view.hand if c not in legal)
    return frozenset(c for c in view.hand if view.count + c.value > 31)


def show_prompt(view: SeatView | None) -> str:
    """ "count" when the player must count their cards, "answer" for muggins or accept."""
    if view is None:
        return ""
    if any(isinstance(a, Count) for a in view.legal):
        return "count"
    if any(isinstance(a, Accept | Muggins) for a in view.legal):
        return "answer"
    return ""


def turn_prompt(view: SeatView | None, names: tuple[str, str], *, keys: bool = True) -> str:
    """One sentence: what the player should do now, or whom we wait for (with the keys to
    press, unless ``keys`` is false)."""
    if view is None:
        return "Waiting for the game to start…"
    you = view.seat
    if view.phase in ("game_over", "match_over"):
        if view.phase == "match_over":
            return "The match is over: R for a rematch, Q to quit" if keys else "The match is over"
        return ""
    waiting = [names[s] for s in view.waiting_for if s != you]
    if view.phase == "discard":
        whose = "your" if view.dealer == you else f"{names[view.dealer]}'s"
        if you in view.waiting_for:
            how = ": choose them (1-6), then Enter" if keys else ""
            return f"Lay away two cards to {whose} crib{how}"
        return f"Waiting for {' and '.join(waiting)} to lay away"
    if view.phase == "play":
        if view.turn == you:
            how = " (1-6, then Enter)" if keys else ""
            return f"Your turn: play a card{how}. The count is {view.count}"
        return f"{names[view.turn or 0]} to play. The count is {view.count}"
    prompt = show_prompt(view)
    if prompt == "count":
        return "The show: count your cards and type the points"
    if prompt == "answer":
        how = " (M / A)" if keys else ""
        return f"The show: call Muggins! if the count is short, or accept it{how}"
    return f"The show: waiting for {' and '.join(waiting)}" if waiting else "The show"
