"""Reading a store's hands selected in SQL: only the rows the filters keep leave SQLite.

:func:`read_selected` runs the hand criteria of a :class:`~studbook.filters.Filters`
as one ``WHERE`` on ``hands`` (times compare as the ISO-8601 UTC text the store
writes), and reads every table's rows of those hands only, each table when it is
first used (a plot of results reads ``hands`` and ``players``, never the actions).
The hands kept are then judged by :func:`studbook.filters.hand_mask`, the one
definition of what each filter means, so the SQL is a way of reading less, never
a second meaning (a test checks that both select the same hands; should the SQL
ever keep more, :func:`studbook.filters.select` trims every table).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pandas as pd

from studbook.filters import KINDS, Filters, hand_mask, select
from studbook.frames import Frames
from studbook.store import Store

_KIND_SQL = {
    "tournament": "tournament IS NOT NULL",
    "play-money": "(tournament IS NULL AND play_money = 1)",
    "cash": "(tournament IS NULL AND play_money = 0)",
}
assert set(_KIND_SQL) == set(KINDS)


def hand_where(filters: Filters) -> tuple[str, list[Any]]:
    """The ``WHERE`` clause (without the word) on ``hands``, and its parameters."""
    parts: list[str] = []
    params: list[Any] = []

    def among(column: str, values: tuple[Any, ...]) -> None:
        parts.append(f"{column} IN ({', '.join('?' for _ in values)})")
        params.extend(values)

    if filters.since is not None:
        parts.append("started_utc >= ?")
        params.append(filters.since.isoformat())
    if filters.until is not None:
        parts.append("started_utc < ?")
        params.append(filters.until.isoformat())
    if filters.sites:
        among("site", filters.sites)
    if filters.variants:
        among("variant", filters.variants)
    if filters.currencies:
        among("currency", filters.currencies)
    if filters.kinds:
        parts.append("(" + " OR ".join(_KIND_SQL[k] for k in filters.kinds) + ")")
    if filters.stakes:
        parts.append("(" + " OR ".join("(small_bet = ? AND big_bet = ?)" for _ in filters.stakes) + ")")
        params.extend(value for pair in filters.stakes for value in pair)
    if filters.table_size is not None:
        parts.append("max_seats BETWEEN ? AND ?")
        params.extend(filters.table_size)
    return (" AND ".join(parts) or "1"), params


def read_selected(path: str | Path, filters: Filters) -> Frames:
    """The frames of the store at ``path``, of the hands ``filters`` keep: ``hands``
    read now, every other table when first used (:meth:`studbook.frames.Frames.lazy`).

    Every table holds the rows of the same hands, those stored when ``hands`` was
    read: a store imported into meanwhile (``studbook watch``) adds hands with
    higher rowids, which the later reads leave out.
    """
    where, params = hand_where(filters)
    with Store(path, create=False) as store:
        last = store.conn.execute("SELECT max(rowid) FROM hands").fetchone()[0] or 0
        snapshot = f"({where}) AND rowid <= ?"
        hands = store.read_table("hands", where=snapshot, params=[*params, last])
    keys = f"(site, hand_id) IN (SELECT site, hand_id FROM hands WHERE {snapshot})"

    def load_table(table: str) -> pd.DataFrame:
        with Store(path, create=False) as store:
            if table == "rejects":  # rejected hands have no hand row: all of them, as load() gives
                return store.read_table(table)
            return store.read_table(table, where=keys, params=[*params, last])

    frames = Frames.lazy({"hands": hands}, load_table)
    if filters.selects_hands and not hand_mask(hands, filters).all():
        return select(frames, filters)  # the SQL kept more than the filters mean (a test says it never does)
    return frames


def player_names(path: str | Path) -> set[str]:
    """Every player of the store at ``path`` (whatever the filters)."""
    with Store(path, create=False) as store:
        return {row[0] for row in store.conn.execute("SELECT DISTINCT player FROM players")}


def rejected_count(path: str | Path) -> int:
    """How many hands the store at ``path`` holds as rejected (rows of ``rejects``)."""
    with Store(path, create=False) as store:
        return store.counts(["rejects"])["rejects"]


__all__ = ["hand_where", "player_names", "read_selected", "rejected_count"]
