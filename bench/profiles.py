"""Profiles of the servers in a load run's window: py-spy's samples (``--profile``) summarised
as self and inclusive shares, and where each server's cProfile call counts go (``--calls``).
"""

from __future__ import annotations

import argparse
import math
import subprocess
import sys
from collections import Counter
from pathlib import Path


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
