"""Helpers for the engine tests: stacked deals and scripted play."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from muggins.shared.actions import Discard, Event, GameOptions, Play
from muggins.shared.cards import Card, parse_card, parse_cards
from muggins.shared.fairness import StackedRandom, arrange_deal
from muggins.shared.match import Match

CUT_SEAT0_DEALS = parse_cards("AS KS")
CUT_SEAT1_DEALS = parse_cards("KS AS")


def stacked_match(
    *,
    dealer: int,
    dealer_cards: str,
    pone_cards: str,
    starter: str,
    options: GameOptions | None = None,
    more_deals: Sequence[Sequence[Card]] = (),
) -> Match:
    """A match whose cut gives ``dealer`` the deal and whose first deal is stacked.

    The first stacked deck decides the cut for deal (seat 0 cuts deck[0], seat 1 deck[1]).
    """
    cut = CUT_SEAT0_DEALS if dealer == 0 else CUT_SEAT1_DEALS
    deal = arrange_deal(parse_cards(pone_cards), parse_cards(dealer_cards), parse_card(starter))
    rng = StackedRandom([cut, deal, *more_deals])
    return Match(seed=0, options=options, rng=rng)


def discard(match: Match, seat: int, cards: str) -> list[Event]:
    first, second = parse_cards(cards)
    return match.apply(seat, Discard(cards=(first, second)))


def play(match: Match, seat: int, card: str) -> list[Event]:
    return match.apply(seat, Play(card=parse_card(card)))


def play_all(match: Match, moves: Iterable[tuple[int, str]]) -> list[Event]:
    """Play ``(seat, card)`` moves in order and return every event they caused."""
    events: list[Event] = []
    for seat, card in moves:
        events += play(match, seat, card)
    return events


def cards(text: str) -> tuple[Card, ...]:
    return parse_cards(text)
