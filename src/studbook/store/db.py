"""The open store: opening (read-only or for writing), transactions, and the write path.

One call of :meth:`Store.add` is one transaction, and ``studbook import`` makes one
call per file, with the file's ``files`` row in the same transaction: an
interrupted import (a kill, a full disk) leaves whole files only, and a file is
marked imported only when its hands are stored. Writers take the write lock when a
file's transaction begins (``BEGIN IMMEDIATE``) and wait for one another, and check
their hands against the store inside that transaction, so imports running at the
same time into one store serialise. Reading opens the file read-only and never
writes. The store's other jobs are modules of their own: its schema and migrations
(:mod:`~studbook.store.schema`), its faults (:mod:`~studbook.store.faults`), the rows
it inserts (:mod:`~studbook.store.prepare`) and reading it (:mod:`~studbook.store.read`).
"""

from __future__ import annotations

import functools
import hashlib
import os
import sqlite3
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Container, Iterable, Iterator, Mapping, Sequence


from studbook.events import Rejected, Skipped
from studbook.originals import HandSource, OriginalKey
from studbook.printable import printable_path
from studbook.rows import MONEY_SCALE, SCHEMA, TABLES, CheckResult
from studbook.store import read
from studbook.store.faults import READONLY_DIRECTORY, DamagedStore, ReadOnlyStore, StoreError, busy, explain, read_only_uri
from studbook.store.prepare import (
    BY_HAND, INSERT_ROWS, PreparedRows, RowsMaker, flat_values, hand_insert_sql, hand_keys, hand_values, insert_sql, originals_sql, sql_rows,
)
from studbook.store.read import Original
from studbook.store.schema import (
    SCHEMA_VERSION, add_columns, added_since, create_store, is_store, remove_unmade, sweep, writable_companions, write_schema,
)

if TYPE_CHECKING:
    import pandas as pd

    from studbook.check import SourcedCheck
    from studbook.tables import Frames

# The reading methods import pandas (studbook.lean, studbook.tables) when called:
# ``studbook import`` only writes rows, and importing pandas cost it some 0.25 s.

_LOOKUP = 500  # hand ids looked up in the store per query (SQLite allows 32,766 parameters)

WRITE_CACHE_KIB = 64 << 10
"""SQLite's page cache of a writing connection (its default is 2 MiB)."""
WAL_PAGES = 16384
"""Pages (64 MiB) the write-ahead log grows to before SQLite copies it into the store:
fewer, larger checkpoints (each one syncs the disk) than SQLite's default 1,000."""
WRITE_WAIT = 600.0
"""Seconds a writer waits for another one (another import into the same store)
to finish its file before giving up."""


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
        self._own: OwnHands | None = None  # set when this connection found the store without hands
        self._absent: dict[str, tuple[str, ...]] = {}  # columns an older store read-only lacks (read as NA)
        if size is None:
            create_store(self.path)
        elif not self.readonly:
            sweep(self.path)
            writable_companions(self.path)
        try:
            self._open(size, name)
        except StoreError:
            if size is None:  # a store this run began to make (in place: a full disk, say) is not left half made
                remove_unmade(self.path)
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
                if not self.readonly:
                    self._own = self._own_hands()
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
                if not busy(error) or time.monotonic() + pause > deadline:
                    raise
            time.sleep(pause)
            pause = min(2 * pause, 0.05)

    def _open_read_only(self) -> sqlite3.Connection:
        """A ``mode=ro`` connection. A store in WAL mode needs its ``-shm`` file,
        which a read-only folder does not let SQLite create: then, when there is
        no write-ahead log either (every import ended and merged it into the
        store), the file is opened ``immutable``, which needs neither."""
        conn = sqlite3.connect(read_only_uri(self.path), uri=True, isolation_level=None)
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
            if pending or getattr(error, "sqlite_errorcode", None) != READONLY_DIRECTORY:
                raise
            conn = sqlite3.connect(read_only_uri(self.path) + "&immutable=1", uri=True,
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
            added = added_since(meta.get("schema_version"))
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
            write_schema(self.conn)

    def _upgrade(self, added: dict[str, tuple[str, ...]]) -> None:
        """An older store: read its missing columns as NA, or (writing) add them."""
        if self.readonly:
            self._absent = added
            return
        with self._transaction():
            add_columns(self.conn, added)

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
        not grow with the store; in a store it found empty, among its own
        hands, :data:`OWN_HANDS` at most: :class:`OwnHands`)."""
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
        rows = RowsMaker(originals)  # each result's rows made as it comes, warm
        probing = self._holds_hands()  # a store with no hand has none to look for
        count = 0
        opened = False

        def make(items: Iterable[CheckResult | SourcedCheck], stored: Container[tuple[str, str]]) -> None:
            """The rows of ``items``, its hands ``stored`` already left without (a file read
            again); every ``batch_size`` results, the rows made so far go to SQLite."""
            nonlocal count, opened
            for item in items:
                count += 1
                result = rows.add(item, stored)
                if on_result is not None:
                    on_result(result)
                if len(rows.keys) >= batch_size:  # its results so far (``len(rows)`` calls Python's __len__)
                    if not opened:
                        self._begin()
                        opened = True
                    self._store_prepared(rows.take(), {}, added, done)

        try:
            if not probing:  # the results' rows as they come, in one call (a call a result cost 1 k instructions)
                make(results, _NONE)
            else:  # PROBE_RESULTS at a time looked up first, a call a window
                window: list[CheckResult | SourcedCheck] = []
                for item in results:
                    window.append(item)
                    if len(window) >= PROBE_RESULTS:
                        make(window, self._probed(hand_keys(window), added))
                        window.clear()
                if window:
                    make(window, self._probed(hand_keys(window), added))
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
        self._committed(added)
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
        self._committed(added)
        summary.merge(done)
        return summary

    def _own_hands(self) -> OwnHands | None:
        """An empty :class:`OwnHands` when the store holds no hand, as of the
        ``data_version`` read first: a hand another connection commits after it
        changes that version, one committed before it is in the look-up."""
        version = self._data_version()
        return None if self._holds_hands() else OwnHands(version)

    def _data_version(self) -> int:
        """SQLite's count of the commits other connections made to the store (this
        connection's own commits leave it as it is)."""
        return int(self.conn.execute("PRAGMA data_version").fetchone()[0])

    def _only_own(self) -> OwnHands | None:
        """This connection's hands when they are all the store holds: it found the
        store empty, no other connection committed since, and they are not too many
        to keep (:data:`OWN_HANDS`); otherwise None, from then on (the look-up)."""
        own = self._own
        if own is not None and (len(own.keys) > OWN_HANDS or self._data_version() != own.version):
            self._own = own = None
        return own

    def _committed(self, added: set[tuple[str, str]]) -> None:
        """Keep the hands a transaction stored, once it committed."""
        if self._keys is not None:
            self._keys |= added
        if self._own is not None:
            self._own.keys.update(added)

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
        whole = all(new) and not rechecked  # the rows as made, each hand's where its ends say
        self._write_rows(rows, prepared.problems, originals, done,
                         {table: prepared.spans(table) for table in BY_HAND} if whole else {})

    def _unstored(self, keys: Sequence[tuple[str, str] | None], added: set[tuple[str, str]],
                  done: ImportSummary) -> list[bool]:
        """For each result's key (a hand's (site, hand_id), None for the others), whether
        it is new: not a hand stored already (looked up in the store, inside the write
        transaction: another import's hands and this call's earlier batches count) nor
        one earlier in ``keys``. Each hand that is not counts as a duplicate in ``done``;
        the new ones are added to ``added``."""
        wanted = {key for key in keys if key is not None}
        own = self._only_own()  # inside the write transaction: no other connection commits now
        stored = self._stored(wanted) if own is None else own.stored(wanted, added)
        if not stored and len(wanted) == len(keys) - keys.count(None):
            # the usual batch: no hand stored, none twice, so every result is new (the loop below
            # asked three sets of each key, its tuple hashed anew each time: some 0.6 k instructions)
            added |= wanted
            return [True] * len(keys)
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
        added |= fresh
        return new

    def _probed(self, keys: set[tuple[str, str]], added: set[tuple[str, str]]) -> set[tuple[str, str]]:
        """Those of ``keys`` stored already, as far as a look-up before the write
        transaction can tell (:data:`PROBE_RESULTS`): it saves making their rows only."""
        own = self._own
        return self._stored(keys) if own is None else own.stored(keys, added)

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
                    originals: list[tuple[Any, ...]], summary: ImportSummary,
                    spans: Mapping[str, list[tuple[int, int]]]) -> None:
        """Insert the rows of some results, ``problems`` being their rejected and skipped
        ones, and their ``originals`` rows; count them in ``summary``. The tables of ``spans``
        (where each hand's rows are: :meth:`PreparedRows.spans`) go in a statement a hand."""
        self._forget_stale_rejects(rows["hands"])  # before this import's own rejects go in: they are not stale
        for table in TABLES:
            if table in spans:
                self._insert_by_hand(table, rows[table], spans[table])
            else:
                self._insert(table, rows[table])
        self._insert_originals(originals)
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
        files = set(map(printable_path, {row[_HAND_FILE] for row in hands}))  # each file's name escaped once
        if not any(self.conn.execute("SELECT 1 FROM rejects WHERE status = 'rejected' AND file = ? LIMIT 1",
                                     (file,)).fetchone() for file in files):
            return  # the usual case: nothing of these files was rejected before, so nothing to forget
        self.conn.executemany(
            "DELETE FROM rejects WHERE status = 'rejected' AND file = ? AND (hand_line = ? OR hand_id = ?)",
            [(printable_path(row[_HAND_FILE]), row[_HAND_LINE], row[1]) for row in hands],
        )

    def _insert(self, table: str, rows: list[tuple[Any, ...]]) -> None:
        """``rows`` into ``table``, in order (:meth:`_in_statements`)."""
        if rows:
            self._in_statements(functools.partial(insert_sql, table), sql_rows(table, rows))

    def _insert_originals(self, rows: list[tuple[Any, ...]]) -> None:
        """The hands' originals rows, as the tables' rows go (``executemany`` stepped a statement
        a row: the whole import some 7 k instructions a hand more)."""
        if rows:
            self._in_statements(originals_sql, rows)

    def _in_statements(self, sql: Callable[[int], str], rows: list[tuple[Any, ...]]) -> None:
        """``rows`` in order: :data:`INSERT_ROWS` rows a statement (``sql(rows)``: one multi-row
        ``VALUES`` of their values in a row) as SQLite's parameters allow, the rest one a row."""
        many = max(1, min(INSERT_ROWS, self.conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) // len(rows[0])))
        whole = len(rows) - len(rows) % many if many > 1 else 0
        if whole:
            statement, execute = sql(many), self.conn.cursor().execute  # a cursor for them all
            for start in range(0, whole, many):
                execute(statement, flat_values(rows[start : start + many]))
        if whole < len(rows):
            self.conn.executemany(sql(1), rows[whole:])

    def _insert_by_hand(self, table: str, rows: list[tuple[Any, ...]], spans: list[tuple[int, int]]) -> None:
        """``rows`` into ``table``, in order, a statement a hand (its rows from start to end in
        ``spans``; :data:`INSERT_ROWS` at most): its ``site`` and ``hand_id`` bound once."""
        rows = sql_rows(table, rows)  # the actions rows as they are: no times, no file names
        width = len(SCHEMA[table]) - 2
        many = max(1, min(INSERT_ROWS, (self.conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER) - 2) // width))
        # one cursor for every hand's statement: the connection's `execute` makes a cursor a call
        execute = self.conn.cursor().execute
        for start, end in spans:
            if end - start <= many:  # the usual hand
                execute(hand_insert_sql(table, end - start), hand_values(rows[start:end]))
                continue
            for first in range(start, end, many):
                last = min(first + many, end)
                execute(hand_insert_sql(table, last - first), hand_values(rows[first:last]))

    # -- reading (studbook.store.read) ---------------------------------------

    def frames(self) -> Frames:
        """Every table of the store as :class:`~studbook.frames.Frames`."""
        from studbook.tables import Frames

        return Frames(**self.tables())

    def tables(self, tables: Iterable[str] = TABLES,
               columns: Mapping[str, Sequence[str]] | None = None) -> dict[str, pd.DataFrame]:
        """The frames of ``tables``, each with its ``columns`` (default: all; see
        :func:`studbook.frames.table_columns`), sharing categories."""
        with self._errors():
            return read.table_frames(self.conn, tables, columns, self._absent)

    def read_table(self, table: str, columns: Sequence[str] | None = None, *,
                   where: str = "", params: Sequence[Any] = ()) -> pd.DataFrame:
        """One frame, in the order the rows were stored, read :data:`~studbook.store.read.READ_ROWS`
        rows at a time; ``where`` (SQL, without the word, with ``params``) selects rows."""
        with self._errors():
            return read.table_frame(self.conn, table, columns, absent=self._absent.get(table, ()),
                                    where=where, params=params)

    def hand_chunks(self, tables: Sequence[str], *, hands: int | None = None, where: str = "",
                    params: Sequence[Any] = ()) -> Iterator[dict[str, pd.DataFrame]]:
        """The frames of ``tables`` (not ``rejects``), ``hands`` stored hands at a
        time, whole hands only, of the hands ``where`` (SQL on ``hands``, with
        ``params``) selects: see :func:`studbook.store.read.hand_chunks`."""
        with self._errors():
            yield from read.hand_chunks(self.conn, self.path, tables, hands=hands, where=where, params=params)

    def originals(self, keys: Iterable[tuple[str, str]] | None = None) -> Iterator[Original]:
        """The original texts of the hands ``keys`` ((site, hand_id) pairs, in that
        order, those stored), or of every hand in import order."""
        return read.originals(self.conn, keys)

    def counts(self, tables: Iterable[str] = TABLES) -> dict[str, int]:
        """Rows of each of ``tables`` (each a scan of the table: name only those needed)."""
        with self._errors():
            return read.counts(self.conn, tables)


_HAND_VIOLATIONS = [c.name for c in SCHEMA["hands"]].index("violations")
_HAND_FILE = [c.name for c in SCHEMA["hands"]].index("file")
_HAND_LINE = [c.name for c in SCHEMA["hands"]].index("line")


def _file_key(path: str | Path) -> str:
    """A file's key in the ``files`` table: its resolved path, printable."""
    return printable_path(Path(path).resolve())


PROBE_RESULTS = 16
"""Results :meth:`Store.add` looks up in a store that holds hands before making their rows, in
one query: a file read again (one that grew, or ``--rescan``) makes no rows for the hands stored
before. (The write transaction looks every hand up again: this only saves work.)"""
_NONE: frozenset[tuple[str, str]] = frozenset()

OWN_HANDS = 100_000
"""Hands a connection keeps the keys of (some 16 MB) while they are all its store holds."""


@dataclass(frozen=True)
class OwnHands:
    """The hands a connection stored in a store that held none when it opened, while no
    other connection committed (SQLite's ``data_version`` is still ``version``). A hand
    already stored can then only be one of these: looked up here, not in the store."""

    version: int
    keys: set[tuple[str, str]] = field(default_factory=set)  # those committed

    def stored(self, wanted: set[tuple[str, str]], added: set[tuple[str, str]]) -> set[tuple[str, str]]:
        """Those of ``wanted`` stored: committed before, or ``added`` by the open transaction."""
        # (intersections in C, each key's hash taken from ``wanted``'s table: a comprehension
        # hashed each key again for each set it asked)
        return (wanted & self.keys) | (wanted & added)


def file_sha256(path: str | Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def read_frames(path: str | Path) -> Frames:
    """All the frames of the store at ``path``."""
    from studbook.tables import Frames

    return Frames(**read_tables(path))


def read_tables(path: str | Path, tables: Iterable[str] = TABLES,
                columns: Mapping[str, Sequence[str]] | None = None) -> dict[str, pd.DataFrame]:
    """The frames of ``tables`` (with their ``columns``) of the store at ``path``."""
    with Store(path, create=False) as store:
        return store.tables(tables, columns)


def import_results(path: str | Path, results: Iterable[CheckResult], **kw: Any) -> ImportSummary:
    """Open (or create) the store at ``path`` and add ``results`` to it."""
    with Store(path) as store:
        return store.add(results, **kw)


__all__ = ["ImportSummary", "PROBE_RESULTS", "Store", "WAL_PAGES", "WRITE_CACHE_KIB", "WRITE_WAIT", "file_sha256",
           "import_results", "read_frames", "read_tables"]
