"""docker/compose.yaml's server nodes as ``muggins serve`` reads them: each node's command through
the real command-line parser, its environment (with compose's ``${NAME:-default}`` filled in)
through the real environment reader, and its processes as ``--procs`` makes them."""

from __future__ import annotations

import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from muggins.client.cli import build_parser
from muggins.server.commands.config_sources import from_environment
from muggins.server.commands.procs import process_configs
from muggins.server.config import ServerConfig, from_args

DOCKER = Path(__file__).resolve().parents[2] / "docker"


def compose() -> dict[str, Any]:
    data = yaml.safe_load((DOCKER / "compose.yaml").read_text())
    assert isinstance(data, dict)
    return data


def servers(data: dict[str, Any] | None = None) -> dict[str, dict[str, Any]]:
    """The services of compose.yaml (or ``data``) that run ``muggins serve``."""
    found = (data or compose())["services"]
    return {name: svc for name, svc in found.items() if "serve" in (svc.get("command") or [])}


def interpolated(value: object, shell: Mapping[str, str]) -> str:
    """``value`` with compose's ``${NAME}`` and ``${NAME:-default}`` taken from ``shell``."""
    return re.sub(r"\$\{(\w+)(?::-([^}]*))?\}", lambda m: shell.get(m[1]) or m[2] or "", str(value))


def node_config(service: dict[str, Any], shell: Mapping[str, str]) -> ServerConfig:
    """The configuration ``muggins serve`` makes of a node's command and environment."""
    args = build_parser().parse_args(service["command"])
    assert args.command == "serve"
    environ = {k: interpolated(v, shell) for k, v in (service.get("environment") or {}).items()}
    return from_args(args, given=from_environment(environ))


def node_processes(shell: Mapping[str, str] | None = None) -> dict[str, list[ServerConfig]]:
    """Each node's processes, when compose runs in a shell with ``shell``'s variables."""
    return {name: process_configs(node_config(svc, shell or {})) for name, svc in servers().items()}


def ports(listed: list[str]) -> set[int]:
    """The ports of compose's ``ports`` (published as they are) or ``expose`` entries."""
    found: set[int] = set()
    for entry in listed:
        outside, _, inside = str(entry).rpartition(":")
        assert outside in ("", inside), f"{entry}: published on another port"
        first, _, last = inside.partition("-")
        found |= set(range(int(first), int(last or first) + 1))
    return found
