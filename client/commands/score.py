"""``muggins score``: score a hand in the show, or print the distribution of all hands."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from typing import Any

from muggins.shared.cards import Card, CardError, format_cards, parse_card, parse_cards
from muggins.shared.scoring import HandScore, score_hand


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "score",
        help="score a hand with its starter, or every possible hand",
        description=(
            "Score four cards with a starter as in the show, part by part, or with "
            "--distribution count how many of all 12,994,800 hands and starters make each score."
        ),
        epilog=(
            "examples:\n"
            "  muggins score 5H 5S 5C JD --starter 5D      the 29 hand\n"
            "  muggins score 2H 4H 6H 8H -s KS --crib      a four-card flush is nothing in a crib\n"
            "  muggins score --distribution --json         the table of all hands as JSON"
        ),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "cards",
        nargs="*",
        metavar="CARD",
        help="four cards such as 5H 10S JD AC (or five, the starter last)",
    )
    parser.add_argument("--starter", "-s", metavar="CARD", help="the starter card")
    parser.add_argument("--crib", action="store_true", help="score as the crib (5-card flush only)")
    parser.add_argument(
        "--distribution",
        action="store_true",
        help="score every hand and starter and print how many make each score",
    )
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


def _hand_and_starter(args: argparse.Namespace) -> tuple[tuple[Card, ...], Card]:
    cards: tuple[Card, ...] = parse_cards(args.cards)
    if args.starter is None:
        if len(cards) != 5:
            raise CardError(
                f"give four cards and --starter CARD (or five cards, starter last), "
                f"not {len(cards)} card{'s' if len(cards) != 1 else ''}"
            )
        starter = cards[-1]
        cards = cards[:-1]
    else:
        starter = parse_card(args.starter)
        if len(cards) != 4:
            raise CardError(f"a hand has four cards, not {len(cards)}")
    repeated = [card for card, n in Counter((*cards, starter)).items() if n > 1]
    if repeated:
        raise CardError(f"{format_cards(repeated)} is given twice; a deck has one of each card")
    return cards, starter


def run(args: argparse.Namespace) -> int:
    if args.distribution:
        if args.cards or args.starter:
            return _fail("--distribution scores every hand; do not give cards with it")
        return _run_distribution(crib=args.crib, as_json=args.json)
    if not args.cards:
        return _fail("give four cards and --starter CARD, e.g. muggins score 5H 5S 5C JD -s 5D")
    try:
        cards, starter = _hand_and_starter(args)
        score = score_hand(cards, starter, crib=args.crib)
    except ValueError as error:
        return _fail(str(error))
    if args.json:
        print(json.dumps(hand_json(score)))
        return 0
    what = "Crib" if args.crib else "Hand"
    print(f"{what}: {format_cards(score.hand, pretty=True)}   starter: {score.starter.pretty}")
    for line in score.itemised():
        print(f"  {line}")
    print(f'  "{score.spoken()}"')
    return 0


def _fail(message: str) -> int:
    print(f"muggins score: {message}", file=sys.stderr)
    return 2


def _run_distribution(*, crib: bool, as_json: bool) -> int:
    import time

    from muggins.shared.distribution import (
        distribution,
        published_crib_figures,
        published_hand_table,
    )

    started = time.perf_counter()
    table = distribution(crib=crib)
    seconds = time.perf_counter() - started
    if as_json:
        result = {
            "rule": "crib" if crib else "hand",
            "hands": table.hands,
            "counts": {str(score): n for score, n in table.counts.items()},
            "mean": round(table.mean, 4),
            "seconds": round(seconds, 3),
        }
        print(json.dumps(result))
        return 0
    rule = "crib rules (a flush needs the starter)" if crib else "hand rules"
    print(f"All {table.hands:,} hands with a starter, scored under {rule}:")
    print(f"  {'score':>5} {'hands':>10} {'share':>8}")
    for score in range(max(table.counts) + 1):
        n = table.counts.get(score, 0)
        print(f"  {score:>5} {n:>10,} {100 * n / table.hands:>7.3f}%")
    print(f"mean {table.mean:.4f}; impossible scores: {', '.join(map(str, table.impossible))}")
    if crib:
        zero, mean = published_crib_figures()
        same = (table.counts.get(0), round(table.mean, 4)) == (zero, mean)
        figures = f"{zero:,} score 0, mean {mean}"
        print(f"{'matches' if same else 'DIFFERS from'} the published crib figures ({figures})")
    else:
        same = published_hand_table() == table.counts
        print(f"{'matches' if same else 'DIFFERS from'} the published table (S. S. Lumetta)")
    print(f"computed in {seconds:.3f} s ({table.hands / seconds:,.0f} hands/s)")
    return 0
