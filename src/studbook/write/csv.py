"""``--format csv``: each table as ``<table>.csv`` in the folder, every text cell
spreadsheet-safe (:func:`spreadsheet_safe`), and ``schema.json`` beside them (the
schema version, money scale, studbook's version and each table's dtypes). Every CSV
studbook writes (``stats --format csv`` too) goes through :func:`write_csv`."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pandas as pd

from studbook.write import FramesWriter, TablesOut, register

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_safe(cell: Any) -> Any:
    """A CSV cell a spreadsheet will not run: text that starts with ``=``, ``+``,
    ``-``, ``@``, a tab or a carriage return (a player named ``=HYPERLINK(...)``)
    gets a leading ``'`` (the OWASP rule); numbers, ``-0.13`` written as text
    too, are left as they are. Parquet and JSON keep the raw values."""
    if isinstance(cell, str) and cell.startswith(_FORMULA_START) and not _NUMBER.fullmatch(cell):
        return "'" + cell
    return cell


def write_csv(table: pd.DataFrame, target: Any) -> None:
    """``table`` as CSV (no index) to a path or a text stream, each text cell
    through :func:`spreadsheet_safe`: every CSV studbook writes goes through here."""
    safe = table.copy(deep=False)
    for name in safe.columns:
        column = safe[name]
        if column.dtype == object or isinstance(column.dtype, (pd.CategoricalDtype, pd.StringDtype)):
            safe[name] = column.astype(object).map(spreadsheet_safe)
    safe.to_csv(target, index=False)


def write(out: TablesOut, folder: Path) -> None:
    """The tables as ``folder/<table>.csv`` and ``folder/schema.json``."""
    for name, frame in out.tables:
        write_csv(frame, folder / f"{name}.csv")
    tables = {name: dict(dtypes) for name, dtypes in out.dtypes.items()}
    (folder / "schema.json").write_text(json.dumps({**out.meta, "tables": tables}, indent=2) + "\n",
                                        encoding="utf-8")


WRITER = register(FramesWriter("csv", "CSV", write))

__all__ = ["WRITER", "spreadsheet_safe", "write_csv"]
