"""Make the crib table the expert and the coach use: ``python tools/crib_table.py``.

Writes ``shared/bots/data/crib.json``: for each pair of ranks a player may lay away, the expected
points of the crib they go into, once for the dealer's own discard and once for the pone's.

How: the crib is your two cards, the opponent's two and the starter. The opponent's two come from
a simulation: ``--hands`` random six-card hands are dealt to a player who lays away by the current
policy (best expected hand plus own crib as dealer, minus the opponent's as pone), which gives the
distribution of the rank pairs a dealer and a pone throw. The crib value of your pair is then
enumerated exactly over that distribution and the 13 starter ranks, weighting each rank by how
many of its cards are left. The policy starts from hand value alone and is refined with the new
table ``--rounds`` times. Fifteens, pairs, runs and his nobs are counted (a jack matches the
starter's suit 12 times in 46); the five-card crib flush, worth under 0.01 a crib, is left out.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from itertools import combinations_with_replacement
from pathlib import Path

from muggins.shared.bots.evaluation import RANK_TABLE, RANKS, CribTable, discard_values
from muggins.shared.cards import DECK, JACK

OUT = Path(__file__).resolve().parent.parent / "shared" / "bots" / "data" / "crib.json"
Pair = tuple[int, int]
PAIRS: list[Pair] = [(a, b) for a, b in combinations_with_replacement(RANKS, 2)]


def throws(
    table: CribTable | None, *, dealer: bool, hands: int, rng: random.Random
) -> Counter[Pair]:
    """How often a player in this role lays away each rank pair, over random hands."""
    seen: Counter[Pair] = Counter()
    for _ in range(hands):
        six = rng.sample(DECK, 6)
        best = discard_values(six, dealer=dealer, table=table)[0]
        a, b = sorted(c.rank for c in best.discard)
        seen[(a, b)] += 1
    return seen


def crib_value(mine: Pair, theirs: Counter[Pair]) -> float:
    """Expected crib points with ``mine`` in it and the other pair drawn from ``theirs``."""
    left = [4] * 14
    for r in mine:
        left[r] -= 1
    weight_sum = 0.0
    points = 0.0
    for (c, d), n in theirs.items():
        w = n * left[c] * (left[c] - 1) / 12 if c == d else n * left[c] * left[d] / 16
        if w <= 0:
            continue
        four = (*mine, c, d)
        remaining = [4 - four.count(s) for s in range(14)]
        total = sum(remaining[1:])
        starters = sum(
            remaining[s] * RANK_TABLE[tuple(sorted((*four, s)))] for s in RANKS if remaining[s]
        )
        expected = starters / total + four.count(JACK) * 12 / 46
        points += w * expected
        weight_sum += w
    return points / weight_sum


def build(*, hands: int, rounds: int, seed: int) -> CribTable:
    rng = random.Random(seed)
    table: CribTable | None = None
    for round_ in range(rounds + 1):
        start = time.perf_counter()
        pone_throws = throws(table, dealer=False, hands=hands, rng=rng)
        dealer_throws = throws(table, dealer=True, hands=hands, rng=rng)
        # Your crib as dealer gets the pone's throw; the pone's gift joins the dealer's throw.
        table = CribTable(
            dealer={p: crib_value(p, pone_throws) for p in PAIRS},
            pone={p: crib_value(p, dealer_throws) for p in PAIRS},
            source=f"tools/crib_table.py --hands {hands} --rounds {rounds} --seed {seed}",
        )
        took = time.perf_counter() - start
        print(f"round {round_}: {2 * hands} hands in {took:.1f}s", file=sys.stderr)
    assert table is not None
    return table


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40000, help="simulated hands per role")
    parser.add_argument("--rounds", type=int, default=2, help="policy refinements")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    table = build(hands=args.hands, rounds=args.rounds, seed=args.seed)
    data = {
        "source": table.source,
        "dealer": {f"{a}-{b}": round(v, 3) for (a, b), v in sorted(table.dealer.items())},
        "pone": {f"{a}-{b}": round(v, 3) for (a, b), v in sorted(table.pone.items())},
    }
    args.out.write_text(json.dumps(data, indent=1) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
