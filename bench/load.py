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
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import math
import multiprocessing as mp
import os
import platform
import queue as queue_module
import signal
import subprocess
import sys
import tempfile
import time
from array import array
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))
import echo
from fleet import Plan, abuse_main, percentile, raise_nofile, worker_main

HERE = Path(__file__).resolve().parent
TICK = os.sysconf("SC_CLK_TCK")


# --- reading a process from /proc ---------------------------------------------------------------


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds of process ``pid`` and its children now running, and of those that ended
    (PostgreSQL's backends are the postmaster's children)."""
    total = 0.0
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(entry.name) == pid or int(fields[1]) == pid:
            ticks = sum(int(v) for v in fields[11 : 15 if int(entry.name) == pid else 13])
            total += ticks / os.sysconf("SC_CLK_TCK")
    return total


def cpu_seconds(pid: int) -> float:
    """User plus system CPU of a process (all its threads) so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def system_seconds(pid: int) -> float:
    """The kernel's part of :func:`cpu_seconds` (system calls: the sockets' sends and receives)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return int(fields[12]) / TICK


def switches(pid: int) -> int:
    """Context switches of a process so far (voluntary, i.e. waits, and involuntary)."""
    total = 0
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(("voluntary_ctxt_switches:", "nonvoluntary_ctxt_switches:")):
            total += int(line.split()[1])
    return total


def rss_bytes(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def start_child(command: list[str]) -> tuple[subprocess.Popen[str], int]:
    """Start a server child that prints ``listening PORT`` first; return it and the port."""
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None
    line = child.stdout.readline()
    if not line.startswith("listening "):
        child.kill()
        raise RuntimeError(f"server child did not start: {line!r}")
    return child, int(line.split()[1])


def kill_and_wait(process: subprocess.Popen[bytes]) -> None:
    process.kill()
    process.wait()


def stop_child(child: subprocess.Popen[str]) -> str:
    """SIGTERM, then whatever the child printed after its first line."""
    child.send_signal(signal.SIGTERM)
    try:
        out, _ = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        out, _ = child.communicate()
    return out or ""


# --- the Muggins server child -------------------------------------------------------------------


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


# --- a redis-server for --cluster ---------------------------------------------------------------


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def start_redis(
    directory: str,
    fsync: str,
    *,
    prefix: Sequence[str] = (),
    extra: Sequence[str] = (),
    wait: float = 10.0,
    unix: bool = False,
) -> tuple[subprocess.Popen[bytes], str]:
    """redis-server on a free port, its append-only file in ``directory``; wait for PING.

    ``prefix`` runs it under another program (bench/instructions.py: callgrind), ``extra`` adds
    arguments, and ``wait`` is how long it may take to answer. With ``unix`` it listens on a
    socket file in ``directory`` too, and the URL returned names that."""
    import socket

    port = free_port()
    command = [
        *prefix,
        "redis-server", "--port", str(port), "--bind", "127.0.0.1", "--dir", directory,
        "--appendonly", "yes", "--appendfsync", fsync, "--save", "", "--daemonize", "no",
        "--loglevel", "warning", "--maxclients", "10000", *extra,
    ]  # fmt: skip
    address = f"redis://127.0.0.1:{port}/0"
    if unix:
        path = Path(directory) / "redis.sock"
        command += ["--unixsocket", str(path), "--unixsocketperm", "700"]
        address = f"unix://{path}?db=0"
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.2) as s:
            s.sendall(b"PING\r\n")
            if s.recv(16).startswith(b"+PONG"):
                return process, address
        time.sleep(0.05)
    process.kill()
    raise RuntimeError(f"redis-server did not answer PING in {wait:g} s")


def redis_commands(url: str) -> tuple[Counter[str], Counter[str]]:
    """Redis's count of each command run so far, and the microseconds it spent in each
    (``INFO commandstats``: the commands its scripts run are counted too, and the script call
    itself as EVALSHA, whose time includes theirs)."""
    import redis as redis_py

    client = redis_py.Redis.from_url(url, decode_responses=True)
    try:
        stats = client.info("commandstats")
    finally:
        client.close()
    calls, usec = Counter[str](), Counter[str]()
    for name, figures in stats.items():
        calls[name.removeprefix("cmdstat_")] = int(figures["calls"])
        usec[name.removeprefix("cmdstat_")] = int(figures["usec"])
    return calls, usec


# --- the echo baseline --------------------------------------------------------------------------


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


# --- one load run -------------------------------------------------------------------------------


def profile_server(
    pid: int, seconds: float, out: Path, rate: int = 100
) -> subprocess.Popen[bytes] | None:
    spy = Path(sys.executable).parent / "py-spy"
    if not spy.exists():
        print("  (no py-spy in this environment: pip install py-spy to profile)", flush=True)
        return None
    command = [str(spy), "record", "--pid", str(pid), "--duration", str(math.ceil(seconds))]
    command += ["--rate", str(rate), "--format", "raw", "--nonblocking", "--output", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def calls_path(args: argparse.Namespace, cluster: int, label: str, node: int) -> Path:
    """Where server ``node``'s call counts go (``--calls DIR``); ``label`` names the run (a
    cluster's spread, or ``plain`` / ``plain-sqlite``)."""
    name = f"{label}-node{node}.prof" if cluster else f"{label}.prof"
    return Path(args.calls) / name


def profile_paths(out: Path, nodes: int, spread: str) -> list[Path]:
    """Where each server's profile goes: ``out`` for one server, ``STEM-SPREAD-nodeK.EXT`` for
    each node of a cluster."""
    if nodes <= 1:
        return [out]
    return [out.with_name(f"{out.stem}-{spread}-node{k}{out.suffix}") for k in range(nodes)]


def summarise_profile(path: Path, top: int = 18) -> list[str]:
    """Self and inclusive shares of the busiest functions in py-spy's collapsed stacks."""
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    total = 0
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack:
            continue
        count = int(count_text)
        frames = [f.split(" (", 1)[0] + " " + _where(f) for f in stack.split(";")]
        if "selectors.py" in frames[-1] or "epoll" in frames[-1].lower():
            frames[-1] = "(idle: waiting in the event loop's poll)"
        total += count
        own[frames[-1]] += count
        for frame in set(frames):
            inclusive[frame] += count
    lines = [f"samples: {total}", "self time:"]
    lines += [f"  {n / total:6.1%}  {name}" for name, n in own.most_common(top)]
    lines.append("inclusive time (project and websockets frames):")
    interesting = [
        (name, n)
        for name, n in inclusive.most_common()
        if any(key in name for key in ("server/", "shared/", "websockets/", "pydantic", "idle"))
    ]
    lines += [f"  {n / total:6.1%}  {name}" for name, n in interesting[:top]]
    return lines


def _where(frame: str) -> str:
    if " (" not in frame:
        return ""
    place = frame.split(" (", 1)[1].rstrip(")")
    for marker in ("site-packages/", "/main/", "lib/python3"):
        if marker in place:
            return "(" + place.split(marker, 1)[1] + ")"
    return "(" + place + ")"


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
    children: list[subprocess.Popen[str]] = []
    redis: subprocess.Popen[bytes] | None = None
    postgres_pid: int | None = None
    url = args.url
    host_urls: tuple[str, ...] = ()
    guest_urls: tuple[str, ...] = ()
    base_rss = 0
    if url is None:
        command = [sys.executable, str(Path(__file__).resolve()), "_serve"]
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
        urls = []
        shared_port = free_port()
        for k in range(max(1, cluster)):
            calls = (
                [] if args.calls is None else ["--calls", str(calls_path(args, cluster, label, k))]
            )
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
        base_rss = sum(rss_bytes(c.pid) for c in children)
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
            host_urls=host_urls,
            guest_urls=guest_urls,
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
    node_cpu0 = [cpu_seconds(p) for p in pids]
    node_switches0 = [switches(p) for p in pids]
    node_system0 = [system_seconds(p) for p in pids]
    switches0 = sum(node_switches0)
    cpu0 = sum(node_cpu0)
    system0 = sum(node_system0)
    redis_cpu0 = cpu_seconds(redis.pid) if redis else 0.0
    redis_calls0, redis_usec0 = redis_commands(redis_url) if redis else (Counter(), Counter())
    postgres_cpu0 = tree_cpu_seconds(postgres_pid) if postgres_pid else 0.0
    client_cpu0 = sum(cpu_seconds(p.pid) for p in workers if p.pid)
    t0, window_start = time.perf_counter(), time.time()
    spies: list[subprocess.Popen[bytes] | None] = []
    profiles = profile_paths(args.profile_out, len(children), spread) if args.profile else []
    for pid, out in zip(pids, profiles, strict=False):
        spies.append(profile_server(pid, args.seconds, out, args.profile_rate))
    if args.calls is not None:
        for node in children:
            node.send_signal(signal.SIGUSR2)
    count.set()
    _pump_progress(channel, args.seconds, "measure", (pids, t0, cpu0))
    if args.calls is not None:
        for node in children:
            node.send_signal(signal.SIGUSR2)
    node_cpu1 = [cpu_seconds(p) for p in pids]
    node_switches1 = [switches(p) for p in pids]
    node_system1 = [system_seconds(p) for p in pids]
    switches1 = sum(node_switches1)
    cpu1 = sum(node_cpu1)
    system1 = sum(node_system1)
    redis_cpu1 = cpu_seconds(redis.pid) if redis else 0.0
    redis_calls, redis_usec = redis_commands(redis_url) if redis else (Counter(), Counter())
    redis_calls, redis_usec = redis_calls - redis_calls0, redis_usec - redis_usec0
    postgres_cpu1 = tree_cpu_seconds(postgres_pid) if postgres_pid else 0.0
    client_cpu1 = sum(cpu_seconds(p.pid) for p in workers if p.pid)
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
        "client_cpu_percent": (client_cpu1 - client_cpu0) / wall * 100,
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
        cpu = cpu1 - cpu0
        figures["server_cpu_percent"] = cpu / wall * 100
        figures["server_cpu_us_per_action"] = cpu / actions * 1e6 if actions else float("nan")
        figures["server_system_us_per_action"] = (
            (system1 - system0) / actions * 1e6 if actions else float("nan")
        )
        figures["server_switches_per_action"] = (
            (switches1 - switches0) / actions if actions else float("nan")
        )
        node_cpu = [b - a for a, b in zip(node_cpu0, node_cpu1, strict=True)]
        figures["node_cpu_percent"] = [c / wall * 100 for c in node_cpu]
        figures["node_cpu_us_per_action"] = [
            c / actions * 1e6 if actions else float("nan") for c in node_cpu
        ]
        # Each node's CPU a second for each player connected to it (idle: the cost of a player).
        per_node = seated / len(children)
        figures["node_cpu_us_per_s_per_player"] = [c / wall / per_node * 1e6 for c in node_cpu]
        figures["server_cpu_us_per_s_per_player"] = cpu / wall / seated * 1e6
        # Wake-ups: each wait in the event loop's poll ends in a context switch.
        figures["node_switches_per_s"] = [
            (b - a) / wall for a, b in zip(node_switches0, node_switches1, strict=True)
        ]
        figures["node_system_us_per_s_per_player"] = [
            (b - a) / wall / per_node * 1e6 for a, b in zip(node_system0, node_system1, strict=True)
        ]
        if redis is not None:
            redis_cpu = redis_cpu1 - redis_cpu0
            figures["redis_cpu_percent"] = redis_cpu / wall * 100
            figures["redis_cpu_us_per_action"] = (
                redis_cpu / actions * 1e6 if actions else float("nan")
            )
            figures["redis_commands_per_action"] = {
                name: n / actions for name, n in redis_calls.most_common() if actions
            }
            figures["redis_evalsha_us_per_action"] = (
                redis_usec["evalsha"] / actions if actions else float("nan")
            )
        if postgres_pid is not None:
            postgres_cpu = postgres_cpu1 - postgres_cpu0
            figures["postgres_cpu_percent"] = postgres_cpu / wall * 100
            figures["postgres_cpu_us_per_action"] = (
                postgres_cpu / actions * 1e6 if actions else float("nan")
            )
        figures["rss_base_mb"] = base_rss / 2**20
        figures["rss_kb_per_player"] = (max(rss_ready, rss_end) - base_rss) / 1024 / seated
        if echo_figures:
            figures["ratio_to_echo"] = (
                figures["server_cpu_us_per_action"] / echo_figures["cpu_us_per_round_trip"]
            )
    _print_figures(figures)
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


def _print_figures(f: dict[str, Any]) -> None:
    print(f"  completed actions: {f['actions']:,} in {f['window_s']:.1f} s", end="")
    print(f" = {f['actions_per_s']:,.0f} actions/s")
    print(
        f"  round trip ms: p50 {f['p50_ms']:.1f}  p90 {f['p90_ms']:.1f}  "
        f"p99 {f['p99_ms']:.1f}  max {f['max_ms']:.1f}"
    )
    print(
        f"  errors {f['errors']} {f['refused'] or ''}  dropped sockets {f['dropped']}  "
        f"setup failures {f['setup_failures'] or 0}  matches finished {f['games_finished']}"
    )
    print(
        f"  server sent {f['bytes_per_action']:,.0f} bytes in "
        f"{f['frames_per_action']:.2f} frames per action (to both players)"
    )
    print(
        f"  load generator CPU {f['client_cpu_percent']:.0f}% (of one core); machine load "
        f"average {f['loadavg_1min']:.1f} on {os.cpu_count()} cores"
    )
    if "server_cpu_us_per_action" in f:
        per_action = (
            f"{f['server_cpu_us_per_action']:.0f} µs per action "
            f"({f['server_system_us_per_action']:.0f} of it in the kernel; "
            f"{f['server_switches_per_action']:.2f} context switches)"
            if f["actions"]
            else "no actions to divide by"
        )
        print(
            f"  server CPU {f['server_cpu_percent']:.0f}% of one core, {per_action}; RSS "
            f"{f['rss_kb_per_player']:.1f} kB per connected player (base {f['rss_base_mb']:.0f} MB)"
        )
    if f.get("cluster_nodes"):
        print(
            "  per node: "
            + ", ".join(
                f"{p:.0f}% CPU" + (f", {u:.0f} µs per action" if f["actions"] else "")
                for p, u in zip(f["node_cpu_percent"], f["node_cpu_us_per_action"], strict=True)
            )
        )
        if "redis_cpu_percent" in f:
            print(
                f"  redis-server CPU {f['redis_cpu_percent']:.0f}% of one core"
                + (f", {f['redis_cpu_us_per_action']:.0f} µs per action" if f["actions"] else "")
            )
        if f.get("redis_commands_per_action"):
            counts = f["redis_commands_per_action"]
            print(
                f"  Redis commands per action {sum(counts.values()):.2f} (scripts' own counted; "
                f"{f['redis_evalsha_us_per_action']:.1f} µs running scripts): "
                + ", ".join(f"{name} {n:.2f}" for name, n in counts.items() if n >= 0.01)
            )
        if "postgres_cpu_percent" in f:
            print(
                f"  PostgreSQL CPU {f['postgres_cpu_percent']:.1f}% of one core"
                + (f", {f['postgres_cpu_us_per_action']:.1f} µs per action" if f["actions"] else "")
            )
    if "server_cpu_us_per_s_per_player" in f and f["mode"] == "idle":
        print(
            f"  idle: {f['server_cpu_us_per_s_per_player']:.1f} µs of server CPU a second per "
            "connected player; per node "
            + ", ".join(f"{u:.1f}" for u in f["node_cpu_us_per_s_per_player"])
            + " (of it in the kernel "
            + ", ".join(f"{u:.1f}" for u in f["node_system_us_per_s_per_player"])
            + "); context switches a second per node "
            + ", ".join(f"{n:.0f}" for n in f["node_switches_per_s"])
        )
    if f.get("server_gc"):
        g = f["server_gc"]
        print(
            f"  server garbage collector, whole run: {g['collections']:,} collections taking "
            f"{g['total_ms']:,.0f} ms, {g['full_collections']} full ones, the longest "
            f"{g['full_max_ms']:,.0f} ms; at the end {g['objects']:,} objects tracked "
            f"({g['objects_per_player']:,.0f} per player), one full pass "
            f"{g['full_pass_cpu_ms']:,.0f} ms of CPU finding {g.get('full_pass_found', 0):,} "
            "unreachable objects"
        )
        w = g["window"]
        print(
            "  collections in the window: "
            + ", ".join(
                f"generation {n}: {w[f'gen{n}']['count']:,}, {w[f'gen{n}']['total_ms']:,.0f} ms, "
                f"longest {w[f'gen{n}']['max_ms']:,.0f} ms"
                for n in (0, 1, 2)
            )
            + f"; {w['share_of_window']:.1%} of the window's wall time"
        )
        print("  commonest tracked objects: " + ", ".join(f"{n:,} {k}" for k, n in g["commonest"]))
    if "abuse" in f:
        a = f["abuse"]
        print(
            f"  under abuse ({a['flooders']} flooders, {a['slow_readers']} slow readers; dropped "
            f"{a['flooder_disconnects']} and {a['slow_reader_disconnects']} times): "
            f"{a['actions']:,} actions, p50 {a['p50_ms']:.1f} ms, p99 {a['p99_ms']:.1f} ms "
            f"({a['p99_rise_percent']:+.0f}% on p99)"
        )
    if "ratio_to_echo" in f:
        print(
            f"  HEADLINE: server CPU per action = {f['ratio_to_echo']:.1f}x a bare echo round trip"
        )


def _compare(plain: dict[str, Any], cluster: dict[str, Any]) -> None:
    """The cluster's server CPU as a ratio of the plain server's, measured in this run."""

    def held(figures: dict[str, Any]) -> str:
        batch = figures.get("redis_batch_ms") or 0
        unix = ", Unix socket" if figures.get("redis_via") == "unix" else ""
        return (f", writes held {batch:g} ms" if batch else "") + unix

    idle = plain["mode"] == "idle"
    key = "server_cpu_us_per_s_per_player" if idle else "server_cpu_us_per_action"
    ratio = cluster[key] / plain[key]
    store = plain.get("store", "memory")
    cluster["ratio_to_plain" if store == "memory" else f"ratio_to_plain_{store}"] = ratio
    what = "a second per idle player" if plain["mode"] == "idle" else "per action"
    kept = "in memory" if store == "memory" else "on SQLite"
    print(
        f"  HEADLINE: {cluster['cluster_nodes']} nodes ({cluster['spread']}, appendfsync "
        f"{cluster['redis_fsync']}{held(cluster)}): server CPU {what} "
        f"{cluster[key]:.1f} µs = {ratio:.2f}x the plain server's ({kept}) {plain[key]:.1f} µs"
    )
    if idle or "redis_cpu_us_per_action" not in cluster:
        return
    whole = cluster[key] + cluster["redis_cpu_us_per_action"]
    whole += cluster.get("postgres_cpu_us_per_action", 0.0)
    cluster["ratio_all_counted"] = whole / plain[key]
    print(
        f"  HEADLINE: with Redis and PostgreSQL counted {whole:.1f} µs = "
        f"{whole / plain[key]:.2f}x the plain server's ({kept})"
    )


def machine() -> dict[str, str]:
    from importlib.metadata import version

    return {
        "cores": str(os.cpu_count()),
        "cpu": _cpu_model(),
        "python": platform.python_version(),
        "websockets": version("websockets"),
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }


def _cpu_model() -> str:
    with contextlib.suppress(OSError):
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    return platform.processor()


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
                    _compare(plain, figures)
    if args.json:
        report = {"machine": info, "echo": echo_figures, "runs": runs, "argv": argv}
        args.json.write_text(json.dumps(report, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
