"""A duplicate match of two tables: the same deals, the seats swapped, scored by the difference.

Both tables of a duplicate match use one match seed, so every deal deals the same cards to the
same seat (the deck of each deal comes from the seed alone, whatever is played: see
:mod:`shared.fairness`), and the players change seats between the tables. Whoever held a hand
at the first table meets it across the board at the second. What one player made of a hand is
compared with what the other made of the same cards; the luck of the deal cancels.

**The score** is the first player's points less the second's at each table (each game's score
capped at the target), added over both tables: "Ann won by 14 points on the same cards".

>>> from muggins.shared.actions import GameOptions
>>> first = deal_lines(GameOptions(target=61), 5, [])
>>> [(line.deal_number, len(line.hands[0])) for line in first]
[(1, 6)]
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pydantic import BaseModel, ConfigDict, Field

from muggins.shared.actions import Action, Discard, GameOptions, Outcome, Seat
from muggins.shared.cards import Card
from muggins.shared.game import Game
from muggins.shared.match import Match


class DealLine(BaseModel):
    """One deal at one table: what each seat was dealt, laid away and scored in it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game_number: int
    deal_number: int
    dealer: Seat
    commitment: str = Field(description="the deal commitment: equal at both tables, same cards")
    hands: tuple[tuple[Card, ...], tuple[Card, ...]] = Field(description="the six cards dealt")
    discards: tuple[tuple[Card, ...], tuple[Card, ...]]
    points: tuple[int, int] = Field(description="each seat's points in the deal")
    finished: bool = Field(description="the deal was played to its end (or ended the game)")


class HandComparison(BaseModel):
    """One hand of one deal, as each player played it at their table."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    game_number: int
    deal_number: int
    dealer: bool = Field(description="the hand was the dealer's")
    cards: tuple[Card, ...] = Field(description="the six cards dealt")
    discards: tuple[tuple[Card, ...], tuple[Card, ...]] = Field(
        description="what each player (the match's first, then second) laid away from them"
    )
    points: tuple[int, int] = Field(description="what each player scored in that deal with them")


def deal_lines(
    options: GameOptions, seed: int | bytes, log: Iterable[tuple[Seat, Action]]
) -> list[DealLine]:
    """Every deal of one table, from its seed and actions (the last one perhaps unfinished)."""
    match = Match(seed=seed, options=options, keep_events=False)
    lines: list[DealLine] = []
    game = match.game
    start = _opening(match)
    discards: list[tuple[Card, ...]] = [(), ()]
    for seat, action in log:
        if isinstance(action, Discard):
            discards[seat] = action.cards
        match.apply(seat, action)
        if match.game is not game or match.game.deal_number != start[1] or match.over:
            lines.append(_line(start, game, discards, finished=True))
            game, start, discards = match.game, _opening(match), [(), ()]
    if not match.over:
        lines.append(_line(start, game, discards, finished=False))
    return lines


_Opening = tuple[int, int, Seat, str, tuple[tuple[Card, ...], tuple[Card, ...]], tuple[int, int]]


def _opening(match: Match) -> _Opening:
    game = match.game
    hands = (tuple(game.hands[0]), tuple(game.hands[1]))
    scores = (game.scores[0], game.scores[1])
    return (game.game_number, game.deal_number, game.dealer, game.commitment, hands, scores)


def _line(
    start: _Opening, game: Game, discards: list[tuple[Card, ...]], *, finished: bool
) -> DealLine:
    number, deal, dealer, commitment, hands, before = start
    scores = game.scores
    return DealLine(
        game_number=number,
        deal_number=deal,
        dealer=dealer,
        commitment=commitment,
        hands=hands,
        discards=(discards[0], discards[1]),
        points=(scores[0] - before[0], scores[1] - before[1]),
        finished=finished,
    )


def compare(first: Sequence[DealLine], second: Sequence[DealLine]) -> list[HandComparison]:
    """Each hand both tables played out, as the match's first player (seat 0 at the first
    table, seat 1 at the second) and its second player played it. A deal is compared only where
    both tables dealt the same deck (equal commitments) and both played it to its end."""
    by_deal = {(line.game_number, line.deal_number): line for line in second if line.finished}
    compared = []
    for one in first:
        two = by_deal.get((one.game_number, one.deal_number))
        if not one.finished or two is None or two.commitment != one.commitment:
            continue
        for seat in (0, 1):
            # At the first table the first player sits in seat 0; at the second, the second
            # player does: the hand of ``seat`` went to the first player at table one if seat is
            # 0, and to the second player at table two.
            mine, theirs = (one, two) if seat == 0 else (two, one)
            compared.append(
                HandComparison(
                    game_number=one.game_number,
                    deal_number=one.deal_number,
                    dealer=one.dealer == seat,
                    cards=one.hands[seat],
                    discards=(mine.discards[seat], theirs.discards[seat]),
                    points=(mine.points[seat], theirs.points[seat]),
                )
            )
    return compared


def margin(first: Sequence[Outcome], second: Sequence[Outcome], *, target: int) -> int:
    """The first player's points less the second's over both tables, each game's score capped
    at the target (the first player sits in seat 0 at the first table, seat 1 at the second)."""
    total = sum(min(o.scores[0], target) - min(o.scores[1], target) for o in first)
    return total + sum(min(o.scores[1], target) - min(o.scores[0], target) for o in second)


def verdict(names: tuple[str, str], points: int, you: Seat | None) -> str:
    """The result in a sentence, for one of the players (``you``) or anyone else.

    >>> verdict(("Ann", "Bob"), 14, 0), verdict(("Ann", "Bob"), 14, 1)
    ('You won by 14 points on the same cards', 'You lost by 14 points on the same cards')
    >>> verdict(("Ann", "Bob"), -3, None), verdict(("Ann", "Bob"), 0, 0)
    ('Bob won by 3 points on the same cards', 'A tie on the same cards')
    """
    if points == 0:
        return "A tie on the same cards"
    winner = 0 if points > 0 else 1
    size = abs(points)
    unit = "point" if size == 1 else "points"
    if you is None:
        return f"{names[winner]} won by {size} {unit} on the same cards"
    return f"You {'won' if you == winner else 'lost'} by {size} {unit} on the same cards"
