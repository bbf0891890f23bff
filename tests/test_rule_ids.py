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
