"""A finished match in words: its result, winner first, and every step with every card face up
(for ``muggins history``, ``muggins replay`` and the client's ``muggins account game``)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

from muggins.shared.actions import (
    Action,
    DealStarted,
    Discard,
    GameOptions,
    Outcome,
    Play,
    described,
)
from muggins.shared.cards import format_cards
from muggins.shared.handover import HandOver, holders, players
from muggins.shared.match import Match


def score_words(outcome: Outcome) -> str:
    """``121-87, skunk``: the winner's score first, then any skunk or a resignation."""
    words = f"{outcome.scores[outcome.winner]}-{outcome.scores[outcome.loser]}"
    if outcome.double_skunk:
        words += ", double skunk"
    elif outcome.skunk:
        words += ", skunk"
    if outcome.reason == "resign":
        words += ", by resignation"
    return words


def match_words(
    result: str | None, winner: int | None, games: Sequence[Outcome], names: Sequence[str]
) -> str:
    """Who won and by what: ``Alice won 121-87, skunk``, or for a longer match ``Alice won
    the match 2-1: Alice 121-99, Bob 121-100, Alice 121-80``; else the result (abandoned)."""
    if result != "won" or winner is None or not games:
        return result or "unfinished"
    if len(games) == 1:
        return f"{names[winner]} won {score_words(games[0])}"
    won = sum(1 for g in games if g.winner == winner)
    each = "; ".join(f"{names[g.winner]} {score_words(g)}" for g in games)
    return f"{names[winner]} won the match {won}-{len(games) - won}: {each}"


def replay_steps(
    *,
    game_id: str,
    seed: bytes,
    options: GameOptions,
    names: tuple[str, str],
    actions: Sequence[tuple[int, Action]],
    result: str | None,
    winner: int | None,
    hand_overs: Sequence[HandOver] = (),
) -> Iterator[list[str]]:
    """The lines of a finished match, one list per step (the deal, then each action, a seat
    changing hands, then the result), every hand face up: the game is over. Each line names
    who held the seat then; the result, who held it at the end."""
    match = Match(seed=seed, options=options)
    start = names

    def shown(events: Sequence[Any]) -> list[str]:
        lines = []
        for event in events:
            lines.append(f"  {described(event, names, options.target)}")
            if isinstance(event, DealStarted):
                for seat in (0, 1):
                    hand = format_cards(sorted(match.game.hands[seat]), pretty=True)
                    lines.append(f"    {names[seat]} holds {hand}")
        return lines

    yield [f"Game {game_id}: {players(names, hand_overs)}", *shown(list(match.events))]
    for index, (seat, action) in enumerate(actions):
        for h in hand_overs:
            if h.at == index:
                yield [f"  ({h.sentence()}, in seat {h.seat + 1})"]
        names = holders(start, hand_overs, action=index)
        if isinstance(action, Discard):
            head = f"{names[seat]} lays away {format_cards(action.cards, pretty=True)}"
        elif isinstance(action, Play):
            head = None
        else:
            head = f"{names[seat]}: {action.type}"
        step = shown(match.apply(seat, action))
        yield [head, *step] if head is not None else step
    end = holders(start, hand_overs)
    yield [f"Result: {match_words(result, winner, match.games, end)}"]
