"""The import's floor: what storing checked hands costs at least, beside their check.

    .venv/bin/python benchmarks/bench_floor.py [--hands 9000] [--rounds 5] [--folder DIR]
    .venv/bin/python benchmarks/bench_floor.py --options [--hands 9000] [--rounds 5]
    valgrind --tool=callgrind --callgrind-out-file=OUT .venv/bin/python benchmarks/bench_floor.py \
        --folder DIR --rounds 1 --marks LIBCGC.so [--options]

Issue 34 asks ``studbook import`` for at most 1.25 times ``studbook check``. This measures,
in one process, on the same simulated hands (``bench_store.write_simulated``, or the files of
``--folder``), with every row made before the clock starts (main's ``RowsMaker``, each file's
rows kept in memory):

(a) **inserts**: the store's own statements, exactly as its write path ran them (recorded once
    from ``Store._write_rows`` into a scratch store) and replayed into a new store a round
    (``Store``'s own pragmas), each file one transaction; the close (the WAL checkpoint) apart;
(b) **pack**: each hand's original text (and context) packed as ``RowsMaker.take`` packs it
    (``bytearray(pack(text))``, zstd level 1);
(c) **least rows**: each row rebuilt as a new tuple from its own values, unpacked into locals
    (``for v0, ..., vn in rows: append((v0, ..., vn))``): no Python that makes the same tuples
    can do less, so a lower bound of making rows;
(d) **check**: each file checked hand by hand as ``studbook check`` does
    (``check.stream_file``, one ``TableMemory`` for the run).

Each as CPU µs a hand (``time.process_time``, the cyclic GC off as the import's per-file loop
has it), median of ``--rounds`` rounds in which the parts alternate, and as a fraction of (d); the floor is (a) + (b) + (c) over (d), against the 0.25 the
target leaves. ``--options`` times instead the layouts that would lower (a) and (b), written by one
generic writer (the store's statement shapes: a hand's actions in one statement with its key bound
once, other tables 64 rows a statement), each with its store's size: see :data:`LAYOUTS` (the last ones: what a table's rows
cost, and a hand's actions as one JSON row, with what ``json.dumps`` of them costs) and :data:`LEVELS`.
These are prototypes of this benchmark only (the store's schema is ``studbook.store.schema``).

``--marks LIB`` calls ``cg_zero()`` before and ``cg_dump(label)`` after each part of each round
(``ctypes``), so callgrind counts each part alone: LIB is built from

    #include <valgrind/callgrind.h>
    void cg_zero(void) { CALLGRIND_ZERO_STATS; }
    void cg_dump(const char *label) { CALLGRIND_DUMP_STATS_AT(label); }

(``cc -shared -fPIC -o libcgc.so cgc.c``); each dump's ``totals:`` over the hands is a part's count a
hand (the untimed pass that makes the rows has checked the files once: the memos are warm).
"""

from __future__ import annotations

import argparse
import ctypes
import functools
import gc
import json
import sqlite3
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from statistics import median
from typing import Any, Callable, Sequence

import zstandard

from studbook.check import TableMemory, stream_file, streams_sourced
from studbook.gcpause import gc_between_files
from studbook.rows import SCHEMA, TABLES
from studbook.store import ImportSummary, Store
from studbook.store.db import WAL_PAGES, WRITE_CACHE_KIB
from studbook.store.schema import _column_sql
from studbook.store.prepare import BY_HAND, INSERT_ROWS, NULL, PreparedRows, RowsMaker, pack, sql_rows

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_store import write_simulated  # noqa: E402  (benchmarks/ is no package)

Call = tuple[str, Any, bool]  # a statement, its parameters, whether executemany ran it


class Marks:
    """Callgrind's client requests around each part (``--marks``), or nothing."""

    def __init__(self, library: str | None) -> None:
        self._lib = ctypes.CDLL(library) if library else None

    def zero(self) -> None:
        if self._lib is not None:
            self._lib.cg_zero()

    def dump(self, label: str) -> None:
        if self._lib is not None:
            self._lib.cg_dump(label.encode())


@dataclass(frozen=True)
class FileRows:
    """One file's rows as the import makes them, before any clock starts."""

    path: Path
    hands: int
    prepared: PreparedRows  # main's RowsMaker's, the texts packed (level 1)
    texts: list[tuple[str, str | None]]  # each stored hand's original text and context, not packed
    calls: list[Call]  # the statements the store's write path ran for these rows, with their values


class _Recorder:
    """Stands for a store's connection while its write path runs: runs each statement and keeps it."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self.calls: list[Call] = []

    def cursor(self) -> _Recorder:
        return self

    def execute(self, sql: str, parameters: Any = ()) -> sqlite3.Cursor:
        self.calls.append((sql, parameters, False))
        return self._conn.execute(sql, parameters)

    def executemany(self, sql: str, seq: Any) -> sqlite3.Cursor:
        seq = list(seq)
        self.calls.append((sql, seq, True))
        return self._conn.executemany(sql, seq)

    def getlimit(self, category: int) -> int:
        return self._conn.getlimit(category)


def prepare(files: Sequence[Path], scratch: Path) -> list[FileRows]:
    """Each file's rows, texts and the store's statements for them (recorded into ``scratch``)."""
    made = []
    with Store(scratch) as store, gc_between_files() as next_file:
        real = store.conn
        for path, stream in zip(files, streams_sourced([str(path) for path in files])):  # as the import reads them
            next_file()
            maker = RowsMaker()
            for item in stream.results:
                maker.add(item)
            texts = [(row[4], row[5]) for row in maker.rows if row is not None]
            prepared = maker.take()
            recorder = _Recorder(real)
            store.conn = recorder
            real.execute("BEGIN IMMEDIATE")
            try:
                store._write_rows(prepared.tables, prepared.problems,
                                  [row for row in prepared.originals if row is not None], ImportSummary(),
                                  {table: prepared.spans(table) for table in BY_HAND})
            finally:
                store.conn = real
            real.execute("COMMIT")
            made.append(FileRows(path, len(prepared.keys), prepared, texts, recorder.calls))
    return made


# -- the floor's parts ------------------------------------------------------------------


def check_files(files: Sequence[FileRows]) -> None:
    """(d) Each file parsed and checked hand by hand, as ``studbook check`` does."""
    memory = TableMemory()
    with gc_between_files() as next_file:
        for file in files:
            next_file()
            for _ in stream_file(str(file.path), None, memory).results:
                pass


def pack_texts(files: Sequence[FileRows], level: int | None = 1) -> int:
    """(b) Each text packed as ``RowsMaker.take`` packs it; the packed bytes. ``level`` None: no
    compression (the UTF-8 bytes); another level: its own compressor (main's is level 1)."""
    size = 0
    if level == 1:
        for file in files:
            for text, context in file.texts:
                data = bytearray(pack(text))
                size += len(data)
                if context is not None:
                    size += len(bytearray(pack(context)))
        return size
    compress = (lambda data: data) if level is None else zstandard.ZstdCompressor(level=level).compress
    for file in files:
        for text, context in file.texts:
            size += len(bytearray(compress(text.encode("utf-8"))))
            if context is not None:
                size += len(bytearray(compress(context.encode("utf-8"))))
    return size


def _rebuilder(width: int) -> Callable[[list[tuple[Any, ...]]], list[tuple[Any, ...]]]:
    """A function that rebuilds rows of ``width`` values each: unpacked into locals, a new tuple."""
    names = ", ".join(f"v{i}" for i in range(width))
    code = (f"def rebuild(rows):\n    out = []\n    append = out.append\n    for {names} in rows:\n"
            f"        append(({names},))\n    return out\n")
    space: dict[str, Any] = {}
    exec(code, space)  # noqa: S102  (the bound's code, made from the schema's widths)
    return space["rebuild"]


_REBUILD = {table: _rebuilder(len(SCHEMA[table])) for table in TABLES}


def least_rows(files: Sequence[FileRows]) -> None:
    """(c) Every row of every table rebuilt from its own values: a lower bound of making rows."""
    for file in files:
        for table, rows in file.prepared.tables.items():
            _REBUILD[table](rows)


def replay(files: Sequence[FileRows], db: Path, marks: Marks | None = None, label: str = "a") -> tuple[float, float]:
    """(a) The store's statements replayed into a new store at ``db`` (``Store``'s pragmas), a
    transaction a file: CPU seconds of the inserts and commits, and of the close (the WAL checkpoint)."""
    store = Store(db)
    return run_calls(store.conn, [file.calls for file in files], marks or Marks(None), label)


def store_path(files: Sequence[FileRows], db: Path, marks: Marks | None = None, label: str = "store") -> float:
    """Not the floor: the store's write path as the import runs it (``Store._write_rows``: its Python on
    the rows, then the same statements), a transaction a file into a new store; CPU seconds (the close
    left out). What it costs above (a) is the store's own Python."""
    marks = marks or Marks(None)
    clock = time.process_time
    with Store(db) as store:
        conn = store.conn
        marks.zero()
        began = clock()
        for file in files:
            prepared = file.prepared
            conn.execute("BEGIN IMMEDIATE")
            store._write_rows(prepared.tables, prepared.problems,
                              [row for row in prepared.originals if row is not None], ImportSummary(),
                              {table: prepared.spans(table) for table in BY_HAND})
            conn.execute("COMMIT")
        spent = clock() - began
        marks.dump(label)
    return spent


def run_calls(conn: sqlite3.Connection, calls_by_file: Sequence[list[Call]], marks: Marks,
              label: str) -> tuple[float, float]:
    """Each file's statements in a transaction of its own, then the connection closed: CPU seconds
    of the inserts and commits, and of the close (each counted alone with ``marks``)."""
    clock = time.process_time
    execute, executemany = conn.cursor().execute, conn.executemany
    marks.zero()
    began = clock()
    for calls in calls_by_file:
        conn.execute("BEGIN IMMEDIATE")
        for sql, values, many in calls:
            if many:
                executemany(sql, values)
            else:
                execute(sql, values)
        conn.execute("COMMIT")
    inserted = clock()
    marks.dump(label)
    conn.close()
    closed = clock()
    marks.dump(f"{label} close")
    return inserted - began, closed - inserted


# -- options: other layouts of the same rows ---------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """A way of storing the same rows, for ``--options``."""

    name: str
    int_key: bool = False  # child tables keyed by the hand's integer key (its rowid), not (site, hand_id) texts
    derived: bool = False  # net, net_bb, door, facing_bet, pot_bb as GENERATED ALWAYS ... VIRTUAL
    lean: bool = False  # players' variant, big_bet and net_bb not stored: the hand's, by a join
    without_rowid: bool = False  # hands and originals WITHOUT ROWID: their key's B-tree is the table
    no_key: bool = False  # hands and originals without their (site, hand_id) key: what the keys cost
    journal: str = "WAL"  # the store's journal mode (WAL: readers beside an import)
    synchronous: str = "NORMAL"
    left_out: tuple[str, ...] = ()  # tables not written: not an option, a measure of their share
    actions_json: bool = False  # a hand's actions as one row: its key and a JSON array of their values


LAYOUTS = (
    Layout("store's schema"),
    Layout("int hand key", int_key=True),
    Layout("derived virtual", derived=True),
    Layout("derived + lean players", derived=True, lean=True),
    Layout("WITHOUT ROWID", without_rowid=True),
    Layout("no hands/originals key (bound)", no_key=True),
    Layout("int key + derived + lean", int_key=True, derived=True, lean=True),
    Layout("lean players", lean=True),
    Layout("int key + lean players", int_key=True, lean=True),
    Layout("rollback journal (DELETE)", journal="DELETE"),
    Layout("WAL, synchronous OFF", synchronous="OFF"),
    Layout("(share) without the actions rows", left_out=("actions",)),
    Layout("(share) without the players rows", left_out=("players",)),
    Layout("(share) without the originals", left_out=("originals",)),
    Layout("actions as one JSON text a hand", actions_json=True),
)
LEVELS: tuple[int | None, ...] = (1, -1, -3, -5, 3, None)
"""zstd levels ``--options`` packs the texts with (None: not compressed)."""

_DERIVED = {
    "hands": {"pot_bb": "CASE WHEN big_bet THEN CAST(pot AS REAL) / big_bet END"},
    "players": {"net": "collected - contributed",
                "net_bb": "CASE WHEN big_bet THEN CAST(collected - contributed AS REAL) / big_bet END",
                "door": "NULLIF(substr(up_cards, 1, 2), '')"},
    "actions": {"facing_bet": "to_call > 0"},
}
_LEAN = {"players": ("variant", "big_bet", "net_bb")}
_KEYED = ("players", "actions", "pots", "violations", "notes")  # the tables a hand's key repeats in


@dataclass(frozen=True)
class _Table:
    """A table of a layout: its SQL, and which of the store's row values it binds."""

    create: str
    stored: tuple[int, ...]  # indexes of the store's row's values bound (the key's texts left out if keyed)
    keyed: bool  # the hand's integer key bound first


def _tables(layout: Layout) -> dict[str, _Table]:
    made = {}
    for table, columns in SCHEMA.items():
        generated = _DERIVED.get(table, {}) if layout.derived else {}
        dropped = _LEAN.get(table, ()) if layout.lean else ()
        keyed = layout.int_key and table in _KEYED
        defs, stored = [], []
        if keyed:
            defs.append("hand INTEGER NOT NULL")
        elif layout.int_key and table == "hands":
            defs.append("hand INTEGER PRIMARY KEY")
        for index, column in enumerate(columns):
            if column.name in dropped or (keyed and column.name in ("site", "hand_id")):
                continue
            sql = _column_sql(column.name, column.dtype)  # the store's own column (type, NOT NULL)
            if column.name in generated:  # not NOT NULL: SQLite would work out the value to check it
                defs.append(f"{sql.removesuffix(' NOT NULL')} GENERATED ALWAYS AS ({generated[column.name]}) VIRTUAL")
                continue
            defs.append(sql)
            stored.append(index)
        rowid = ""
        if table == "hands" and not layout.no_key:
            defs.append("UNIQUE (site, hand_id)" if layout.int_key else "PRIMARY KEY (site, hand_id)")
            rowid = " WITHOUT ROWID" if layout.without_rowid else ""
        elif table == "rejects":
            defs.append("UNIQUE (status, file, hand_line)")
        if table == "actions" and layout.actions_json:
            defs, stored = ['"site" TEXT', '"hand_id" TEXT', '"actions" TEXT'], []
        made[table] = _Table(f"CREATE TABLE {table} ({', '.join(defs)}){rowid}", tuple(stored), keyed)
    key = "hand INTEGER PRIMARY KEY" if layout.int_key else "site TEXT NOT NULL, hand_id TEXT NOT NULL"
    end = "" if layout.int_key or layout.no_key else (
        ", PRIMARY KEY (site, hand_id)" + (") WITHOUT ROWID" if layout.without_rowid else ")"))
    made["originals"] = _Table(f"CREATE TABLE originals ({key}, file TEXT NOT NULL, line INTEGER NOT NULL, "
                               f"text BLOB NOT NULL, context BLOB{end or ')'}", (), False)
    return made


@functools.lru_cache(maxsize=None)
def _statement(table: str, width: int, rows: int, keyed: int) -> str:
    """An INSERT of ``rows`` rows of ``width`` values; ``keyed`` (1 or 2) values at the head of each
    row bound once for them all (``?1``, ``?2``: a hand's key, as the store's actions statement has it)."""
    row = "(" + ", ".join([f"?{i + 1}" for i in range(keyed)] + ["?"] * (width - keyed)) + ")"
    return f"INSERT INTO {table} VALUES " + ", ".join([row] * rows)


class LayoutWriter:
    """The statements that store :class:`FileRows` in a new store of ``layout``, shaped as the store's:
    a hand's actions in one statement, its key bound once; other tables :data:`INSERT_ROWS` rows a
    statement, the rest one a row (the originals too, as the store has written them since i34m17)."""

    def __init__(self, layout: Layout) -> None:
        self.layout = layout
        self.tables = _tables(layout)
        self.next_hand = 1

    def create(self, db: Path) -> sqlite3.Connection:
        conn = sqlite3.connect(db, isolation_level=None)
        layout = self.layout
        for pragma in (f"journal_mode={layout.journal}", f"synchronous={layout.synchronous}",
                       f"cache_size=-{WRITE_CACHE_KIB}",
                       f"wal_autocheckpoint={WAL_PAGES}"):
            conn.execute(f"PRAGMA {pragma}")
        for table in self.tables.values():
            conn.execute(table.create)
        return conn

    def rows(self, file: FileRows) -> dict[str, list[tuple[Any, ...]]]:
        """The file's rows as this layout binds them (a design's rows would be made so by ``add_rows``:
        what that saves in Python is part of (c))."""
        prepared = file.prepared
        hand_of = {(row[0], row[1]): self.next_hand + number for number, row in enumerate(prepared.tables["hands"])}
        self.next_hand += len(hand_of)
        out = {}
        for table in TABLES:
            spec = self.tables[table]
            stored = spec.stored
            rows = sql_rows(table, prepared.tables[table])
            if spec.keyed or (table == "hands" and self.layout.int_key):
                out[table] = [(hand_of[(row[0], row[1])], *[row[i] for i in stored]) for row in rows]
            else:
                out[table] = [tuple(row[i] for i in stored) for row in rows]
        if self.layout.actions_json:
            out["actions"] = [(site, hand_id, json.dumps(actions, allow_nan=False))
                              for site, hand_id, actions in hand_actions(file)]
        originals = [row for row in prepared.originals if row is not None]
        if self.layout.int_key:
            originals = [(hand_of[(row[0], row[1])], *row[2:]) for row in originals]
        out["originals"] = originals
        return out

    def calls(self, file: FileRows, tables: dict[str, list[tuple[Any, ...]]]) -> list[Call]:
        calls: list[Call] = []
        for table, rows in tables.items():
            if not rows or table in self.layout.left_out:
                continue
            width = len(rows[0])
            if table in BY_HAND and not self.layout.actions_json:
                keyed = 1 if self.layout.int_key else 2
                for start, end in file.prepared.spans(table):
                    values: list[Any] = list(rows[start][:keyed])
                    for row in rows[start:end]:
                        values.extend(row[keyed:])
                    calls.append((_statement(table, width, end - start, keyed), values, False))
            else:
                whole = len(rows) - len(rows) % INSERT_ROWS
                for start in range(0, whole, INSERT_ROWS):
                    flat: list[Any] = []
                    for row in rows[start:start + INSERT_ROWS]:
                        flat.extend(row)
                    calls.append((_statement(table, width, INSERT_ROWS, 0), flat, False))
                if whole < len(rows):
                    calls.append((_statement(table, width, 1, 0), rows[whole:], True))
        return calls


def hand_actions(file: FileRows) -> list[tuple[str, str, list[list[Any]]]]:
    """Each hand's key and its actions rows' other values, None for a missing one (for JSON)."""
    rows = file.prepared.tables["actions"]
    return [(rows[start][0], rows[start][1], [[None if value != value else value for value in row[2:]]
                                              for row in rows[start:end]])
            for start, end in file.prepared.spans("actions")]


def actions_json(hands: list[list[tuple[str, str, list[list[Any]]]]]) -> None:
    """Each hand's actions written as one JSON text (what the rows would make for that design)."""
    dumps = json.dumps
    for file in hands:
        for _, _, actions in file:
            dumps(actions, allow_nan=False)


def write_layout(layout: Layout, files: Sequence[FileRows], db: Path,
                 originals: list[list[tuple[Any, ...]]] | None = None,
                 marks: Marks | None = None, label: str = "") -> tuple[float, float, int]:
    """CPU seconds of ``layout``'s inserts and commits and of its close; the store's bytes. ``originals``:
    each file's originals rows to store instead of the level-1 ones."""
    writer = LayoutWriter(layout)
    made = []
    for index, file in enumerate(files):
        tables = writer.rows(file)
        if originals is not None:
            tables["originals"] = originals[index]
        made.append(writer.calls(file, tables))
    inserted, closed = run_calls(writer.create(db), made, marks or Marks(None), label or layout.name)
    return inserted, closed, db.stat().st_size


# -- rounds -------------------------------------------------------------------------------


def floor(files: list[FileRows], rounds: int, tmp: Path, marks: Marks) -> None:
    hands = sum(file.hands for file in files)
    spent: dict[str, list[float]] = {part: [] for part in ("a", "checkpoint", "b", "c", "d", "store")}
    clock = time.process_time
    for number in range(rounds):
        for part, work in (("d", lambda: check_files(files)), ("b", lambda: pack_texts(files)),
                           ("c", lambda: least_rows(files))):
            marks.zero()
            began = clock()
            work()
            spent[part].append(clock() - began)
            marks.dump(f"{part} round {number + 1}")
        db = tmp / f"floor{number}.db"
        inserted, closed = replay(files, db, marks, f"a round {number + 1}")
        spent["a"].append(inserted)
        spent["checkpoint"].append(closed)
        size = db.stat().st_size
        spent["store"].append(store_path(files, tmp / f"path{number}.db", marks, f"store round {number + 1}"))
        print(f"round {number + 1}: " + ", ".join(f"{part} {values[-1] / hands * 1e6:.1f}"
                                                  for part, values in spent.items()) + " µs a hand", flush=True)
        for path in [*tmp.glob(f"floor{number}.db*"), *tmp.glob(f"path{number}.db*")]:
            path.unlink()
    per = {part: median(values) / hands * 1e6 for part, values in spent.items()}
    check = per["d"]
    print(f"\n{hands} hands in {len(files)} files; CPU µs a hand, median of {rounds} rounds; share of (d)")
    names = {"a": "(a) inserts + commits", "checkpoint": "    close (WAL checkpoint)", "b": "(b) pack",
             "c": "(c) least rows", "d": "(d) check", "store": "not the floor: Store._write_rows"}
    for part, name in names.items():
        print(f"{name:34} {per[part]:7.1f}  {per[part] / check:.3f}")
    bound = per["a"] + per["b"] + per["c"]
    print(f"floor (a)+(b)+(c) over (d): {bound / check:.3f} (with the checkpoint "
          f"{(bound + per['checkpoint']) / check:.3f}); the target leaves 0.25")
    print(f"store: {size / 2**20:.1f} MiB")


def options(files: list[FileRows], rounds: int, tmp: Path, marks: Marks) -> None:
    hands = sum(file.hands for file in files)
    clock = time.process_time
    print(f"{hands} hands; CPU µs a hand, median of {rounds} rounds")
    packed: dict[int | None, list[float]] = {level: [] for level in LEVELS}
    sizes: dict[int | None, int] = {}
    for number in range(rounds):
        for level in LEVELS:
            marks.zero()
            began = clock()
            sizes[level] = pack_texts(files, level)
            packed[level].append(clock() - began)
            marks.dump(f"pack {level} round {number + 1}")
    for level in LEVELS:
        db = tmp / f"level{level}.db"
        compress = (lambda data: data) if level is None else zstandard.ZstdCompressor(level=level).compress
        rows = [[(site, hand_id, name, line, bytearray(compress(text.encode("utf-8"))),
                  NULL if context is None else bytearray(compress(context.encode("utf-8"))))
                 for (site, hand_id, name, line, _, _), (text, context)
                 in zip((row for row in file.prepared.originals if row is not None), file.texts)]
                for file in files]
        _, _, size = write_layout(LAYOUTS[0], files, db, rows)
        print(f"zstd {'none' if level is None else level:>4}: pack {median(packed[level]) / hands * 1e6:6.1f} µs, "
              f"texts {sizes[level] / 2**20:6.1f} MiB, store {size / 2**20:6.1f} MiB")
        for path in tmp.glob(f"level{level}.db*"):
            path.unlink()
    spent: dict[str, list[float]] = {layout.name: [] for layout in LAYOUTS}
    closes: dict[str, list[float]] = {layout.name: [] for layout in LAYOUTS}
    stores: dict[str, int] = {}
    for number in range(rounds):
        for index, layout in enumerate(LAYOUTS):
            db = tmp / f"layout{index}-{number}.db"
            inserted, closed, stores[layout.name] = write_layout(layout, files, db, marks=marks,
                                                                       label=f"{layout.name} round {number + 1}")
            spent[layout.name].append(inserted)
            closes[layout.name].append(closed)
            for path in tmp.glob(f"layout{index}-{number}.db*"):
                path.unlink()
    base = median(spent[LAYOUTS[0].name])
    held = [hand_actions(file) for file in files]
    dumped = []
    for number in range(rounds):
        marks.zero()
        began = clock()
        actions_json(held)
        dumped.append(clock() - began)
        marks.dump(f"actions json round {number + 1}")
    print(f"a hand's actions as one JSON text (json.dumps; making them): {median(dumped) / hands * 1e6:.1f} µs")
    for layout in LAYOUTS:
        inserted = median(spent[layout.name])
        print(f"{layout.name:34} inserts {inserted / hands * 1e6:6.1f} µs ({inserted / base:.3f}), close "
              f"{median(closes[layout.name]) / hands * 1e6:5.1f} µs, store {stores[layout.name] / 2**20:6.1f} MiB")


def hand_files(folder: Path | None, hands: int, tmp: Path) -> list[Path]:
    if folder is not None:
        return sorted(path for path in folder.iterdir() if path.is_file())
    made = tmp / "hands"
    made.mkdir()
    return write_simulated(made, hands)


def _positive(text: str) -> int:
    """An argument that counts rounds: 1 or more."""
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more, not {number}")
    return number


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=9000, help="simulated hands (without --folder)")
    parser.add_argument("--rounds", type=_positive, default=5)
    parser.add_argument("--folder", type=Path, help="these hand histories instead of simulated ones")
    parser.add_argument("--options", action="store_true", help="the layouts and zstd levels instead")
    parser.add_argument("--marks", metavar="LIB", help="callgrind's marks around each part (see the docstring)")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        files = prepare(hand_files(args.folder, args.hands, tmp), tmp / "scratch.db")
        # the cyclic GC off, as the import's per-file loop has it (studbook.gcpause): the rows held
        # here are millions of tuples, which each collection would traverse
        gc.collect()
        gc.freeze()
        collecting = gc.isenabled()
        gc.disable()
        try:
            (options if args.options else floor)(files, args.rounds, tmp, Marks(args.marks))
        finally:
            gc.unfreeze()
            if collecting:
                gc.enable()
    return 0


if __name__ == "__main__":
    sys.exit(main())
