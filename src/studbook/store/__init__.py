"""The embedded store: the frames' seven tables in one SQLite file.

SQLite (the standard library's ``sqlite3``) rather than DuckDB: no dependency,
one file, real transactions, and reading a 10,000-hand store back into frames
takes well under a second either way (see ``benchmarks/bench_store.py``).

Tables and columns are exactly :data:`studbook.rows.SCHEMA`; amounts are
INTEGER minor units (``rows.MONEY_SCALE``), booleans 0/1, times ISO-8601 UTC
text, so the file is easy to query with any SQLite tool. ``hands`` is keyed by
``(site, hand_id)``: adding a hand already stored does nothing. One call of
:meth:`Store.add` is one transaction, and ``studbook import`` makes one call
per file, with the file's ``files`` row in the same transaction: an
interrupted import (a kill, a full disk) leaves whole files only, and a file
is marked imported only when its hands are stored. ``rejects`` is keyed by
``(status, file, hand_line)``.
Three bookkeeping tables sit beside the frames' seven: ``meta`` (schema version,
money scale), ``files`` (each imported file's SHA-256, so that importing
an unchanged file again does not even parse it) and ``originals``, each
stored hand's original text (zstd-compressed UTF-8; a store written before
2026-12-02 holds zlib streams, read as well) with its file and first
line, written in the same transaction as the hand's rows.

Faults. Reading (``read_frames``, ``Store(path, create=False)``) opens the
file read-only (SQLite's ``mode=ro`` URI) and never writes, so a read-only
store or folder can be read. Writers take the write lock when a file's
transaction begins (``BEGIN IMMEDIATE``) and wait for one another, and check
their hands against the store inside that transaction, so imports running at
the same time into one store serialise. SQLite's errors become a
:class:`StoreError` naming the store, with a hint (:func:`explain`); file
names that are not valid UTF-8 are stored escaped (:func:`printable_path`).

One module a job: :mod:`~studbook.store.schema` (tables, SQL, migrations of older
stores), :mod:`~studbook.store.faults` (errors and their hints),
:mod:`~studbook.store.prepare` (checked hands as the rows it inserts, no store
needed), :mod:`~studbook.store.read` (tables as frames, chunks of hands, original
texts) and :mod:`~studbook.store.db` (:class:`Store`: opening, transactions, the
write path). The store sits below :mod:`studbook.frames`: it builds its frames
with :mod:`studbook.tables`, and :func:`studbook.frames.load` reads a store
through it, never the other way round.
"""

from __future__ import annotations

from studbook.printable import printable_path
from studbook.store.db import ImportSummary, Store, WRITE_WAIT, file_sha256, import_results, read_frames, read_tables
from studbook.store.faults import DamagedStore, DiskFull, ReadOnlyStore, StoreError, explain, integrity
from studbook.store.prepare import PreparedRows, prepare_rows
from studbook.store.read import Original
from studbook.store.schema import SCHEMA_VERSION, is_store

__all__ = ["DamagedStore", "DiskFull", "ImportSummary", "Original", "PreparedRows", "ReadOnlyStore", "SCHEMA_VERSION",
           "Store", "StoreError", "WRITE_WAIT", "explain", "file_sha256", "import_results", "integrity",
           "is_store", "prepare_rows", "printable_path", "read_frames", "read_tables"]
