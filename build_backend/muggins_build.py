"""The build backend: setuptools', plus an optional compiled build of the server's hot modules.

``MUGGINS_COMPILE=1 pip install .`` compiles the modules listed in ``setup.py`` with mypyc (the
compiler that ships with mypy): the rules engine, the state writer and the server's per-move
path run as C extensions, the same code with the same types, about a fifth fewer instructions
per move (docs/BENCHMARKS.md). It needs a C compiler and the Python headers. For such a build
this backend asks pip for mypy and for the project's own dependencies in the build environment,
because mypyc type-checks the modules (with pydantic's plugin) before it compiles them.

Without the variable, and always for an editable install (where a compiled module would shadow
the source you edit), the package is pure Python and the backend is setuptools' own.
"""

from __future__ import annotations

import os
import re
import shutil
import tomllib
from pathlib import Path
from typing import Any

from setuptools import build_meta as _setuptools
from setuptools.build_meta import *  # noqa: F403  (every hook not overridden below)

COMPILE = "MUGGINS_COMPILE"


def compiling() -> bool:
    return os.environ.get(COMPILE, "") == "1"


def _compile_requires() -> list[str]:
    project = tomllib.loads(Path("pyproject.toml").read_text(encoding="utf-8"))["project"]
    # mypyc ships with mypy: the mypy the project pins for its checks (its test extra).
    [mypy] = [
        spec
        for spec in project["optional-dependencies"]["test"]
        if re.split(r"[<>=!~;\[ ]", spec, maxsplit=1)[0] == "mypy"
    ]
    return [mypy, *project["dependencies"]]


def get_requires_for_build_wheel(config_settings: Any = None) -> list[str]:
    if not compiling():
        return list(_setuptools.get_requires_for_build_wheel(config_settings))
    # setuptools runs setup.py to find its own requirements; mypy is not there yet, so that run
    # is a pure one, and mypy comes with what this returns.
    os.environ.pop(COMPILE)
    try:
        requires = list(_setuptools.get_requires_for_build_wheel(config_settings))
    finally:
        os.environ[COMPILE] = "1"
    return requires + _compile_requires()


def build_wheel(
    wheel_directory: str, config_settings: Any = None, metadata_directory: str | None = None
) -> str:
    # setuptools packs whatever build/lib holds: a pure build after a compiled one would ship
    # the old extensions (which Python prefers to the .py beside them), and a compiled build
    # after a change of the module list would keep the dropped ones. Each build starts clean.
    shutil.rmtree("build", ignore_errors=True)
    return str(_setuptools.build_wheel(wheel_directory, config_settings, metadata_directory))


def build_editable(
    wheel_directory: str, config_settings: Any = None, metadata_directory: str | None = None
) -> str:
    os.environ.pop(COMPILE, None)  # an editable install stays pure: see the module's docstring
    return str(_setuptools.build_editable(wheel_directory, config_settings, metadata_directory))
