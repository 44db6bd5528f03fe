"""Which build of the package runs: pure Python, or with its hot modules compiled.

``MUGGINS_COMPILE=1 pip install .`` compiles the rules engine, the state writer and the server's
per-move path with mypyc (``setup.py`` lists the modules); the Docker image is built that way.
The two builds behave the same and write the same bytes; the compiled one spends fewer
instructions per move. The server names its build in its "listening" log line.
"""

from __future__ import annotations

from importlib.machinery import EXTENSION_SUFFIXES
from typing import Literal

from muggins.shared import game


def build() -> Literal["compiled", "pure"]:
    """``"compiled"`` when the rules engine was loaded from a C extension, else ``"pure"``."""
    origin = game.__file__ or ""
    return "compiled" if origin.endswith(tuple(EXTENSION_SUFFIXES)) else "pure"


def version() -> str:
    """The package's version, from its installed metadata (pyproject.toml is the one source)."""
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("muggins")
    except PackageNotFoundError:  # run from a source tree that was never installed
        return "unknown"
