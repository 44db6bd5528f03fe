"""Words for the player: what to do now, whose turn it is. Shared by the app and the plain mode."""

from __future__ import annotations

from pydantic import ValidationError

from muggins.shared.actions import Accept, Count, Discard, Play
from muggins.shared.cards import Card
from muggins.shared.counting import WRONG_CALL_PENALTY
from muggins.shared.view import SeatView, ShowResult

MAX_COUNT = 29
"""The most a hand or crib can make."""


def parse_count(text: str) -> int:
    """The points typed for a count, checked before anything is sent; else a ValueError whose
    message is a sentence for the player."""
    text = text.strip()
    if not text:
        raise ValueError(f"Type your count: a whole number from 0 to {MAX_COUNT}")
    try:
        points = int(text)
    except ValueError:
        raise ValueError(
            f"{text[:12]!r} is not a number: type your count, 0 to {MAX_COUNT}"
        ) from None
    if not 0 <= points <= MAX_COUNT:
        raise ValueError(f"No hand or crib makes {points}: a count is 0 to {MAX_COUNT}")
    return points


FIELD_WORDS = {"points": "a count", "text": "a chat line", "code": "a room code", "cards": "cards"}


def explain_invalid(error: ValidationError) -> str:
    """One sentence for a message the player typed that the protocol would not accept."""
    first = error.errors()[0]
    field = str(first["loc"][-1]) if first["loc"] else ""
    what = FIELD_WORDS.get(field, field or "that")
    ctx = first.get("ctx") or {}
    kind = first["type"]
    if kind in ("less_than_equal", "greater_than_equal"):
        return (
            f"That is not possible for {what}: it must be {ctx.get('ge', 0)} to {ctx.get('le', '')}"
        )
    if kind == "string_too_long":
        return f"That is too long for {what} (at most {ctx.get('max_length')} characters)"
    if kind == "string_too_short":
        return f"That is too short for {what}"
    if kind in ("tuple_too_short", "tuple_too_long", "too_short", "too_long"):
        return f"That is the wrong number of {what}"
    return f"That cannot be sent: {what} {first['msg'].lower()}"


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
    """ "count" when the player must count their cards, "answer" to answer the opponent's claim
    (accept, muggins or challenge)."""
    if view is None:
        return ""
    if any(isinstance(a, Count) for a in view.legal):
        return "count"
    if any(isinstance(a, Accept) for a in view.legal):
        return "answer"
    return ""


def pending_claim(results: tuple[ShowResult, ...]) -> ShowResult | None:
    """Muggins mode: the shown hand whose claim is made and waits for its answer, if any."""
    if results and results[-1].total is None and results[-1].claimed is not None:
        return results[-1]
    return None


def claim_sentence(result: ShowResult, names: tuple[str, str], you: int | None) -> str:
    """ "Bob counts 12 for the crib" / "You count 12 for your hand"."""
    if result.seat == you:
        return f"You count {result.claimed} for your {result.kind}"
    return f"{names[result.seat]} counts {result.claimed} for the {result.kind}"


def answer_choices(result: ShowResult, names: tuple[str, str]) -> list[tuple[str, str, str]]:
    """The answers to a claim: (key, command, what it does), and what a wrong call costs."""
    owner = names[result.seat]
    return [
        ("A", "accept", f"{result.claimed} stands as counted"),
        ("M", "muggins", "it is short: you take the points missed"),
        ("X", "challenge", f"it is over: {owner} is put back and you take the excess"),
    ]


def wrong_call_sentence(result: ShowResult, names: tuple[str, str]) -> str:
    return f"A wrong call gives {names[result.seat]} {WRONG_CALL_PENALTY} points."


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
            held = len(view.hand)
            how = (" (1, then Enter)" if held == 1 else f" (1-{held}, then Enter)") if keys else ""
            return f"Your turn: play a card{how}. The count is {view.count}"
        return f"{names[view.turn or 0]} to play. The count is {view.count}"
    prompt = show_prompt(view)
    if prompt == "count":
        kind = view.show[-1].kind if view.show else "hand"
        return f"The show: count your {kind} and type the points (0-29)"
    claim = pending_claim(view.show)
    if claim is not None:
        said = claim_sentence(claim, names, you)
        if prompt == "answer" and keys:
            return f"{said}: A accept · M Muggins! (short) · X challenge (over)"
        if prompt == "answer":
            return (
                f"The show: {said}: accept it, call Muggins! if it is short, "
                "or challenge it if it is over"
            )
        answerer = names[1 - claim.seat]
        said = said[0].lower() + said[1:] if claim.seat == you else said
        return f"The show: {said}; waiting for {answerer} to accept, call Muggins! or challenge"
    return f"The show: waiting for {' and '.join(waiting)}" if waiting else "The show"
