"""One load run: start the servers, seat the rooms' players in worker processes, warm up, then
measure a window (and, with ``--abuse``, a second one under abuse) and collect the figures.

The players are :mod:`fleet`'s, one :class:`~fleet.Fleet` per worker process; the workers
report their ramp and progress, and at the end their round trips, over one queue.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import multiprocessing as mp
import os
import queue as queue_module
import signal
import subprocess
import time
from array import array
from collections import Counter
from pathlib import Path
from typing import Any

from abusers import abuse_main
from fleet import Plan, percentile, worker_main
from load_report import Reading, add_server_figures, print_figures, read_counters
from load_servers import gc_in_window, start_servers
from processes import cpu_seconds, rss_bytes, stop_child
from profiles import profile_paths, profile_server, summarise_profile


def run_load(
    args: argparse.Namespace,
    rooms: int,
    echo_figures: dict[str, Any] | None,
    *,
    cluster: int = 0,
    spread: str = "same",
    store: str = "memory",
    fsync: str = "always",
    batch: float = 0.0,
    via: str = "tcp",
) -> dict[str, Any]:
    """One run against a plain server (``cluster`` 0) or ``cluster`` nodes on a fresh Redis
    (its ``appendfsync`` set to ``fsync``, the nodes holding their writes ``batch`` ms and
    reaching it ``via`` TCP or its Unix socket); a plain server keeps its games in memory or
    (``store`` "sqlite") in a fresh SQLite file."""
    with contextlib.ExitStack() as stack:
        return _run_load(
            args,
            rooms,
            echo_figures,
            stack,
            cluster=cluster,
            spread=spread,
            store=store,
            fsync=fsync,
            batch=batch,
            via=via,
        )


def _run_load(
    args: argparse.Namespace,
    rooms: int,
    echo_figures: dict[str, Any] | None,
    stack: contextlib.ExitStack,
    *,
    cluster: int,
    spread: str,
    store: str = "memory",
    fsync: str = "always",
    batch: float = 0.0,
    via: str = "tcp",
) -> dict[str, Any]:
    flat = args.pace <= 0
    label = spread if cluster else "plain" if store == "memory" else "plain-sqlite"
    servers = start_servers(
        args,
        stack,
        cluster=cluster,
        spread=spread,
        store=store,
        fsync=fsync,
        batch=batch,
        via=via,
        label=label,
    )
    children, redis, url = servers.children, servers.redis, servers.url
    child = children[0] if children else None
    pids = [c.pid for c in children]
    players = rooms * 2
    procs = args.procs or max(1, min(4, math.ceil(players / 10000)))
    mode = "flat out" if flat else f"human pace, a move every {args.pace:g} s ±50 %"
    if args.idle:
        mode = "idle (seated, never moving)"
    where = "one plain server (in memory)" if store == "memory" else "one plain server (SQLite)"
    if cluster:
        both = {
            "both": "on two nodes",
            "owner": "sent on to its owner",
            "one": "on the first node (the others idle)",
            "shared": "on one shared port (SO_REUSEPORT), a guest landing on a process that "
            "does not own the room sent on to its owner",
        }.get(spread, "on one node")
        where = (
            f"{cluster} cluster nodes on Redis (appendfsync {fsync}), each room's players {both}"
        )
        if batch:
            where += f", each node holding its writes {batch:g} ms"
    print(
        f"\n{rooms:,} rooms ({players:,} sockets), {mode}, {procs} client process(es), {where}",
        flush=True,
    )
    ctx = mp.get_context("fork")
    channel: Any = ctx.Queue()
    go, count, stop = ctx.Event(), ctx.Event(), ctx.Event()
    shares = [rooms // procs + (i < rooms % procs) for i in range(procs)]
    workers = []
    for worker, share in enumerate(shares):
        plan = Plan(
            url=url,
            rooms=share,
            pace=max(args.pace, 0.0),
            target=args.target,
            seed=worker,
            deflate=args.deflate,
            host_urls=servers.host_urls,
            guest_urls=servers.guest_urls,
            idle=args.idle,
            route=spread in ("owner", "shared"),
        )
        process = ctx.Process(
            target=worker_main, args=(plan, worker, channel, go, count, stop, args.uvloop)
        )
        process.start()
        workers.append(process)
    started = time.perf_counter()
    connected = [0] * procs
    ready: dict[int, tuple[int, dict[str, int]]] = {}
    last_print = 0.0
    while len(ready) < procs:
        try:
            message = channel.get(timeout=1.0)
        except queue_module.Empty:
            message = None
        if message and message[0] == "ramp":
            connected[message[1]] = message[2]
        elif message and message[0] == "ready":
            connected[message[1]] = message[2]
            ready[message[1]] = (message[2], message[3])
        if time.perf_counter() - last_print > 2:
            last_print = time.perf_counter()
            print(
                f"  ramp {time.perf_counter() - started:5.0f} s: "
                f"{sum(connected):,}/{players:,} players seated",
                flush=True,
            )
        if time.perf_counter() - started > args.ramp_timeout:
            raise SystemExit(f"the ramp did not finish in {args.ramp_timeout:g} s")
    seated = sum(n for n, _ in ready.values())
    setup_failures: Counter[str] = Counter()
    for _, failures in ready.values():
        setup_failures.update(failures)
    ramp_seconds = time.perf_counter() - started
    print(f"  all seated in {ramp_seconds:.0f} s: {seated:,} players", flush=True)
    if not seated:
        for process in workers:
            process.terminate()
        for server_child in children:
            stop_child(server_child)
        why = "; ".join(f"{n} x {failure}" for failure, n in setup_failures.most_common(3))
        raise SystemExit(f"no player could be seated ({why or 'no failure reported'})")
    if args.gc_freeze and child is not None:
        child.send_signal(signal.SIGUSR1)
    warmup = args.warmup if args.warmup is not None else (2.0 if flat else min(args.pace * 1.5, 10))
    go.set()
    _pump_progress(channel, warmup, "warm-up", None)
    rss_ready = sum(rss_bytes(p) for p in pids)

    def read() -> Reading:
        return read_counters(
            pids,
            redis=redis.pid if redis is not None else None,
            redis_url=servers.redis_url,
            postgres=servers.postgres_pid,
            clients=[p.pid for p in workers if p.pid],
        )

    start = read()
    t0, window_start = time.perf_counter(), time.time()
    spies: list[subprocess.Popen[bytes] | None] = []
    profiles = profile_paths(args.profile_out, len(children), spread) if args.profile else []
    for pid, out in zip(pids, profiles, strict=False):
        spies.append(profile_server(pid, args.seconds, out, args.profile_rate))
    if args.calls is not None:
        for node in children:
            node.send_signal(signal.SIGUSR2)
    count.set()
    _pump_progress(channel, args.seconds, "measure", (pids, t0, sum(start.node_cpu)))
    if args.calls is not None:
        for node in children:
            node.send_signal(signal.SIGUSR2)
    end = read()
    wall = time.perf_counter() - t0
    window_end = time.time()
    rss_end = sum(rss_bytes(p) for p in pids)
    abuse_end = window_end
    if args.abuse:
        print(f"  now with {args.abuse} flooders and {args.abuse} slow readers:", flush=True)
        abuse_stop = ctx.Event()
        abuser = ctx.Process(target=abuse_main, args=(url, args.abuse, abuse_stop, channel))
        abuser.start()
        server = (pids, time.perf_counter(), sum(cpu_seconds(p) for p in pids)) if pids else None
        _pump_progress(channel, args.seconds, "abused", server)
        abuse_stop.set()
        abuse_end = time.time()
    stop.set()
    results: dict[int, dict[str, Any]] = {}
    abuse: tuple[int, int] | None = None
    while len(results) < procs or (args.abuse and abuse is None):
        message = channel.get(timeout=120)
        if message[0] == "done":
            results[message[1]] = message[2]
        elif message[0] == "abuse":
            abuse = (message[1], message[2])
    for process in workers:
        process.join(30)
    for spy in spies:
        if spy is not None:
            spy.wait(60)
    gc_figures = None
    for other in children[1:]:
        stop_child(other)
    if child is not None:
        base_objects = 0
        for line in stop_child(child).splitlines():
            if line.startswith("objects "):
                base_objects = int(line.split()[1])
            if line.startswith("gc "):
                gc_figures = json.loads(line[3:])
                per_node = seated / len(children)
                gc_figures["objects_per_player"] = (gc_figures["objects"] - base_objects) / per_node
                pauses = gc_figures.pop("pauses")
                gc_figures["window"] = gc_in_window(pauses, window_start, window_end)
    pairs = array("d")
    refused: Counter[str] = Counter()
    for result in results.values():
        pairs.frombytes(result["latencies"])
        refused.update(result["refused"])
    clean = sorted(ms for at, ms in zip(pairs[::2], pairs[1::2], strict=True) if at < window_end)
    abused = sorted(
        ms for at, ms in zip(pairs[::2], pairs[1::2], strict=True) if window_end <= at < abuse_end
    )
    lat = clean
    actions = len(lat)
    figures: dict[str, Any] = {
        "rooms": rooms,
        "players": seated,
        "mode": "idle" if args.idle else "flat-out" if flat else f"pace {args.pace:g} s",
        "client_processes": procs,
        "ramp_s": ramp_seconds,
        "window_s": wall,
        "actions": actions,
        "actions_per_s": actions / wall,
        "p50_ms": percentile(lat, 0.5),
        "p90_ms": percentile(lat, 0.9),
        "p99_ms": percentile(lat, 0.99),
        "max_ms": lat[-1] if lat else float("nan"),
        "errors": sum(r["errors"] for r in results.values()),
        "refused": dict(refused),
        "dropped": sum(r["dropped"] for r in results.values()),
        "setup_failures": dict(setup_failures),
        "games_finished": sum(r["games"] for r in results.values()),
        "bytes_per_action": sum(r["bytes"] for r in results.values())
        / max(1, sum(r["actions"] for r in results.values())),
        "frames_per_action": sum(r["frames"] for r in results.values())
        / max(1, sum(r["actions"] for r in results.values())),
        "client_cpu_percent": (end.client_cpu - start.client_cpu) / wall * 100,
        "loadavg_1min": os.getloadavg()[0],
        "server_gc": gc_figures,
    }
    if args.abuse and abuse is not None:
        figures["abuse"] = {
            "flooders": args.abuse,
            "slow_readers": args.abuse,
            "flooder_disconnects": abuse[0],
            "slow_reader_disconnects": abuse[1],
            "actions": len(abused),
            "p50_ms": percentile(abused, 0.5),
            "p99_ms": percentile(abused, 0.99),
            "p99_rise_percent": (percentile(abused, 0.99) / figures["p99_ms"] - 1) * 100,
        }
    figures["cluster_nodes"] = cluster
    if args.calls is not None:
        name = f"{label}-actions.txt"
        (Path(args.calls) / name).write_text(f"{actions}\n")
    figures["spread"] = spread if cluster else None
    figures["redis_fsync"] = fsync if cluster else None
    figures["redis_batch_ms"] = batch if cluster else None
    figures["redis_via"] = via if cluster else None
    figures["store"] = "redis" if cluster else store
    if child is not None:
        add_server_figures(
            figures,
            start,
            end,
            redis=redis is not None,
            postgres=servers.postgres_pid is not None,
            rss=(servers.base_rss, rss_ready, rss_end),
            echo=echo_figures,
        )
    print_figures(figures)
    for spy, out in zip(spies, profiles, strict=False):
        if spy is not None and out.exists():
            print(f"  server profile ({out}):")
            for line in summarise_profile(out):
                print("  " + line)
    return figures


def _pump_progress(channel: Any, seconds: float, label: str, server: Any) -> None:
    """Show the workers' progress once a second for ``seconds``."""
    end = time.perf_counter() + seconds
    latest: dict[int, tuple[Any, ...]] = {}
    last_cpu = server[2] if server else 0.0
    last_time = time.perf_counter()
    while time.perf_counter() < end:
        deadline = time.perf_counter() + 1.0
        while time.perf_counter() < min(deadline, end):
            try:
                message = channel.get(timeout=max(0.01, min(deadline, end) - time.perf_counter()))
            except queue_module.Empty:
                continue
            if message[0] == "progress":
                latest[message[1]] = message
        if not latest and not server:
            continue
        actions = sum(m[2] for m in latest.values()) if latest else 0
        errors = sum(m[3] for m in latest.values())
        dropped = sum(m[4] for m in latest.values())
        recent = [m[5] for m in latest.values() if not math.isnan(m[5])]
        cpu_text = ""
        if server and server[0]:
            now_cpu, now = sum(cpu_seconds(p) for p in server[0]), time.perf_counter()
            cpu_text = f", server CPU {(now_cpu - last_cpu) / (now - last_time):4.0%}"
            last_cpu, last_time = now_cpu, now
        p99 = f"{max(recent):6.1f}" if recent else "     -"
        print(
            f"  {label} {seconds - (end - time.perf_counter()):4.0f} s: "
            f"{actions:,} actions, p99 last second {p99} ms, errors {errors}, "
            f"dropped {dropped}{cpu_text}",
            flush=True,
        )
