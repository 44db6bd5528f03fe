"""Make the reply table the expert uses: ``python tools/reply_table.py [--seed S] [--workers N]``.

Writes ``shared/bots/data/reply.json``: for every four ranks a dealer may hold and every rank the
pone may lead against them, the mean point balance of the rest of the play after answering with
each rank the dealer holds, at the three weightings of the two sides' points the lead table uses
(``WEIGHTS``: here the dealer's points and the pone's). The pone's three other cards are drawn
``--draws`` times from the cards the dealer has not seen, each weighted by how often a pone keeps
its rank (the ``keep`` table of ``shared/bots/data/play.json``), and for each draw the play is
solved exactly (:mod:`muggins.shared.bots.playout`). The dealer's answer to the opening lead is,
after the lead, the costliest decision of the play (four cards against three), so it is made here
once.

Everything is drawn from ``--seed`` and the entry's own ranks, so the same arguments write the
same file whatever the number of workers.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from itertools import combinations_with_replacement
from multiprocessing import Pool
from pathlib import Path

from muggins.shared.bots.evaluation import RANKS
from muggins.shared.bots.expert import REPLY_DRAWS, reply_values
from muggins.shared.bots.opening_tables import REPLY_WEIGHTS
from muggins.shared.bots.playout import clear

OUT = Path(__file__).resolve().parent.parent / "shared" / "bots" / "data" / "reply.json"
Hand = tuple[int, ...]


def entries() -> list[tuple[Hand, int]]:
    """Every (dealer's four ranks, pone's lead) that four decks' worth of cards allow."""
    out: list[tuple[Hand, int]] = []
    for hand in combinations_with_replacement(RANKS, 4):
        for lead in RANKS:
            if hand.count(lead) < 4:
                out.append((hand, lead))
    return out


def solve_chunk(args: tuple[list[tuple[Hand, int]], int, int]) -> dict[str, dict[str, list[float]]]:
    chunk, draws, seed = args
    clear()
    out: dict[str, dict[str, list[float]]] = {}
    for hand, lead in chunk:
        values = reply_values(hand, lead, draws=draws, seed=seed)
        out[f"{'-'.join(map(str, hand))}:{lead}"] = {
            str(r): [round(v, 3) for v in vs] for r, vs in values.items()
        }
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--draws", type=int, default=REPLY_DRAWS, help="pone hands per entry")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--limit", type=int, default=0, help="only the first N entries (timing)")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args()
    start = time.perf_counter()
    todo = entries()
    if args.limit:
        todo = todo[: args.limit]
    size = 100
    chunks = [(todo[i : i + size], args.draws, args.seed) for i in range(0, len(todo), size)]
    table: dict[str, dict[str, list[float]]] = {}
    with Pool(args.workers) as pool:
        for n, part in enumerate(pool.imap(solve_chunk, chunks), 1):
            table.update(part)
            if n % 20 == 0:
                print(f"{len(table)}/{len(todo)} in {time.perf_counter() - start:.0f}s", flush=True)
    data = {
        "source": f"tools/reply_table.py --draws {args.draws} --seed {args.seed}",
        "weights": REPLY_WEIGHTS,
        "replies": dict(sorted(table.items())),
    }
    args.out.write_text(json.dumps(data, separators=(",", ":")) + "\n")
    print(f"{len(table)} entries in {time.perf_counter() - start:.0f}s; wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
