"""Options shared by every test directory: long runs stay out of CI unless asked for."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    group = parser.getgroup("muggins")
    group.addoption(
        "--run-slow",
        action="store_true",
        default=False,
        help="also run the tests marked slow (soak, leak audit at scale)",
    )
    group.addoption(
        "--soak-seconds",
        type=float,
        default=1800.0,
        help="how long the soak test plays (with --run-slow; default 30 minutes)",
    )
    group.addoption(
        "--leak-games",
        type=int,
        default=10_000,
        help="complete games in the leak audit at scale (with --run-slow)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--run-slow"):
        return
    skip = pytest.mark.skip(reason="long run: enable with --run-slow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)
