"""The embedded store: the frames' seven tables in one SQLite file.

SQLite (the standard library's ``sqlite3``) rather than DuckDB: no dependency,
one file, real transactions, and reading a 10,000-hand store back into frames
takes well under a second either way (see ``benchmarks/bench_store.py``).

Tables and columns are exactly :data:`studbook.frames.SCHEMA`; amounts are
INTEGER minor units (``frames.MONEY_SCALE``), booleans 0/1, times ISO-8601 UTC
text, so the file is easy to query with any SQLite tool. ``hands`` is keyed by
``(site, hand_id)``: adding a hand already stored does nothing. One call of
:meth:`Store.add` is one transaction, and ``studbook import`` makes one call
per file, with the file's ``files`` row in the same transaction: an
interrupted import (a kill, a full disk) leaves whole files only, and a file
is marked imported only when its hands are stored. ``rejects`` is keyed by
``(status, file, hand_line)``.
Two bookkeeping tables sit beside the frames' six: ``meta`` (schema version,
money scale) and ``files`` (each imported file's SHA-256, so that importing
an unchanged file again does not even parse it). ``originals`` keeps each
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
"""

from __future__ import annotations

import functools
import glob
import hashlib
import itertools
import os
import sqlite3
import tempfile
import threading
import time
import zlib
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Container, Iterable, Iterator, Mapping, Sequence

import zstandard

from studbook.check import SourcedCheck
from studbook.engine.result import HandCheck
from studbook.events import Rejected, Skipped
from studbook.originals import HandSource, OriginalKey
from studbook.printable import printable_path
from studbook.rows import (
    MONEY_SCALE, SCHEMA, SHARED_CATEGORIES, TABLES, CheckResult, add_rows, rows_from_checks, table_columns,
)

if TYPE_CHECKING:
    import pandas as pd

    from studbook.frames import Frames

# The reading methods import pandas (studbook.frames, studbook.lean) when called:
# ``studbook import`` only writes rows, and importing pandas cost it some 0.25 s.

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
CHUNK_HANDS = 5_000
"""Hands a chunk of :meth:`Store.hand_chunks` holds: ``studbook stats`` over 240,000
hands peaks at 318 MiB with these, 725 MiB with 20,000, in the same CPU time."""
READ_ROWS = 4096
"""Rows read from SQLite at a time when loading frames: their Python objects are
converted to the frames' dtypes chunk by chunk (see :mod:`studbook.lean`)."""
_LOOKUP = 500  # hand ids looked up in the store per query (SQLite allows 32,766 parameters)
_KEYS = {"hands": "PRIMARY KEY (site, hand_id)",
         "rejects": "UNIQUE (status, file, hand_line)"}


FILES_SQL = (
    "CREATE TABLE IF NOT EXISTS files (path TEXT PRIMARY KEY, sha256 TEXT NOT NULL, "
    "size INTEGER NOT NULL, results INTEGER NOT NULL, imported_utc TEXT NOT NULL)"
)
"""Bookkeeping, not frames: each imported file's content hash, so an unchanged file
is not parsed again (a file that grew, as a day's log does, is)."""


ORIGINALS_SQL = (
    "CREATE TABLE IF NOT EXISTS originals (site TEXT NOT NULL, hand_id TEXT NOT NULL, "
    "file TEXT NOT NULL, line INTEGER NOT NULL, text BLOB NOT NULL, context BLOB, PRIMARY KEY (site, hand_id))"
)
"""Each stored hand's original text, compressed (:func:`_pack`), and for an XML site the file's
head its reader needs to read the hand again (see :mod:`studbook.originals`)."""


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


WRITE_CACHE_KIB = 64 << 10
"""SQLite's page cache of a writing connection (its default is 2 MiB)."""
WAL_PAGES = 16384
"""Pages (64 MiB) the write-ahead log grows to before SQLite copies it into the store:
fewer, larger checkpoints (each one syncs the disk) than SQLite's default 1,000."""
WRITE_WAIT = 600.0
"""Seconds a writer waits for another one (another import into the same store)
to finish its file before giving up."""


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
        conn = sqlite3.connect(_read_only_uri(Path(path)), uri=True)
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
    if _busy(error):
        return StoreError(f"{store}: the store is busy ({error}): another program is writing "
                          "to it; try again when it is done")
    return StoreError(f"{store}: {error}")


_DAMAGED = {"file is not a database", "database disk image is malformed"}
_READONLY_DIRECTORY = 1544  # SQLITE_READONLY_DIRECTORY: no -shm file and no way to create one


def _busy(error: sqlite3.Error) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)


def _read_only_uri(path: Path) -> str:
    return path.absolute().as_uri() + "?mode=ro"


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

    def merge(self, other: ImportSummary) -> None:
        """Add ``other``'s counts and problems to these."""
        self.new += other.new
        self.duplicate += other.duplicate
        self.skipped += other.skipped
        self.rejected += other.rejected
        self.with_violations += other.with_violations
        self.violations += other.violations
        self.unchanged_files += other.unchanged_files
        self.problems.extend(other.problems)


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


def _added_since(version: str | None) -> dict[str, tuple[str, ...]] | None:
    """The columns added after ``version`` by table, or None when a store of that
    version cannot be read by this one."""
    if version is None or not version.isdigit() or not 3 <= int(version) <= int(SCHEMA_VERSION):
        return None
    added: dict[str, tuple[str, ...]] = {}
    for later in range(int(version) + 1, int(SCHEMA_VERSION) + 1):
        for table, names in ADDED_COLUMNS.get(str(later), {}).items():
            added[table] = added.get(table, ()) + names
    return added


def _write_schema(conn: sqlite3.Connection) -> None:
    """The tables and the meta rows of a new store (inside the caller's transaction)."""
    for statement in _create_sql():
        conn.execute(statement)
    conn.executemany("INSERT INTO meta VALUES (?, ?)", [
        ("schema_version", SCHEMA_VERSION), ("money_scale", str(MONEY_SCALE))])


def _create(path: Path) -> None:
    """Make a new store at ``path`` in one step: its schema is written to a
    temporary file beside it, which is then linked to ``path`` (where a store
    another import made meanwhile is left alone). A ``kill -9`` while a store
    is created so leaves no store (and at most a hidden ``.NAME.*.new`` file),
    never an empty file without the schema (a leftover is removed by a later
    writer, :func:`_sweep`). Where the temporary file cannot
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
            conn.execute("PRAGMA journal_mode=WAL")  # kept in the file's header
            conn.execute("BEGIN IMMEDIATE")
            _write_schema(conn)
            conn.execute("COMMIT")
        finally:
            conn.close()  # the last connection: the log is merged into the file
        os.link(temp, path)
    except (OSError, sqlite3.Error):
        pass  # FileExistsError: another import made it; else made in place
    finally:
        for leftover in (temp, Path(f"{temp}-wal"), Path(f"{temp}-shm")):
            leftover.unlink(missing_ok=True)


def _remove_unmade(path: Path) -> None:
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
"""Seconds after which a temporary file of :func:`_create` is taken for one a
killed import left (making a store takes milliseconds); writers remove those."""


def _sweep(path: Path) -> None:
    """Remove the temporary files of stores made at ``path`` by killed imports."""
    try:
        leftovers = list(path.absolute().parent.glob(f".{glob.escape(path.name)}.*.new"))
        for leftover in leftovers:
            if time.time() - leftover.stat().st_mtime > ABANDONED:
                leftover.unlink(missing_ok=True)
    except OSError:
        pass  # a leftover is litter, not a fault: the store is whole either way


def _writable_companions(path: Path) -> None:
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


class Store:
    """An open store. Use as a context manager; ``add`` imports, ``frames`` reads."""

    def __init__(self, path: str | Path, *, create: bool = True,
                 readonly: bool | None = None) -> None:
        """Open the store at ``path``, creating it when ``create``.

        ``readonly`` (by default: when not ``create``) opens it with SQLite's
        ``mode=ro``: nothing is ever written, not even the journal mode, so
        a store on a read-only file or folder can be read. A damaged or
        unreadable store raises :class:`StoreError` (see :func:`explain`).
        """
        self.path = Path(path)
        self.readonly = not create if readonly is None else readonly
        name = printable_path(path)
        try:
            size = self.path.stat().st_size if self.path.exists() else None
        except OSError as error:
            raise StoreError(f"{name}: cannot read the store ({error.strerror or error})") from None
        if size is None and (self.readonly or not create):
            raise StoreError(f"{name}: no such store (make one with 'studbook import')")
        if size == 0 and self.readonly:
            raise StoreError(f"{name}: an empty file, not a studbook store "
                             "(make one with 'studbook import')")
        if size and not is_store(self.path):
            if not os.access(self.path, os.R_OK):
                raise StoreError(f"{name}: cannot read the store (permission denied)")
            raise StoreError(f"{name}: not an SQLite file, so not a studbook store (a store "
                             "whose header was overwritten looks like this too: keep a copy of "
                             "it, then import the hand histories again into a new store)")
        self._keys: set[tuple[str, str]] | None = None
        self._absent: dict[str, tuple[str, ...]] = {}  # columns an older store read-only lacks (read as NA)
        if size is None:
            _create(self.path)
        elif not self.readonly:
            _sweep(self.path)
            _writable_companions(self.path)
        try:
            self._open(size, name)
        except StoreError:
            if size is None:  # a store this run began to make (in place: a full disk, say) is not left half made
                _remove_unmade(self.path)
            raise

    def _open(self, size: int | None, name: str) -> None:
        with self._errors():
            if self.readonly:
                self.conn = self._open_read_only()
            else:  # explicit transactions
                self.conn = sqlite3.connect(self.path, isolation_level=None, timeout=WRITE_WAIT)
            try:
                if not self.readonly:
                    self._use_wal()
                    if size:
                        self._check_before_writing(name)
                    self.conn.execute("PRAGMA synchronous=NORMAL")
                    # the (site, hand_id) keys' B-trees of a million hands stay in memory
                    self.conn.execute(f"PRAGMA cache_size=-{WRITE_CACHE_KIB}")
                    self.conn.execute(f"PRAGMA wal_autocheckpoint={WAL_PAGES}")
                self._init_schema()
            except BaseException:
                self.conn.close()
                raise

    def _check_before_writing(self, name: str) -> None:
        """Refuse to write into a damaged store: ``PRAGMA quick_check`` (every page
        and record read, indexes not matched against their tables: seconds for a
        big store) must answer ok, or hands would be added to a store that will
        fail on reading them (a damaged page of hands, players or originals)."""
        try:
            found = [str(row[0]) for row in self.conn.execute("PRAGMA quick_check(3)").fetchall()]
        except sqlite3.DatabaseError as error:
            found = [str(error)]
        if found != ["ok"]:
            first = " ".join(" ".join(found).split())
            raise DamagedStore(f"{name}: the store is damaged (PRAGMA quick_check: "
                               f"{first if len(first) <= 160 else first[:157] + '...'}); nothing was written; "
                               "keep a copy of it, then import the hand histories again into a new store")

    def _use_wal(self) -> None:
        """Switch the store to write-ahead logging, waiting for other writers.

        On a new store, SQLite switches inside a read transaction that it then
        upgrades to a write; two connections switching at once make that a
        deadlock, which SQLite answers with an immediate ``database is
        locked`` instead of calling the busy handler (the caller is to retry).
        So retry here, up to :data:`WRITE_WAIT`: once the other one committed,
        the store is in WAL mode and the switch is only a read.
        """
        deadline = time.monotonic() + WRITE_WAIT
        pause = 0.001
        while True:
            try:
                self.conn.execute("PRAGMA journal_mode=WAL").fetchall()
                return
            except sqlite3.OperationalError as error:
                if not _busy(error) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(2 * pause, 0.05)

    def _open_read_only(self) -> sqlite3.Connection:
        """A ``mode=ro`` connection. A store in WAL mode needs its ``-shm`` file,
        which a read-only folder does not let SQLite create: then, when there is
        no write-ahead log either (every import ended and merged it into the
        store), the file is opened ``immutable``, which needs neither."""
        conn = sqlite3.connect(_read_only_uri(self.path), uri=True, isolation_level=None)
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except sqlite3.OperationalError as error:
            conn.close()
            wal = Path(f"{self.path}-wal")
            pending = wal.exists() and wal.stat().st_size > 0
            if pending and not os.access(self.path.absolute().parent, os.W_OK):
                raise ReadOnlyStore(
                    f"{printable_path(self.path)}: cannot read the store: its folder is "
                    f"read-only and it has a write-ahead log ({printable_path(wal.name)}) "
                    "not yet merged into it, and SQLite cannot read them both without writing "
                    "beside them; make the folder writable, or copy the store and its log "
                    "to a folder that is"
                ) from None
            if pending or getattr(error, "sqlite_errorcode", None) != _READONLY_DIRECTORY:
                raise
            conn = sqlite3.connect(_read_only_uri(self.path) + "&immutable=1", uri=True,
                                   isolation_level=None)
        return conn

    @contextmanager
    def _errors(self, writing: str | None = None) -> Iterator[None]:
        """SQLite's errors as a :class:`StoreError` naming this store."""
        try:
            yield
        except sqlite3.Error as error:
            raise explain(self.path, error, writing=writing) from None

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
            raise StoreError(f"{printable_path(self.path)}: an SQLite file but not a studbook store")
        if "meta" in tables:
            meta = dict(self.conn.execute("SELECT key, value FROM meta").fetchall())
            added = _added_since(meta.get("schema_version"))
            if added is None:
                raise StoreError(f"{printable_path(self.path)}: store schema version "
                                 f"{meta.get('schema_version')}, expected {SCHEMA_VERSION}")
            if added:
                self._upgrade(added)
            if meta.get("money_scale") != str(MONEY_SCALE):
                raise StoreError(f"{printable_path(self.path)}: money scale {meta.get('money_scale')}")
            return
        if self.readonly:
            raise StoreError(f"{printable_path(self.path)}: an empty SQLite file, not a studbook "
                             "store (make one with 'studbook import')")
        with self._transaction():
            if "meta" in {row[0] for row in self.conn.execute(
                    "SELECT name FROM sqlite_master WHERE type = 'table'")}:
                return  # another import created it meanwhile
            _write_schema(self.conn)

    def _upgrade(self, added: dict[str, tuple[str, ...]]) -> None:
        """An older store: read its missing columns as NA, or (writing) add them."""
        if self.readonly:
            self._absent = added
            return
        with self._transaction():
            for table, names in added.items():
                present = {row[1] for row in self.conn.execute(f"PRAGMA table_info({table})")}
                missing = [n for n in names if n not in present]  # another writer may have added them
                for column in (c for c in SCHEMA[table] if c.name in missing):
                    self.conn.execute(f"ALTER TABLE {table} ADD COLUMN {_column_sql(column.name, column.dtype)}")
            self.conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (SCHEMA_VERSION,))

    @contextmanager
    def _transaction(self) -> Iterator[None]:
        """One write transaction: the write lock is taken at once (another writer
        waits up to :data:`WRITE_WAIT`), rolled back on any exception."""
        self.conn.execute("BEGIN IMMEDIATE")
        try:
            yield
            self.conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise

    def _rollback(self) -> None:
        """Roll back the transaction in progress, if SQLite has not already (it
        does on a full disk): the error that got us here is the one to raise,
        not ``cannot rollback - no transaction is active``."""
        if self.conn.in_transaction:
            try:
                self.conn.execute("ROLLBACK")
            except sqlite3.Error:
                pass

    # -- files already imported ---------------------------------------------

    def imported(self, path: str | Path, sha256: str) -> bool:
        """True when the file at ``path`` was imported with exactly this content."""
        with self._errors():
            row = self.conn.execute("SELECT sha256 FROM files WHERE path = ?",
                                    (_file_key(path),)).fetchone()
        return row is not None and row[0] == sha256

    def record_file(self, path: str | Path, sha256: str, results: int) -> None:
        """Remember that ``path`` (with this content) has been imported.

        ``add(..., record=(path, sha256))`` does this in the transaction
        that stores the file's hands, which is what an import wants.
        """
        try:
            size = os.stat(path).st_size
        except OSError:
            size = 0
        stamp = datetime.now(timezone.utc).isoformat(timespec="seconds")
        self.conn.execute("INSERT OR REPLACE INTO files VALUES (?, ?, ?, ?, ?)",
                          (_file_key(path), sha256, size, results, stamp))

    # -- writing -----------------------------------------------------------

    def keys(self) -> set[tuple[str, str]]:
        """The (site, hand_id) of the stored hands, as this store read them
        plus those it added since (:meth:`add` itself does not need them: it
        looks each batch's hands up in the store, so an import's memory does
        not grow with the store)."""
        if self._keys is None:
            with self._errors():
                self._keys = set(self.conn.execute("SELECT site, hand_id FROM hands").fetchall())
        return self._keys

    def add(
        self,
        results: Iterable[CheckResult | SourcedCheck],
        *,
        batch_size: int = 500,
        on_result: Callable[[CheckResult], None] | None = None,
        summary: ImportSummary | None = None,
        originals: Mapping[OriginalKey, HandSource] | None = None,
        record: tuple[str | Path, str] | None = None,
    ) -> ImportSummary:
        """Store the new hands of ``results``; count duplicates, skipped and rejected.

        Each result's rows and packed original text are made as it comes
        (in a store that holds hands, after :data:`PROBE_RESULTS` results at
        a time are looked up: those stored get none), and the check can go;
        the rows go to SQLite ``batch_size`` results at a time, through the
        write path of :meth:`add_prepared`. The whole call is one
        transaction, begun when the first rows are written: it stores all of
        ``results`` or, when interrupted or failing, nothing.
        ``record=(path, sha256)`` marks that file imported in the same
        transaction (see :meth:`record_file`). Each hand's original text is
        stored from ``originals`` (keyed by file and line), or from the result
        itself when it comes beside it (a :data:`~studbook.check.SourcedCheck`,
        as :func:`studbook.check.stream_sourced` gives). Hands are checked against the
        store inside the transaction, so another import writing the same
        hands at the same time makes them duplicates, not an error. Counts
        are added to ``summary`` (when given) once the transaction commits.
        SQLite's errors propagate as ``sqlite3.Error`` (see :func:`explain`).
        """
        summary = summary if summary is not None else ImportSummary()
        done = ImportSummary()  # this call's counts, added to summary on commit
        added: set[tuple[str, str]] = set()
        rows = _RowsMaker(originals)  # each result's rows made as it comes, warm
        probe = PROBE_RESULTS if self._holds_hands() else 1
        window: list[CheckResult | SourcedCheck] = []
        count = 0
        opened = False

        def make() -> None:
            """The window's rows, its hands stored already left without (a file read again)."""
            nonlocal opened
            stored = self._stored(_hand_keys(window)) if probe > 1 else _NONE
            for item in window:
                result = rows.add(item, stored)
                if on_result is not None:
                    on_result(result)
            window.clear()
            if len(rows) >= batch_size:
                if not opened:
                    self._begin()
                    opened = True
                self._store_prepared(rows.take(), {}, added, done)

        try:
            for item in results:
                count += 1
                window.append(item)
                if len(window) >= probe:
                    make()
            make()
            if not opened:
                self._begin()
                opened = True
            if len(rows):
                self._store_prepared(rows.take(), {}, added, done)
            if record is not None:
                self.record_file(record[0], record[1], count)
            self.conn.execute("COMMIT")
        except BaseException:
            self._rollback()
            raise
        if self._keys is not None:
            self._keys |= added
        summary.merge(done)
        return summary

    def add_prepared(
        self,
        prepared: PreparedRows,
        *,
        rechecked: Mapping[int, CheckResult] | None = None,
        summary: ImportSummary | None = None,
        record: tuple[str | Path, str] | None = None,
    ) -> ImportSummary:
        """Store the new hands of one file's :class:`PreparedRows` (a ``--jobs``
        worker made them) as :meth:`add` stores its results: one transaction,
        duplicates looked up inside it, ``record`` and ``summary`` alike.
        ``rechecked`` (result index -> result) replaces results the caller checked
        again (the bring-in memory, see :mod:`studbook.scale`): their rows are made here.
        """
        summary = summary if summary is not None else ImportSummary()
        done = ImportSummary()  # this call's counts, added to summary on commit
        added: set[tuple[str, str]] = set()
        with self._transaction():
            self._store_prepared(prepared, rechecked or {}, added, done)
            if record is not None:
                self.record_file(record[0], record[1], len(prepared.keys))
        if self._keys is not None:
            self._keys |= added
        summary.merge(done)
        return summary

    def _holds_hands(self) -> bool:
        """Whether the store holds any hand (read outside the write transaction)."""
        return self.conn.execute("SELECT 1 FROM hands LIMIT 1").fetchone() is not None

    def _begin(self) -> None:
        """Take the write lock (``BEGIN IMMEDIATE``; another writer waits)."""
        self.conn.execute("BEGIN IMMEDIATE")

    def _store_prepared(self, prepared: PreparedRows, rechecked: Mapping[int, CheckResult],
                        added: set[tuple[str, str]], done: ImportSummary) -> None:
        """Insert the rows of ``prepared``'s new hands (and of its problems) inside the
        caller's transaction: the one write path of :meth:`add` and :meth:`add_prepared`."""
        new = self._unstored(prepared.keys, added, done)
        rows, originals = prepared.kept(new, rechecked)
        self._write_rows(rows, prepared.problems, originals, done)

    def _unstored(self, keys: Sequence[tuple[str, str] | None], added: set[tuple[str, str]],
                  done: ImportSummary) -> list[bool]:
        """For each result's key (a hand's (site, hand_id), None for the others), whether
        it is new: not a hand stored already (looked up in the store, inside the write
        transaction: another import's hands and this call's earlier batches count) nor
        one earlier in ``keys``. Each hand that is not counts as a duplicate in ``done``."""
        stored = self._stored({key for key in keys if key is not None})
        fresh: set[tuple[str, str]] = set()  # earlier batches' hands are in the store already
        new = []
        for key in keys:
            if key is not None:
                if key in stored or key in fresh:
                    done.duplicate += 1
                    new.append(False)
                    continue
                fresh.add(key)
            new.append(True)
        if self._keys is not None:  # kept for keys() only when someone asked for them
            added |= fresh
        return new

    def _stored(self, keys: set[tuple[str, str]]) -> set[tuple[str, str]]:
        """Those of ``keys`` the store holds, one query per site."""
        ids: dict[str, list[str]] = {}
        for site, hand_id in keys:
            ids.setdefault(site, []).append(hand_id)
        found: set[tuple[str, str]] = set()
        for site, wanted in ids.items():
            for start in range(0, len(wanted), _LOOKUP):
                part = wanted[start : start + _LOOKUP]
                marks = ", ".join("?" * len(part))
                found.update(self.conn.execute(
                    f"SELECT site, hand_id FROM hands WHERE site = ? AND hand_id IN ({marks})",
                    (site, *part)).fetchall())
        return found

    def _write_rows(self, rows: dict[str, list[tuple[Any, ...]]], problems: list[Rejected | Skipped],
                    originals: Iterable[tuple[Any, ...]], summary: ImportSummary) -> None:
        """Insert the rows of some results, ``problems`` being their rejected and skipped
        ones, and their ``originals`` rows; count them in ``summary``."""
        self._forget_stale_rejects(rows["hands"])  # before this import's own rejects go in: they are not stale
        for table in TABLES:
            self._insert(table, rows[table])
        self.conn.executemany("INSERT OR IGNORE INTO originals VALUES (?, ?, ?, ?, ?, ?)", originals)
        summary.new += len(rows["hands"])
        summary.with_violations += sum(row[_HAND_VIOLATIONS] > 0 for row in rows["hands"])
        summary.violations += len(rows["violations"])
        for problem in problems:
            if isinstance(problem, Skipped):
                summary.skipped += 1
            else:
                summary.rejected += 1
            summary.problems.append(problem)
        summary.rejected += len(rows["rejects"]) - len(problems)  # hands whose amounts could not be stored exactly

    def _forget_stale_rejects(self, hands: list[tuple[Any, ...]]) -> None:
        """A hand that reads now leaves ``rejects``: the rejection an earlier
        import of its file made (the file cut in that hand, say) is stale."""
        if not hands:
            return
        files = {printable_path(row[_HAND_FILE]) for row in hands}
        if not any(self.conn.execute("SELECT 1 FROM rejects WHERE status = 'rejected' AND file = ? LIMIT 1",
                                     (file,)).fetchone() for file in files):
            return  # the usual case: nothing of these files was rejected before, so nothing to forget
        self.conn.executemany(
            "DELETE FROM rejects WHERE status = 'rejected' AND file = ? AND (hand_line = ? OR hand_id = ?)",
            [(printable_path(row[_HAND_FILE]), row[_HAND_LINE], row[1]) for row in hands],
        )

    def _insert(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        """``rows`` into ``table``, in order: :data:`INSERT_ROWS` rows a statement (one
        multi-row ``VALUES`` of their values in a row), the rest one a row."""
        if not rows:
            return
        values = _sql_rows(table, rows)
        width = len(SCHEMA[table])
        many = max(1, min(INSERT_ROWS, self.conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // width))
        whole = len(values) - len(values) % many if many > 1 else 0
        if whole:
            statement, execute, flat = _insert_sql(table, many), self.conn.execute, itertools.chain.from_iterable
            for start in range(0, whole, many):
                execute(statement, list(flat(values[start : start + many])))
        if whole < len(values):
            self.conn.executemany(_insert_sql(table, 1), values[whole:])

    # -- reading -----------------------------------------------------------

    def frames(self) -> Frames:
        from studbook.frames import Frames

        return Frames(**self.tables())

    def tables(self, tables: Iterable[str] = TABLES,
               columns: dict[str, Sequence[str]] | None = None) -> dict[str, pd.DataFrame]:
        """The frames of ``tables``, each with its ``columns`` (default: all; see
        :func:`studbook.frames.table_columns`), sharing categories."""
        from studbook.lean import release_memory, share_categories

        frames = {table: self.read_table(table, (columns or {}).get(table)) for table in tables}
        share_categories(frames, SHARED_CATEGORIES)
        release_memory()
        return frames

    def read_table(self, table: str, columns: Sequence[str] | None = None, *,
                   where: str = "", params: Sequence[Any] = ()) -> pd.DataFrame:
        """One frame, in the order the rows were stored, read :data:`READ_ROWS` rows at a
        time; ``where`` (SQL, without the word, with ``params``) selects rows."""
        from studbook.lean import TableBuilder

        specs = table_columns(table, columns)
        absent = self._absent.get(table, ())
        names = ", ".join("NULL" if c.name in absent else f'"{c.name}"' for c in specs)
        clause = f" WHERE {where}" if where else ""
        with self._errors():
            last = self.conn.execute(f"SELECT max(rowid) FROM {table}").fetchone()[0]
            cursor = self.conn.execute(f"SELECT {names} FROM {table}{clause} ORDER BY rowid", params)
            builder = TableBuilder(specs, rows=last)  # at most the last rowid: more rows than the table holds
            while rows := cursor.fetchmany(READ_ROWS):
                builder.add(rows)
                del rows
        return builder.frame()

    def hand_chunks(self, tables: Sequence[str], *, hands: int | None = None, where: str = "",
                    params: Sequence[Any] = ()) -> Iterator[dict[str, pd.DataFrame]]:
        """The frames of ``tables`` (not ``rejects``), ``hands`` stored hands at a
        time, whole hands only, of the hands ``where`` (SQL on ``hands``, with
        ``params``) selects: memory bounded by one chunk, whatever the store's size
        (``hands`` defaults to :data:`CHUNK_HANDS`).

        Each table is read once, in the order its rows were stored: a file's
        rows go in per hand, every table in the hands' order, so the rows of
        one chunk's hands come together. A store whose rows are not in that
        order raises :class:`StoreError` rather than give wrong frames.
        """
        from studbook.frames import typed_frame

        keep = f"({where})" if where else "1"
        names = {table: [c.name for c in table_columns(table)] for table in tables}
        others = [table for table in tables if table != "hands"]
        with self._errors():
            keyed = self.conn.execute(
                f"SELECT {', '.join(_quoted(names.get('hands', ['site', 'hand_id'])))}, {keep} "
                f"FROM hands ORDER BY rowid", params)
            cursors = {table: _rows(self.conn.execute(
                f"SELECT {', '.join(_quoted(names[table]))} FROM {table} ORDER BY rowid")) for table in others}
            pending: dict[str, tuple[Any, ...] | None] = {table: None for table in others}
            while batch := keyed.fetchmany(hands or CHUNK_HANDS):
                kept = {(row[0], row[1]): bool(row[-1]) for row in batch}
                rows = {"hands": [row[:-1] for row in batch if row[-1]]}
                for table in others:
                    rows[table], pending[table] = _take(cursors[table], pending[table], kept, self.path)
                yield {table: typed_frame(table, rows[table]) for table in tables}
            for table in others:
                if pending[table] is not None or next(cursors[table], None) is not None:
                    raise _out_of_order(self.path)

    def originals(self, keys: Iterable[tuple[str, str]] | None = None) -> Iterator[Original]:
        """The original texts of the hands ``keys`` ((site, hand_id) pairs, in that
        order, those stored), or of every hand in import order."""
        query = "SELECT site, hand_id, file, line, text, context FROM originals"
        if keys is None:
            rows: Iterable[tuple[Any, ...]] = self.conn.execute(query + " ORDER BY rowid")
        else:
            found = (self.conn.execute(query + " WHERE site = ? AND hand_id = ?", key).fetchone() for key in keys)
            rows = (row for row in found if row is not None)
        for site, hand_id, file, line, text, context in rows:
            yield Original(site, hand_id, file, line, _unpack(text) or "", _unpack(context))

    def counts(self, tables: Iterable[str] = TABLES) -> dict[str, int]:
        """Rows of each of ``tables`` (each a scan of the table: name only those needed)."""
        with self._errors():
            return {table: self.conn.execute(f"SELECT count(*) FROM {table}").fetchone()[0]
                    for table in tables}


def _iso_utc(value: Any) -> str | None:
    """A start time as ISO-8601 UTC text; None for a time without a zone (never taken as UTC)."""
    if isinstance(value, datetime):  # the rows' own datetimes (pandas' Timestamp is one too)
        if value.tzinfo is None or value != value:  # naive, or NaT
            return None
        return value.astimezone(timezone.utc).isoformat()
    if value is None:
        return None
    import pandas as pd  # a value from a DataFrame (the rows' own are datetimes or None)

    if pd.isna(value):
        return None
    when = pd.Timestamp(value)
    return None if when.tzinfo is None else when.tz_convert("UTC").isoformat()


_HAND_VIOLATIONS = [c.name for c in SCHEMA["hands"]].index("violations")
_HAND_FILE = [c.name for c in SCHEMA["hands"]].index("file")
_HAND_LINE = [c.name for c in SCHEMA["hands"]].index("line")


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


def _file_key(path: str | Path) -> str:
    """A file's key in the ``files`` table: its resolved path, printable."""
    return printable_path(Path(path).resolve())


INSERT_ROWS = 64
"""Rows one INSERT statement takes (a multi-row ``VALUES``): the sqlite3 module's and SQLite's
work per statement is paid once for them, not once a row as ``executemany`` pays it (an
import's inserts, 9,000 hands: 72 -> 63 µs a hand, most of it on the actions rows)."""


@functools.lru_cache(maxsize=None)
def _insert_sql(table: str, rows: int) -> str:
    """The INSERT of ``rows`` rows of ``table``'s columns (``rejects``: keyed, a row met before is left)."""
    names = ", ".join(f'"{c.name}"' for c in SCHEMA[table])
    row = "(" + ", ".join("?" * len(SCHEMA[table])) + ")"
    verb = "INSERT OR IGNORE" if table == "rejects" else "INSERT"
    return f"{verb} INTO {table} ({names}) VALUES " + ", ".join([row] * rows)


def _sql_rows(table: str, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The rows as SQLite takes them. The values are plain Python already
    (ints, floats, strings, None; booleans the ints 0 and 1, which sqlite3
    binds without looking for an adapter, as it does for every bool) and each
    column's affinity stores them as its type; times are written out as
    ISO-8601 UTC text, and file names go through :func:`printable_path`
    (SQLite takes UTF-8 only). The players and actions rows, most of them,
    go as they are."""
    columns = SCHEMA[table]
    times = [i for i, column in enumerate(columns) if column.dtype.startswith("datetime64")]
    files = [i for i, column in enumerate(columns) if column.name == "file"]
    if not times and not files:
        return rows
    printable: dict[Any, Any] = {}  # a file's rows share its name: escape it once
    out = []
    for row in rows:
        values = list(row)
        for i in times:
            values[i] = _iso_utc(values[i])
        for i in files:
            name = values[i]
            if name not in printable:
                printable[name] = name if not isinstance(name, str) else printable_path(name)
            values[i] = printable[name]
        out.append(tuple(values))
    return out


# -- prepared rows: one file's results as the store inserts them ---------------


@dataclass(frozen=True, slots=True)
class PreparedRows:
    """Results as the store inserts them, made by :class:`_RowsMaker` as each
    result came (:meth:`Store.add`), or by :func:`prepare_rows` where a ``--jobs``
    worker checked the file: every table's rows (results in order) with each
    result's share of them, so that the hands found stored already can be left out
    and a result checked again can have its rows made anew."""

    keys: list[tuple[str, str] | None]  # per result: a hand's (site, hand_id), else None
    ends: list[tuple[int, ...]]  # per result: each table's rows up to and with its own, in TABLES order
    tables: dict[str, list[tuple[Any, ...]]]
    originals: list[tuple[Any, ...] | None]  # per result: its hand's originals row
    problems: list[Rejected | Skipped]  # the rejected and skipped results, in order

    def kept(self, new: Sequence[bool], rechecked: Mapping[int, CheckResult]
             ) -> tuple[dict[str, list[tuple[Any, ...]]], list[tuple[Any, ...]]]:  # fmt: skip
        """The rows and originals rows of the results ``new`` says to keep, those of
        ``rechecked`` made from its results."""
        if all(new) and not rechecked:
            return self.tables, [row for row in self.originals if row is not None]
        rows: dict[str, list[tuple[Any, ...]]] = {table: [] for table in TABLES}
        originals: list[tuple[Any, ...]] = []
        start = (0,) * len(TABLES)
        for index, (keep, end) in enumerate(zip(new, self.ends)):
            if keep:
                again = rows_from_checks((rechecked[index],)) if index in rechecked else None
                for table, first, last in zip(TABLES, start, end):
                    rows[table].extend(again[table] if again else self.tables[table][first:last])
                original = self.originals[index]
                if original is not None:
                    originals.append(original)
            start = end
        return rows, originals


class _RowsMaker:
    """:class:`PreparedRows` made one result at a time: each result's rows and its
    original text's row (the text packed) as soon as it comes, while its check is
    still in the caches, so the check can go at once (building rows from a file's
    checked hands long after each was checked cost a quarter more)."""

    __slots__ = ("_originals", "_tables", "_lists", "_files", "keys", "ends", "rows", "problems")

    def __init__(self, originals: Mapping[OriginalKey, HandSource] | None = None) -> None:
        self._originals = originals or None  # the hands' texts by (file, line), where not beside them
        self._files: dict[str, str] = {}  # each file's printable name, made once
        self._start()

    def _start(self) -> None:
        self._tables: dict[str, list[tuple[Any, ...]]] = {table: [] for table in TABLES}
        self._lists = tuple(self._tables.values())
        self.keys: list[tuple[str, str] | None] = []
        self.ends: list[tuple[int, ...]] = []
        self.rows: list[tuple[Any, ...] | None] = []  # each result's originals row
        self.problems: list[Rejected | Skipped] = []

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, item: CheckResult | SourcedCheck, stored: Container[tuple[str, str]] = ()) -> CheckResult:
        """Make the rows of ``item`` (a result, or a result beside its original text); its result.
        A hand ``stored`` holds gets no rows: the write path counts it as a duplicate."""
        result, source = item if isinstance(item, tuple) else (item, None)
        lists = self._lists
        if not isinstance(result, HandCheck):
            add_rows(result, lists)
            self.ends.append(tuple(map(len, lists)))
            self.keys.append(None)
            self.rows.append(None)
            self.problems.append(result)
            return result
        hand = result.hand
        header = hand.header
        site, hand_id = key = (header.site, header.hand_id)
        self.keys.append(key)
        if key in stored:
            self.ends.append(tuple(map(len, lists)))
            self.rows.append(None)
            return result
        add_rows(result, lists)
        self.ends.append(tuple(map(len, lists)))
        if source is None and self._originals is not None:
            source = self._originals.get((hand.file, hand.line))
        if source is None:
            self.rows.append(None)
        else:
            context = source.context
            self.rows.append((site, hand_id, self._printable(hand.file), hand.line, _pack(source.text),
                              None if context is None else _pack(context)))
        return result

    def _printable(self, file: str) -> str:
        name = self._files.get(file)
        if name is None:
            name = self._files[file] = printable_path(file)
        return name

    def take(self) -> PreparedRows:
        """The rows made so far; the maker starts afresh."""
        made = PreparedRows(self.keys, self.ends, self._tables, self.rows, self.problems)
        self._start()
        return made


PROBE_RESULTS = 16
"""Results :meth:`Store.add` looks up in a store that holds hands before making their rows, in
one query: a file read again (one that grew, or ``--rescan``) makes no rows for the hands stored
before. (The write transaction looks every hand up again: this only saves work.)"""
_NONE: frozenset[tuple[str, str]] = frozenset()


def _hand_keys(items: Iterable[CheckResult | SourcedCheck]) -> set[tuple[str, str]]:
    """The (site, hand_id) of the hands among ``items``."""
    results = (item[0] if isinstance(item, tuple) else item for item in items)
    return {(r.hand.site, r.hand.hand_id) for r in results if isinstance(r, HandCheck)}


def prepare_rows(results: Iterable[CheckResult | SourcedCheck]) -> PreparedRows:
    """A file's results (each beside its original text, or alone) as
    :meth:`Store.add_prepared` inserts them; pure Python, no store needed."""
    rows = _RowsMaker()
    for item in results:
        rows.add(item)
    return rows.take()


PACK_LEVEL = 1
"""Zstandard's fastest level for the original texts. On the histories' hands (2 KB each) it packs
to 39% in 10 µs, 20 µs with the caches cold as in an import, where zlib's fastest level packed
to 38% in 28 µs (35 cold); zstd's level 3 packs to 38% in 11 µs, but 27 cold (2026-12-02)."""
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"  # a zstd frame's first bytes; a zlib stream's first is 0x78
_codecs = threading.local()  # a compressor and decompressor a thread: zstandard's are not thread-safe


def _pack(text: str | None) -> bytes | None:
    """``text`` as the store keeps it: UTF-8, one zstd frame (with its size)."""
    if text is None:
        return None
    compressor = getattr(_codecs, "compressor", None)
    if compressor is None:
        compressor = _codecs.compressor = zstandard.ZstdCompressor(level=PACK_LEVEL)
    return compressor.compress(text.encode("utf-8"))


def _unpack(data: bytes | None) -> str | None:
    """A text :func:`_pack` made, or a zlib stream as stores written before 2026-12-02
    hold (the codec told by the blob's first bytes, so such stores are read as they are)."""
    if data is None:
        return None
    if data[:4] != _ZSTD_MAGIC:
        return zlib.decompress(data).decode("utf-8")
    decompressor = getattr(_codecs, "decompressor", None)
    if decompressor is None:
        decompressor = _codecs.decompressor = zstandard.ZstdDecompressor()
    return decompressor.decompress(data).decode("utf-8")


def file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_frames(path: str | Path) -> Frames:
    """All the frames of the store at ``path``."""
    from studbook.frames import Frames

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


__all__ = ["DamagedStore", "DiskFull", "ImportSummary", "Original", "PreparedRows", "ReadOnlyStore", "SCHEMA_VERSION",
           "Store", "StoreError", "WRITE_WAIT", "explain", "file_sha256", "import_results", "integrity",
           "is_store", "prepare_rows", "printable_path", "read_frames", "read_tables"]
