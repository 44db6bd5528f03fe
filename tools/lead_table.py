"""Make the opening-lead table the expert uses: ``python tools/lead_table.py [--seed S]``.

Writes ``shared/bots/data/lead.json``: for every four ranks a pone may hold when the play begins,
the mean point balance of the rest of the play after leading each of its ranks, at three weightings
of the two sides' points (``WEIGHTS``: the pone's points worth half the dealer's, even, the
dealer's worth half the pone's; the expert reads any other weighting between them, since scaling
both weights scales the balance). The dealer's four
cards are drawn ``--draws`` times from the cards the pone has not seen, each weighted by how often
a dealer keeps its rank (the ``keep`` table of ``shared/bots/data/play.json``), and for each draw
the play is solved exactly (:mod:`muggins.shared.bots.playout`). The expert's own search does the
same at the table, with fewer draws; the opening lead is the costliest decision of the play, so
it is made here once, with more.

Everything is drawn from ``--seed``, so the same arguments write the same file.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from itertools import combinations_with_replacement
from pathlib import Path

from muggins.shared.bots.evaluation import RANKS
from muggins.shared.bots.expert import drawn_balances
from muggins.shared.bots.playout import clear

WEIGHTS = ((0.5, 1.0), (1.0, 1.0), (1.0, 0.5))
"""The weightings (pone's points, dealer's points) the table is solved at."""
OUT = Path(__file__).resolve().parent.parent / "shared" / "bots" / "data" / "lead.json"
Hand = tuple[int, ...]


def lead_values(hand: Hand, *, draws: int, seed: int) -> dict[int, list[float]]:
    """The mean balance of leading each rank of ``hand`` against ``draws`` dealer hands, at each
    of ``WEIGHTS``."""
    rng = random.Random(f"lead-table:{seed}:{hand}")
    return drawn_balances(
        hand, (), role="dealer", cards=4, rng=rng, draws=draws, weightings=WEIGHTS
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=48, help="dealer hands per pone hand")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    start = time.perf_counter()
    table: dict[str, dict[str, list[float]]] = {}
    for n, hand in enumerate(combinations_with_replacement(RANKS, 4)):
        if n % 100 == 0:
            clear()
        values = lead_values(hand, draws=args.draws, seed=args.seed)
        table["-".join(map(str, hand))] = {
            str(r): [round(v, 3) for v in vs] for r, vs in values.items()
        }
    data = {
        "source": f"tools/lead_table.py --draws {args.draws} --seed {args.seed}",
        "weights": WEIGHTS,
        "leads": table,
    }
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{len(table)} hands in {time.perf_counter() - start:.0f}s; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
