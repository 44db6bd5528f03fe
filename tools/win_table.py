"""Make the win-chance table the expert plays to the board with: ``python tools/win_table.py``.

Writes ``shared/bots/data/win.json``: the per-deal point distributions measured in ``--games``
self-play games of ``--level`` (seeded by ``--seed``), and from them, by dynamic programming
(:func:`muggins.shared.bots.board.dealer_win_table`), the dealer's chance to win from every pair
of scores for games to 121 and to 61. A deal is counted only when it was played to its end, so
the distributions are those of whole deals.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path

from muggins.shared.actions import CardPlayed, DealRevealed, DealStarted, Scored
from muggins.shared.bots.arena import game_seed
from muggins.shared.bots.base import make_strategy
from muggins.shared.bots.board import dealer_win_table
from muggins.shared.match import Match

OUT = Path(__file__).resolve().parent.parent / "shared" / "bots" / "data" / "win.json"


def deal_points(level: str, *, games: int, seed: int) -> list[tuple[int, int, int, int]]:
    """(dealer's play, pone's play, pone's show, dealer's show) of every whole deal played."""
    deals: list[tuple[int, int, int, int]] = []
    for index in range(games):
        match = Match(seed=game_seed(seed, index), keep_events=False)
        bots = [make_strategy(level, seed=index * 2 + s) for s in (0, 1)]
        dealer = match.game.dealer
        points = [0, 0, 0, 0]
        while not match.over:
            seat = match.waiting_for()[0]
            for event in match.apply(seat, bots[seat].choose(match.view(seat))):
                if isinstance(event, CardPlayed) or (
                    isinstance(event, Scored) and event.reason in ("heels", "go", "last_card")
                ):
                    points[0 if event.seat == dealer else 1] += event.points
                elif isinstance(event, Scored) and event.reason in ("hand", "crib"):
                    points[3 if event.seat == dealer else 2] += event.points
                elif isinstance(event, DealRevealed):
                    deals.append((points[0], points[1], points[2], points[3]))
                elif isinstance(event, DealStarted):
                    dealer = event.dealer
                    points = [0, 0, 0, 0]
    return deals


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="self-play games to measure")
    parser.add_argument("--level", default="expert-1", help="the level that plays them")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    start = time.perf_counter()
    deals = deal_points(args.level, games=args.games, seed=args.seed)
    n = len(deals)
    pegging = Counter((d[0], d[1]) for d in deals)
    pone = Counter(d[2] for d in deals)
    dealer = Counter(d[3] for d in deals)
    print(f"{n} deals in {time.perf_counter() - start:.0f}s", file=sys.stderr)
    tables = {}
    for target in (121, 61):
        table = dealer_win_table(
            target,
            pegging={k: v / n for k, v in pegging.items()},
            pone_show={k: v / n for k, v in pone.items()},
            dealer_show={k: v / n for k, v in dealer.items()},
        )
        tables[str(target)] = [[round(x, 4) for x in row] for row in table]
    data = {
        "source": (
            f"tools/win_table.py --games {args.games} --level {args.level} --seed {args.seed}"
        ),
        "deals": n,
        "pegging": sorted([a, b, c] for (a, b), c in pegging.items()),
        "pone_show": sorted([a, c] for a, c in pone.items()),
        "dealer_show": sorted([a, c] for a, c in dealer.items()),
        "tables": tables,
    }
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"first dealer wins {tables['121'][0][0]:.4f}; wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
