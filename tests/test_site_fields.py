"""The line readers' typed fields: each handler declares its line kind's fields as a
tuple (``str`` where the grammar always fills the group, ``Optional[str]`` where it
may not), and every line of the real corpus agrees with the declaration.

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

from samples import CORPUS
from studbook.parse import read_file
from studbook.sites import get_site, site_names
from studbook.sites.lines import LineBuilder


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
    index = CORPUS / "INDEX.tsv"
    if not index.is_file():
        pytest.skip(f"corpus absent: {CORPUS}")
    rows = [line.split("\t") for line in index.read_text(encoding="utf-8").splitlines()[1:]]
    named = {"winningpoker": "winning"}
    return [CORPUS / row[2] for row in rows
            if named.get(row[0].lower(), row[0].lower()) == site and (CORPUS / row[2]).is_file()]


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
