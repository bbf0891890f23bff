"""The store's schema: its tables, their SQL, and the migrations of older stores.

Tables and columns are exactly :data:`studbook.rows.SCHEMA`; amounts are INTEGER
minor units (:data:`studbook.rows.MONEY_SCALE`), booleans 0/1, times ISO-8601 UTC
text. Three bookkeeping tables sit beside the frames' seven: ``meta`` (schema
version, money scale), ``files`` and ``originals``. A store of an older version
that only lacks the columns :data:`ADDED_COLUMNS` lists is read with them NA and
brought up to date the first time it is opened for writing (:func:`add_columns`).
A new store is made in one step (:func:`create_store`), so a killed import never leaves
a store without its schema.
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import time
from pathlib import Path
from typing import Iterator

from studbook.rows import MONEY_SCALE, SCHEMA

SCHEMA_VERSION = "6"  # 2: hands.notes and the notes table; 3: the originals table; 4: players.finish_*;
# 5: the violations' fields (street, party, seat, expected, actual); 6: hands.hero, hands.hero_mark
ADDED_COLUMNS: dict[str, dict[str, tuple[str, ...]]] = {
    "4": {"players": ("finish_place", "finish_prize")},
    "5": {"violations": ("street", "party", "seat", "expected", "actual")},
    "6": {"hands": ("hero", "hero_mark")},
}
"""The columns each schema version added. A store of an older version that only
lacks these is read with them NA, and brought up to date (``ALTER TABLE ... ADD
COLUMN``, no row rewritten) the first time it is opened for writing."""
_MAGIC = b"SQLite format 3\x00"
_SQL_TYPES = {"string": "TEXT", "category": "TEXT", "bool": "INTEGER", "float64": "REAL",
              "datetime64[ns, UTC]": "TEXT",
              **{f"{i}nt{bits}": "INTEGER" for i in "iI" for bits in (8, 16, 32, 64)}}

_KEYS = {"hands": "PRIMARY KEY (site, hand_id)",
         "rejects": "UNIQUE (status, file, hand_line)"}


FILES_SQL = (
    "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, "
    "size INTEGER NOT NULL, results INTEGER NOT NULL, imported_utc TEXT NOT NULL)"
)
"""Bookkeeping, not frames: each imported file's content hash, so an unchanged file
is not parsed again (a file that grew, as a day's log does, is)."""


ORIGINALS_COLUMNS: tuple[tuple[str, str], ...] = (
    ("site", "TEXT NOT NULL"), ("hand_id", "TEXT NOT NULL"), ("file", "TEXT NOT NULL"), ("line", "INTEGER NOT NULL"),
    ("text", "BLOB NOT NULL"), ("context", "BLOB"),
)
"""The originals table's columns and their SQL, in order: its CREATE, its INSERT
(:func:`studbook.store.prepare.originals_sql`) and its reading name them from here."""
ORIGINAL_NAMES = tuple(name for name, _ in ORIGINALS_COLUMNS)

ORIGINALS_SQL = (
    "CREATE TABLE IF NOT EXISTS originals ("
    + ", ".join(f"{name} {sql}" for name, sql in ORIGINALS_COLUMNS) + ", PRIMARY KEY (site, hand_id))"
)
"""Each stored hand's original text, compressed (:func:`studbook.store.prepare.pack`), and for an XML site the file's
head its reader needs to read the hand again (see :mod:`studbook.originals`)."""


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
    yield ORIGINALS_SQL
    for table, columns in SCHEMA.items():
        defs = [_column_sql(c.name, c.dtype) for c in columns]
        if table in _KEYS:
            defs.append(_KEYS[table])
        yield f"CREATE TABLE IF NOT EXISTS {table} ({', '.join(defs)})"


def _column_sql(name: str, dtype: str) -> str:
    return f'"{name}" {_SQL_TYPES[dtype]}' + (" NOT NULL" if dtype == "bool" or dtype.startswith("int") else "")


def added_since(version: str | None) -> dict[str, tuple[str, ...]] | None:
    """The columns added after ``version`` by table, or None when a store of that
    version cannot be read by this one."""
    if version is None or not version.isdigit() or not 3 <= int(version) <= int(SCHEMA_VERSION):
        return None
    added: dict[str, tuple[str, ...]] = {}
    for later in range(int(version) + 1, int(SCHEMA_VERSION) + 1):
        for table, names in ADDED_COLUMNS.get(str(later), {}).items():
            added[table] = added.get(table, ()) + names
    return added


def add_columns(conn: sqlite3.Connection, added: dict[str, tuple[str, ...]]) -> None:
    """Add the columns ``added`` (by table; see :func:`added_since`) that the store's
    tables lack (another writer may have added some), and mark the store as of this
    version: the migration of an older store, inside the caller's transaction."""
    for table, names in added.items():
        present = {row[1] for row in conn.execute(f"PRAGMA table_info({table})")}
        missing = [n for n in names if n not in present]
        for column in (c for c in SCHEMA[table] if c.name in missing):
            conn.execute(f"ALTER TABLE {table} ADD COLUMN {_column_sql(column.name, column.dtype)}")
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION,))


def write_schema(conn: sqlite3.Connection) -> None:
    """The tables and the meta rows of a new store (inside the caller's transaction)."""
    for statement in _create_sql():
        conn.execute(statement)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [
        ("schema_version", SCHEMA_VERSION), ("money_scale", str(MONEY_SCALE))])


def create_store(path: Path) -> None:
    """Make a new store at ``path`` in one step: its schema is written to a
    temporary file beside it, synced to the disk once it is whole (not at each of
    SQLite's steps), then linked to ``path`` (where a store
    another import made meanwhile is left alone). A ``kill -9`` while a store
    is created so leaves no store (and at most a hidden ``.NAME.*.new`` file),
    never an empty file without the schema (a leftover is removed by a later
    writer, :func:`sweep`). Where the temporary file cannot
    be made or linked (an unwritable folder, no hard links), the store is made
    in place, and opening it says what went wrong."""
    try:
        handle, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".new", dir=path.absolute().parent)
    except OSError:
        return
    os.close(handle)
    temp = Path(name)
    try:
        mask = os.umask(0)
        os.umask(mask)
        temp.chmod(0o666 & ~mask)  # as SQLite would create it, not mkstemp's 0600
        conn = sqlite3.connect(temp, isolation_level=None)
        try:
            # no sync of each step SQLite takes: nothing but this connection
            # sees the file before it is linked, and it is synced once, whole, below
            conn.execute("PRAGMA synchronous=OFF")
            conn.execute("PRAGMA journal_mode=WAL")  # kept in the file's header
            conn.execute("BEGIN IMMEDIATE")
            write_schema(conn)
            conn.execute("COMMIT")
        finally:
            conn.close()  # the last connection: the log is merged into the file
        _sync(temp)  # on the disk before it is the store: a crash leaves a whole store or none
        os.link(temp, path)
    except (OSError, sqlite3.Error):
        pass  # FileExistsError: another import made it; else made in place
    finally:
        for leftover in (temp, Path(f"{temp}-wal"), Path(f"{temp}-shm")):
            leftover.unlink(missing_ok=True)


def _sync(path: Path) -> None:
    """``path``'s content written to the disk (``fsync``)."""
    handle = os.open(path, os.O_RDWR)  # not read-only: Windows syncs only what may be written
    try:
        os.fsync(handle)
    finally:
        os.close(handle)


def remove_unmade(path: Path) -> None:
    """Remove a store that could not be made, with its log files, when it holds no
    tables (a file of one page at most: a store with its schema is bigger), so a
    failed first import leaves no store rather than a file that is none."""
    try:
        if path.stat().st_size > 4096:
            return
        for made in (path, Path(f"{path}-wal"), Path(f"{path}-shm")):
            made.unlink(missing_ok=True)
    except OSError:
        pass  # nothing was made, or it cannot be removed: the error said what went wrong


ABANDONED = 60.0
"""Seconds after which a temporary file of :func:`create_store` is taken for one a
killed import left (making a store takes milliseconds); writers remove those."""


def sweep(path: Path) -> None:
    """Remove the temporary files of stores made at ``path`` by killed imports."""
    import glob  # here: a run that makes its store never sweeps (glob compiles a regex on import)

    try:
        leftovers = list(path.absolute().parent.glob(f".{glob.escape(path.name)}.*.new"))
        for leftover in leftovers:
            if time.time() - leftover.stat().st_mtime > ABANDONED:
                leftover.unlink(missing_ok=True)
    except OSError:
        pass  # a leftover is litter, not a fault: the store is whole either way


def writable_companions(path: Path) -> None:
    """Give the store's ``-wal`` and ``-shm`` files its mode again when they have no
    write permission and the store has: SQLite makes them with the store's mode, so a
    store read while it was read-only (chmod 444) keeps them read-only after it is made
    writable again, and a writer (not root) could not use them until ``-shm`` was
    deleted. Where they are another user's, they stay as they are (SQLite's error says
    the store cannot be written)."""
    try:
        mode = path.stat().st_mode & 0o777
        if not mode & 0o200:
            return  # the store itself is read-only: importing says so
        for suffix in ("-wal", "-shm"):
            companion = Path(f"{path}{suffix}")
            if companion.exists() and not companion.stat().st_mode & 0o200:
                companion.chmod(mode)
    except OSError:
        pass


__all__ = ["ABANDONED", "ADDED_COLUMNS", "FILES_SQL", "ORIGINAL_NAMES", "ORIGINALS_COLUMNS", "ORIGINALS_SQL", "SCHEMA_VERSION", "add_columns", "added_since",
           "create_store", "is_store", "remove_unmade", "sweep", "writable_companions", "write_schema"]
