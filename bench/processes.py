"""The processes a bench starts and reads: server children, a redis-server, and their CPU,
context switches and memory as /proc counts them.

A server child prints ``listening PORT`` first (:func:`start_child`); :func:`start_redis` gives
a fresh ``redis-server`` on a free port (and, asked, its Unix socket).
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path

TICK = os.sysconf("SC_CLK_TCK")


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
