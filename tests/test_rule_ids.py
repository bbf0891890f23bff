"""Rule ids are defined once (``studbook.engine.rules``) and are exactly those of the rule book.

The rule book is ``docs/rules.md``, in the repository, so the comparison runs on
every clone. It was written from the shared material's ``RULES.md`` (beside the
corpus, ``../shared/RULES.md``) and must keep its ids: a separate test compares
the two where that file is present and skips with a reason otherwise. The
engine's sources name rules only by constant, so "where is rule X checked?" is
a search for one name.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from studbook.engine import messages, rules

ROOT = Path(__file__).resolve().parents[1]
RULE_BOOK = ROOT / "docs" / "rules.md"
SHARED_RULE_BOOK = ROOT.parent / "shared" / "RULES.md"
DEFINED = Path(rules.__file__)  # engine/rules/__init__.py
ENGINE = DEFINED.parents[1]
SRC = ENGINE.parent
RULE_ROW = re.compile(r"^\| `([a-z_]+\.[a-z_]+)` \| (.*) \| (.*) \|$", re.M)
"""A row of a rule book's tables: | `id` | the rule | its sources |"""
SOURCE = re.compile(r"^(?:(?:00[0-3] (?:intro|r\d+|¶\d+)(?:[–,] ?(?:r|¶)?\d+)*|standard)(?: \([^)]*\))?(?:, |$))+$")
"""A rule's sources in docs/rules.md: seed and paragraph (``000 r7``, ``001 ¶9–¶10``), or standard."""


def book_ids(path: Path) -> set[str]:
    return {match.group(1) for match in RULE_ROW.finditer(path.read_text(encoding="utf-8"))}


def _book_ids() -> set[str]:
    return book_ids(RULE_BOOK)


def test_every_rule_of_the_book_has_a_constant() -> None:
    book = _book_ids()
    assert len(book) >= 20  # the table shape was read
    assert sorted(book - rules.RULE_IDS) == []


def test_every_constant_is_a_rule_of_the_book() -> None:
    assert sorted(rules.RULE_IDS - _book_ids()) == []


def test_each_rule_is_listed_once_and_cites_its_sources() -> None:
    rows = RULE_ROW.findall(RULE_BOOK.read_text(encoding="utf-8"))
    ids = [rule for rule, _, _ in rows]
    assert len(ids) == len(set(ids))
    assert [(rule, source) for rule, _, source in rows if not SOURCE.match(source)] == []


def test_the_source_pattern_reads_citations() -> None:
    for good in ("000 r2, 001 ¶5, 002 ¶2, 003 ¶9", "000 intro, 001 ¶9–¶10, 003 ¶11", "standard",
                 "001 ¶13 (rake), standard", "000 r8, r10, 003 ¶12, standard", "003 ¶9, ¶12"):
        assert SOURCE.match(good), good
    for bad in ("", "RULES.md", "000", "seed 2", "004 ¶1"):
        assert not SOURCE.match(bad), bad


def test_the_rule_book_keeps_the_ids_of_the_shared_one() -> None:
    if not SHARED_RULE_BOOK.is_file():
        pytest.skip(f"the shared rule book was not found at {SHARED_RULE_BOOK}")
    assert sorted(book_ids(SHARED_RULE_BOOK) ^ _book_ids()) == []


def test_each_constant_is_listed_once_and_named_after_its_id() -> None:
    constants = {name: value for name, value in vars(rules).items() if name.isupper() and isinstance(value, str)}
    assert set(constants.values()) == rules.RULE_IDS
    assert len(constants) == len(rules.RULE_IDS)
    for name, value in constants.items():
        assert name == value.replace(".", "_").upper()


def _string_rule_ids(path: Path) -> list[tuple[int, str]]:
    """String literals in ``path`` that spell a rule id, outside docstrings and comments."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value) for node in ast.walk(tree)
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
        and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        (node.lineno, node.value) for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
        and node.value in rules.RULE_IDS and id(node) not in docstrings
    ]


def test_the_sources_name_rules_only_by_constant() -> None:
    found = {
        f"{path.relative_to(SRC)}:{line}": value
        for path in sorted(SRC.rglob("*.py")) if path != DEFINED
        for line, value in _string_rule_ids(path)
    }
    assert found == {}


def test_the_scan_sees_a_bare_rule_id(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text('"""bet.size in a docstring is fine."""\nstate.flag("bet.size", 3, "x")\n')
    assert _string_rule_ids(sample) == [(2, "bet.size")]


PUBLIC_ONLY = ["settle.py", "snapshot.py", *sorted(p.relative_to(ENGINE).as_posix() for p in (ENGINE / "rules").glob("*.py"))]
"""The engine modules that work from the hand's state through its public parts only:
the rule sections, settlement and the replayer's snapshots (``engine/table.py``'s
``Table`` docstring says what those parts are)."""


def private_uses(source: str) -> list[str]:
    """Each ``x._name`` read, written or called on an object other than ``self``
    (dunders aside), as "line: .name"."""
    return sorted({
        f"{node.lineno}: .{node.attr}" for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id == "self")
    })


def test_private_uses_finds_reads_writes_and_calls() -> None:
    source = "def f(s, p):\n    s._a = s._b\n    s._c(p)\n    s.public(p.__class__, self._own)\n"
    assert private_uses(source) == ["2: ._a", "2: ._b", "3: ._c"]


@pytest.mark.parametrize("module", PUBLIC_ONLY)
def test_the_rules_settlement_and_snapshots_use_only_the_states_public_parts(module: str) -> None:
    """The rule sections, settlement and the replayer's snapshots ask the state through
    its public attributes and call its public methods, never its private names: what a
    rule may read and call is the table's documented API."""
    assert private_uses((ENGINE / module).read_text(encoding="utf-8")) == []


def test_checked_in_says_where_each_rule_is_checked() -> None:
    """CHECKED_IN names exactly the engine modules that name each rule's constant or
    report one of its messages (``engine/messages.py``, where they are defined, aside)."""
    constants = {name: value for name, value in vars(rules).items() if name.isupper() and isinstance(value, str)}
    constants.update({name: message.rule for name, message in messages.MESSAGES.items()})
    found: dict[str, set[str]] = {rule: set() for rule in rules.RULE_IDS}
    for path in sorted(ENGINE.rglob("*.py")):
        if path in (DEFINED, Path(messages.__file__)):
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Name) and node.id in constants:
                found[constants[node.id]].add(path.relative_to(ENGINE).as_posix())
    assert {rule: set(where) for rule, where in rules.CHECKED_IN.items()} == found


def test_the_code_cites_the_rule_book_in_the_docs() -> None:
    """Messages, the violations chart and docstrings cite docs/rules.md, which ships with
    the project, never the shared material's RULES.md, which a clone does not have."""
    cited = {path.relative_to(SRC).as_posix(): path.read_text(encoding="utf-8").count("docs/rules.md")
             for path in sorted(SRC.rglob("*.py"))}
    stale = [path.relative_to(SRC).as_posix() for path in sorted(SRC.rglob("*.py"))
             if "RULES.md" in path.read_text(encoding="utf-8")]
    assert stale == []
    assert cited["plots.py"] >= 1 and cited["engine/rules/__init__.py"] >= 1
    assert RULE_BOOK.is_file()


def private_imports(source: str) -> list[str]:
    """Each ``_name`` (dunders aside) a module takes from another: ``from x import _y``
    (relative or absolute), and ``m._y`` on a name bound by an import (a module, or a
    class taken from one), as "line: x._y"."""
    tree = ast.parse(source)
    imported: set[str] = set()
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported.update(alias.asname or alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            module = "." * node.level + (node.module or "")
            for alias in node.names:
                if _private(alias.name):
                    found.add(f"{node.lineno}: {module}.{alias.name}")
                imported.add(alias.asname or alias.name)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and _private(node.attr)
                and isinstance(node.value, ast.Name) and node.value.id in imported):
            found.add(f"{node.lineno}: {node.value.id}.{node.attr}")
    return sorted(found)


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def test_private_imports_finds_both_forms() -> None:
    source = ("from a.b import _x, y, __version__\nfrom . import c\nfrom .d import _e as e\nimport f.g\n"
              "c._h(y._i, f._j, s._not_a_module, __k.__l)\n")
    assert private_imports(source) == [
        "1: a.b._x", "3: .d._e", "5: c._h", "5: f._j", "5: y._i",
    ]


ENGINE_MODULES = sorted(p.relative_to(ENGINE).as_posix() for p in ENGINE.rglob("*.py"))


@pytest.mark.parametrize("module", ENGINE_MODULES)
def test_no_engine_module_imports_anothers_private_names(module: str) -> None:
    """A module's ``_names`` are its insides: what another module of the engine calls or
    reads is its public surface (named without an underscore, in its ``__all__``).
    (On cbf4535: 50 places in 6 modules: the rule sections took table.py's street and
    kind shortcuts and board keys and each other's functions, state.py the handlers.)"""
    assert private_imports((ENGINE / module).read_text(encoding="utf-8")) == []


def _engine_imports() -> dict[str, set[str]]:
    """What the modules of the engine take from each engine module, by that module's file."""
    taken: dict[str, set[str]] = {}
    for path in ENGINE.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("studbook.engine."):
                target = node.module.removeprefix("studbook.engine.").replace(".", "/") + ".py"
                taken.setdefault(target, set()).update(alias.name for alias in node.names)
    return taken


SHARED = ["table.py", *sorted(p.relative_to(ENGINE).as_posix() for p in (ENGINE / "rules").glob("[!_]*.py"))]
"""The modules whose functions the rule sections share: the table and each section."""


@pytest.mark.parametrize("module", SHARED)
def test_the_shared_modules_list_their_public_surface(module: str) -> None:
    """Each rule section and the table say what they offer in ``__all__``: every name the
    other engine modules import from them, and every public function, each with a
    docstring (which, for a section's, names the rule ids it may report, or says it
    reports nothing)."""
    import importlib

    mod = importlib.import_module("studbook.engine." + module.removesuffix(".py").replace("/", "."))
    public = set(mod.__all__)
    assert len(public) == len(mod.__all__)
    assert sorted(_engine_imports().get(module, set()) - public) == []
    tree = ast.parse((ENGINE / module).read_text(encoding="utf-8"))
    functions = {n.name: n for n in tree.body if isinstance(n, ast.FunctionDef) and not _private(n.name)}
    assert sorted(set(functions) - public) == []
    for name, node in functions.items():
        doc = ast.get_docstring(node) or ""
        assert doc, name
        if module.startswith("rules/"):
            said = set(re.findall(r"\b[a-z]+\.[a-z_]+\b", doc.split("May report:")[-1])) if "May report:" in doc else set()
            assert "May report:" in doc or "Reports nothing" in doc, name
            assert (name, sorted(said)) == (name, sorted(may_report(name))), "the docstring's rule ids"
    for name in public:
        assert hasattr(mod, name), name


def _functions_of_the_rules() -> dict[str, list[ast.FunctionDef]]:
    """The functions of the rule sections and of table.py (its methods too), by name."""
    found: dict[str, list[ast.FunctionDef]] = {}
    for path in [ENGINE / "table.py", *sorted((ENGINE / "rules").glob("*.py"))]:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef):
                found.setdefault(node.name, []).append(node)
    return found


def may_report(function: str) -> set[str]:
    """The rule ids ``function`` may report: those of the messages it names, and of the
    functions it calls, transitively. By name, over the rule sections and table.py (so a
    name two modules both define counts for both: an over-estimate, never an omission)."""
    functions = _functions_of_the_rules()
    rule_of = {name: message.rule for name, message in messages.MESSAGES.items()}
    found: set[str] = set()
    seen, todo = {function}, [function]
    while todo:
        for node in functions.get(todo.pop(), []):
            for sub in ast.walk(node):
                name = sub.id if isinstance(sub, ast.Name) else sub.attr if isinstance(sub, ast.Attribute) else None
                if name in rule_of:
                    found.add(rule_of[name])
                elif name in functions and name not in seen:
                    seen.add(name)
                    todo.append(name)
    return found


def test_may_report_follows_calls() -> None:
    assert may_report("close_round") >= {"deal.pattern", "cards.community", "order.streets"}  # via other sections
    assert "chips.stack" in may_report("post_bring_in")  # via Table.put
    assert may_report("round_opening") == set()
