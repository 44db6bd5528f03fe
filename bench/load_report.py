"""The figures of a load run: its processes' counters read at both ends of the measured window,
what the servers spent over it, and how a run's figures are printed and compared.
"""

from __future__ import annotations

import contextlib
import os
import platform
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from processes import cpu_seconds, redis_commands, switches, system_seconds, tree_cpu_seconds


@dataclass
class Reading:
    """The counters of a run's processes at one end of the measured window."""

    node_cpu: list[float]
    node_switches: list[int]
    node_system: list[float]
    redis_cpu: float
    redis_calls: Counter[str]
    redis_usec: Counter[str]
    postgres_cpu: float
    client_cpu: float


def read_counters(
    nodes: list[int],
    *,
    redis: int | None,
    redis_url: str,
    postgres: int | None,
    clients: list[int],
) -> Reading:
    """Read the servers' (``nodes``), Redis's, PostgreSQL's and the load generator's counters."""
    node_cpu = [cpu_seconds(p) for p in nodes]
    node_switches = [switches(p) for p in nodes]
    node_system = [system_seconds(p) for p in nodes]
    redis_cpu = cpu_seconds(redis) if redis is not None else 0.0
    calls, usec = redis_commands(redis_url) if redis is not None else (Counter(), Counter())
    return Reading(
        node_cpu=node_cpu,
        node_switches=node_switches,
        node_system=node_system,
        redis_cpu=redis_cpu,
        redis_calls=calls,
        redis_usec=usec,
        postgres_cpu=tree_cpu_seconds(postgres) if postgres else 0.0,
        client_cpu=sum(cpu_seconds(p) for p in clients),
    )


def add_server_figures(
    figures: dict[str, Any],
    start: Reading,
    end: Reading,
    *,
    redis: bool,
    postgres: bool,
    rss: tuple[int, int, int],
    echo: dict[str, Any] | None,
) -> None:
    """Add to a run's ``figures`` what its servers spent over the window: CPU per action and per
    player, node by node, Redis's and PostgreSQL's CPU, memory per player (``rss``: the servers'
    when started, when all were seated and at the window's end) and the ratio to the echo."""
    wall, actions, seated = figures["window_s"], figures["actions"], figures["players"]
    cpu = sum(end.node_cpu) - sum(start.node_cpu)
    figures["server_cpu_percent"] = cpu / wall * 100
    figures["server_cpu_us_per_action"] = cpu / actions * 1e6 if actions else float("nan")
    figures["server_system_us_per_action"] = (
        (sum(end.node_system) - sum(start.node_system)) / actions * 1e6 if actions else float("nan")
    )
    figures["server_switches_per_action"] = (
        (sum(end.node_switches) - sum(start.node_switches)) / actions if actions else float("nan")
    )
    node_cpu = [b - a for a, b in zip(start.node_cpu, end.node_cpu, strict=True)]
    figures["node_cpu_percent"] = [c / wall * 100 for c in node_cpu]
    figures["node_cpu_us_per_action"] = [
        c / actions * 1e6 if actions else float("nan") for c in node_cpu
    ]
    # Each node's CPU a second for each player connected to it (idle: the cost of a player).
    per_node = seated / len(node_cpu)
    figures["node_cpu_us_per_s_per_player"] = [c / wall / per_node * 1e6 for c in node_cpu]
    figures["server_cpu_us_per_s_per_player"] = cpu / wall / seated * 1e6
    # Wake-ups: each wait in the event loop's poll ends in a context switch.
    figures["node_switches_per_s"] = [
        (b - a) / wall for a, b in zip(start.node_switches, end.node_switches, strict=True)
    ]
    figures["node_system_us_per_s_per_player"] = [
        (b - a) / wall / per_node * 1e6
        for a, b in zip(start.node_system, end.node_system, strict=True)
    ]
    if redis:
        redis_cpu = end.redis_cpu - start.redis_cpu
        figures["redis_cpu_percent"] = redis_cpu / wall * 100
        figures["redis_cpu_us_per_action"] = redis_cpu / actions * 1e6 if actions else float("nan")
        figures["redis_commands_per_action"] = {
            name: n / actions
            for name, n in (end.redis_calls - start.redis_calls).most_common()
            if actions
        }
        figures["redis_evalsha_us_per_action"] = (
            (end.redis_usec - start.redis_usec)["evalsha"] / actions if actions else float("nan")
        )
    if postgres:
        postgres_cpu = end.postgres_cpu - start.postgres_cpu
        figures["postgres_cpu_percent"] = postgres_cpu / wall * 100
        figures["postgres_cpu_us_per_action"] = (
            postgres_cpu / actions * 1e6 if actions else float("nan")
        )
    figures["rss_base_mb"] = rss[0] / 2**20
    figures["rss_kb_per_player"] = (max(rss[1], rss[2]) - rss[0]) / 1024 / seated
    if echo:
        figures["ratio_to_echo"] = (
            figures["server_cpu_us_per_action"] / echo["cpu_us_per_round_trip"]
        )


def print_figures(f: dict[str, Any]) -> None:
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


def compare(plain: dict[str, Any], cluster: dict[str, Any]) -> None:
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
