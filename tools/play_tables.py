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
- ``played``: the same balance when neither side sees the other's cards, against the first
  ``--played-opponents`` of those hands: each card is chosen by :class:`Pegging` (expectimax one
  reply deep over the ranks the other side may still hold, given what this side has seen of
  them). Perfect play knows where every card is and so dodges every pair and fifteen; a player
  who does not see them cannot, which makes pairs and low cards worth more and a hand of tens
  and fives cost a pone more. The expert reads the mean of the two tables: against the old
  expert over 20,000 first deals played twice with the seats swapped, the mean gained 0.065
  points a pair of deals, the solved table alone 0.022 and the played one alone 0.007.

Everything is drawn from ``--seed``, so the same arguments write the same file.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import time
from collections import Counter
from functools import cache
from itertools import combinations_with_replacement
from multiprocessing import Pool
from pathlib import Path

from muggins.shared.bots.evaluation import RANKS, crib_table, discard_values, pip, play_points
from muggins.shared.bots.pegging import Pegging
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


def facing(keep: Keep, opponents: list[Keep], samples: int) -> list[Keep]:
    """The first ``samples`` of ``opponents`` that ``keep`` can face (no fifth card of a rank)."""
    mine = Counter(keep)
    out: list[Keep] = []
    for theirs in opponents:
        if all(mine[r] + n <= 4 for r, n in Counter(theirs).items()):
            out.append(theirs)
            if len(out) == samples:
                break
    return out


def pegging_value(keep: Keep, opponents: list[Keep], *, pone: bool, samples: int) -> float:
    """The mean pegging balance of ``keep`` against the first ``samples`` compatible hands."""
    hands = facing(keep, opponents, samples)
    turn = 0 if pone else 1
    return sum(solve(keep, theirs, (), 0, turn=turn) for theirs in hands) / len(hands)


def played_balance(keep: Keep, theirs: Keep, *, pone: bool) -> int:
    """The pegging balance of ``keep`` against ``theirs`` when neither side sees the other's
    cards: each side plays :meth:`Pegging.best` over the ranks it has not seen (the deck less its
    own four and the cards the other has played). The pone leads; after a go or a 31 the side
    that did not play the last card leads again."""
    hands = [list(keep), list(theirs)]
    fours = (keep, theirs)
    played: list[list[int]] = [[], []]
    points = [0, 0]
    pile: list[int] = []
    count = 0
    turn = 0 if pone else 1
    said_go = [False, False]
    last = turn
    while hands[0] or hands[1]:
        other = 1 - turn
        fits = sorted({r for r in hands[turn] if count + pip(r) <= 31})
        if fits and not said_go[turn]:
            rank = fits[0]
            if len(fits) > 1:
                unseen = [0] + [4] * 13
                for r in (*fours[turn], *played[other]):
                    unseen[r] -= 1
                rank = Pegging(
                    hand=tuple(sorted(hands[turn])),
                    unseen=tuple(unseen),
                    opp_cards=len(hands[other]),
                    opp_said_go=said_go[other],
                ).best(pile=tuple(pile), count=count)
            hands[turn].remove(rank)
            played[turn].append(rank)
            points[turn] += play_points(tuple(pile), count, rank)
            pile.append(rank)
            count += pip(rank)
            last = turn
            if count == 31:  # 31 scored its two: the count restarts, the other side leads
                pile, count, said_go = [], 0, [False, False]
            turn = other
            continue
        said_go[turn] = True
        if not said_go[other] and any(count + pip(r) <= 31 for r in hands[other]):
            turn = other
            continue
        points[last] += 1  # a go: nobody can play, the last card played pegs one
        pile, count, said_go = [], 0, [False, False]
        turn = 1 - last
    if count:
        points[last] += 1  # the last card (a 31 has already reset the count)
    return points[0] - points[1]


def played_value(keep: Keep, opponents: list[Keep], *, pone: bool, samples: int) -> float:
    """The mean :func:`played_balance` of ``keep`` against the first ``samples`` compatible
    hands (the same hands :func:`pegging_value` takes first)."""
    hands = facing(keep, opponents, samples)
    return sum(played_balance(keep, theirs, pone=pone) for theirs in hands) / len(hands)


def opponent_pool(role: str, *, opponents: int, seed: int) -> list[Keep]:
    """The opponent hands a keep in ``role`` is played against (kept in the other role)."""
    rng = random.Random(f"play-tables-pool:{seed}:{role}")
    return kept_hands(dealer=role == "pone", hands=3 * opponents, rng=rng)


Job = tuple[str, int, int, int, int, int]
"""(role, opponents, played opponents, seed, first keep, end): one worker's share."""


@cache
def pool_of(role: str, opponents: int, seed: int) -> list[Keep]:
    """:func:`opponent_pool`, made once per worker process for all its jobs."""
    return opponent_pool(role, opponents=opponents, seed=seed)


def keep_chunk(job: Job) -> tuple[dict[str, float], dict[str, float]]:
    """The solved and the played entries of ``KEEPS[start:stop]`` in ``role``."""
    role, opponents, played_opponents, seed, start, stop = job
    pool = pool_of(role, max(opponents, played_opponents), seed)
    pone = role == "pone"
    solved: dict[str, float] = {}
    played: dict[str, float] = {}
    for n, keep in enumerate(KEEPS[start:stop]):
        if n % 200 == 0:
            clear()
        key = "-".join(map(str, keep))
        solved[key] = round(pegging_value(keep, pool, pone=pone, samples=opponents), 3)
        played[key] = round(played_value(keep, pool, pone=pone, samples=played_opponents), 3)
    return solved, played


CHUNK = 65
"""Keeps per job: 28 jobs per role."""


def build(
    *, hands: int, opponents: int, played_opponents: int, seed: int, workers: int = 1
) -> dict[str, object]:
    rng = random.Random(f"play-tables-keep:{seed}")
    keeps = {role: kept_hands(dealer=role == "dealer", hands=hands, rng=rng) for role in ROLES}
    jobs: list[Job] = [
        (role, opponents, played_opponents, seed, start, start + CHUNK)
        for role in ROLES
        for start in range(0, len(KEEPS), CHUNK)
    ]
    pegging: dict[str, dict[str, float]] = {role: {} for role in ROLES}
    played: dict[str, dict[str, float]] = {role: {} for role in ROLES}
    start = time.perf_counter()
    with Pool(workers) as pool:
        results = pool.imap(keep_chunk, jobs)
        for n, (job, (solved, by_play)) in enumerate(zip(jobs, results, strict=True), 1):
            pegging[job[0]].update(solved)
            played[job[0]].update(by_play)
            took = time.perf_counter() - start
            left = took * (len(jobs) - n) / n
            print(
                f"{n}/{len(jobs)} parts in {took:.0f} s, about {left:.0f} s left",
                file=sys.stderr,
                flush=True,
            )
    return {
        "source": (
            f"tools/play_tables.py --hands {hands} --opponents {opponents}"
            f" --played-opponents {played_opponents} --seed {seed}"
        ),
        "keep": {role: keep_weights(keeps[role]) for role in ROLES},
        "pegging": {role: in_keep_order(pegging[role]) for role in ROLES},
        "played": {role: in_keep_order(played[role]) for role in ROLES},
    }


def in_keep_order(table: dict[str, float]) -> dict[str, float]:
    return dict(sorted(table.items(), key=lambda kv: KEEP_ORDER[kv[0]]))


KEEP_ORDER = {"-".join(map(str, keep)): n for n, keep in enumerate(KEEPS)}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=40000, help="simulated hands per role")
    parser.add_argument("--opponents", type=int, default=960, help="opponent hands per keep")
    parser.add_argument(
        "--played-opponents", type=int, default=240, help="opponent hands per keep, played"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--out", type=Path, default=OUT)
    parser.add_argument(
        "--workers", type=int, default=os.cpu_count() or 1, help="processes (default: one per core)"
    )
    args = parser.parse_args()
    if args.workers < 1:
        parser.error("--workers must be at least 1")
    if min(args.hands, args.opponents, args.played_opponents) < 1:
        parser.error("--hands, --opponents and --played-opponents must be at least 1")
    data = build(
        hands=args.hands,
        opponents=args.opponents,
        played_opponents=args.played_opponents,
        seed=args.seed,
        workers=args.workers,
    )
    args.out.write_text(json.dumps(data, indent=0) + "\n")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
