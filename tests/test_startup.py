"""Start-up of a one-hand ``studbook check``: what it imports, and the values it keeps.

A one-hand check process needs neither numpy nor pandas nor matplotlib, nor
the site formats after the one that reads its file; the regexes it compiles
and the evaluator's lookups come back from the temporary folder on later runs
(:mod:`studbook.diskmemo`), equal to what deriving them gives.
"""

from __future__ import annotations

import dataclasses
import json
import marshal
import os
import re
import subprocess
import sys
import types
from pathlib import Path

import pytest

from studbook import classcode
from studbook.diskmemo import DiskMemo
from studbook.evaluate import scalar
from studbook.evaluate.tables import build
from studbook.read import regex
from studbook.read.grammar import load_grammar

HISTORIES = Path(__file__).resolve().parent.parent / "histories"
HEAVY = ("numpy", "pandas", "matplotlib", "pyarrow", "multiprocessing")
LAZY = ("studbook.scale",)
"""The package's modules a check in one process does not need (the process pool)."""


def _showdown_hand() -> str:
    """The first hand of the samples that ends in a showdown (the evaluator is needed)."""
    for path in sorted(HISTORIES.glob("HH*Limit Stud.txt")):
        for hand in path.read_text(encoding="utf-8-sig").split("\n\n\n"):
            if "*** SHOW DOWN ***" in hand and "shows [" in hand:
                return hand.strip() + "\n"
    raise AssertionError("no showdown in the samples")


def _check_once(one: Path, tmp: Path) -> tuple[list[str], str, int]:
    script = (
        "import sys, json\n"
        "from studbook.cli import main\n"
        f"code = main(['check', {str(one)!r}, '--format', 'jsonl'])\n"
        "assert code == 0, code\n"
        f"print(json.dumps(sorted(({{m.split('.')[0] for m in sys.modules}} & set({HEAVY!r}))"
        f" | (set(sys.modules) & set({LAZY!r})))), file=sys.stderr)\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.startswith('studbook.sites.'))), file=sys.stderr)\n"
        "from studbook import classcode\n"
        "print(json.dumps(len(classcode._KEPT._added)), file=sys.stderr)\n"
    )
    env = {**os.environ, "TMPDIR": str(tmp)}
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, env=env, check=True)
    heavy, sites, compiled = (json.loads(line) for line in done.stderr.splitlines()[-3:])
    return heavy + sites, done.stdout, compiled


def test_one_hand_check_imports_no_numpy_pandas_matplotlib_pool_nor_other_sites(tmp_path: Path) -> None:
    one = tmp_path / "one.txt"
    one.write_text(_showdown_hand(), encoding="utf-8")
    memo = tmp_path / "memo"
    memo.mkdir()
    _, first, compiled = _check_once(one, memo)  # derives and keeps the regexes, the lookups, the classes' code
    assert {p.name.split("-")[1] for p in memo.glob("studbook-*.marshal")} >= {"regex", "alternatives", "hand", "dataclass"}
    assert compiled > 50  # every dataclass method the check needs
    imported, second, compiled = _check_once(one, memo)
    assert second == first and '"status": "ok"' in second
    assert compiled == 0  # all read back
    site_modules = [m for m in imported if m.startswith("studbook.sites.")]
    assert [m for m in imported if m not in site_modules] == []
    others = {m.rsplit(".", 1)[1] for m in site_modules} - {"base", "lines", "makers", "ledger", "noplay", "pokerstars"}
    assert others == set(), f"site formats imported for a PokerStars hand: {sorted(others)}"


def test_kept_regex_is_the_compiled_regex(tmp_path: Path, monkeypatch) -> None:
    # every terminal of a grammar, and the scanners' alternations, as read back by a later process
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    patterns = [t.pattern.to_regexp() for t in load_grammar("pokerstars").lark.terminals]
    patterns.append("|".join(f"(?:{p})(?P<T{i}>)" for i, p in enumerate(patterns)))
    deriving = DiskMemo("regex", Path(regex.__file__))
    monkeypatch.setattr(regex, "_CODES", deriving)
    first = [regex.compiled(p) for p in patterns]
    deriving.save()
    assert deriving.path().parent == tmp_path
    reading = DiskMemo("regex", Path(regex.__file__))
    monkeypatch.setattr(regex, "_CODES", reading)
    kept = [regex.compiled(p) for p in patterns]
    assert reading._added == {}  # all of them read back, none derived
    lines = [line + "\n" for path in sorted(HISTORIES.glob("HH*.txt"))[:3]
             for line in path.read_text(encoding="utf-8-sig").splitlines()[:400]]  # fmt: skip
    for pattern, derived, read_back in zip(patterns, first, kept):
        plain = re.compile(pattern)
        for made in (derived, read_back):
            assert (made.pattern, made.flags, made.groups, made.groupindex) == (
                plain.pattern, plain.flags, plain.groups, plain.groupindex)
        for line in lines:
            want = plain.match(line)
            got = read_back.match(line)
            assert (want and (want.span(), want.groups(), want.lastgroup)) == (
                got and (got.span(), got.groups(), got.lastgroup))


def test_kept_lookups_are_the_tables(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    here = Path(scalar.__file__).parent
    kept = DiskMemo("hand-values", here / "tables.py", here / "keys.py", here / "values.py")
    monkeypatch.setattr(scalar, "_KEPT", kept)
    monkeypatch.setattr(scalar, "_lookups", None)
    scalar.lookups()
    kept.save()
    by_key, flush = marshal.loads(marshal.loads(kept.path().read_bytes())["lookups"])  # each value on its own
    tables = build()
    assert by_key == tables.by_key and flush == tables.flush
    monkeypatch.setattr(scalar, "_KEPT", DiskMemo("hand-values", here / "tables.py", here / "keys.py", here / "values.py"))
    monkeypatch.setattr(scalar, "_lookups", None)
    assert scalar.lookups() == (tables.by_key, tables.flush)


def test_unreadable_memo_is_empty(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    memo = DiskMemo("broken", Path(__file__))
    memo.path().write_bytes(b"\x00not marshal")
    assert memo.get("key", lambda: 41 + 1) == 42
    memo.save()
    assert DiskMemo("broken", Path(__file__)).get("key", lambda: 0) == 42


_PROBE = """
from dataclasses import dataclass, field


@dataclass(frozen=True, slots=True, order=True)
class Probe:
    a: int
    b: str = "x"
    c: tuple = field(default_factory=tuple)
"""
_METHODS = ("__init__", "__repr__", "__eq__", "__lt__", "__ge__", "__hash__", "__setattr__", "__delattr__")


def _probe(name: str, monkeypatch) -> type:
    module = types.ModuleType(name)
    monkeypatch.setitem(sys.modules, name, module)
    exec(_PROBE, module.__dict__)  # noqa: S102 - a dataclass defined in a module of that name
    made: type = module.Probe
    return made


def _code(cls: type, method: str) -> types.CodeType:
    function = cls.__dict__[method]
    return getattr(function, "__wrapped__", function).__code__  # __repr__ is wrapped against recursion


def test_kept_dataclass_code_is_what_dataclasses_compiles(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    monkeypatch.setattr(classcode, "_KEPT", DiskMemo("dataclass-code"))
    plain = _probe("probe_elsewhere", monkeypatch)  # not the package's: compiled as before, not kept
    assert classcode._KEPT._added == {}
    derived = _probe("studbook.probe_derived", monkeypatch)
    assert len(classcode._KEPT._added) >= len(_METHODS)
    classcode._KEPT.save()
    monkeypatch.setattr(classcode, "_KEPT", DiskMemo("dataclass-code"))  # a later process
    read_back = _probe("studbook.probe_read_back", monkeypatch)
    assert classcode._KEPT._added == {}  # every method read back, none compiled
    for method in _METHODS:
        assert _code(derived, method) == _code(plain, method) == _code(read_back, method), method
    for cls in (plain, derived, read_back):
        one, two = cls(1), cls(2, "y", (3,))
        assert (repr(one), one < two, one == cls(1), hash(one) == hash(cls(1))) == (
            "Probe(a=1, b='x', c=())", True, True, True)
        with pytest.raises(dataclasses.FrozenInstanceError):
            one.a = 3  # type: ignore[misc]


def test_a_memo_unmarshals_only_the_values_asked_for(tmp_path: Path, monkeypatch) -> None:
    # a memo filled by a check of every site holds far more than a one-hand check reads
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    memo = DiskMemo("values", Path(__file__))
    memo.path().write_bytes(marshal.dumps({"asked": marshal.dumps([1, 2]), "other": b"\x00damaged", "bad": b""}))
    assert memo.get("asked", lambda: []) == [1, 2]
    assert memo._added == {}  # read back; "other" never unmarshalled
    assert memo.get("bad", lambda: "derived") == "derived"  # a damaged value is derived again
