"""The stages import downwards only: the store below the frames (no circle between
them), the export writers below the store, the frames and the CLI.

The import graph is read from the source (every ``import`` statement, those inside
functions too, but not those under ``if TYPE_CHECKING:``, which never run), so an
import made lazily to dodge a circle still counts as one.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

from studbook.cli import main

SRC = Path(__file__).resolve().parents[1] / "src"
HISTORIES = Path(__file__).resolve().parents[1] / "histories"


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def _imports(tree: ast.AST, package: str, modules: set[str]) -> set[str]:
    """The studbook modules ``tree`` imports, anywhere but under ``if TYPE_CHECKING:``."""
    found: set[str] = set()
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and _is_type_checking(node):
            found |= set().union(*(_imports(child, package, modules) for child in node.orelse))
            continue
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package of the importing module
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            found.add(base)
            found |= {f"{base}.{alias.name}" for alias in node.names if f"{base}.{alias.name}" in modules}
        found |= _imports(node, package, modules)
    return {name for name in found if name in modules}


def import_graph() -> dict[str, set[str]]:
    """Each studbook module -> the studbook modules it imports (a package's
    ``__init__`` too, as importing a module of it runs that)."""
    paths = {_module_name(path): path for path in (SRC / "studbook").rglob("*.py")}
    modules = set(paths)
    graph = {}
    for name, path in paths.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = _imports(ast.parse(path.read_text(encoding="utf-8")), package, modules)
        graph[name] = {parent for edge in edges for parent in _parents(edge) if parent in modules} - {name}
    return graph


def _parents(module: str) -> list[str]:
    parts = module.split(".")
    return [".".join(parts[:i]) for i in range(1, len(parts) + 1)]


def reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    seen: set[str] = set()
    todo = [start]
    while todo:
        for name in graph[todo.pop()] - seen:
            seen.add(name)
            todo.append(name)
    return seen


def _store_modules(graph: dict[str, set[str]]) -> list[str]:
    return sorted(name for name in graph if name == "studbook.store" or name.startswith("studbook.store."))


def test_the_store_is_split_by_job() -> None:
    graph = import_graph()
    assert {"studbook.store.schema", "studbook.store.faults", "studbook.store.prepare",
            "studbook.store.read", "studbook.store.db"} <= set(_store_modules(graph))


def test_no_store_module_reaches_the_frames_module() -> None:
    """frames.load reads a store, so the store is the lower stage: nothing the store
    imports, directly or through others, lazily or not, imports studbook.frames."""
    graph = import_graph()
    assert "studbook.store" in reachable(graph, "studbook.frames")  # load reads a store
    for module in _store_modules(graph):
        assert "studbook.frames" not in reachable(graph, module), module


def test_the_frames_container_is_below_the_store_and_the_frames() -> None:
    graph = import_graph()
    below = reachable(graph, "studbook.tables")
    assert "studbook.frames" not in below
    assert "studbook.tables" in reachable(graph, "studbook.store.read")


def test_export_writers_import_no_later_stage() -> None:
    """The export formats get plain data (hands, texts, the frames' tables, metadata)
    from ``studbook export``: none of their modules imports the frames, the store,
    the checker, the engine or the CLI. (The PokerStars writer checks what it wrote
    with the engine, lazily: it comes after the engine.)"""
    graph = import_graph()
    later = ("studbook.frames", "studbook.tables", "studbook.store", "studbook.check", "studbook.cli",
             "studbook.engine")
    formats = [name for name in graph if name.startswith("studbook.write") and name != "studbook.write.pokerstars"]
    assert {"studbook.write.csv", "studbook.write.parquet", "studbook.write.jsonl", "studbook.write.original",
            "studbook.write.phh"} <= set(formats)
    for module in formats:
        assert not {name for name in graph[module] if name.startswith(later)}, module


def test_reading_a_store_never_imports_the_frames_module(tmp_path: Path) -> None:
    db = tmp_path / "s.db"
    assert main(["import", str(HISTORIES / "planted-violations.txt"), "--db", str(db), "-q"]) == 0
    script = (
        "import sys, json\n"
        "from studbook.store import Store, read_frames\n"
        f"frames = read_frames({str(db)!r})\n"
        f"with Store({str(db)!r}, create=False) as store:\n"
        "    chunks = list(store.hand_chunks(['hands', 'players']))\n"
        "    texts = list(store.originals())\n"
        "print(json.dumps([len(frames.hands), sum(len(c['hands']) for c in chunks), len(texts),\n"
        "                  'studbook.frames' in sys.modules]))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    hands, chunked, texts, frames_imported = json.loads(done.stdout)
    assert hands == chunked == texts > 0
    assert not frames_imported
