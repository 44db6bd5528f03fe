"""Benchmark helper: a hash of every value the expert's play search returns in self-play games,
to prove a change to the solver leaves every value (not only every decision) as it was.

    python bench/root_values.py [--games N] [--start I] [--seed S]

Plays games ``I`` to ``I + N - 1`` of expert self-play, seeded as ``bench/action_log.py`` seeds
them, records each opponent's hand searched and the value of every rank against it, in order,
and prints how many searches there were and the SHA-256 of their values, with the CPU time. Run
it on the old and the new code with the same arguments: equal hashes mean equal values. Works
on code where the expert calls ``playout.best_moves`` for each hand and on code where it calls
``playout.searcher`` once per decision.
"""

from __future__ import annotations

import argparse
import hashlib
import time
from collections.abc import Callable
from typing import Any

from muggins.shared.bots import expert, make_strategy
from muggins.shared.bots.duplicate import pair_seed
from muggins.shared.match import Match


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--start", type=int, default=0)
    parser.add_argument("--seed", type=int, default=11)
    args = parser.parse_args()
    digest = hashlib.sha256()
    searches = 0

    def record(theirs: tuple[int, ...], values: dict[int, float]) -> None:
        nonlocal searches
        searches += 1
        digest.update(repr((theirs, sorted(values.items()))).encode())

    names = vars(expert)  # the module's namespace: what is put here, the expert calls
    if "searcher" in names:
        make_searcher = names["searcher"]

        def searcher(*a: Any, **k: Any) -> Callable[[tuple[int, ...]], dict[int, float]]:
            search = make_searcher(*a, **k)

            def recorded(theirs: tuple[int, ...]) -> dict[int, float]:
                values: dict[int, float] = search(theirs)
                record(tuple(theirs), values)
                return values

            return recorded

        names["searcher"] = searcher
    else:
        search_one = names["best_moves"]

        def best_moves(mine: Any, theirs: Any, *a: Any, **k: Any) -> dict[int, float]:
            values: dict[int, float] = search_one(mine, theirs, *a, **k)
            record(tuple(theirs), values)
            return values

        names["best_moves"] = best_moves
    cpu = time.process_time()
    for index in range(args.start, args.start + args.games):
        match = Match(seed=pair_seed(args.seed, index), keep_events=False)
        seed = match.seed if isinstance(match.seed, int) else int.from_bytes(match.seed[:8], "big")
        bots = [make_strategy("expert", seed=seed ^ (s + 1)) for s in (0, 1)]
        games = len(match.games)
        while len(match.games) == games:
            seat = match.waiting_for()[0]
            match.apply(seat, bots[seat].choose(match.view(seat)))
    cpu = time.process_time() - cpu
    print(f"{searches} searches in {args.games} games, {cpu:.1f} s CPU: {digest.hexdigest()}")


if __name__ == "__main__":
    main()
