"""The docker/ tests run real server nodes and redis-server with the server tests' helpers, and
read compose.yaml with their own (compose_nodes)."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "server"))
sys.path.append(str(Path(__file__).resolve().parent))

from redis_helpers import redis_server  # noqa: F401  (the fixture, from the server tests)
