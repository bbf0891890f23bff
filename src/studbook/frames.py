"""Checked hands as tidy pandas DataFrames.

:func:`frames_from_checks` turns what the checker produces (``HandCheck`` for
every hand it replayed, ``Rejected`` / ``Skipped`` for the others) into a
:class:`Frames`: seven DataFrames with stable column names and dtypes, listed in
:data:`SCHEMA` (``schema_markdown()`` renders it for docs/schema.md). :func:`load`
builds the same frames from hand-history files or from a store made by
``studbook import``.

Money is exact: every amount column is an integer in *minor units*, the amount
times :data:`MONEY_SCALE` (100): cents for real money, hundredths of a chip for
tournament and play-money chips. An amount with finer precision than that is
never rounded: the hand becomes a row of ``rejects``. The amount columns are
listed in :data:`MONEY_COLUMNS` and in each frame's ``attrs["units"]`` (column
-> ``"minor"``); ``from_minor`` gives a value back as an exact Decimal. The
``*_bb`` columns are float conveniences in big bets (amount / the hand's big bet).

The dtypes are lean (:mod:`studbook.lean`), so that a million hands fit in a
few GB: repeated strings are categoricals holding only the values of their own
table (``value_counts()`` lists no absent value; tables holding the same values
share one dtype object, so joins between them compare codes), in a meaningful
order: ``hand_id`` sorts as numbers where ids are all digits, ``door`` and
``start_class`` are ordered categoricals (cards by rank then suit, classes
strongest first). Other strings are Arrow-backed where pyarrow is installed,
and integers are the narrowest type the schema names, widened when a value
needs it (amounts are ``int32`` up to 21,474,836.47 units, ``int64`` beyond).
Group categoricals with ``observed=True`` (pandas 2 warns without it).

:func:`load` raises :class:`FileNotFoundError` for a path that does not exist
and :class:`NoHandHistories` (a ValueError) when no file under the paths is a
hand history. Files that are not hand histories (a README, an index, another
program's side files) are listed in :attr:`Frames.ignored`, apart from the
``rejects`` (hands that could not be read).
"""

from __future__ import annotations

import errno
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, Mapping, Sequence

import pandas as pd

from studbook import store
from studbook.lean import TableBuilder, release_memory, share_categories
from studbook.perfile import per_file
from studbook.rows import (  # the rows (no pandas), re-exported: frames are made of them
    MONEY_DIGITS, MONEY_SCALE, RAZZ_CLASSES, SCHEMA, SHARED_CATEGORIES, STUD_CLASSES, TABLES, CheckResult, Column,
    from_minor, rows_from_checks, starting_class, table_columns, to_minor,
)
from studbook.tables import (  # the frames' container and dtypes, re-exported: the store builds on them too
    IGNORED_COLUMNS, MONEY_COLUMNS, Frames, empty_frames, ignored_frame, typed_frame,
)


class NoHandHistories(ValueError):
    """:func:`load` found no hand history under its paths (every file was ignored, or
    there was no file at all)."""


def schema_markdown() -> str:
    """The schema as Markdown tables (for docs/schema.md, by scripts/gen_docs.py)."""
    parts = [
        f"All amounts are integers in minor units: amount x {MONEY_SCALE} "
        "(cents, or hundredths of a chip); each frame's `attrs[\"units\"]` names them.\n\n"
        "Dtypes: an integer column has the dtype shown when every value fits it, "
        "else the narrowest wider one that holds them (never wrapped): amounts are "
        "int32 up to 21,474,836.47 units, int64 beyond; capitalised names (`Int32`) "
        "take NA. `category` is a pandas Categorical whose categories are the values "
        "of its own table only, sorted (`hand_id`: as numbers where ids are all digits; "
        "`door` and `start_class` are ordered categoricals); group them with "
        "`observed=True`. `string` is pandas' "
        "string dtype, Arrow-backed when pyarrow is installed.\n"
    ]
    for table, columns in SCHEMA.items():
        parts.append(f"\n### `{table}`\n\n| column | dtype | meaning |\n|---|---|---|")
        parts.extend(f"| `{c.name}` | {c.dtype} | {c.doc} |" for c in columns)
    return "\n".join(parts) + "\n"


# ---------------------------------------------------------------------------
# Building the frames


def frames_from_checks(results: Iterable[CheckResult]) -> Frames:
    """Frames from checker results, with no I/O."""
    return Frames(**build_frames([results]))


def build_frames(
    chunks: Iterable[Iterable[CheckResult]],
    tables: Sequence[str] = TABLES,
    columns: dict[str, Sequence[str]] | None = None,
    sizes: list[dict[str, int]] | None = None,
) -> dict[str, pd.DataFrame]:
    """The ``tables`` (with their ``columns``) of checker results that come in
    chunks (a file's, say): each chunk's rows are made and converted to the
    frames' dtypes before the next, so their Python objects never pile up.
    ``sizes``, when given, gets each chunk's number of rows in each table."""
    builders = {table: TableBuilder(table_columns(table, (columns or {}).get(table)))
                for table in tables}
    picks = {table: _picker(table, builder.names) for table, builder in builders.items()}
    for chunk in chunks:
        rows = rows_from_checks(chunk)
        if sizes is not None:
            sizes.append({table: len(rows[table]) for table in builders})
        for table, builder in builders.items():
            pick = picks[table]
            builder.add(rows[table] if pick is None else [pick(row) for row in rows[table]])
        del rows
    frames = {table: builder.frame() for table, builder in builders.items()}
    share_categories(frames, SHARED_CATEGORIES)
    release_memory()
    return frames


def joined_frames(pieces: Sequence[Mapping[str, pd.DataFrame]], tables: Sequence[str] = TABLES
                  ) -> dict[str, pd.DataFrame]:
    """Frames of every table made of ``pieces`` of frames (of consecutive files, say),
    in order, as :func:`build_frames` of all their rows makes them: a piece's unused
    categories are left out, and integers are as narrow as all the values allow."""
    frames = {}
    for table in tables:
        builder = TableBuilder(table_columns(table))
        for piece in pieces:
            part = piece[table]
            builder.add_columns({name: part[name].cat.remove_unused_categories()
                                 if isinstance(part[name].dtype, pd.CategoricalDtype) else part[name]
                                 for name in builder.names})
        frames[table] = builder.frame()
    share_categories(frames, SHARED_CATEGORIES)
    return frames


# ---------------------------------------------------------------------------
# Loading


def _picker(table: str, names: list[str]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]] | None:
    """A function giving the values of ``names`` of a row of ``table``; None for all columns."""
    every = [c.name for c in SCHEMA[table]]
    if names == every:
        return None
    positions = [every.index(name) for name in names]
    return lambda row: tuple(row[i] for i in positions)


def load(
    source: str | Path | Iterable[str | Path],
    frames: Iterable[str] | None = None,
    columns: Mapping[str, Sequence[str]] | None = None,
) -> Frames:
    """Frames from a store file (``studbook import --db``) or hand-history paths.

    ``source`` is a store path, or one or more files/directories of hand
    histories, which are parsed and checked (``studbook.check.check_paths``).
    ``frames`` names the tables to load (default: all); any other is
    loaded from the same source when first used (from hand histories, that
    parses them again). ``columns`` maps a table to the columns to load
    (default: all); the key columns ``site`` and ``hand_id`` always come
    too. From a store only those SQL columns are read. ValueError names an
    unknown table or column.

    Files that are not hand histories (no site's format, empty, a tournament
    summary) are left out and listed in the frames' ``ignored`` table.
    FileNotFoundError for a path that does not exist; :class:`NoHandHistories`
    (a ValueError) when no file under the paths is a hand history.
    """
    paths = [Path(source)] if isinstance(source, (str, Path)) else [Path(p) for p in source]
    wanted = list(TABLES if frames is None else ([frames] if isinstance(frames, str) else frames))
    columns = dict(columns or {})
    for table in {*wanted, *columns}:
        table_columns(table, columns.get(table))  # ValueError for a name that does not exist
    for path in paths:
        if not path.exists():
            raise FileNotFoundError(errno.ENOENT, "no such file or directory", str(path))
    ignored = _Ignored()
    if len(paths) == 1 and store.is_store(paths[0]):
        def read(tables: Sequence[str]) -> dict[str, pd.DataFrame]:
            return store.read_tables(paths[0], tables, columns)
    else:
        def read(tables: Sequence[str]) -> dict[str, pd.DataFrame]:
            ignored.clear()  # read again when a lazy table is first used
            with per_file(_file_results(paths, ignored)) as each_file:  # the rows are made as each file is checked
                return build_frames(each_file, tables, columns)
    loaded = read(wanted)
    if ignored.files and len(ignored) == ignored.files:
        raise NoHandHistories(_no_hand_histories(paths, ignored))
    if len(loaded) == len(TABLES):
        return Frames(**loaded, ignored=ignored_frame(ignored), source=tuple(paths))
    return Frames.lazy(loaded, lambda table: read([table])[table], ignored=ignored_frame(ignored),
                       source=tuple(paths))


class _Ignored(list[tuple[str, str]]):
    """The files read that are not hand histories, (file, why), and how many files were read."""

    files = 0

    def clear(self) -> None:
        super().clear()
        self.files = 0


def _no_hand_histories(paths: Sequence[Path], ignored: Sequence[tuple[str, str]]) -> str:
    named = ", ".join(str(p) for p in paths[:3]) + (" ..." if len(paths) > 3 else "")
    if not ignored:
        return f"{named}: no files to read"
    first = "; ".join(f"{Path(file).name}: {reason}" for file, reason in ignored[:3])
    more = f"; and {len(ignored) - 3} more" if len(ignored) > 3 else ""
    return f"{named}: no hand history found ({len(ignored)} file{'s' if len(ignored) != 1 else ''} " \
           f"ignored: {first}{more})"


def _file_results(paths: Iterable[str | Path], ignored: _Ignored | None = None) -> Iterator[list[CheckResult]]:
    """Each file's check results, a list a file, in file order; a file that is not a
    hand history gives none, and its name and why go to ``ignored``. NoHandHistories
    when no path holds a file at all."""
    from studbook.check import check_paths
    from studbook.parse import not_a_hand_history

    files = 0
    for file_check in check_paths([str(p) for p in paths]):
        files += 1
        if ignored is not None:
            ignored.files = files
        reason = not_a_hand_history(file_check.parsed)
        if reason is not None:
            if ignored is not None:
                ignored.append((file_check.file, reason))
            yield []
        else:
            yield list(file_check.results)
    if files == 0:
        raise NoHandHistories(_no_hand_histories([Path(p) for p in paths], []))


def check_results(paths: Iterable[str | Path]) -> Iterator[CheckResult]:
    """Every hand's check result of the files and directories ``paths``, in file order."""
    for results in _file_results(paths):
        yield from results


__all__ = [
    "CheckResult", "Column", "Frames", "IGNORED_COLUMNS", "MONEY_COLUMNS", "NoHandHistories", "ignored_frame", "MONEY_DIGITS", "MONEY_SCALE", "RAZZ_CLASSES", "SCHEMA",
    "SHARED_CATEGORIES", "STUD_CLASSES", "TABLES", "build_frames", "check_results", "empty_frames",
    "frames_from_checks", "joined_frames", "rows_from_checks", "from_minor", "load", "schema_markdown", "starting_class",
    "table_columns", "to_minor", "typed_frame",
]
