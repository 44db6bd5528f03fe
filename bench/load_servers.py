"""The servers a load run measures: the Muggins server child (``load.py _serve``) with its
garbage collections, the Redis and PostgreSQL of a cluster, and the echo baseline.

A child is started by the run and reports through its output: ``listening PORT`` first, then at
the end (SIGTERM) every collection it made, so the run can count those inside its window.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import json
import signal
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import echo
from fleet import percentile, raise_nofile
from processes import (
    cpu_seconds,
    free_port,
    kill_and_wait,
    rss_bytes,
    start_child,
    start_redis,
    stop_child,
    system_seconds,
)
from profiles import calls_path

HERE = Path(__file__).resolve().parent


def serve_child(argv: list[str]) -> int:
    """``load.py _serve [--uvloop] [--unlimited]``: an in-memory server on a free port."""
    parser = argparse.ArgumentParser(prog="load.py _serve")
    parser.add_argument("--uvloop", action="store_true")
    parser.add_argument("--unlimited", action="store_true", help="lift the rate limit")
    parser.add_argument("--deflate", action="store_true", help="offer permessage-deflate")
    parser.add_argument("--gc-freeze", action="store_true", help="gc.freeze() on SIGUSR1")
    parser.add_argument("--gc-young", type=int, help="allocations between young collections")
    parser.add_argument("--gc-every", type=float, help="young collections every SECONDS")
    parser.add_argument("--redis", help="a cluster node on this Redis URL (not in memory)")
    parser.add_argument("--postgres", help="with --redis: move finished games to this PostgreSQL")
    parser.add_argument("--sweep-interval", type=float, default=30.0)
    parser.add_argument("--redis-batch-ms", type=float, default=0.0)
    parser.add_argument("--db", help="a plain server keeping its games in this SQLite file")
    parser.add_argument("--calls", help="cProfile between two SIGUSR2s, written to this file")
    parser.add_argument("--port", type=int, default=0)
    parser.add_argument("--node-url", help="cluster: where other nodes send this node's rooms")
    parser.add_argument(
        "--shared-port", type=int, help="cluster: also listen here with the machine's other "
        "processes (SO_REUSEPORT, as muggins serve --procs); --port is then this one's own"
    )  # fmt: skip
    args = parser.parse_args(argv)
    raise_nofile()
    pauses = track_gc()
    if args.deflate:  # the server turns compression off; undo that to measure what it costs
        from websockets.asyncio.server import serve

        import muggins.server.app as app_module

        def deflating(*positional: Any, **options: Any) -> Any:
            return serve(*positional, **{**options, "compression": "deflate"})

        # The module's namespace: the server looks ws_serve up there each time it listens.
        vars(app_module)["ws_serve"] = deflating
    from muggins.server.app import running_server
    from muggins.server.config import ServerConfig

    if args.redis:
        config = ServerConfig(
            port=args.shared_port or args.port,
            reuse_port=bool(args.shared_port),
            own_port=args.port if args.shared_port else None,
            node_url=args.node_url,
            redis=args.redis,
            postgres=args.postgres,
            sweep_interval=args.sweep_interval,
            redis_batch_ms=args.redis_batch_ms,
        )
    elif args.db:
        config = ServerConfig(port=0, db=Path(args.db))
    else:
        config = ServerConfig(port=0, memory=True)
    # Every simulated player connects from this machine: lift the per-address limits.
    config = replace(
        config,
        max_connections=10**6,
        max_per_address=10**6,
        max_rooms=10**6,
        rooms_per_minute=1e9,
        rooms_per_minute_per_address=1e9,
        registrations_per_hour=1e9,
        reads_per_second=1e9,
    )
    if args.unlimited:
        config = replace(config, rate=1e9, burst=10**9)

    async def main() -> None:
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        loop.add_signal_handler(signal.SIGTERM, stop.set)
        if args.gc_freeze:
            loop.add_signal_handler(signal.SIGUSR1, gc.freeze)
        if args.gc_young:
            # CPython's own schedule, with this first threshold (muggins serve until
            # 2026-11-24: 20,000), instead of the server's collections on a clock.
            gc.set_threshold(args.gc_young, *gc.get_threshold()[1:])
        else:
            from muggins.server.runtime.collector import Collector

            kwargs = {"young_every": args.gc_every} if args.gc_every else {}
            collector = Collector(**kwargs)  # as muggins serve does
            collector.start()
        if args.calls:
            import cProfile

            profiler = cProfile.Profile(time.thread_time)  # CPU, not the wall
            on = [False]

            def toggle() -> None:
                if on[0]:
                    profiler.disable()
                    profiler.dump_stats(args.calls)
                else:
                    profiler.enable()
                on[0] = not on[0]

            loop.add_signal_handler(signal.SIGUSR2, toggle)
        async with running_server(config) as server:
            print(f"listening {server.port}", flush=True)
            print(f"objects {len(gc.get_objects())}", flush=True)
            await stop.wait()
            print("gc " + json.dumps(gc_summary(pauses)), flush=True)

    if args.uvloop:
        import uvloop

        uvloop.run(main())
    else:
        asyncio.run(main())
    return 0


def track_gc() -> list[tuple[int, float, float]]:
    """Record (generation, seconds, wall-clock start) of every garbage collection from now on."""
    pauses: list[tuple[int, float, float]] = []
    started = [0.0, 0.0]

    def callback(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            started[0], started[1] = time.perf_counter(), time.time()
        else:
            pauses.append((info["generation"], time.perf_counter() - started[0], started[1]))

    gc.callbacks.append(callback)
    return pauses


def gc_summary(pauses: list[tuple[int, float, float]]) -> dict[str, Any]:
    """The collections so far, plus the objects tracked now and the CPU one full pass takes."""
    full = sorted(seconds for generation, seconds, _ in pauses if generation == 2)
    tracked = gc.get_objects()
    objects = len(tracked)
    kinds = Counter(type(thing).__name__ for thing in tracked).most_common(8)
    del tracked
    started = time.process_time()
    found = gc.collect()
    return {
        "full_pass_found": found,
        "objects": objects,
        "commonest": kinds,
        "full_pass_cpu_ms": (time.process_time() - started) * 1000,
        "collections": len(pauses),
        "full_collections": len(full),
        "full_max_ms": (full[-1] if full else 0.0) * 1000,
        "total_ms": sum(seconds for _, seconds, _ in pauses) * 1000,
        "pauses": [(generation, at, seconds * 1000) for generation, seconds, at in pauses],
    }


def gc_in_window(pauses: list[list[float]], start: float, end: float) -> dict[str, Any]:
    """Collections that started in the measured window: count, total and longest by generation."""
    figures: dict[str, Any] = {}
    for generation in (0, 1, 2):
        ms = [p[2] for p in pauses if p[0] == generation and start <= p[1] < end]
        figures[f"gen{generation}"] = {
            "count": len(ms),
            "total_ms": sum(ms),
            "max_ms": max(ms, default=0.0),
        }
    figures["share_of_window"] = sum(g["total_ms"] for g in figures.values()) / (end - start) / 1e3
    return figures


@dataclass
class Servers:
    """The servers a run started (none against ``--url``), and where its players connect."""

    url: str
    children: list[subprocess.Popen[str]] = field(default_factory=list)
    """The Muggins server children: the plain server, or the cluster's nodes."""
    redis: subprocess.Popen[bytes] | None = None
    redis_url: str = ""
    postgres_pid: int | None = None
    host_urls: tuple[str, ...] = ()
    guest_urls: tuple[str, ...] = ()
    base_rss: int = 0
    """The children's memory once started, before any player came."""


def start_servers(
    args: argparse.Namespace,
    stack: contextlib.ExitStack,
    *,
    cluster: int,
    spread: str,
    store: str,
    fsync: str,
    batch: float,
    via: str,
    label: str,
) -> Servers:
    """Start what one run measures: a plain server (``cluster`` 0, its games in memory or in a
    fresh SQLite file) or ``cluster`` nodes on a fresh Redis, with PostgreSQL if ``--postgres``;
    nothing against ``--url``. Redis, PostgreSQL and the folders go on ``stack``; the run stops
    the children itself (each prints its collections as it stops)."""
    if args.url is not None:
        return Servers(url=args.url)
    flat = args.pace <= 0
    redis: subprocess.Popen[bytes] | None = None
    redis_url = ""
    postgres_pid: int | None = None
    command = [sys.executable, str(HERE / "load.py"), "_serve"]
    command += ["--uvloop"] * args.uvloop + ["--unlimited"] * flat
    command += ["--deflate"] * args.deflate + ["--gc-freeze"] * args.gc_freeze
    command += ["--gc-young", str(args.gc_young)] if args.gc_young else []
    command += ["--gc-every", str(args.gc_every)] if args.gc_every else []
    if cluster:
        directory = stack.enter_context(tempfile.TemporaryDirectory(prefix="load-redis-"))
        redis, redis_url = start_redis(directory, fsync, unix=via == "unix")
        stack.callback(kill_and_wait, redis)
        command += ["--redis", redis_url, "--redis-batch-ms", f"{batch:g}"]
        if args.postgres:
            sys.path.insert(0, str(HERE.parent / "tests" / "server"))
            from pg_helpers import running_postgres

            postgres = stack.enter_context(running_postgres())
            postgres_pid = postgres.pid()
            command += ["--postgres", postgres.url]
        command += ["--sweep-interval", f"{args.sweep_interval:g}"]
    elif store == "sqlite":
        directory = stack.enter_context(tempfile.TemporaryDirectory(prefix="load-sqlite-"))
        command += ["--db", str(Path(directory) / "games.db")]
    children: list[subprocess.Popen[str]] = []
    urls = []
    shared_port = free_port()
    for k in range(max(1, cluster)):
        calls = [] if args.calls is None else ["--calls", str(calls_path(args, cluster, label, k))]
        if spread == "owner":  # each node told its own address, for 4001 to name
            port = free_port()
            calls += ["--port", str(port), "--node-url", f"ws://127.0.0.1:{port}"]
        if spread == "shared":  # the processes of one machine (muggins serve --procs)
            port = free_port()
            calls += ["--port", str(port), "--node-url", f"ws://127.0.0.1:{port}"]
            calls += ["--shared-port", str(shared_port)]
        node, port = start_child(command + calls)
        children.append(node)
        urls.append(f"ws://127.0.0.1:{port}")
    url = urls[0]
    # "one": every room on the first node, the others idle (the cluster's work per move
    # without the cost of spreading it over processes that share the machine's cores).
    host_urls = tuple(urls[:1] if spread in ("shared", "one") else urls)
    # "owner": the guest goes to another node naming the room, which sends it to the owner.
    guest_urls = (
        host_urls if spread in ("same", "shared", "one") else (*host_urls[1:], *host_urls[:1])
    )
    time.sleep(1.0)
    return Servers(
        url=url,
        children=children,
        redis=redis,
        redis_url=redis_url,
        postgres_pid=postgres_pid,
        host_urls=host_urls,
        guest_urls=guest_urls,
        base_rss=sum(rss_bytes(c.pid) for c in children),
    )


def run_echo(args: argparse.Namespace) -> dict[str, Any]:
    command = [sys.executable, str(HERE / "echo.py"), "serve"]
    if args.uvloop:
        command.append("--uvloop")
    child, port = start_child(command)
    marks: dict[str, float] = {}

    def mark(name: str) -> None:
        marks[f"{name}_cpu"] = cpu_seconds(child.pid)
        marks[f"{name}_sys"] = system_seconds(child.pid)
        marks[f"{name}_time"] = time.perf_counter()

    print(
        f"echo baseline: {args.echo_connections} sockets flat out for {args.echo_seconds:g} s ...",
        flush=True,
    )
    try:
        result = asyncio.run(
            echo.drive(
                f"ws://127.0.0.1:{port}",
                connections=args.echo_connections,
                seconds=args.echo_seconds,
                on_start=lambda: mark("start"),
                on_end=lambda: mark("end"),
            )
        )
    finally:
        stop_child(child)
    trips = result["round_trips"]
    cpu = marks["end_cpu"] - marks["start_cpu"]
    system = marks["end_sys"] - marks["start_sys"]
    wall = marks["end_time"] - marks["start_time"]
    lat = sorted(result["latencies"])
    figures = {
        "connections": args.echo_connections,
        "round_trips_per_s": trips / wall,
        "cpu_us_per_round_trip": cpu / trips * 1e6 if trips else float("nan"),
        "system_us_per_round_trip": system / trips * 1e6 if trips else float("nan"),
        "server_cpu_percent": cpu / wall * 100,
        "p50_ms": percentile(lat, 0.5),
        "p99_ms": percentile(lat, 0.99),
    }
    print(
        f"  {figures['round_trips_per_s']:,.0f} round trips/s, server CPU "
        f"{figures['cpu_us_per_round_trip']:.1f} µs per round trip "
        f"({figures['system_us_per_round_trip']:.1f} of it in the kernel), "
        f"p50 {figures['p50_ms']:.2f} ms",
        flush=True,
    )
    return figures
