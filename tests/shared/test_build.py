"""The compiled build (``MUGGINS_COMPILE=1``, setup.py) against the pure one.

A wheel is built with the listed modules compiled by mypyc and unpacked into a folder that goes
first on ``PYTHONPATH``, so a subprocess imports the compiled package while this one runs the
pure source. Then: every listed module is an extension there; seeded matches give the same bytes
on the wire in both builds; the engine's, the writer's and the server's own tests pass on it;
and a compiled server plays over real sockets.
"""

from __future__ import annotations

import ast
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from muggins.shared.build import build

ROOT = Path(__file__).resolve().parents[2]
DIGEST = Path(__file__).with_name("wire_digest.py")

# The real suite's tests that run on the compiled build too: the rules engine, the wire, and the
# server over real sockets (tests/shared/test_build.py's own doc says why these).
SUITE = [
    "tests/shared/test_cards.py",
    "tests/shared/test_construct.py",
    "tests/shared/test_scoring.py",
    "tests/shared/test_counting.py",
    "tests/shared/test_fairness.py",
    "tests/shared/test_game.py",
    "tests/shared/test_game_end.py",
    "tests/shared/test_game_muggins.py",
    "tests/shared/test_match.py",
    "tests/shared/test_match_properties.py",
    "tests/shared/test_protocol.py",
    "tests/server/test_wire_state_writer.py",
    "tests/server/test_room.py",
    "tests/server/test_game.py",
    "tests/server/test_leak.py",
    "tests/server/test_frames.py",
    "tests/server/test_bad_input.py",
    "tests/server/test_reviews.py",
]


def compiled_modules() -> list[str]:
    """setup.py's ``COMPILED`` as module names (``shared/game.py`` -> ``muggins.shared.game``)."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    [paths] = [
        ast.literal_eval(node.value)
        for node in tree.body
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == "COMPILED" for t in node.targets)
    ]
    names = []
    for path in paths:
        name = "muggins." + path.removesuffix(".py").replace("/", ".")
        names.append(name.removesuffix(".__init__"))
    return names


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The compiled wheel unpacked into a folder of its own."""
    if shutil.which("cc") is None and shutil.which("gcc") is None:
        if os.environ.get("CI"):
            pytest.fail("the compiled build needs a C compiler, and CI must test it")
        pytest.skip("no C compiler here: the compiled build cannot be made")
    tmp = tmp_path_factory.mktemp("compiled")
    env = {**os.environ, "MUGGINS_COMPILE": "1"}
    made = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(tmp / "wheel"), "."],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert made.returncode == 0, made.stdout[-3000:] + made.stderr[-3000:]
    [wheel] = (tmp / "wheel").glob("muggins-*.whl")
    target = tmp / "site"
    unpacked = subprocess.run(
        [sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(target),
         str(wheel)],
        capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert unpacked.returncode == 0, unpacked.stderr[-3000:]
    yield target


def run_compiled(site: Path, *args: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), str(ROOT / "tests")])}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=timeout
    )


def test_this_process_runs_the_pure_source() -> None:
    from muggins.shared import game

    assert game.__file__ is not None and game.__file__.endswith(".py")
    assert build() == "pure"


def test_every_listed_module_is_compiled(site: Path) -> None:
    modules = compiled_modules()
    assert "muggins.shared.game" in modules and len(modules) >= 10
    script = (
        "import importlib, sys\n"
        "from muggins.shared.build import build\n"
        "print(build())\n"
        "for name in sys.argv[1:]:\n"
        "    print(name, importlib.import_module(name).__file__)\n"
    )
    result = run_compiled(site, "-c", script, *modules)
    assert result.returncode == 0, result.stderr
    first, *lines = result.stdout.splitlines()
    assert first == "compiled"
    assert [line.split()[0] for line in lines] == modules
    for line in lines:
        origin = line.split()[1]
        assert origin.startswith(str(site)), line
        assert origin.endswith(".so"), line  # an extension, not the .py beside it


def test_both_builds_write_the_same_bytes(site: Path) -> None:
    pure = subprocess.run(
        [sys.executable, str(DIGEST), "150"], capture_output=True, text=True, timeout=600
    )
    compiled = run_compiled(site, str(DIGEST), "150")
    assert pure.returncode == 0 and compiled.returncode == 0, pure.stderr + compiled.stderr
    pure_build, pure_digest, pure_states = pure.stdout.split()
    compiled_build, compiled_digest, compiled_states = compiled.stdout.split()
    assert (pure_build, compiled_build) == ("pure", "compiled")
    assert int(pure_states) > 20_000
    assert (compiled_digest, compiled_states) == (pure_digest, pure_states)


def test_the_engine_wire_and_server_tests_pass_compiled(site: Path) -> None:
    # -v against the configuration's -q: the summary line with the counts is printed.
    result = run_compiled(
        site, "-m", "pytest", "-v", "-p", "no:cacheprovider", *SUITE, timeout=1200
    )
    tail = result.stdout[-4000:] + result.stderr[-2000:]
    assert result.returncode == 0, tail
    [summary] = re.findall(r"^=+ (.+) in [\d.]+s", result.stdout, re.M)[-1:]
    counts = dict((kind, int(n)) for n, kind in re.findall(r"(\d+) (\w+)", summary))
    assert counts.get("passed", 0) >= 150, tail
    assert not {"failed", "error", "errors"} & counts.keys(), tail
