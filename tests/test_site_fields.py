"""The line readers' typed fields: each handler declares its line kind's fields as a
tuple (``str`` where the grammar always fills the group, ``Optional[str]`` where it
may not), and every line of the real corpus (and of the hand-made histories of a
site the corpus lacks) agrees with the declaration; the header record the header
handlers fill (``sites.lines.Head``, a site's subclass) holds what it declares.

The types are what lets mypy check the readers without ``# type: ignore``; this test
is what keeps them true: a grammar change that makes a group optional, or adds
one, fails here on the real line that shows it.
"""

from __future__ import annotations

import types
import typing
from pathlib import Path
from typing import Any, Callable

import pytest

from samples import CORPUS, HANDMADE
from studbook.parse import read_file
from studbook.sites import get_site, site_names
from studbook.sites.lines import Head, LineBuilder

SITES = Path(__file__).resolve().parents[1] / "src" / "studbook" / "sites"


def _builders() -> dict[str, type[LineBuilder]]:
    out = {}
    for name in site_names():
        builder = getattr(get_site(name), "builder", None)
        if isinstance(builder, type) and issubclass(builder, LineBuilder):
            out[name] = builder
    return out


def _declared(handler: Callable[..., None]) -> tuple[bool, ...] | None:
    """Per field, whether the handler's declaration says it is always there; None
    for a handler that declares no fixed tuple (``Fields``: it reads any count)."""
    hint = typing.get_type_hints(handler).get("f")
    if typing.get_origin(hint) is not tuple:
        return None
    args = typing.get_args(hint)
    if not args or args[-1] is Ellipsis:
        return None
    return tuple(arg is str for arg in args)


def _corpus_files(site: str) -> list[Path]:
    """The site's corpus files, then its hand-made histories (tests/samples.py)."""
    made = sorted(path for path in (HANDMADE / site).rglob("*") if path.is_file())
    index = CORPUS / "INDEX.tsv"
    if not index.is_file():
        if made:
            return made
        pytest.skip(f"corpus absent: {CORPUS}")
    rows = [line.split("\t") for line in index.read_text(encoding="utf-8").splitlines()[1:]]
    named = {"winningpoker": "winning"}
    return [CORPUS / row[2] for row in rows
            if named.get(row[0].lower(), row[0].lower()) == site and (CORPUS / row[2]).is_file()] + made


def _holds(value: object, hint: object) -> bool:
    """Whether ``value`` is of the type ``hint`` (the few forms a header record uses)."""
    if hint is type(None):
        return value is None
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        return any(_holds(value, arg) for arg in typing.get_args(hint))
    if typing.get_origin(hint) is tuple:
        args = typing.get_args(hint)
        return isinstance(value, tuple) and len(value) == len(args) and all(map(_holds, value, args))
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, typing.cast(type, hint))


def _head_record(cls: type[LineBuilder]) -> dict[str, object]:
    """The keys of the builder's header record and their types."""
    record = typing.get_type_hints(cls).get("head", Head)
    return typing.get_type_hints(record)


def test_some_handlers_declare_their_fields() -> None:
    typed = {(site, kind) for site, cls in _builders().items() for kind, method in cls.HANDLERS.items()
             if _declared(getattr(cls, method)) is not None}
    assert len(typed) >= 30
    assert ("pokerstars", "SEAT") in typed and ("pokerstars", "RAISE") in typed


@pytest.mark.parametrize("site", sorted(_builders()))
def test_every_corpus_line_has_the_fields_its_handler_declares(site: str, monkeypatch: pytest.MonkeyPatch) -> None:
    cls = _builders()[site]
    files = _corpus_files(site)
    if not files:
        pytest.skip(f"no {site} file in the corpus")
    wrong: list[str] = []
    seen: set[str] = set()

    def checked(kind: str, handler: Callable[..., None], required: tuple[bool, ...]) -> Callable[..., None]:
        def run(builder: Any, line_kind: str, f: tuple[str | None, ...], line: int) -> None:
            seen.add(kind)
            if len(f) != len(required) or any(need and value is None for need, value in zip(required, f)):
                wrong.append(f"{builder.file}:{line}: {kind} {f!r} (declared {required})")
            handler(builder, line_kind, f, line)
        return run

    dispatch = dict(cls._dispatch)
    for kind, handler in cls._dispatch.items():
        required = _declared(handler)
        if required is not None:
            dispatch[kind] = checked(kind, handler, required)
    monkeypatch.setattr(cls, "_dispatch", dispatch)
    monkeypatch.setattr(cls, "_plans", {}, raising=False)  # the steps fold the handlers in: fold the checked ones
    hands = 0
    for path in files:
        hands += len(read_file(path, site=site).hands)
    assert not wrong, "\n".join(wrong[:20])
    assert hands and seen, (site, hands)


@pytest.mark.parametrize("site", sorted(_builders()))
def test_every_header_record_holds_what_it_declares(site: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """At the end of every sample hand (built or skipped), each key of the builder's
    ``head`` is one its record declares, with a value of the declared type."""
    cls = _builders()[site]
    files = _corpus_files(site)
    if not files:
        pytest.skip(f"no {site} file in the corpus")
    declared = _head_record(cls)
    wrong: list[str] = []
    heads: list[int] = []

    def checking(method: Callable[..., Any]) -> Callable[..., Any]:
        def run(builder: LineBuilder, *args: Any) -> Any:
            heads.append(len(builder.head))
            for key, value in builder.head.items():
                if key not in declared or not _holds(value, declared[key]):
                    wrong.append(f"{builder.file}:{builder.chunk.first_line}: {key}={value!r} "
                                 f"(declared {declared.get(key, 'nothing')})")  # fmt: skip
            return method(builder, *args)
        return run

    monkeypatch.setattr(LineBuilder, "_hand", checking(LineBuilder._hand))
    monkeypatch.setattr(LineBuilder, "_skipped", checking(LineBuilder._skipped))
    for path in files:
        read_file(path, site=site)
    assert not wrong, "\n".join(wrong[:20])
    assert heads and max(heads) > 0, site


def test_header_records_are_declared_per_site() -> None:
    """A site's own header pieces are in its record, the shared ones in Head."""
    assert {"hand_id", "game", "table", "max_seats", "button", "started", "started_utc"} <= set(_head_record(LineBuilder))
    assert "stakes" in _head_record(_builders()["pokerstars"]) and "stakes" not in _head_record(LineBuilder)


def test_no_type_ignore_in_the_site_readers() -> None:
    """The typed fields and header record let mypy check every reader as written."""
    ignored = [f"{path.name}:{number}: {line.strip()}" for path in sorted(SITES.glob("*.py"))
               for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
               if "type: ignore" in line]  # fmt: skip
    assert not ignored, "\n".join(ignored)
