"""Make the play tables the expert uses: ``python tools/play_tables.py [--seed S]``.

Writes ``shared/bots/data/play.json`` with two tables, both by role (dealer or pone):

- ``keep``: for each rank, how much likelier than average a player in that role is to keep a card
  of it (a pone rarely lays away a five). ``--hands`` random six-card hands per role are dealt to
  a player who lays away by hand value plus (dealer) or minus (pone) the crib table, and the table
  is the share of each rank's dealt cards that was kept, over the mean share (2/3).
- ``pegging``: for every four ranks a player may keep, the expected pegging balance (its points in
  the play less the opponent's) in that role. The opponent's four come from ``--opponents`` hands
  dealt and laid away the same way in the other role; the play is solved exactly for each pair of
  hands by :func:`muggins.shared.bots.playout.solve` (both sides playing it perfectly). The same
  opponent hands are used for every keep (skipping any that would need a fifth card of a rank), so
  the differences between keeps, which are what a discard is chosen on, carry little noise.

Everything is drawn from ``--seed``, so the same arguments write the same file.
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

from muggins.shared.bots.evaluation import RANKS, crib_table, discard_values
from muggins.shared.bots.playout import clear, solve
from muggins.shared.cards import DECK

OUT = Path(__file__).resolve().parent.parent / "shared" / "bots" / "data" / "play.json"
ROLES = ("dealer", "pone")
Keep = tuple[int, ...]
KEEPS: list[Keep] = list(combinations_with_replacement(RANKS, 4))


def kept_hands(*, dealer: bool, hands: int, rng: random.Random) -> list[Keep]:
    """The four ranks kept from ``hands`` random six-card hands by the hand-and-crib policy."""
    table = crib_table()
    out: list[Keep] = []
    for _ in range(hands):
        six = rng.sample(DECK, 6)
        best = discard_values(six, dealer=dealer, table=table)[0]
        out.append(tuple(sorted(c.rank for c in best.kept)))
    return out


def keep_weights(keeps: list[Keep]) -> list[float]:
    """For each rank (index 1..13), its share kept over the average share (index 0 is 0)."""
    kept = Counter(r for k in keeps for r in k)
    dealt = len(keeps) * 6 / 13  # cards of each rank dealt, on average
    return [0.0] + [round(kept[r] / dealt / (4 / 6), 4) for r in RANKS]


def pegging_value(keep: Keep, opponents: list[Keep], *, pone: bool, samples: int) -> float:
    """The mean pegging balance of ``keep`` against the first ``samples`` compatible hands."""
    total = 0.0
    used = 0
    mine = Counter(keep)
    for theirs in opponents:
        if any(mine[r] + n > 4 for r, n in Counter(theirs).items()):
            continue
        total += solve(keep, theirs, (), 0, turn=0 if pone else 1)
        used += 1
        if used == samples:
            break
    return total / used


def opponent_pool(role: str, *, opponents: int, seed: int) -> list[Keep]:
    """The opponent hands a keep in ``role`` is played against (kept in the other role)."""
    rng = random.Random(f"play-tables-pool:{seed}:{role}")
    return kept_hands(dealer=role == "pone", hands=3 * opponents, rng=rng)


def build(*, hands: int, opponents: int, seed: int) -> dict[str, object]:
    rng = random.Random(f"play-tables-keep:{seed}")
    keeps = {role: kept_hands(dealer=role == "dealer", hands=hands, rng=rng) for role in ROLES}
    pegging: dict[str, dict[str, float]] = {}
    for role in ROLES:
        pool = opponent_pool(role, opponents=opponents, seed=seed)
        start = time.perf_counter()
        table: dict[str, float] = {}
        for n, keep in enumerate(KEEPS):
            if n % 200 == 0:
                clear()
            value = pegging_value(keep, pool, pone=role == "pone", samples=opponents)
            table["-".join(map(str, keep))] = round(value, 3)
        pegging[role] = table
        took = time.perf_counter() - start
        print(f"{role}: {len(KEEPS)} keeps in {took:.0f}s", file=sys.stderr)
    return {
        "source": f"tools/play_tables.py --hands {hands} --opponents {opponents} --seed {seed}",
        "keep": {role: keep_weights(keeps[role]) for role in ROLES},
        "pegging": pegging,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40000, help="simulated hands per role")
    parser.add_argument("--opponents", type=int, default=48, help="opponent hands per keep")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    data = build(hands=args.hands, opponents=args.opponents, seed=args.seed)
    args.out.write_text(json.dumps(data, indent=0) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
