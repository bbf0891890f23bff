"""The store's faults: SQLite's errors as one line naming the store, with a hint.

Every error a store raises is a :class:`StoreError` (or one of its kinds), made by
:func:`explain` from SQLite's own error where SQLite raised one.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from studbook.printable import printable_path


class StoreError(Exception):
    """The file is not a studbook store this version can read, or the store
    cannot be read or written: one line naming the store, with a hint."""


class DamagedStore(StoreError):
    """The store's file is damaged (``file is not a database``, ``malformed``)."""


class ReadOnlyStore(StoreError):
    """A writing command met a store it may not write to."""


class DiskFull(StoreError):
    """The disk filled up while a file's hands were written; that file was rolled back."""


def integrity(path: str | Path) -> str:
    """The first finding of ``PRAGMA integrity_check`` on ``path`` opened
    read-only, on one line ('ok' for a sound store), or the error that stopped it."""
    try:
        conn = sqlite3.connect(read_only_uri(Path(path)), uri=True)
        try:
            row = conn.execute("PRAGMA integrity_check(1)").fetchone()  # its first finding
        finally:
            conn.close()
    except sqlite3.Error as error:
        return str(error)
    text = str(row[0]) if row else "no answer"
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    summary = " ".join(lines[:3])
    return summary if len(summary) <= 160 else summary[:157] + "..."


def explain(path: str | Path, error: sqlite3.Error, *, writing: str | None = None) -> StoreError:
    """SQLite's ``error`` on the store at ``path`` as one line with a hint.

    ``writing`` names the hand-history file whose hands were being written.
    """
    code = getattr(error, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    store = printable_path(path)
    if primary in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB) or str(error) in _DAMAGED:
        return DamagedStore(
            f"{store}: the store is damaged ({error}; PRAGMA integrity_check: "
            f"{integrity(path)}); keep a copy of it, then import the hand histories "
            "again into a new store")
    if primary == sqlite3.SQLITE_FULL:
        if writing is not None:
            return DiskFull(f"disk full while writing {printable_path(writing)}; "
                            "the store holds every file before it")
        return DiskFull(f"{store}: disk full ({error})")
    if primary == sqlite3.SQLITE_IOERR and writing is not None:
        return DiskFull(f"{error} while writing {printable_path(writing)} (is the disk full, "
                        "or the file too large?); the store holds every file before it")
    if primary == sqlite3.SQLITE_READONLY:
        return ReadOnlyStore(f"{store}: cannot write to the store ({error}); importing needs "
                             "write access to the store and its folder (reading does not)")
    if primary == sqlite3.SQLITE_CANTOPEN:
        return StoreError(f"{store}: cannot open the store ({error}); check that the file and "
                          "its folder exist and may be read (and written, to import)")
    if busy(error):
        return StoreError(f"{store}: the store is busy ({error}): another program is writing "
                          "to it; try again when it is done")
    return StoreError(f"{store}: {error}")


_DAMAGED = {"file is not a database", "database disk image is malformed"}
READONLY_DIRECTORY = 1544  # SQLITE_READONLY_DIRECTORY: no -shm file and no way to create one


def busy(error: sqlite3.Error) -> bool:
    """Whether ``error`` is another connection holding the store (busy or locked)."""
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def read_only_uri(path: Path) -> str:
    """The URI that opens ``path`` read-only (SQLite's ``mode=ro``)."""
    return path.absolute().as_uri() + "?mode=ro"


__all__ = ["DamagedStore", "DiskFull", "READONLY_DIRECTORY", "ReadOnlyStore", "StoreError", "busy", "explain",
           "integrity", "read_only_uri"]
