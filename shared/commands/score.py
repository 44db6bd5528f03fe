"""``muggins score``: score a hand in the show, or print the distribution of all hands."""

from __future__ import annotations

import argparse
import json
from typing import Any

from shared.cards import CardError, format_cards, parse_card, parse_cards
from shared.scoring import HandScore, score_hand


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "score",
        help="score a hand with its starter",
        description=(
            "Score four cards with a starter as in the show, part by part. "
            "Example: muggins score 5H 5S 5C JD --starter 5D"
        ),
    )
    parser.add_argument("cards", nargs="*", metavar="CARD", help="four cards, e.g. 5H 10S JD AC")
    parser.add_argument("--starter", "-s", metavar="CARD", help="the starter card")
    parser.add_argument("--crib", action="store_true", help="score as the crib (5-card flush only)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def hand_json(score: HandScore) -> dict[str, Any]:
    return {
        "hand": [str(c) for c in score.hand],
        "starter": str(score.starter),
        "crib": score.crib,
        "total": score.total,
        "parts": [
            {"kind": p.kind, "points": p.points, "cards": [str(c) for c in p.cards]}
            for p in score.parts
        ],
        "spoken": score.spoken(),
    }


def run(args: argparse.Namespace) -> int:
    try:
        cards = parse_cards(args.cards)
        if len(cards) == 5 and args.starter is None:
            starter = cards[4]
            cards = cards[:4]
        elif args.starter is None:
            raise CardError("give four cards and --starter CARD (or five cards, starter last)")
        else:
            starter = parse_card(args.starter)
        score = score_hand(cards, starter, crib=args.crib)
    except ValueError as error:
        print(f"muggins score: {error}")
        return 2
    if args.json:
        print(json.dumps(hand_json(score)))
        return 0
    what = "Crib" if args.crib else "Hand"
    print(f"{what}: {format_cards(score.hand, pretty=True)}   starter: {score.starter.pretty}")
    for part in score.parts:
        shown = format_cards(part.cards, pretty=True)
        print(f"  {part.describe():<22} {shown:<20} {part.points:>2}")
    print(f"  {'total':<43}{score.total:>2}")
    print(f'  "{score.spoken()}"')
    return 0
