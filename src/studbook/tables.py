"""The seven tables as typed pandas frames: :class:`Frames` and :func:`typed_frame`.

What :mod:`studbook.frames` makes from checked hands and :mod:`studbook.store`
reads from a store, so it sits below both (the store builds its frames with this
module and never imports :mod:`studbook.frames`, which reads a store through the
store). The tables and their columns are :data:`studbook.rows.SCHEMA`; the dtypes
are lean (:mod:`studbook.lean`). :mod:`studbook.frames` re-exports every name here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator, Mapping, Sequence

import numpy as np
import pandas as pd

from studbook.lean import STRING, TableBuilder, share_categories
from studbook.rows import MINOR_UNITS, SCHEMA, SHARED_CATEGORIES, TABLES, table_columns


MONEY_COLUMNS: dict[str, tuple[str, ...]] = {
    table: tuple(c.name for c in columns if c.unit == MINOR_UNITS) for table, columns in SCHEMA.items()}
"""Each table's amount columns: integers in minor units (amount x :data:`MONEY_SCALE`)."""


IGNORED_COLUMNS = ("file", "reason")


def ignored_frame(rows: Sequence[tuple[str, str]] = ()) -> pd.DataFrame:
    """The files that are not hand histories: ``file`` and ``reason`` (strings)."""
    return pd.DataFrame({name: pd.array([row[i] for row in rows], dtype=STRING)
                         for i, name in enumerate(IGNORED_COLUMNS)})


@dataclass(repr=False)
class Frames:
    """The seven tables; see :data:`SCHEMA`. Money columns are minor units
    (:data:`MONEY_COLUMNS`).

    Frames made by :func:`load` with ``frames=`` hold the tables asked for;
    the others are loaded from the same source when first used
    (:meth:`loaded` names those at hand). ``ignored`` lists the files under the
    paths that are not hand histories (never rows of ``rejects``); ``source``
    is where the frames came from (a store, or the hand-history paths), which
    :meth:`hand` reads a hand's text from.
    """

    hands: pd.DataFrame
    players: pd.DataFrame
    actions: pd.DataFrame
    pots: pd.DataFrame
    violations: pd.DataFrame
    rejects: pd.DataFrame
    notes: pd.DataFrame = field(default_factory=lambda: typed_frame("notes", []))
    ignored: pd.DataFrame = field(default_factory=ignored_frame)
    source: tuple[Path, ...] = ()

    @classmethod
    def lazy(cls, tables: dict[str, pd.DataFrame],
             load_table: Callable[[str], pd.DataFrame], *, ignored: pd.DataFrame | None = None,
             source: tuple[Path, ...] = ()) -> Frames:
        """Frames holding ``tables``; any other table is ``load_table(name)`` when first used."""
        frames = cls.__new__(cls)
        frames.__dict__.update(tables)
        frames.__dict__["ignored"] = ignored_frame() if ignored is None else ignored
        frames.__dict__["source"] = source
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
        """Each table's name and frame, in :data:`TABLES` order (loading any not at hand)."""
        for table in TABLES:
            yield table, getattr(self, table)

    def __len__(self) -> int:
        return len(self.hands)

    def __repr__(self) -> str:
        from studbook.display import frames_repr

        return frames_repr(self)

    def _repr_html_(self) -> str:
        from studbook.display import frames_html

        return frames_html(self)

    def hand(self, site: str | Mapping[str, Any], hand_id: str | None = None) -> Any:
        """The hand of a row of any table (a Series or mapping with ``site`` and
        ``hand_id``), or of ``site`` and ``hand_id``: a :class:`studbook.display.HandView`
        with its original ``text``, the parsed ``hand``, its ``check`` and ``replay``,
        and ``line(n)``, the text of its file's line ``n``; it displays as the
        replayer in a notebook. Read from the store's kept original text when the
        frames came from a store, else from the hand's file. KeyError for a hand
        these frames do not hold."""
        from studbook.display import find_hand

        if not isinstance(site, str):
            row = site
            site, hand_id = str(row["site"]), str(row["hand_id"])
        if hand_id is None:
            raise TypeError("hand() takes a row, or a site and a hand id")
        return find_hand(self, site, str(hand_id))

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
        """These rows of ``hands`` with their rows of every table (rejects and ignored
        unchanged); every categorical keeps only the values of its rows."""
        keys = hands[["site", "hand_id"]]

        def keep(frame: pd.DataFrame) -> pd.DataFrame:
            return frame[_holds(frame, keys)].reset_index(drop=True)

        tables = {table: keep(getattr(self, table)) for table in ("players", "actions", "pots", "violations", "notes")}
        tables["hands"] = hands.reset_index(drop=True)
        share_categories(tables, SHARED_CATEGORIES)
        return Frames(**tables, rejects=self.rejects, ignored=self.ignored, source=self.source)


def _holds(frame: pd.DataFrame, keys: pd.DataFrame) -> Any:
    """Which rows of ``frame`` have a (site, hand_id) of ``keys``: a boolean array."""
    if len(frame) == 0 or len(keys) == 0:
        return np.zeros(len(frame), dtype=bool)
    return pd.MultiIndex.from_frame(frame[["site", "hand_id"]]).isin(pd.MultiIndex.from_frame(keys))


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


__all__ = ["Frames", "IGNORED_COLUMNS", "MONEY_COLUMNS", "empty_frames", "ignored_frame", "typed_frame"]
