"""The ./dev script: its usage, what each task installs, and the pinned checkers."""

from __future__ import annotations

import re
import subprocess
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_dev_without_a_task_prints_its_usage_not_its_source() -> None:
    """./dev alone prints a usage text (exit 0); an unknown task prints it to stderr (exit 2)."""
    alone = subprocess.run([str(ROOT / "dev")], capture_output=True, text=True, timeout=30)
    assert alone.returncode == 0
    assert alone.stdout.startswith("Usage: ./dev TASK")
    assert "set -eu" not in alone.stdout and "#" not in alone.stdout
    wrong = subprocess.run(
        [str(ROOT / "dev"), "nonsense"], capture_output=True, text=True, timeout=30
    )
    assert wrong.returncode == 2 and wrong.stderr.startswith("Usage: ./dev TASK")


def test_play_installs_only_the_runtime_and_test_the_test_extras() -> None:
    """The play task installs the project without extras; only the test task adds [test]."""
    script = (ROOT / "dev").read_text()
    tasks = dict(re.findall(r"^    (\w+)\)\n((?:        .*\n)+)", script, flags=re.M))
    assert 'install "" ' in tasks["play"] and "[test]" not in tasks["play"]
    assert 'install "" ' in tasks["muggins"]
    assert 'install "[test]" ' in tasks["test"]


def test_the_checkers_are_pinned_to_exact_versions() -> None:
    """ruff and mypy are pinned with ==, so a new release cannot turn CI red overnight."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    test = project["optional-dependencies"]["test"]
    for tool in ("ruff", "mypy"):
        [spec] = [s for s in test if re.match(rf"{tool}\b", s)]
        assert re.fullmatch(rf"{tool}==\d+\.\d+\.\d+", spec), spec
    runtime = " ".join(project["dependencies"])
    for tool in ("pytest", "hypothesis", "ruff", "mypy", "hadolint"):
        assert tool not in runtime
