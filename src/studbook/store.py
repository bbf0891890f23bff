"""The embedded store: the frames' six tables in one SQLite file.

SQLite (the standard library's ``sqlite3``) rather than DuckDB: no dependency,
one file, real transactions, and reading a 10,000-hand store back into frames
takes well under a second either way (see ``benchmarks/bench_store.py``).

Tables and columns are exactly :data:`studbook.frames.SCHEMA`; amounts are
INTEGER minor units (``frames.MONEY_SCALE``), booleans 0/1, times ISO-8601 UTC
text, so the file is easy to query with any SQLite tool. ``hands`` is keyed by
``(site, hand_id)``: adding a hand already stored does nothing, and every hand
goes in with all its rows in one transaction, so an interrupted import leaves
whole hands only. ``rejects`` is keyed by ``(status, file, hand_line)``.
Two bookkeeping tables sit beside the frames' six: ``meta`` (schema version,
money scale) and ``files`` (each imported file's SHA-256, so that importing
an unchanged file again does not even parse it).
"""

from __future__ import annotations

import hashlib
import sqlite3
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Sequence

import pandas as pd

from studbook.engine.result import HandCheck
from studbook.events import Rejected, Skipped
from studbook.frames import (
    MONEY_SCALE, SCHEMA, SHARED_CATEGORIES, TABLES, CheckResult, Frames, rows_from_checks, table_columns,
)
from studbook.lean import TableBuilder, release_memory, share_categories

SCHEMA_VERSION = "1"
_MAGIC = b"SQLite format 3\x00"
_SQL_TYPES = {"string": "TEXT", "category": "TEXT", "bool": "INTEGER", "float64": "REAL",
              "datetime64[ns, UTC]": "TEXT",
              **{f"{i}nt{bits}": "INTEGER" for i in "iI" for bits in (8, 16, 32, 64)}}
READ_ROWS = 4096
"""Rows read from SQLite at a time when loading frames: their Python objects are
converted to the frames' dtypes chunk by chunk (see :mod:`studbook.lean`)."""
_KEYS = {"hands": "PRIMARY KEY (site, hand_id)",
         "rejects": "UNIQUE (status, file, hand_line)"}


FILES_SQL = (
    "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, "
    "size INTEGER NOT NULL, results INTEGER NOT NULL, imported_utc TEXT NOT NULL)"
)
"""Bookkeeping, not frames: each imported file's content hash, so an unchanged file
is not parsed again (a file that grew, as a day's log does, is)."""


class StoreError(Exception):
    """The file is not a studbook store this version can read."""


@dataclass
class ImportSummary:
    """What one import did. ``new`` hands were stored; ``duplicate`` ones were already there."""

    new: int = 0
    duplicate: int = 0
    skipped: int = 0
    rejected: int = 0
    with_violations: int = 0  # among the new hands
    violations: int = 0  # violations in the new hands
    unchanged_files: int = 0  # files imported before with the same content: not parsed
    problems: list[Rejected | Skipped] = field(default_factory=list)

    @property
    def seen(self) -> int:
        return self.new + self.duplicate + self.skipped + self.rejected


def is_store(path: str | Path) -> bool:
    """True when ``path`` is an SQLite file (a store, or one to be refused clearly)."""
    try:
        with open(path, "rb") as handle:
            return handle.read(len(_MAGIC)) == _MAGIC
    except OSError:
        return False


def _create_sql() -> Iterator[str]:
    yield "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
    yield FILES_SQL
    for table, columns in SCHEMA.items():
        defs = [
            f'"{c.name}" {_SQL_TYPES[c.dtype]}'
            + (" NOT NULL" if c.dtype == "bool" or c.dtype.startswith("int") else "")
            for c in columns
        ]
        if table in _KEYS:
            defs.append(_KEYS[table])
        yield f"CREATE TABLE IF NOT EXISTS {table} ({', '.join(defs)})"


class Store:
    """An open store. Use as a context manager; ``add`` imports, ``frames`` reads."""

    def __init__(self, path: str | Path, *, create: bool = True) -> None:
        self.path = Path(path)
        if not create and not self.path.exists():
            raise StoreError(f"{path}: no such store")
        if self.path.exists() and self.path.stat().st_size and not is_store(self.path):
            raise StoreError(f"{path}: not an SQLite file")
        self.conn = sqlite3.connect(self.path, isolation_level=None)  # explicit transactions
        self.conn.execute("PRAGMA journal_mode=WAL")
        self.conn.execute("PRAGMA synchronous=NORMAL")
        self._init_schema()
        self._keys: set[tuple[str, str]] | None = None

    def __enter__(self) -> Store:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.conn.close()

    def _init_schema(self) -> None:
        tables = {row[0] for row in self.conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'")}
        if tables and "meta" not in tables:
            raise StoreError(f"{self.path}: an SQLite file but not a studbook store")
        if "meta" in tables:
            meta = dict(self.conn.execute("SELECT key, value FROM meta").fetchall())
            if meta.get("schema_version") != SCHEMA_VERSION:
                raise StoreError(f"{self.path}: store schema version "
                                 f"{meta.get('schema_version')}, expected {SCHEMA_VERSION}")
            if meta.get("money_scale") != str(MONEY_SCALE):
                raise StoreError(f"{self.path}: money scale {meta.get('money_scale')}")
            return
        self.conn.execute("BEGIN")
        try:
            for statement in _create_sql():
                self.conn.execute(statement)
            self.conn.executemany("INSERT INTO meta VALUES (?, ?)", [
                ("schema_version", SCHEMA_VERSION), ("money_scale", str(MONEY_SCALE))])
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise

    # -- files already imported ---------------------------------------------

    def imported(self, path: str | Path, sha256: str) -> bool:
        """True when the file at ``path`` was imported with exactly this content."""
        row = self.conn.execute("SELECT sha256 FROM files WHERE path = ?",
                                (str(Path(path).resolve()),)).fetchone()
        return row is not None and row[0] == sha256

    def record_file(self, path: str | Path, sha256: str, results: int) -> None:
        """Remember that ``path`` (with this content) has been imported."""
        resolved = Path(path).resolve()
        size = resolved.stat().st_size if resolved.exists() else 0
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self.conn.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)",
                          (str(resolved), sha256, size, results, stamp))

    # -- writing -----------------------------------------------------------

    def keys(self) -> set[tuple[str, str]]:
        if self._keys is None:
            self._keys = set(self.conn.execute("SELECT site, hand_id FROM hands").fetchall())
        return self._keys

    def add(
        self,
        results: Iterable[CheckResult],
        *,
        batch_size: int = 500,
        on_result: Callable[[CheckResult], None] | None = None,
        summary: ImportSummary | None = None,
    ) -> ImportSummary:
        """Store the new hands of ``results``; count duplicates, skipped and rejected.

        Hands are written in transactions of at most ``batch_size`` results,
        and the last batch when ``results`` ends (so one call per file is one
        transaction per file): an interruption loses at most the batch in
        progress, never part of a hand. Counts are added to ``summary`` when
        given.
        """
        summary = summary if summary is not None else ImportSummary()
        keys = self.keys()
        batch: list[CheckResult] = []
        batch_keys: set[tuple[str, str]] = set()
        for result in results:
            if on_result is not None:
                on_result(result)
            if isinstance(result, HandCheck):
                key = (result.hand.site, result.hand.hand_id)
                if key in keys or key in batch_keys:
                    summary.duplicate += 1
                    continue
                batch_keys.add(key)
            batch.append(result)
            if len(batch) >= batch_size:
                self._write(batch, summary)
                keys |= batch_keys
                batch, batch_keys = [], set()
        if batch:
            self._write(batch, summary)
            keys |= batch_keys
        return summary

    def _write(self, batch: list[CheckResult], summary: ImportSummary) -> None:
        rows = rows_from_checks(batch)
        self.conn.execute("BEGIN")
        try:
            for table in TABLES:
                self._insert(table, rows[table])
            self.conn.execute("COMMIT")
        except BaseException:
            self.conn.execute("ROLLBACK")
            raise
        summary.new += len(rows["hands"])
        summary.with_violations += sum(row[_HAND_VIOLATIONS] > 0 for row in rows["hands"])
        summary.violations += len(rows["violations"])
        for result in batch:
            if isinstance(result, Skipped):
                summary.skipped += 1
                summary.problems.append(result)
            elif isinstance(result, Rejected):
                summary.rejected += 1
                summary.problems.append(result)
        unstorable = len(rows["rejects"]) - sum(
            isinstance(r, (Rejected, Skipped)) for r in batch)
        summary.rejected += unstorable  # hands whose amounts could not be stored exactly

    def _insert(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        if not rows:
            return
        names = ", ".join(f'"{c.name}"' for c in SCHEMA[table])
        marks = ", ".join("?" for _ in SCHEMA[table])
        verb = "INSERT OR IGNORE" if table == "rejects" else "INSERT"
        self.conn.executemany(f"{verb} INTO {table} ({names}) VALUES ({marks})", _sql_rows(table, rows))

    # -- reading -----------------------------------------------------------

    def frames(self) -> Frames:
        return Frames(**self.tables())

    def tables(self, tables: Iterable[str] = TABLES,
               columns: dict[str, Sequence[str]] | None = None) -> dict[str, pd.DataFrame]:
        """The frames of ``tables``, each with its ``columns`` (default: all; see
        :func:`studbook.frames.table_columns`), sharing categories."""
        frames = {table: self.read_table(table, (columns or {}).get(table)) for table in tables}
        share_categories(frames, SHARED_CATEGORIES)
        release_memory()
        return frames

    def read_table(self, table: str, columns: Sequence[str] | None = None) -> pd.DataFrame:
        """One frame, in the order the rows were stored, read :data:`READ_ROWS` rows at a time."""
        specs = table_columns(table, columns)
        names = ", ".join(f'"{c.name}"' for c in specs)
        last = self.conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0]
        cursor = self.conn.execute(f"SELECT {names} FROM {table} ORDER BY rowid")
        builder = TableBuilder(specs, rows=last)  # at most the last rowid: rows are never deleted
        while rows := cursor.fetchmany(READ_ROWS):
            builder.add(rows)
            del rows
        return builder.frame()

    def counts(self) -> dict[str, int]:
        return {table: self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                for table in TABLES}


def _iso_utc(value: Any) -> str | None:
    """A start time as ISO-8601 UTC text (naive times are UTC already)."""
    if value is None or pd.isna(value):
        return None
    when = pd.Timestamp(value)
    return (when.tz_localize("UTC") if when.tzinfo is None else when.tz_convert("UTC")).isoformat()


_HAND_VIOLATIONS = [c.name for c in SCHEMA["hands"]].index("violations")


def _sql_rows(table: str, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The rows as SQLite takes them. The values are plain Python already
    (ints, floats, bools, strings, None) and each column's affinity stores
    them as its type; times are written out as ISO-8601 UTC text, and
    booleans as ints, which sqlite3 binds without looking for an adapter
    (it looks for one for every bool, at a cost that showed in profiles)."""
    columns = SCHEMA[table]
    times = [i for i, column in enumerate(columns) if column.dtype.startswith("datetime64")]
    flags = [i for i, column in enumerate(columns) if column.dtype == "bool"]
    if not times and not flags:
        return rows
    out = []
    for row in rows:
        values = list(row)
        for i in flags:
            values[i] = 1 if values[i] else 0
        for i in times:
            values[i] = _iso_utc(values[i])
        out.append(tuple(values))
    return out


def file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_frames(path: str | Path) -> Frames:
    """All six frames of the store at ``path``."""
    return Frames(**read_tables(path))


def read_tables(path: str | Path, tables: Iterable[str] = TABLES,
                columns: dict[str, Sequence[str]] | None = None) -> dict[str, pd.DataFrame]:
    """The frames of ``tables`` (with their ``columns``) of the store at ``path``."""
    with Store(path, create=False) as store:
        return store.tables(tables, columns)


def import_results(path: str | Path, results: Iterable[CheckResult], **kw: Any) -> ImportSummary:
    """Open (or create) the store at ``path`` and add ``results`` to it."""
    with Store(path) as store:
        return store.add(results, **kw)


__all__ = ["ImportSummary", "SCHEMA_VERSION", "Store", "StoreError", "file_sha256",
           "import_results", "is_store", "read_frames", "read_tables"]
