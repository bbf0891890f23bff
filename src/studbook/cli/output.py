"""Tables out: ``--format text|csv|json`` the same way for every reading command.

``csv`` and ``json`` give one record per row with plain values: exact
decimals as strings, times as ISO-8601, durations in seconds, no value
(empty / null) where a figure is missing.
"""

from __future__ import annotations

import json
import math
import sys
from decimal import Decimal
from typing import Any, Callable

import pandas as pd

from studbook.write.csv import spreadsheet_safe, write_csv  # every CSV studbook writes: spreadsheet-safe cells

FORMATS = ("text", "csv", "json")


def plain(value: Any) -> Any:
    """A table cell as JSON and CSV take it."""
    if value is None or value is pd.NA or value is pd.NaT:
        return None
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, float) and math.isnan(value):
        return None
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    if isinstance(value, pd.Timedelta):
        return value.total_seconds()
    if hasattr(value, "item"):
        return value.item()
    return value


def records(table: pd.DataFrame) -> list[dict[str, Any]]:
    return [{k: plain(v) for k, v in row.items()} for row in table.to_dict("records")]


def write(table: pd.DataFrame, fmt: str, text: Callable[[pd.DataFrame], str],
          empty: str = "no hands match") -> None:
    """``table`` to stdout: ``text(table)`` (or ``empty``), CSV or JSON."""
    if fmt == "csv":
        write_csv(pd.DataFrame(records(table), columns=table.columns), sys.stdout)
    elif fmt == "json":
        json.dump(records(table), sys.stdout, indent=2, ensure_ascii=False)
        print()
    else:
        print(text(table) if len(table) else empty)


def aligned(view: pd.DataFrame, left: tuple[str, ...] = ()) -> str:
    """``view`` as text columns: the ``left`` ones (words, cards, lists) aligned
    left, header and values, the others (figures) right as pandas aligns them."""
    widths = {name: _width(view[name], name) for name in left if name in view.columns}
    formatters = {name: _left(width) for name, width in widths.items()}
    header = [name.ljust(widths[name]) if name in widths else name for name in view.columns]
    text = view.to_string(index=False, formatters=formatters, header=header)
    return "\n".join(line.rstrip() for line in text.splitlines())


def _width(column: pd.Series, name: str) -> int:
    return max([len(name), *(len(str(value)) for value in column)])


def _left(width: int) -> Callable[[Any], str]:
    return lambda value: f"{value!s:<{width}}"


def note(message: str, fmt: str) -> None:
    """A line about the output (the hero, hands left out): with the text, or on
    stderr when the output is CSV or JSON."""
    print(message, file=sys.stdout if fmt == "text" else sys.stderr)


__all__ = ["FORMATS", "aligned", "note", "plain", "records", "spreadsheet_safe", "write", "write_csv"]
