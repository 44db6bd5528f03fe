"""Benchmark: instructions per game action, counted by valgrind (callgrind), not timed.

    python bench/instructions.py [--bench action_cpu|cluster_action_cpu] [--spread plain,same,both]
        [--rooms 10] [--few 500] [--many 1500] [--keep DIR]

Runs the in-process bench (``bench/action_cpu.py``, or ``bench/cluster_action_cpu.py`` once for
each ``--spread`` kind: ``plain``, ``plain-sqlite``, ``same``, ``both``) under ``valgrind
--tool=callgrind`` twice, with ``--few`` and with ``--many`` actions, and prints the difference
divided by the difference in actions: the instructions the process executes per action, start-up
and set-up cancelled out. For the cluster's kinds (``same``, ``both``) the ``redis-server`` they
play on runs under callgrind too, started afresh for each count and stopped with ``SHUTDOWN``,
and its instructions per action are printed beside the node's and added to them. The nodes and
Redis also work on a clock (heartbeats, polls, ``serverCron``), and under valgrind the longer run
lasts many seconds longer than it would; so the longer run goes first, and the shorter one keeps
its event loop going, idle, until as long after its first move (``--last``): the clock-driven
work is then the same in both and drops out of the difference. Redis's own clock
(``serverCron``, ten times a second) also runs while the node starts, which under valgrind takes
a time that varies with the machine's load, so Redis is counted without ``serverCron`` and what
it calls (``callgrind_annotate --inclusive=yes``). A count does
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
import contextlib
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from processes import start_redis

HERE = Path(__file__).resolve().parent
COLLECTED = re.compile(r"Collected : (\d+)")
CRON = re.compile(r"^\s*([\d,]+) .*:serverCron\b", re.MULTILINE)


def counted_redis(out: Path) -> tuple[subprocess.Popen[bytes], str, Path]:
    """A ``redis-server`` under callgrind (AOF on, as the cluster runs it), its URL and the file
    valgrind reports to once it stops."""
    log = out.with_name(f"{out.name}.log")
    valgrind = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--log-file={log}"]
    aof = ["--appendfilename", f"{out.name}.aof", "--appenddirname", f"{out.name}.aof.d"]
    try:
        process, url = start_redis(str(out.parent), "everysec", prefix=valgrind, extra=aof, wait=60)
    except RuntimeError as error:
        sys.exit(f"{error} (under valgrind)")
    return process, url, log


def stop_redis(process: subprocess.Popen[bytes], url: str, log: Path, out: Path) -> int:
    """Stop a counted ``redis-server`` cleanly (callgrind writes its count as it exits): its
    instructions less those of its clock (``serverCron`` and all it calls)."""
    port = int(url.rsplit(":", 1)[1].split("/")[0])
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 5) as s:
        s.sendall(b"SHUTDOWN NOSAVE\r\n")
        s.recv(16)
    process.wait(60)
    found = COLLECTED.search(log.read_text())
    if found is None:
        sys.exit(f"no count from redis-server under callgrind:\n{log.read_text()[-2000:]}")
    annotated = subprocess.run(
        ["callgrind_annotate", "--inclusive=yes", str(out)],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    clock = CRON.search(annotated)
    if clock is None:
        sys.exit(f"no serverCron in {out}'s annotation")
    return int(found.group(1)) - int(clock.group(1).replace(",", ""))


MOVES_TOOK = re.compile(r"the moves took ([0-9.]+) s")


def count(
    bench: str,
    kind: str | None,
    rooms: int,
    actions: int,
    out: Path,
    redis: str | None = None,
    last: float = 0.0,
) -> tuple[int, float]:
    """Instructions callgrind counted in one run of ``bench`` with ``actions`` actions, and the
    seconds its moves took (0 when ``bench`` does not say)."""
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
    if redis is not None:
        command += ["--redis", redis]
    if last:
        command += ["--last", f"{last:.3f}"]
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
    took = MOVES_TOOK.search(done.stdout)
    return int(found.group(1)), float(took.group(1)) if took else 0.0


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
        redis_figures: dict[str, float] = {}
        for kind in kinds:
            name = kind or bench
            counts: dict[int, int] = {}
            redis_counts: dict[int, int] = {}
            last = 0.0
            for actions in (args.many, args.few):  # the longer first: the shorter lasts as long
                print(f"{name}: counting {actions} actions ...", flush=True)
                out = folder / f"callgrind.{name}.{actions}"
                if kind in ("same", "both"):
                    redis_out = folder / f"callgrind.{name}.{actions}.redis"
                    redis, url, log = counted_redis(redis_out)
                    try:
                        counts[actions], took = count(
                            bench, kind, args.rooms, actions, out, url, last
                        )
                    finally:
                        redis_counts[actions] = stop_redis(redis, url, log, redis_out)
                else:
                    counts[actions], took = count(bench, kind, args.rooms, actions, out, None, last)
                last = last or took
            more = args.many - args.few
            figures[name] = (counts[args.many] - counts[args.few]) / more
            if redis_counts:
                redis_figures[name] = (redis_counts[args.many] - redis_counts[args.few]) / more
    first_name, first = next(iter(figures.items()))
    first += redis_figures.get(first_name, 0.0)
    for name, per_action in figures.items():
        whole = per_action + redis_figures.get(name, 0.0)
        ratio = f" = {whole / first:.2f}x {first_name}" if len(figures) > 1 else ""
        redis_text = (
            f" (the node {per_action:,.0f} + redis-server {redis_figures[name]:,.0f})"
            if name in redis_figures
            else ""
        )
        print(f"{name:>12}: {whole:,.0f} instructions per action{ratio}{redis_text}")


if __name__ == "__main__":
    main()
