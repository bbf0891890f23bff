"""Reading a store: its tables as typed frames, whole, in chunks of whole hands, or
a hand's original text.

Rows are read :data:`READ_ROWS` at a time and converted to the frames' dtypes
chunk by chunk (:mod:`studbook.lean`), so reading never holds a table's rows as
Python objects. pandas is imported when a table is first read: writing a store
(``studbook import``) does not need it. These functions take an open connection;
:class:`studbook.store.Store` calls them, inside its error handling.
"""

from __future__ import annotations

import itertools
import sqlite3
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Mapping, Sequence

from studbook.originals import HandSource
from studbook.printable import printable_path
from studbook.rows import SHARED_CATEGORIES, TABLES, table_columns
from studbook.store.faults import StoreError
from studbook.store.prepare import unpack
from studbook.store.schema import ORIGINAL_NAMES

if TYPE_CHECKING:
    import pandas as pd

CHUNK_HANDS = 5_000
"""Hands a chunk of :func:`hand_chunks` holds: ``studbook stats`` over 240,000
hands peaks at 318 MiB with these, 725 MiB with 20,000, in the same CPU time."""
READ_ROWS = 4096
"""Rows read from SQLite at a time when loading frames: their Python objects are
converted to the frames' dtypes chunk by chunk (see :mod:`studbook.lean`)."""


@dataclass(frozen=True, slots=True)
class Original:
    """One hand's original text as the store keeps it."""

    site: str
    hand_id: str
    file: str
    line: int
    text: str
    context: str | None = None  # an XML site's file head (studbook.originals.HandSource)

    @property
    def source(self) -> HandSource:
        return HandSource(self.text, self.context)


def table_frames(conn: sqlite3.Connection, tables: Iterable[str] = TABLES,
                 columns: Mapping[str, Sequence[str]] | None = None,
                 absent: Mapping[str, tuple[str, ...]] | None = None) -> dict[str, pd.DataFrame]:
    """The frames of ``tables``, each with its ``columns`` (default: all; see
    :func:`studbook.rows.table_columns`), sharing categories; ``absent``: the columns
    an older store lacks, by table (read as NA)."""
    from studbook.lean import release_memory, share_categories

    frames = {table: table_frame(conn, table, (columns or {}).get(table), absent=(absent or {}).get(table, ()))
              for table in tables}
    share_categories(frames, SHARED_CATEGORIES)
    release_memory()
    return frames


def table_frame(conn: sqlite3.Connection, table: str, columns: Sequence[str] | None = None, *,
                absent: Sequence[str] = (), where: str = "", params: Sequence[Any] = ()) -> pd.DataFrame:
    """One frame, in the order the rows were stored, read :data:`READ_ROWS` rows at a
    time; ``where`` (SQL, without the word, with ``params``) selects rows; the columns
    ``absent`` are read as NA."""
    from studbook.lean import TableBuilder

    specs = table_columns(table, columns)
    names = ", ".join("NULL" if c.name in absent else f'"{c.name}"' for c in specs)
    clause = f" WHERE {where}" if where else ""
    last = conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0]
    cursor = conn.execute(f"SELECT {names} FROM {table}{clause} ORDER BY rowid", params)
    builder = TableBuilder(specs, rows=last)  # at most the last rowid: more rows than the table holds
    while rows := cursor.fetchmany(READ_ROWS):
        builder.add(rows)
        del rows
    return builder.frame()


def hand_chunks(conn: sqlite3.Connection, store: Path, tables: Sequence[str], *, hands: int | None = None,
                where: str = "", params: Sequence[Any] = ()) -> Iterator[dict[str, pd.DataFrame]]:
    """The frames of ``tables`` (not ``rejects``), ``hands`` stored hands at a
    time, whole hands only, of the hands ``where`` (SQL on ``hands``, with
    ``params``) selects: memory bounded by one chunk, whatever the store's size
    (``hands`` defaults to :data:`CHUNK_HANDS`).

    Each table is read once, in the order its rows were stored: a file's
    rows go in per hand, every table in the hands' order, so the rows of
    one chunk's hands come together. A store whose rows are not in that
    order raises :class:`StoreError` (naming ``store``) rather than give wrong frames.
    """
    from studbook.tables import typed_frame

    keep = f"({where})" if where else "1"
    names = {table: [c.name for c in table_columns(table)] for table in tables}
    others = [table for table in tables if table != "hands"]
    keyed = conn.execute(
        f"SELECT {', '.join(_quoted(names.get('hands', ['site', 'hand_id'])))}, {keep} "
        f"FROM hands ORDER BY rowid", params)
    cursors = {table: _rows(conn.execute(
        f"SELECT {', '.join(_quoted(names[table]))} FROM {table} ORDER BY rowid")) for table in others}
    pending: dict[str, tuple[Any, ...] | None] = {table: None for table in others}
    while batch := keyed.fetchmany(hands or CHUNK_HANDS):
        kept = {(row[0], row[1]): bool(row[-1]) for row in batch}
        rows = {"hands": [row[:-1] for row in batch if row[-1]]}
        for table in others:
            rows[table], pending[table] = _take(cursors[table], pending[table], kept, store)
        yield {table: typed_frame(table, rows[table]) for table in tables}
    for table in others:
        if pending[table] is not None or next(cursors[table], None) is not None:
            raise _out_of_order(store)


def originals(conn: sqlite3.Connection, keys: Iterable[tuple[str, str]] | None = None) -> Iterator[Original]:
    """The original texts of the hands ``keys`` ((site, hand_id) pairs, in that
    order, those stored), or of every hand in import order."""
    query = f"SELECT {', '.join(ORIGINAL_NAMES)} FROM originals"  # unpacked below in this order
    if keys is None:
        rows: Iterable[tuple[Any, ...]] = conn.execute(query + " ORDER BY rowid")
    else:
        found = (conn.execute(query + " WHERE site = ? AND hand_id = ?", key).fetchone() for key in keys)
        rows = (row for row in found if row is not None)
    for site, hand_id, file, line, text, context in rows:
        yield Original(site, hand_id, file, line, unpack(text) or "", unpack(context))


def counts(conn: sqlite3.Connection, tables: Iterable[str] = TABLES) -> dict[str, int]:
    """Rows of each of ``tables`` (each a scan of the table: name only those needed)."""
    return {table: conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0] for table in tables}


def _quoted(names: Iterable[str]) -> list[str]:
    return [f'"{name}"' for name in names]


def _rows(cursor: sqlite3.Cursor) -> Iterator[tuple[Any, ...]]:
    while rows := cursor.fetchmany(READ_ROWS):
        yield from rows


def _out_of_order(store: Path) -> StoreError:
    return StoreError(f"{printable_path(store)}: rows not in the order of their hands (or of no "
                      "stored hand): this store cannot be read in chunks; read it whole (studbook.load)")


def _take(rows: Iterator[tuple[Any, ...]], first: tuple[Any, ...] | None, hands: dict[tuple[str, str], bool],
          store: Path) -> tuple[list[tuple[Any, ...]], tuple[Any, ...] | None]:
    """The rows of ``hands`` (key -> kept) that come next, the kept ones, and the first
    row of a later hand (None at the end). ``first`` is the row left over before."""
    out: list[tuple[Any, ...]] = []
    if first is not None:
        if (first[0], first[1]) not in hands:
            raise _out_of_order(store)
        rows = itertools.chain((first,), rows)
    for row in rows:
        kept = hands.get((row[0], row[1]))
        if kept is None:
            return out, row
        if kept:
            out.append(row)
    return out, None


__all__ = ["CHUNK_HANDS", "READ_ROWS", "Original", "counts", "hand_chunks", "originals", "table_frame", "table_frames"]
