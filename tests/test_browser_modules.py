"""The browser's JavaScript modules: no import circle between them."""

from __future__ import annotations

import re
from pathlib import Path

from tests.test_packaging import ROOT, import_cycles

WWW = ROOT / "server" / "www"

# `import { a, b } from "./x.js";`, `import * as m from './x.js'` and `import "./x.js"`, over
# several lines too; `import("./x.js")` in a JSDoc type is a type, not an import, and is left out.
IMPORT = re.compile(r"""^\s*import\s+(?:[^;'"]*?\s+from\s+)?["']\./([\w.-]+\.js)["']""", re.M)


def module_graph(folder: Path) -> dict[str, set[str]]:
    """Each module of the folder and the project modules it imports."""
    return {
        path.name: set(IMPORT.findall(path.read_text(encoding="utf-8"))) - {path.name}
        for path in sorted(folder.glob("*.js"))
    }


def test_no_browser_module_imports_itself_round_a_circle() -> None:
    graph = module_graph(WWW)
    assert graph.get("app.js"), "the page's entry module imports the others"
    assert import_cycles(graph) == []


def test_the_browser_circle_finder_reads_every_form_of_import(tmp_path: Path) -> None:
    """A circle through a named, a namespace and a bare import, one spread over lines, is found;
    a JSDoc `import("./x.js")` type is not an import."""
    (tmp_path / "a.js").write_text('import {\n  one,\n  two,\n} from "./b.js";\n')
    (tmp_path / "b.js").write_text("import * as c from './c.js';\n")
    (tmp_path / "c.js").write_text('import "./a.js";\n/** @type {import("./d.js").T} */\n')
    (tmp_path / "d.js").write_text('// @ts-check\n/** @param {import("./a.js").X} x */\n')
    graph = module_graph(tmp_path)
    assert graph["d.js"] == set()
    assert import_cycles(graph) == [["a.js", "b.js", "c.js"]]
