"""deploy/muggins.service: systemd's own checker passes it, its hardening scores as systemd
rates it, its command line is one ``muggins serve`` takes, and reload sends SIGHUP."""

from __future__ import annotations

import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from muggins.client.cli import build_parser

UNIT = Path(__file__).resolve().parents[2] / "deploy" / "muggins.service"


def settings() -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for line in UNIT.read_text().splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            found.setdefault(key, []).append(value)
    return found


def systemd_analyze() -> str:
    found = shutil.which("systemd-analyze")
    if found is None:
        message = "systemd-analyze is not installed (apt-get install systemd)"
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(message + "; CI must install it", pytrace=False)
        pytest.skip(message)
    return found


def rendered(tmp_path: Path) -> Path:
    """The unit with ExecStart pointing at this checkout's muggins (the checker wants it)."""
    muggins = Path(sys.executable).parent / "muggins"
    unit = tmp_path / "muggins.service"
    unit.write_text(UNIT.read_text().replace("/opt/muggins/venv/bin/muggins", str(muggins)))
    return unit


def test_systemd_verifies_the_unit(tmp_path: Path) -> None:
    """``systemd-analyze verify`` finds nothing to say."""
    result = subprocess.run(
        [systemd_analyze(), "verify", str(rendered(tmp_path))],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert result.returncode == 0 and not result.stderr.strip(), result.stderr


def test_the_unit_is_hardened(tmp_path: Path) -> None:
    """``systemd-analyze security`` rates its exposure 2.0 or less ("OK"; 10 is none at all)."""
    result = subprocess.run(
        [systemd_analyze(), "security", "--offline=yes", str(rendered(tmp_path))],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    [level] = re.findall(r"Overall exposure level for muggins.service: ([\d.]+)", result.stdout)
    assert float(level) <= 2.0, result.stdout[-3000:]


def test_the_unit_runs_a_command_muggins_serve_takes() -> None:
    """ExecStart parses as ``muggins serve`` options; reload is SIGHUP (the TLS reload); the
    data folder is private; it never runs as root."""
    unit = settings()
    [start] = unit["ExecStart"]
    argv = shlex.split(start)
    assert argv[0].endswith("/muggins") and argv[1] == "serve"
    args = build_parser().parse_args(argv[1:])
    assert args.handler.__module__ == "muggins.server.commands.serve"
    assert unit["ExecReload"] == ["/bin/kill -HUP $MAINPID"]
    assert unit["StateDirectoryMode"] == ["0700"] and unit["UMask"] == ["0077"]
    assert unit["User"] == ["muggins"] and unit["NoNewPrivileges"] == ["yes"]


def test_the_env_file_may_name_the_cluster_s_redis() -> None:
    """/etc/muggins/env holds secrets such as MUGGINS_REDIS (docs/hosting.md): nothing on the
    command line may outrank it (a --db there would keep the node on SQLite, out of its
    cluster, without a word); without it the database is the state folder's muggins.db."""
    from muggins.server.commands.config_sources import gather
    from muggins.server.config import from_args

    unit = settings()
    argv = shlex.split(unit["ExecStart"][0])
    args = build_parser().parse_args(argv[1:])
    environment = dict(
        item.split("=", 1) for line in unit.get("Environment", []) for item in shlex.split(line)
    )
    secret = "rediss://:PASSWORD@redis:6380/0"
    config = from_args(args, given=gather({**environment, "MUGGINS_REDIS": secret}, None))
    assert config.redis == secret and config.db is None and not config.memory
    found = subprocess.run(
        [sys.executable, "-c",
         "from muggins.server.store.datafiles import default_db; print(default_db())"],
        env={**environment, "HOME": "/var/lib/muggins", "PATH": os.environ.get("PATH", "")},
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert found.stdout.strip() == "/var/lib/muggins/muggins.db"
