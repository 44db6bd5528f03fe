"""``muggins analyze``: the coach ranks all fifteen discards of a six-card hand."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(commands: Any) -> None:
    parser = commands.add_parser(
        "analyze",
        help="rank the fifteen discards of six cards",
        description=(
            "Rank every way to lay away two of six cards by expected hand value over the 46 "
            "possible starters, expected crib value (yours as dealer, your opponent's as pone) "
            "and the net, with the chance of each hand score. "
            "Example: muggins analyze 5H 5S 5C JD 2C 9D --dealer"
        ),
    )
    parser.add_argument(
        "cards", nargs="+", metavar="CARD", help="six cards, e.g. 5H 5S 5C JD 2C 9D"
    )
    role = parser.add_mutually_exclusive_group(required=True)
    role.add_argument("--dealer", action="store_true", help="you deal: the crib is yours")
    role.add_argument("--pone", action="store_true", help="your opponent deals")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from muggins.shared.bots.evaluation import crib_table, discard_values, hand_distribution
    from muggins.shared.cards import parse_cards

    try:
        six = parse_cards(args.cards)
        if len(six) != 6:
            raise ValueError(f"give the six cards you were dealt, not {len(six)}")
        if len(set(six)) != 6:
            raise ValueError("a card appears twice; give six different cards")
    except ValueError as error:
        print(f"muggins analyze: {error}", file=sys.stderr)
        return 2
    values = discard_values(six, dealer=args.dealer, table=crib_table())
    rows = [
        {
            "discard": [str(c) for c in v.discard],
            "kept": [str(c) for c in v.kept],
            "hand": round(v.hand, 3),
            "crib": round(v.crib, 3),
            "net": round(v.net, 3),
            "hand_scores": {
                str(points): round(p, 4) for points, p in hand_distribution(v.kept, six).items()
            },
        }
        for v in values
    ]
    if args.json:
        print(json.dumps({"cards": [str(c) for c in six], "dealer": args.dealer, "discards": rows}))
        return 0
    print_table(six, args.dealer, values, rows)
    return 0


def print_table(six: Any, dealer: bool, values: Any, rows: list[dict[str, Any]]) -> None:
    from rich.console import Console
    from rich.table import Table

    from muggins.shared.cards import format_cards

    role = "dealer (the crib is yours)" if dealer else "pone (the crib is your opponent's)"
    table = Table(title=f"{format_cards(six, pretty=True)} as {role}")
    table.add_column("#", justify="right")
    table.add_column("lay away")
    table.add_column("keep")
    table.add_column("hand", justify="right")
    table.add_column("crib", justify="right")
    table.add_column("net", justify="right")
    table.add_column("hand score: chance")
    sign = "+" if dealer else "−"
    for n, (value, row) in enumerate(zip(values, rows, strict=True), start=1):
        chances = "  ".join(f"{p}:{100 * c:.0f}%" for p, c in row["hand_scores"].items())
        table.add_row(
            str(n),
            format_cards(value.discard, pretty=True),
            format_cards(value.kept, pretty=True),
            f"{value.hand:.2f}",
            f"{sign}{value.crib:.2f}",
            f"{value.net:.2f}",
            chances,
        )
    console = Console()
    console.print(table)
    console.print(
        "hand: expected points of the four kept cards over the 46 starters; crib: expected "
        "points of the crib the two cards go into (from the crib table); net: hand "
        + ("plus" if dealer else "minus")
        + " crib."
    )
