"""Load benchmark: many concurrent rooms of random players against a real Muggins server.

Starts the server in a child process (so its CPU and memory can be read from /proc), opens
``--games`` rooms of two socket clients spread over worker processes, lets them play at human
pace (each player moves ``--pace`` seconds after it is waited for, +/-50 % jitter) or flat out,
and prints completed actions per second, action round trip p50/p90/p99/max, errors, server CPU
microseconds per action and server RSS per connected player. In the same run it drives a bare
``websockets`` JSON echo server (bench/echo.py) flat out and prints Muggins' CPU per action as
a ratio of the echo's CPU per round trip: the headline, since absolute figures drift.

    python bench/load.py --flat-out --games 50 --seconds 20
    python bench/load.py --games 1000,2000 --pace 5 --seconds 60
    python bench/load.py --url ws://HOST:PORT --games 100      # no server CPU/RSS figures
    python bench/load.py --games 200 --pace 1 --profile        # py-spy profile of the server
    python bench/load.py --cluster 3 --spread same,both --flat-out --games 50   # per move
    python bench/load.py --cluster 3 --idle --games 1000 --seconds 20           # idle players
    python bench/load.py --cluster 3 --spread both --games 3000 --pace 5        # capacity
    python bench/load.py --cluster 2 --spread shared --flat-out --games 150     # --procs 2

``--cluster N`` starts its own ``redis-server`` on a free port and N server nodes on it, and
puts each room's two players on one node (``--spread same``), on two (``--spread both``), or
the guest on another node naming the room, which sends it on to the room's owner, the host's
node (``--spread owner``: the nodes run ``--node-url``, the guest follows close code 4001);
or both players on one port the nodes share with ``SO_REUSEPORT``, as the processes of
``muggins serve --procs N`` do (``--spread shared``: each node also on its own port, given as
its ``--node-url``; a guest landing on a process that does not own the room follows 4001); it
runs one plain in-memory server first (``--no-plain`` skips it; ``--plain-store sqlite``
keeps the plain server's games in a fresh SQLite file, as ``muggins serve`` does by default, and
``--plain-store memory,sqlite`` runs both) and prints the cluster's CPU per action as a ratio of
each plain server's, all nodes together and node by node.
``--idle`` seats the rooms and never moves: it prints each server's CPU per second per
connected player.

This file is the command line; one run is :mod:`load_run`, the servers it starts are
:mod:`load_servers`, its figures :mod:`load_report`, the players :mod:`fleet`, and the
processes' counters :mod:`processes`.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from fleet import raise_nofile
from load_report import compare, machine
from load_run import run_load
from load_servers import run_echo, serve_child


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["_serve"]:
        return serve_child(argv[1:])
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--games", default="100", help="rooms, or a list to sweep: 1000,2000,5000")
    parser.add_argument("--pace", type=float, default=5.0, help="seconds per move (0: flat out)")
    parser.add_argument("--flat-out", action="store_true", help="same as --pace 0")
    parser.add_argument("--seconds", type=float, default=30.0, help="the measured window")
    parser.add_argument("--warmup", type=float, help="play before measuring (default: by pace)")
    parser.add_argument("--target", type=int, choices=(61, 121), default=121)
    parser.add_argument(
        "--procs", type=int, help="client processes (default: 1 per 10,000 sockets, at most 4)"
    )
    parser.add_argument("--url", help="target a running server (no server CPU or RSS figures)")
    parser.add_argument("--uvloop", action="store_true", help="server, echo and clients on uvloop")
    parser.add_argument(
        "--deflate", action="store_true", help="permessage-deflate on (the server turns it off)"
    )
    parser.add_argument(
        "--gc-every",
        type=float,
        metavar="SECONDS",
        help="the server collects its young generation every SECONDS (muggins serve: 0.25; "
        "server/runtime/collector.py)",
    )
    parser.add_argument(
        "--gc-young",
        type=int,
        metavar="N",
        help="the server collects on CPython's count-based schedule with this first threshold, "
        "not on muggins serve's clock (muggins serve before 2026-11-24: 20,000; CPython: 700)",
    )
    parser.add_argument(
        "--gc-freeze",
        action="store_true",
        help="gc.freeze() in the server once all rooms are seated (to measure collector pauses)",
    )
    parser.add_argument("--echo-connections", type=int, default=100)
    parser.add_argument("--echo-seconds", type=float, default=10.0)
    parser.add_argument("--no-echo", action="store_true", help="skip the echo baseline")
    parser.add_argument(
        "--abuse",
        type=int,
        default=0,
        metavar="K",
        help="after the window, measure another with K flooders and K slow readers",
    )
    parser.add_argument("--profile", action="store_true", help="py-spy the server in the window")
    parser.add_argument("--profile-out", type=Path, default=Path("load-profile.txt"))
    parser.add_argument("--profile-rate", type=int, default=100, help="py-spy samples a second")
    parser.add_argument(
        "--calls",
        metavar="DIR",
        help="cProfile each server in the window (its CPU figures then include the profiler): "
        "DIR/plain.prof, DIR/SPREAD-nodeK.prof, and each run's action count beside them",
    )
    parser.add_argument("--ramp-timeout", type=float, default=900.0)
    parser.add_argument("--json", type=Path, help="also write every figure to this file")
    parser.add_argument(
        "--cluster", type=int, default=0, metavar="N", help="N nodes on a fresh redis-server"
    )
    parser.add_argument(
        "--spread",
        default="both",
        help="cluster: each room's players on one node (same), on two (both), the guest sent on "
        "to the room's owner by the node it reached (owner: both nodes run --node-url), both "
        "players on one port the nodes share as the processes of muggins serve --procs do "
        "(shared: SO_REUSEPORT, a guest on the wrong process sent on with 4001), every room's "
        "players on the first node and the others idle (one: the cluster's work per move "
        "without spreading it over processes), or a list",
    )
    parser.add_argument("--no-plain", action="store_true", help="cluster: skip the plain run")
    parser.add_argument(
        "--plain-store",
        default="memory",
        help="the plain server keeps its games in memory (as before), in a fresh SQLite file "
        "(sqlite: what `muggins serve` does by default), or a list: memory,sqlite",
    )
    parser.add_argument(
        "--redis-batch-ms",
        default="0",
        metavar="MS",
        help="cluster: each node holds its writes to Redis up to MS milliseconds to send them "
        "together (muggins serve --redis-batch-ms), or a list run one after the other: 0,5",
    )
    parser.add_argument(
        "--redis-fsync",
        default="always",
        metavar="POLICY",
        help="cluster: the Redis append-only file's appendfsync, or a list run one after the "
        "other: always (the default, what docker/compose.yaml runs: synced before each "
        "acknowledgement, survives a power cut), no (written before each acknowledgement and "
        "never postponed, synced by the kernel: survives a kill of Redis, not a power cut, as "
        "the plain server's SQLite in WAL mode with synchronous=NORMAL), everysec (synced "
        "once a second; a slow sync may postpone the write past the acknowledgement)",
    )
    parser.add_argument(
        "--redis-via",
        default="tcp",
        metavar="HOW",
        help="cluster: the nodes reach Redis by tcp (127.0.0.1) or its unix socket (as a "
        "node on Redis's own machine may: muggins serve --redis unix:///path), or a list run "
        "one after the other: tcp,unix",
    )
    parser.add_argument(
        "--postgres",
        action="store_true",
        help="cluster: nodes move finished games to a fresh PostgreSQL (initdb in a temporary "
        "folder), whose CPU is reported",
    )
    parser.add_argument(
        "--sweep-interval",
        type=float,
        default=30.0,
        metavar="SECONDS",
        help="cluster: the nodes' sweep for idle rooms, unsettled matches and (with --postgres) "
        "finished games to move (muggins serve --sweep-interval; default its 30 s; each sweep "
        "reads every open room)",
    )
    parser.add_argument(
        "--idle", action="store_true", help="seat the rooms and never move: CPU per idle player"
    )
    args = parser.parse_args(argv)
    if args.flat_out:
        args.pace = 0.0
    limit = raise_nofile()
    info = machine()
    print(
        f"{info['date']}: {info['cores']} cores ({info['cpu']}), Python {info['python']}, "
        f"websockets {info['websockets']}, open-files limit {limit}, "
        f"load average {os.getloadavg()[0]:.1f}" + (", uvloop" if args.uvloop else ""),
        flush=True,
    )
    if args.calls is not None:
        Path(args.calls).mkdir(parents=True, exist_ok=True)
    echo_figures = None if args.no_echo else run_echo(args)
    runs = []
    stores = args.plain_store.split(",")
    if not set(stores) <= {"memory", "sqlite"}:
        parser.error(f"--plain-store: memory, sqlite or both, not {args.plain_store!r}")
    fsyncs = args.redis_fsync.split(",")
    if not set(fsyncs) <= {"always", "everysec", "no"}:
        parser.error(f"--redis-fsync: always, everysec, no or a list, not {args.redis_fsync!r}")
    vias = args.redis_via.split(",")
    if not set(vias) <= {"tcp", "unix"}:
        parser.error(f"--redis-via: tcp, unix or both, not {args.redis_via!r}")
    try:
        batches = [float(ms) for ms in args.redis_batch_ms.split(",")]
    except ValueError:
        parser.error(f"--redis-batch-ms: milliseconds or a list, not {args.redis_batch_ms!r}")
    if not all(0 <= ms <= 100 for ms in batches):
        parser.error(f"--redis-batch-ms: from 0 to 100 ms, not {args.redis_batch_ms!r}")
    for n in args.games.split(","):
        plains = []
        if not args.cluster or not args.no_plain:
            for store in stores:
                plains.append(run_load(args, int(n), echo_figures, store=store))
            runs.extend(plains)
        for spread in args.spread.split(",") if args.cluster else ():
            for fsync, batch, via in itertools.product(fsyncs, batches, vias):
                figures = run_load(
                    args,
                    int(n),
                    echo_figures,
                    cluster=args.cluster,
                    spread=spread,
                    fsync=fsync,
                    batch=batch,
                    via=via,
                )
                runs.append(figures)
                for plain in plains:
                    compare(plain, figures)
    if args.json:
        report = {"machine": info, "echo": echo_figures, "runs": runs, "argv": argv}
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
