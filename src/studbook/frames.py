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
never rounded: the hand becomes a row of ``rejects``. The ``*_bb`` columns are
float conveniences in big bets (amount / the hand's big bet).

The dtypes are lean (:mod:`studbook.lean`), so that a million hands fit in a
few GB: repeated strings are categoricals (``site``, ``hand_id``, ``player``,
``file`` and ``variant`` share one set of categories across the tables, so
joins compare codes), other strings are Arrow-backed where pyarrow is
installed, and integers are the narrowest type the schema names, widened when a
value needs it (amounts are ``int32`` up to 21,474,836.47 units, ``int64``
beyond). Group categoricals with ``observed=True``.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

import pandas as pd

from studbook.lean import TableBuilder, release_memory, share_categories
from studbook.perfile import per_file
from studbook.rows import (  # the rows (no pandas), re-exported: frames are made of them
    MONEY_DIGITS, MONEY_SCALE, RAZZ_CLASSES, SCHEMA, SHARED_CATEGORIES, STUD_CLASSES, TABLES, CheckResult, Column,
    from_minor, rows_from_checks, starting_class, table_columns, to_minor,
)


def schema_markdown() -> str:
    """The schema as Markdown tables (for docs/schema.md, by scripts/gen_docs.py)."""
    parts = [
        f"All amounts are integers in minor units: amount x {MONEY_SCALE} "
        "(cents, or hundredths of a chip).\n\n"
        "Dtypes: an integer column has the dtype shown when every value fits it, "
        "else the narrowest wider one that holds them (never wrapped): amounts are "
        "int32 up to 21,474,836.47 units, int64 beyond; capitalised names (`Int32`) "
        "take NA. `category` is a pandas Categorical with its values, sorted, as "
        "categories; `site`, `hand_id`, `player` (and `winner`), `file` and "
        "`variant` share one set of categories across the tables, so joins on them "
        "compare codes (group them with `observed=True`). `string` is pandas' "
        "string dtype, Arrow-backed when pyarrow is installed.\n"
    ]
    for table, columns in SCHEMA.items():
        parts.append(f"\n### `{table}`\n\n| column | dtype | meaning |\n|---|---|---|")
        parts.extend(f"| `{c.name}` | {c.dtype} | {c.doc} |" for c in columns)
    return "\n".join(parts) + "\n"


@dataclass
class Frames:
    """The seven tables; see :data:`SCHEMA`. Money columns are minor units.

    Frames made by :func:`load` with ``frames=`` hold the tables asked for;
    the others are loaded from the same source when first used
    (:meth:`loaded` names those at hand).
    """

    hands: pd.DataFrame
    players: pd.DataFrame
    actions: pd.DataFrame
    pots: pd.DataFrame
    violations: pd.DataFrame
    rejects: pd.DataFrame
    notes: pd.DataFrame = field(default_factory=lambda: typed_frame("notes", []))

    @classmethod
    def lazy(cls, tables: dict[str, pd.DataFrame],
             load_table: Callable[[str], pd.DataFrame]) -> Frames:
        """Frames holding ``tables``; any other table is ``load_table(name)`` when first used."""
        frames = cls.__new__(cls)
        frames.__dict__.update(tables)
        frames.__dict__["_load_table"] = load_table
        return frames

    if not TYPE_CHECKING:  # mypy keeps checking attribute names against the fields

        def __getattr__(self, name: str) -> pd.DataFrame:
            load_table = self.__dict__.get("_load_table")
            if load_table is None or name not in SCHEMA:
                raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
            self.__dict__[name] = load_table(name)
            share_categories({t: self.__dict__[t] for t in self.loaded()}, SHARED_CATEGORIES)
            return self.__dict__[name]

    def loaded(self) -> tuple[str, ...]:
        """The tables at hand (all of them, but for frames made by :meth:`lazy`)."""
        return tuple(table for table in TABLES if table in self.__dict__)

    def read_all(self) -> Frames:
        """These frames with every table at hand (the rest loaded now from their source),
        so that all share their categories as :func:`load` of every table gives them;
        for writing every table out (``studbook export``)."""
        for table in TABLES:
            getattr(self, table)
        return self

    def tables(self) -> Iterator[tuple[str, pd.DataFrame]]:
        for field in fields(self):
            yield field.name, getattr(self, field.name)

    def __len__(self) -> int:
        return len(self.hands)

    def subset(self, *, variants: Iterable[str] | None = None,
               sites: Iterable[str] | None = None) -> Frames:
        """The hands of the given variants and/or sites, with their rows of every table."""
        hands = self.hands
        if variants is not None:
            hands = hands[hands["variant"].isin(list(variants))]
        if sites is not None:
            hands = hands[hands["site"].isin(list(sites))]
        return self.of_hands(hands)

    def of_hands(self, hands: pd.DataFrame) -> Frames:
        """These rows of ``hands`` with their rows of every table (rejects unchanged)."""
        keys = hands[["site", "hand_id"]]

        def keep(frame: pd.DataFrame) -> pd.DataFrame:
            return frame.merge(keys, on=["site", "hand_id"], how="inner", sort=False)

        return Frames(hands=hands.reset_index(drop=True), players=keep(self.players),
                      actions=keep(self.actions), pots=keep(self.pots),
                      violations=keep(self.violations), rejects=self.rejects, notes=keep(self.notes))


def typed_frame(table: str, data: Any, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """A DataFrame of ``table`` from rows (tuples in schema order) or a DataFrame,
    with the schema's dtypes; ``columns``: only those (see :func:`table_columns`)."""
    specs = table_columns(table, columns)
    builder = TableBuilder(specs)
    if isinstance(data, pd.DataFrame):
        builder.add_columns(data.reindex(columns=[c.name for c in specs]))
    else:
        builder.add(list(data))
    return builder.frame()


def empty_frames() -> Frames:
    return Frames(**{table: typed_frame(table, []) for table in TABLES})



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
    """
    paths = [Path(source)] if isinstance(source, (str, Path)) else [Path(p) for p in source]
    wanted = list(TABLES if frames is None else ([frames] if isinstance(frames, str) else frames))
    columns = dict(columns or {})
    for table in {*wanted, *columns}:
        table_columns(table, columns.get(table))  # ValueError for a name that does not exist
    from studbook import store  # imported here: store builds on this module

    if len(paths) == 1 and store.is_store(paths[0]):
        def read(tables: Sequence[str]) -> dict[str, pd.DataFrame]:
            return store.read_tables(paths[0], tables, columns)
    else:
        def read(tables: Sequence[str]) -> dict[str, pd.DataFrame]:
            with per_file(_file_results(paths)) as each_file:  # the rows are made as each file is checked
                return build_frames(each_file, tables, columns)
    loaded = read(wanted)
    if len(loaded) == len(TABLES):
        return Frames(**loaded)
    return Frames.lazy(loaded, lambda table: read([table])[table])


def _file_results(paths: Iterable[str | Path]) -> Iterator[list[CheckResult]]:
    """Each file's check results, a list a file, in file order."""
    from studbook.check import check_paths

    for file_check in check_paths([str(p) for p in paths]):
        yield list(file_check.results)


def check_results(paths: Iterable[str | Path]) -> Iterator[CheckResult]:
    """Every hand's check result of the files and directories ``paths``, in file order."""
    for results in _file_results(paths):
        yield from results


__all__ = [
    "CheckResult", "Column", "Frames", "MONEY_DIGITS", "MONEY_SCALE", "RAZZ_CLASSES", "SCHEMA",
    "SHARED_CATEGORIES", "STUD_CLASSES", "TABLES", "build_frames", "check_results", "empty_frames",
    "frames_from_checks", "joined_frames", "rows_from_checks", "from_minor", "load", "schema_markdown", "starting_class",
    "table_columns", "to_minor", "typed_frame",
]
