"""Benchmark: instructions per game action, counted by valgrind (callgrind), not timed.

    python bench/instructions.py [--bench action_cpu|cluster_action_cpu] [--spread plain,same,both]
        [--rooms 10] [--few 500] [--many 1500] [--keep DIR]

Runs the in-process bench (``bench/action_cpu.py``, or ``bench/cluster_action_cpu.py`` once for
each ``--spread`` kind) under ``valgrind --tool=callgrind`` twice, with ``--few`` and with
``--many`` actions, and prints the difference divided by the difference in actions: the
instructions the process executes per action, start-up and set-up cancelled out. A count does
not depend on what else the machine is doing (the same binary and inputs give the same count
within a fraction of a per cent), so two versions of the code can be compared exactly on a
shared machine, where CPU time cannot. It counts user-space instructions only: the kernel's
part (system calls, sleeping and waking) and the cost of cold caches are not in it
(docs/BENCHMARKS.md sets the counts beside CPU times). ``PYTHONHASHSEED=0``
makes string hashing the same from run to run. About a minute per count, 50 times slower
than the bench itself; ``--keep DIR`` keeps the callgrind files for ``callgrind_annotate``.
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
COLLECTED = re.compile(r"Collected : (\d+)")


def count(bench: str, kind: str | None, rooms: int, actions: int, out: Path) -> int:
    """Instructions callgrind counted in one run of ``bench`` with ``actions`` actions."""
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out}",
        sys.executable,
        str(HERE / f"{bench}.py"),
        "--actions",
        str(actions),
        "--rooms",
        str(rooms),
        "--repeat",
        "1",
    ]
    if bench == "cluster_action_cpu":
        command += ["--spread", kind or "plain"]
    done = subprocess.run(
        command,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONHASHSEED": "0"},
        check=False,
    )
    found = COLLECTED.search(done.stderr)
    if done.returncode != 0 or found is None:
        sys.exit(f"{' '.join(command)} failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return int(found.group(1))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--bench", choices=("action_cpu", "cluster_action_cpu"))
    parser.add_argument("--spread", default="plain,same,both", help="cluster_action_cpu's kinds")
    parser.add_argument("--rooms", type=int, default=10)
    parser.add_argument("--few", type=int, default=500)
    parser.add_argument("--many", type=int, default=1500)
    parser.add_argument("--keep", type=Path, help="keep the callgrind files in this folder")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian: apt-get install valgrind)")
    if args.many <= args.few:
        sys.exit("--many must be more than --few")
    bench = args.bench or "cluster_action_cpu"
    kinds: list[str | None] = [*args.spread.split(",")] if bench == "cluster_action_cpu" else [None]
    with tempfile.TemporaryDirectory(prefix="instructions-") as scratch:
        folder = args.keep or Path(scratch)
        folder.mkdir(parents=True, exist_ok=True)
        figures: dict[str, float] = {}
        for kind in kinds:
            name = kind or bench
            counts = []
            for actions in (args.few, args.many):
                print(f"{name}: counting {actions} actions ...", flush=True)
                out = folder / f"callgrind.{name}.{actions}"
                counts.append(count(bench, kind, args.rooms, actions, out))
            figures[name] = (counts[1] - counts[0]) / (args.many - args.few)
    first = next(iter(figures.values()))
    for name, per_action in figures.items():
        ratio = f" = {per_action / first:.2f}x {next(iter(figures))}" if len(figures) > 1 else ""
        print(f"{name:>10}: {per_action:,.0f} instructions per action{ratio}")


if __name__ == "__main__":
    main()
