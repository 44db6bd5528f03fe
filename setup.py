"""Only the optional compiled build lives here; everything else is in pyproject.toml.

With ``MUGGINS_COMPILE=1`` (see build_backend/muggins_build.py) the modules in ``COMPILED`` are
compiled by mypyc into C extensions beside the pure package. mypyc needs each module under its
installed name (``muggins.shared.game`` for ``shared/game.py``), so the sources are type-checked
through a tree of links under build/ that gives the folders those names.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from setuptools import setup

# The per-move path: the engine, the view and the state writer, the connection's reading and
# sending. No module that stays Python extends a class defined here (the cluster plugs into a
# room through its seam, server/rooms/cluster_seam.py). Not here: the modules that define
# pydantic models, and packages' __init__ (a compiled one loses its submodules).
COMPILED = [
    "shared/cards.py",
    "shared/construct.py",
    "shared/scoring.py",
    "shared/counting.py",
    "shared/fairness.py",
    "shared/show.py",
    "shared/game.py",
    "shared/match.py",
    "shared/token_bucket.py",
    "server/wire/state_writer.py",
    "server/wire/view_writer.py",
    "server/wire/event_writer.py",
    "server/wire/json_parts.py",
    "server/wire/frames.py",
    "server/wire/ws_internals.py",
    "server/wire/send_cache.py",
    "server/rooms/seating.py",
    "server/rooms/step_states.py",
    "server/rooms/referee.py",
    "server/rooms/presence.py",
    "server/rooms/turn_timer.py",
    "server/rooms/agreements.py",
    "server/rooms/arrivals.py",
    "server/rooms/room.py",
    "server/runtime/metrics.py",
    "server/net/connection.py",
]


def ext_modules() -> list[object]:
    if os.environ.get("MUGGINS_COMPILE", "") != "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        sys.exit("MUGGINS_COMPILE=1 needs mypy in the build environment (pip install mypy)")
    root = Path(__file__).parent.resolve()
    tree = root / "build" / "mypyc-src"
    (tree / "muggins").mkdir(parents=True, exist_ok=True)
    for folder in ("shared", "server", "client"):
        link = tree / "muggins" / folder
        if not link.is_symlink():
            link.symlink_to(root / folder, target_is_directory=True)
    os.environ["MYPYPATH"] = str(tree)
    paths = [str(tree / "muggins" / module) for module in COMPILED]
    return list(mypycify(["--explicit-package-bases", *paths], group_name="muggins.native"))


setup(ext_modules=ext_modules())
