"""The layers as the code has them: docs/architecture.md's diagram is drawn from the import
graph, every module sits in a layer package, package `__init__`s only re-export, and no module
or class outgrows the size guide.

`UPDATE_ARCHITECTURE=1 pytest tests/test_architecture.py` redraws the diagram in the doc.
"""

import ast
import importlib
import os
import re
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "architecture.md"
# Highest first, as in pyproject.toml's layers contract.
LAYERS = (
    "planner.cli",
    "planner.ui",
    "planner.report",
    "planner.service",
    "pricing",
    "planner.store",
    "planner.cost",
    "planner.ingest",
    "planner.synth",
    "planner.twin",
    "planner.engine",
    "planner.core",
)
ROOT_MODULES = {"planner", "planner.__main__", "pricing"}
START, END = "<!-- import-graph:start -->", "<!-- import-graph:end -->"
MAX_LINES, MAX_METHODS = 500, 25
# String tables: long by nature, no logic to read.
STRING_TABLES = ("planner/ui/text/", "planner/ingest/words.py", "planner/report/text")


def _layer(module: str) -> str | None:
    return next((p for p in LAYERS if module == p or module.startswith(p + ".")), None)


def _package_edges() -> set[tuple[str, str]]:
    graph = grimp.build_graph("planner", "pricing")
    edges = set()
    for module in graph.modules:
        for imported in graph.find_modules_directly_imported_by(module):
            a, b = _layer(module), _layer(imported)
            if a and b and a != b:
                edges.add((a, b))
    return edges


def _mermaid(edges: set[tuple[str, str]]) -> str:
    def name(layer: str) -> str:
        return layer.removeprefix("planner.")

    lines = ["```mermaid", "flowchart TD"]
    lines += [f"    {name(a)} --> {name(b)}" for a, b in sorted(edges)]
    lines.append("```")
    return "\n".join(lines)


def test_every_module_sits_in_a_layer_package() -> None:
    graph = grimp.build_graph("planner", "pricing")
    loose = sorted(m for m in graph.modules if m not in ROOT_MODULES and _layer(m) is None)
    assert loose == [], f"put these in a layer package (see LAYERS): {loose}"


def test_imports_only_point_down_the_layers() -> None:
    rank = {layer: i for i, layer in enumerate(LAYERS)}
    upward = sorted((a, b) for a, b in _package_edges() if rank[a] > rank[b])
    assert upward == []


def test_the_architecture_diagram_is_drawn_from_the_code() -> None:
    drawn = _mermaid(_package_edges())
    text = DOC.read_text(encoding="utf-8")
    block = re.search(re.escape(START) + r"\n(.*?)\n" + re.escape(END), text, re.S)
    assert block is not None, f"{DOC} lost its {START} ... {END} markers"
    if os.environ.get("UPDATE_ARCHITECTURE") == "1":
        DOC.write_text(text[: block.start(1)] + drawn + text[block.end(1) :], encoding="utf-8")
        return
    assert block.group(1) == drawn, "run `UPDATE_ARCHITECTURE=1 pytest tests/test_architecture.py`"


def _sources() -> list[Path]:
    return sorted([*ROOT.glob("planner/**/*.py"), *ROOT.glob("pricing/**/*.py")])


def _package_inits() -> list[Path]:
    return [path for path in _sources() if path.name == "__init__.py"]


def test_no_module_outgrows_the_size_guide() -> None:
    too_long = []
    for path in _sources():
        relative = path.relative_to(ROOT).as_posix()
        lines = len(path.read_text(encoding="utf-8").splitlines())
        if lines > MAX_LINES and not relative.startswith(STRING_TABLES):
            too_long.append(f"{relative}: {lines} lines")
    assert too_long == []


def test_no_class_outgrows_the_size_guide() -> None:
    too_big = []
    for path in _sources():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                methods = [
                    n for n in node.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
                ]
                if len(methods) > MAX_METHODS:
                    too_big.append(f"{path.relative_to(ROOT)}:{node.name}: {len(methods)}")
    assert too_big == []


def test_package_inits_only_re_export() -> None:
    # The work lives in modules: an `__init__` that does it makes every importer of a sibling
    # module pay for it (planner.ingest's loaded pandas, so the CLI copied its choices).
    # `__getattr__` is allowed: it re-exports lazily (PEP 562).
    defining = [
        f"{path.relative_to(ROOT)}: {node.name}"
        for path in _package_inits()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.ClassDef | ast.FunctionDef) and node.name != "__getattr__"
    ]

    assert defining == []


def test_every_name_a_package_lists_in_all_can_be_imported() -> None:
    packages = [".".join(path.relative_to(ROOT).parent.parts) for path in _package_inits()]

    missing = [
        f"{package}.{name}"
        for package in packages
        for name in getattr(importlib.import_module(package), "__all__", ())
        if not hasattr(importlib.import_module(package), name)
    ]

    assert missing == []
