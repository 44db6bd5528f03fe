"""Servers and addresses for the browser tests."""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

from muggins.server.app import Server
from muggins.server.config import ServerConfig

SHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"


def site_config(db: Path, **changes: object) -> ServerConfig:
    base = {
        "port": 0,
        "db": db,
        "bot_delay": 0.0,
        "grace": 1.0,
        "sweep_interval": 3600,
        "rate": 10_000,
        "burst": 10_000,
        "registrations_per_hour": 1e6,
        "reads_per_second": 1e6,
        "rated_pair_per_day": 10**6,
    }
    base.update(changes)
    return ServerConfig(**base)  # type: ignore[arg-type]


def page_url(server: Server, path: str = "/") -> str:
    return f"http://127.0.0.1:{server.port}{path}"


def js_fixed(value: float, places: int) -> str:
    """`value.toFixed(places)` as the page computes it: the exact binary value rounded, a tie
    going up (Python's format sends a tie such as 0.125 to the even digit instead)."""
    exact = Decimal(value).quantize(Decimal(1).scaleb(-places), rounding=ROUND_HALF_UP)
    return f"{exact:.{places}f}"
