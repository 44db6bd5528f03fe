"""The installed package: one top-level name, and layers that only point downwards."""

from __future__ import annotations

import ast
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAYERS = {"shared": 0, "server": 1, "client": 2}


def test_the_wheel_installs_nothing_but_muggins_at_the_top(tmp_path: Path) -> None:
    """Building the wheel gives top-level names `muggins` and its dist-info, nothing else, and
    no pages of setuptools warnings (a data folder that is no declared package is "Package
    would be ignored", which the first `./dev play` printed to a new player)."""
    built = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-q", "-w", str(tmp_path), str(ROOT)],
        check=True,
        capture_output=True,
        text=True,
    )
    assert "would be ignored" not in built.stderr + built.stdout, built.stderr[-3000:]
    [wheel] = tmp_path.glob("muggins-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    top = {name.split("/", 1)[0] for name in names}
    assert {t for t in top if not t.endswith(".dist-info")} == {"muggins"}
    packaged = {name for name in names if name.endswith(".py")}
    in_tree = {
        "muggins/" + str(path.relative_to(ROOT))
        for layer in LAYERS
        for path in (ROOT / layer).rglob("*.py")
    }
    assert in_tree <= packaged, f"not in the wheel: {sorted(in_tree - packaged)}"
    assert "muggins/shared/schema/client.json" in names
    assert "muggins/client/app.tcss" in names
    pages = {"muggins/server/www/" + p.name for p in (ROOT / "server" / "www").iterdir()}
    assert pages <= set(names), f"browser files not in the wheel: {sorted(pages - set(names))}"


def imports_of(path: Path) -> set[str]:
    """The muggins modules a source file imports, at any depth in the file."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return {name for name in found if name.startswith("muggins.")}


def test_layers_point_only_downwards() -> None:
    """shared imports neither server nor client, and server does not import client."""
    wrong = []
    for layer, level in LAYERS.items():
        for path in sorted((ROOT / layer).rglob("*.py")):
            for module in imports_of(path):
                target = module.split(".")[1]
                if LAYERS.get(target, 0) > level:
                    wrong.append(f"{path.relative_to(ROOT)} imports {module}")
    assert wrong == []


def module_graph(root: Path) -> dict[str, set[str]]:
    """Each muggins module under ``root`` and the muggins modules it imports.

    Every import counts: at the top, inside functions (imported late, but a circle all the same)
    and under ``if TYPE_CHECKING`` (a circle the type checker walks). ``from pkg import name``
    points at the module ``pkg.name`` when there is one, else at ``pkg`` (its ``__init__``).
    """
    paths = {}
    for layer in LAYERS:
        for path in (root / layer).rglob("*.py"):
            parts = ["muggins", *path.relative_to(root).with_suffix("").parts]
            if parts[-1] == "__init__":
                parts.pop()
            paths[".".join(parts)] = path
    graph: dict[str, set[str]] = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, base] if base else anchor)
                for alias in node.names:
                    if f"{base}.{alias.name}" in paths:
                        targets.add(f"{base}.{alias.name}")
                    elif base in paths:
                        targets.add(base)
            elif isinstance(node, ast.Import):
                targets.update(alias.name for alias in node.names if alias.name in paths)
        graph[name] = targets - {name}
    return graph


def import_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan), each a circle."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    cycles: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for target in sorted(graph[module]):
            if target not in index:
                visit(target)
                low[module] = min(low[module], low[target])
            elif target in stack:
                low[module] = min(low[module], index[target])
        if low[module] == index[module]:
            group = []
            while True:
                member = stack.pop()
                group.append(member)
                if member == module:
                    break
            if len(group) > 1:
                cycles.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return cycles


def test_no_module_imports_itself_round_a_circle() -> None:
    """No import circle between the project's modules, counting late and TYPE_CHECKING imports."""
    assert import_cycles(module_graph(ROOT)) == []


def test_the_circle_finder_sees_late_and_type_checking_imports(tmp_path: Path) -> None:
    """A circle made only of a function-level and a TYPE_CHECKING import is found."""
    (tmp_path / "server").mkdir()
    (tmp_path / "server" / "a.py").write_text(
        "def f():\n    from muggins.server.b import g\n    return g\n"
    )
    (tmp_path / "server" / "b.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from . import c\ng = 1\n"
    )
    (tmp_path / "server" / "c.py").write_text("from muggins.server import a\n")
    (tmp_path / "server" / "d.py").write_text("import muggins.server.a\n")
    graph = module_graph(tmp_path)
    assert graph["muggins.server.d"] == {"muggins.server.a"}
    assert import_cycles(graph) == [["muggins.server.a", "muggins.server.b", "muggins.server.c"]]


SERVER_ORDER = {
    # The entry points, then the direction a move's data flows: a module imports only from
    # domains below its own (and from its own domain), never upwards.
    "commands": 9,
    "embedded": 9,
    "app": 8,
    "cluster": 7,
    "net": 6,
    "lobby": 5,
    "accounts": 4,
    "rooms": 3,
    "results": 2,
    "store": 1,
    # Below every domain: the options, the process's plumbing and the wire's fast paths.
    "config": 0,
    "runtime": 0,
    "wire": 0,
}


def server_domain_violations(root: Path) -> list[str]:
    """Each import inside server/ that points to a domain at its own level or above."""
    graph = module_graph(root)
    wrong = []
    for module, targets in sorted(graph.items()):
        parts = module.split(".")
        if parts[1] != "server" or len(parts) < 3:
            continue
        for target in sorted(targets):
            there = target.split(".")
            if there[1] != "server" or len(there) < 3 or there[2] == parts[2]:
                continue
            if SERVER_ORDER[there[2]] >= SERVER_ORDER[parts[2]]:
                wrong.append(f"{module} imports {target}")
    return wrong


def test_server_domains_import_only_downwards() -> None:
    """commands -> app -> cluster -> net -> lobby -> accounts -> rooms -> results -> store, with
    config, runtime and wire below them all: no domain imports one at its level or above."""
    folders = {p.stem for p in (ROOT / "server").iterdir() if p.suffix == ".py" or p.is_dir()}
    assert folders - {"__init__", "__pycache__", "www", "py"} <= set(SERVER_ORDER)
    assert server_domain_violations(ROOT) == []


def test_the_domain_check_sees_an_upward_import(tmp_path: Path) -> None:
    """A store module importing a room is reported."""
    for folder in ("server/store", "server/rooms"):
        (tmp_path / folder).mkdir(parents=True)
    (tmp_path / "server" / "rooms" / "room.py").write_text("x = 1\n")
    (tmp_path / "server" / "store" / "games.py").write_text(
        "def f():\n    from muggins.server.rooms.room import x\n    return x\n"
    )
    assert server_domain_violations(tmp_path) == [
        "muggins.server.store.games imports muggins.server.rooms.room"
    ]


IO_MODULES = ("asyncio", "websockets", "socket", "ssl", "selectors", "time", "threading")


def io_imports(root: Path) -> list[str]:
    """Each import in shared/ of a module that does I/O or reads a clock."""
    wrong = []
    for path in sorted((root / "shared").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [node.module]
            for name in names:
                if name.split(".")[0] in IO_MODULES:
                    wrong.append(f"{path.relative_to(root)} imports {name}")
    return wrong


def test_shared_imports_no_io_and_no_clock() -> None:
    """shared/ is the pure core: no asyncio, websockets, sockets, threads or clock."""
    assert io_imports(ROOT) == []


def test_the_io_check_sees_a_late_import(tmp_path: Path) -> None:
    """An import of websockets inside a function in shared/ is reported."""
    (tmp_path / "shared").mkdir()
    (tmp_path / "shared" / "a.py").write_text("def f():\n    import websockets.asyncio\n")
    assert io_imports(tmp_path) == ["shared/a.py imports websockets.asyncio"]


def test_the_client_enters_the_server_only_by_its_embedded_door() -> None:
    """client/ imports nothing from server/ but ``muggins.server.embedded``."""
    graph = module_graph(ROOT)
    reached = {
        target
        for module, targets in graph.items()
        if module.startswith("muggins.client")
        for target in targets
        if target.startswith("muggins.server")
    }
    assert reached == {"muggins.server.embedded"}
