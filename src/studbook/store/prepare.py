"""Row preparation: checked hands as the rows the store inserts, no store needed.

A file's results become each table's rows (:mod:`studbook.rows`, in schema
order), each hand's original text packed (:func:`pack`), and the bookkeeping
that lets the write path leave out the hands stored already
(:class:`PreparedRows`). ``studbook import --jobs`` makes them in its workers
(:func:`prepare_rows`); :meth:`studbook.store.Store.add` makes them as each
result comes (:class:`RowsMaker`). :func:`sql_rows`, :func:`insert_sql` and :func:`flat_values`
give them to SQLite.
"""

from __future__ import annotations

import functools
import threading
import zlib
from dataclasses import dataclass
from datetime import date, datetime, timezone
from typing import TYPE_CHECKING, Any, Container, Iterable, Mapping, Sequence, overload

import zstandard


from studbook.engine.result import HandCheck
from studbook.events import Rejected, Skipped
from studbook.originals import HandSource, OriginalKey
from studbook.printable import printable_path
from studbook.read.memo import Memo
from studbook.rows import SCHEMA, TABLES, CheckResult, add_rows, rows_from_checks
from studbook.store.schema import ORIGINAL_NAMES

if TYPE_CHECKING:
    from studbook.check import SourcedCheck


def iso_utc(value: Any) -> str | None:
    """A start time as ISO-8601 UTC text; None for a time without a zone (never taken as UTC)."""
    if value.__class__ is datetime:  # the rows' own start times: one a stored hand
        zone = value.tzinfo
        return None if zone is None else _utc_text(value if zone is timezone.utc else value.astimezone(timezone.utc))
    if isinstance(value, datetime):  # pandas' Timestamp is one too (its isoformat writes nanoseconds)
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


def _utc_text(when: datetime) -> str:
    """``when.isoformat()`` of a UTC datetime, from remembered pieces: the day's text by its
    ordinal, the hour and minute's by the minute of the day, the second's. ``isoformat`` builds
    every time from a format and asks the zone its offset (some 11 k instructions, a fifth of
    what an imported hand's inserts cost in Python); this is a tenth of that."""
    seconds = _SECONDS[when.second]
    if when.microsecond:
        seconds = f"{seconds}.{when.microsecond:06d}"
    return f"{_DAYS[when.toordinal()]}T{_MINUTES[when.hour * 60 + when.minute]}{seconds}+00:00"


_DAYS: Memo[int, str] = Memo(lambda ordinal: date.fromordinal(ordinal).isoformat())
"""Each day's ISO text (``2024-04-08``) by its ordinal: a file's hands share a few days."""
_MINUTES = tuple(f"{hour:02d}:{minute:02d}" for hour in range(24) for minute in range(60))
_SECONDS = tuple(f":{second:02d}" for second in range(60))


INSERT_ROWS = 64
"""Rows one INSERT statement takes (a multi-row ``VALUES``): the sqlite3 module's and SQLite's
work per statement is paid once for them, not once a row as ``executemany`` pays it (an
import's inserts, 9,000 hands: 72 -> 63 µs a hand, most of it on the actions rows)."""


def _insert(verb: str, table: str, names: Sequence[str], row: str, rows: int) -> str:
    """An INSERT into ``table``'s columns ``names`` of ``rows`` rows, each written ``row``."""
    columns = ", ".join(f'"{name}"' for name in names)
    return f"{verb} INTO {table} ({columns}) VALUES " + ", ".join([row] * rows)


@functools.lru_cache(maxsize=None)
def insert_sql(table: str, rows: int) -> str:
    """The INSERT of ``rows`` rows of ``table``'s columns (``rejects``: keyed, a row met before is left)."""
    row = "(" + ", ".join("?" * len(SCHEMA[table])) + ")"
    verb = "INSERT OR IGNORE" if table == "rejects" else "INSERT"
    return _insert(verb, table, [c.name for c in SCHEMA[table]], row, rows)


@functools.lru_cache(maxsize=None)
def originals_sql(rows: int) -> str:
    """The INSERT of ``rows`` originals rows (a hand's text, keyed: one stored before is left),
    its columns by name as :func:`insert_sql`'s: a column added later stays out."""
    return _insert("INSERT OR IGNORE", "originals", ORIGINAL_NAMES, "(" + ", ".join("?" * len(ORIGINAL_NAMES)) + ")", rows)


BY_HAND = ("actions",)
"""Tables whose rows go in one statement a hand (:func:`hand_insert_sql`): a hand's some 18 actions
rows share its ``site`` and ``hand_id``, bound once (``?1``, ``?2``) where every row bound them
anew, two texts a row (SQLite copies each text it is given: some 800 instructions). Not the players
rows (6 a hand) nor the pots: the statement a hand costs more than their binds saved."""


@functools.lru_cache(maxsize=None)
def hand_insert_sql(table: str, rows: int) -> str:
    """The INSERT of ``rows`` rows of one hand of ``table``: its ``site`` and ``hand_id`` are the
    first two parameters, referred to by every row, each row's other values follow."""
    row = "(?1, ?2, " + ", ".join("?" * (len(SCHEMA[table]) - 2)) + ")"
    return _insert("INSERT", table, [c.name for c in SCHEMA[table]], row, rows)


def hand_values(rows: Sequence[tuple[Any, ...]]) -> list[Any]:
    """The parameters of :func:`hand_insert_sql` for ``rows``, one hand's: its key, then each
    row's other values. Each row is taken whole (``list.extend`` of a tuple is one step) and the
    keys are deleted after, two strided deletes in C: slicing each row, or chaining the slices,
    cost more than the binds saved."""
    first = rows[0]
    values: list[Any] = [first[0], first[1]]
    extend = values.extend
    for row in rows:
        extend(row)
    width = len(first)
    del values[2::width]  # each row's site
    del values[2::width - 1]  # then its hand_id
    return values


def flat_values(rows: Sequence[tuple[Any, ...]]) -> list[Any]:
    """The values of ``rows``, row after row: the parameters of one multi-row INSERT.
    ``list.extend`` takes each row (a tuple) in one step, where ``itertools.chain`` stepped
    through it value by value (the rows of an import's statements: a fifth of the time)."""
    values: list[Any] = []
    extend = values.extend
    for row in rows:
        extend(row)
    return values


NULL = float("nan")
"""A missing value as the store binds it. Python's sqlite3 binds an int, float or str as it
is, but looks every other value up in its adapters first, None too (six times the cost of
binding an int: some 50 values a hand are missing); SQLite stores a NaN as NULL, as it
does None. The store's rows (:class:`RowsMaker`) hold it for None (``add_rows``' ``null``)."""


def sql_rows(table: str, rows: list[tuple[Any, ...]]) -> list[tuple[Any, ...]]:
    """The rows as SQLite takes them. The values are plain Python already
    (ints, floats, strings, :data:`NULL` or None; booleans the ints 0 and 1, which sqlite3
    binds without looking for an adapter, as it does for every bool) and each
    column's affinity stores them as its type; times are written out as
    ISO-8601 UTC text, and file names go through :func:`printable_path`
    (SQLite takes UTF-8 only), the rows that have them with None as :data:`NULL`.
    The players, actions and pots rows, most of them, go as they are."""
    columns = SCHEMA[table]
    times = [i for i, column in enumerate(columns) if column.dtype.startswith("datetime64")]
    files = [i for i, column in enumerate(columns) if column.name == "file"]
    if not times and not files:
        return rows
    # None is looked for in the columns that can be missing only (a hands row's 21 of 33, some
    # 4 of them None in a simulated hand): a comprehension over every value cost 7.7 k instructions
    # a hand, this loop some 4 k. (A None left elsewhere would bind as NULL all the same,
    # through sqlite3's adapters: the store's content does not depend on this choice.)
    missing = [i for i, column in enumerate(columns) if column.dtype not in _NEVER_MISSING]
    printable: dict[Any, Any] = {}  # a file's rows share its name: escape it once
    out = []
    for row in rows:
        values = list(row)
        for i in times:
            values[i] = iso_utc(values[i])
        for i in files:
            name = values[i]
            if name not in printable:
                printable[name] = name if not isinstance(name, str) else printable_path(name)
            values[i] = printable[name]
        for i in missing:
            if values[i] is None:
                values[i] = NULL
        out.append(tuple(values))
    return out


_NEVER_MISSING = ("int8", "int16", "int32", "int64", "bool", "float64")
"""The numpy dtypes of :data:`~studbook.rows.SCHEMA`: columns of these hold no missing value
(the others are categories, strings, nullable ints and times: those :func:`sql_rows` looks at)."""


# -- prepared rows: one file's results as the store inserts them ---------------


@dataclass(frozen=True, slots=True)
class PreparedRows:
    """Results as the store inserts them, made by :class:`RowsMaker` as each
    result came (:meth:`studbook.store.Store.add`), or by :func:`prepare_rows` where a ``--jobs``
    worker checked the file: every table's rows (results in order) with each
    result's share of them, so that the hands found stored already can be left out
    and a result checked again can have its rows made anew."""

    keys: list[tuple[str, str] | None]  # per result: a hand's (site, hand_id), else None
    ends: list[tuple[int, ...]]  # per result: each table's rows up to and with its own, in TABLES order
    tables: dict[str, list[tuple[Any, ...]]]
    originals: list[tuple[Any, ...] | None]  # per result: its hand's originals row
    problems: list[Rejected | Skipped]  # the rejected and skipped results, in order

    def spans(self, table: str) -> list[tuple[int, int]]:
        """Where each result's rows of ``table`` are in :attr:`tables` (start, end), for those
        that have some: a hand's rows, in order."""
        column = TABLES.index(table)
        spans = []
        start = 0
        for ends in self.ends:
            end = ends[column]
            if end > start:
                spans.append((start, end))
            start = end
        return spans

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
                again = rows_from_checks((rechecked[index],), NULL) if index in rechecked else None
                for table, first, last in zip(TABLES, start, end):
                    rows[table].extend(again[table] if again else self.tables[table][first:last])
                original = self.originals[index]
                if original is not None:
                    originals.append(original)
            start = end
        return rows, originals


class RowsMaker:
    """:class:`PreparedRows` made one result at a time: each result's rows and its
    original text's row as soon as it comes, while its check is still in the caches,
    so the check can go at once (building rows from a file's checked hands long after
    each was checked cost a quarter more). The texts are packed when the rows are
    taken, one after another: packing each as it came, between two checks, found
    zstd's tables out of the caches every time and cost twice as much."""

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
        self.rows: list[tuple[Any, ...] | None] = []  # each result's originals row, its texts not yet packed
        self.problems: list[Rejected | Skipped] = []

    def __len__(self) -> int:
        return len(self.keys)

    def add(self, item: CheckResult | SourcedCheck, stored: Container[tuple[str, str]] = ()) -> CheckResult:
        """Make the rows of ``item`` (a result, or a result beside its original text); its result.
        A hand ``stored`` holds gets no rows: the write path counts it as a duplicate."""
        result, source = item if isinstance(item, tuple) else (item, None)
        lists = self._lists
        key: tuple[str, str] | None = None
        row: tuple[Any, ...] | None = None  # the hand's originals row, its texts not yet packed
        if not isinstance(result, HandCheck):
            add_rows(result, lists, NULL)
            self.problems.append(result)
        else:
            hand = result.hand
            header = hand.header
            site, hand_id = key = (header.site, header.hand_id)
            if key not in stored:
                add_rows(result, lists, NULL)
                if source is None and self._originals is not None:
                    source = self._originals.get((hand.file, hand.line))
                if source is not None:
                    file = hand.file  # a file's name escaped once (a file's hands share it): found without a call
                    row = (site, hand_id, self._files.get(file) or self._printable(file), hand.line, source.text,
                           source.context)
        self.keys.append(key)
        # each table's rows so far, counted one by one: `tuple(map(len, lists))` cost twice as much
        # (a map object and a call through it for each of seven lists, 3.3 k instructions a result)
        hands, players, actions, pots, violations, rejects, notes = lists  # TABLES' order
        self.ends.append((len(hands), len(players), len(actions), len(pots), len(violations), len(rejects),
                          len(notes)))
        self.rows.append(row)
        return result

    def _printable(self, file: str) -> str:
        """``file``'s printable name, made on a miss and remembered."""
        name = self._files[file] = printable_path(file)
        return name

    def take(self) -> PreparedRows:
        """The rows made so far; the maker starts afresh. The packed texts go to SQLite as
        bytearrays: sqlite3 binds a bytearray as it is but looks a ``bytes`` up in its adapters
        first (it asks ``__adapt__`` and ``__conform__``: some 3.3 k instructions a text, where the
        copy costs 1.5 k); the blob stored is the same bytes."""
        # each row unpacked by name and its packed row made in one tuple display: `(*row[:4], ...)`
        # made a slice, then a list it was extended into, then the tuple (1.9 k instructions a hand
        # against 0.9 k, packing aside)
        originals: list[tuple[Any, ...] | None] = []
        keep = originals.append
        for row in self.rows:
            if row is None:
                keep(None)
                continue
            site, hand_id, file, line, text, context = row
            keep((site, hand_id, file, line, bytearray(pack(text)),
                  NULL if context is None else bytearray(pack(context))))
        made = PreparedRows(self.keys, self.ends, self._tables, originals, self.problems)
        self._start()
        return made


def hand_keys(items: Iterable[CheckResult | SourcedCheck]) -> set[tuple[str, str]]:
    """The (site, hand_id) of the hands among ``items``."""
    results = (item[0] if isinstance(item, tuple) else item for item in items)
    return {(r.hand.site, r.hand.hand_id) for r in results if isinstance(r, HandCheck)}


def prepare_rows(results: Iterable[CheckResult | SourcedCheck]) -> PreparedRows:
    """A file's results (each beside its original text, or alone) as
    :meth:`studbook.store.Store.add_prepared` inserts them; pure Python, no store needed."""
    rows = RowsMaker()
    for item in results:
        rows.add(item)
    return rows.take()


PACK_LEVEL = 1
"""Zstandard's fastest level for the original texts. On the histories' hands (2 KB each) it packs
to 39% in 10 µs, 20 µs with the caches cold as in an import, where zlib's fastest level packed
to 38% in 28 µs (35 cold); zstd's level 3 packs to 38% in 11 µs, but 27 cold (2026-12-02)."""
_ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"  # a zstd frame's first bytes; a zlib stream's first is 0x78
_codecs = threading.local()  # a compressor and decompressor a thread: zstandard's are not thread-safe


@overload
def pack(text: str) -> bytes: ...
@overload
def pack(text: None) -> None: ...


def pack(text: str | None) -> bytes | None:
    """``text`` as the store keeps it: UTF-8, one zstd frame (with its size)."""
    if text is None:
        return None
    compressor = getattr(_codecs, "compressor", None)
    if compressor is None:
        compressor = _codecs.compressor = zstandard.ZstdCompressor(level=PACK_LEVEL)
    return compressor.compress(text.encode("utf-8"))


def unpack(data: bytes | None) -> str | None:
    """A text :func:`pack` made, or a zlib stream as stores written before 2026-12-02
    hold (the codec told by the blob's first bytes, so such stores are read as they are)."""
    if data is None:
        return None
    if data[:4] != _ZSTD_MAGIC:
        return zlib.decompress(data).decode("utf-8")
    decompressor = getattr(_codecs, "decompressor", None)
    if decompressor is None:
        decompressor = _codecs.decompressor = zstandard.ZstdDecompressor()
    return decompressor.decompress(data).decode("utf-8")


__all__ = ["BY_HAND", "INSERT_ROWS", "NULL", "PACK_LEVEL", "PreparedRows", "RowsMaker", "flat_values", "hand_insert_sql",
           "hand_keys", "hand_values", "insert_sql", "iso_utc", "originals_sql", "pack", "prepare_rows", "sql_rows", "unpack"]
