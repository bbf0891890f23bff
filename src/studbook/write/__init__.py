"""Writers: Hand -> site text (:mod:`~studbook.write.pokerstars`), and the formats of
``studbook export``, one module a format, each registering its writer here.

A format is a :class:`HandWriter` (one text a hand: to one stream, or with
``--split`` one file a hand) or a :class:`FramesWriter` (the frames' tables, one
file a table in a folder). Writers get plain data (:class:`HandOut`,
:class:`TablesOut`), never the checker, the frames or the store, so that they sit
below them; ``studbook export`` looks a format up in :func:`writers` (its
``--format`` choices). Adding a format is one module calling :func:`register`,
named in :data:`BUILTIN` (or imported by the program that uses it).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Mapping, Sequence, Union

from studbook.events import Hand
from studbook.money import Money
from studbook.write.pokerstars import write_hand, write_hands

if TYPE_CHECKING:
    import pandas as pd


class NotWritten(ValueError):
    """A hand (or the frames) that a format cannot write, with the one-line reason
    ``studbook export`` prints (naming the hand, or what to install)."""


@dataclass(frozen=True, slots=True)
class HandOut:
    """A selected hand as a :class:`HandWriter` gets it."""

    site: str
    hand_id: str
    hand: Hand | None  # the parsed hand; None where the writer wants the text alone
    text: str | None  # its original text, where the writer wants it (None: not kept)
    collected: Mapping[str, Money] = field(default_factory=dict)  # by player: what the checker settled
    net: Mapping[str, Money] = field(default_factory=dict)  # by player: won less put in


def _as_is(number: int, text: str) -> str:
    return text


@dataclass(frozen=True, slots=True)
class HandWriter:
    """A format that writes one text a hand.

    ``render`` gives a hand's text or raises :class:`NotWritten`; ``joined`` gives the
    ``number``-th text (from 1) as it goes into one stream (a separator, a table
    header); ``suffix``, when given, names a hand's file with ``--split`` (without it,
    the format has no ``--split``). ``wants_hand``: the hand parsed and checked (from a
    store, its kept text is read again); ``wants_text``: its original text.
    """

    name: str
    title: str  # what --help calls it ("PHH", "JSON lines")
    render: Callable[[HandOut], str]
    joined: Callable[[int, str], str] = _as_is
    suffix: Callable[[str], str] | None = None
    wants_hand: bool = True
    wants_text: bool = False


@dataclass(frozen=True, slots=True)
class TablesOut:
    """The frames as a :class:`FramesWriter` gets them: each table's name and frame, in
    schema order; ``meta``, the store's schema version, money scale and studbook's
    version; ``dtypes``, each table's columns and their dtypes (docs/schema.md)."""

    tables: Sequence[tuple[str, pd.DataFrame]]
    meta: Mapping[str, Any]
    dtypes: Mapping[str, Mapping[str, str]]


@dataclass(frozen=True, slots=True)
class FramesWriter:
    """A format that writes the frames' tables into a folder (``-o DIR``); ``write``
    raises :class:`NotWritten` when it cannot (a missing optional package)."""

    name: str
    title: str
    write: Callable[[TablesOut, Path], None]


Writer = Union[HandWriter, FramesWriter]

BUILTIN = ("phh", "original", "parquet", "csv", "jsonl")
"""The modules of :mod:`studbook.write` holding the built-in formats, in ``--help`` order;
imported when the formats are first asked for (Parquet's, CSV's bring pandas)."""
_REGISTERED: dict[str, Writer] = {}


def register(writer: Writer) -> Writer:
    """Make ``writer`` a format of ``studbook export`` (under its ``name``, replacing
    one of that name)."""
    _REGISTERED[writer.name] = writer
    return writer


def unregister(name: str) -> None:
    """Forget the format ``name`` (a program's own, say)."""
    _REGISTERED.pop(name, None)


def writers() -> dict[str, Writer]:
    """Every format by name: the built-in ones in :data:`BUILTIN` order, then the others
    in the order they were registered."""
    for module in BUILTIN:
        importlib.import_module(f"{__name__}.{module}")
    ordered = {name: _REGISTERED[name] for name in BUILTIN if name in _REGISTERED}
    return {**ordered, **_REGISTERED}


__all__ = ["BUILTIN", "FramesWriter", "HandOut", "HandWriter", "NotWritten", "TablesOut", "Writer", "register",
           "unregister", "writers", "write_hand", "write_hands"]
