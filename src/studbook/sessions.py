"""Sessions, table sittings and days: when a player played, for how long, and what it came to.

A *session* is a run of one player's hands, at every table at once, in which no
two hands in a row start more than ``gap`` apart (30 minutes by default): tables
played at the same time (multi-tabling) are one session, their hands and hours
counted once. A *sitting* (``by='table'``, the per-table view) is such a run at
one table (site and table name); a *day* is every hand the player started on one
UTC date, over all tables. Each row gives the start (UTC), the duration (first
hand's start to the last hand's start: a log gives no end time), the tables, the
hands, the net won in the hands' money (one row per kind of game and currency, so
money never mixes: a tournament played beside a cash table is its own session),
that net in big bets, big bets per 100 hands and per hour (NaN for a duration of
zero). Hands whose start time is unknown (or written without a zone, as iPoker's
are) cannot be placed in time and are left out; :func:`sessions` says how many.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from studbook.filters import game_kind, known_currency
from studbook.frames import Frames, from_minor
from studbook.lean import filled

DEFAULT_GAP = pd.Timedelta(minutes=30)
COLUMNS = ["player", "start", "duration", "kind", "currency", "site", "tables", "hands",
           "net", "net_bb", "bb_per_100", "bb_per_hour"]


@dataclass(frozen=True)
class Sessions:
    """The rows (see :data:`COLUMNS`), and the player's hands left out for want of a time:
    ``untimed`` in all, ``zoneless`` of them with a time written without a zone."""

    table: pd.DataFrame
    untimed: int
    zoneless: int = 0


def player_hands(frames: Frames, player: str) -> pd.DataFrame:
    """The player's hands with their start, table, kind and money, in time order."""
    rows = frames.players[frames.players["player"] == player][
        ["site", "hand_id", "player", "net", "net_bb"]]
    # the currency by the one money rule: the log's, else the site's known one
    hands = frames.hands.assign(kind=game_kind(frames.hands), currency=known_currency(frames.hands))[
        ["site", "hand_id", "started_utc", "started", "table", "currency", "kind"]]
    out = rows.merge(hands, on=["site", "hand_id"], how="left", sort=False)
    out["currency"] = filled(out["currency"], "")
    return out.sort_values(["started_utc", "site", "hand_id"], kind="stable").reset_index(drop=True)


BY = ("session", "table", "day")
"""What a row of :func:`sessions` is: a session over every table, a sitting at one table, a day."""


def sessions(frames: Frames, player: str, *, gap: pd.Timedelta = DEFAULT_GAP,
             by: str = "session") -> Sessions:
    """The player's sessions (``by='session'``), table sittings (``'table'``) or days
    (``'day'``), in time order."""
    if by not in BY:
        raise ValueError(f"by must be one of {', '.join(BY)}, not {by!r}")
    hands = player_hands(frames, player)
    timed = hands[hands["started_utc"].notna()].copy()
    untimed = len(hands) - len(timed)
    zoneless = int((hands["started_utc"].isna() & (filled(hands["started"], "") != "")).sum())
    if by == "day":
        timed["group"] = timed["started_utc"].dt.strftime("%Y-%m-%d")
    else:
        timed["group"] = _runs(timed, ["site", "table"] if by == "table" else ["kind", "currency"], gap)
    if timed.empty:
        return Sessions(pd.DataFrame(columns=COLUMNS), untimed, zoneless)
    grouped = timed.groupby(["group", "kind", "currency"], sort=False, observed=True)
    table = grouped.agg(
        start=("started_utc", "min"), end=("started_utc", "max"),
        site=("site", lambda s: ", ".join(sorted(set(s)))),
        tables=("table", lambda t: ", ".join(sorted(set(filled(t, ""))))),
        hands=("hand_id", "size"), net_minor=("net", "sum"), net_bb=("net_bb", "sum"),
    ).reset_index()
    table["player"] = player
    table["duration"] = table["end"] - table["start"]
    table["net"] = [from_minor(v) for v in table["net_minor"]]
    table["bb_per_100"] = table["net_bb"] / table["hands"] * 100
    hours = table["duration"].dt.total_seconds() / 3600
    table["bb_per_hour"] = table["net_bb"] / hours.where(hours > 0, np.nan)
    table = table.sort_values(["start", "kind", "currency"], kind="stable")
    return Sessions(table[COLUMNS].reset_index(drop=True), untimed, zoneless)


def _runs(timed: pd.DataFrame, keys: list[str], gap: pd.Timedelta) -> pd.Series:
    """Each hand's run (a number, by the hands' index): hands of the same ``keys`` in time
    order, a new run after a pause longer than ``gap``."""
    ordered = timed.sort_values([*keys, "started_utc"], kind="stable")
    new = np.ones(len(ordered), dtype=bool)  # a hand that starts a run
    new[1:] = (ordered["started_utc"].diff() > gap).to_numpy(dtype=bool)[1:]
    for key in keys:
        values = filled(ordered[key], "").to_numpy(dtype=object)
        new[1:] |= values[1:] != values[:-1]
    return pd.Series(np.cumsum(new), index=ordered.index)


def summary(table: pd.DataFrame) -> pd.DataFrame:
    """Totals of a sessions table per kind of game and currency."""
    if table.empty:
        return pd.DataFrame(columns=["kind", "currency", "sessions", "hands", "hours", "net",
                                     "net_bb", "bb_per_100", "bb_per_hour"])
    grouped = table.groupby(["kind", "currency"], sort=True, observed=True)
    out = grouped.agg(sessions=("start", "size"), hands=("hands", "sum"),
                      seconds=("duration", lambda d: d.dt.total_seconds().sum()),
                      net=("net", "sum"), net_bb=("net_bb", "sum")).reset_index()
    out["hours"] = out.pop("seconds") / 3600
    out["bb_per_100"] = out["net_bb"] / out["hands"] * 100
    out["bb_per_hour"] = out["net_bb"] / out["hours"].where(out["hours"] > 0, np.nan)
    return out


__all__ = ["BY", "COLUMNS", "DEFAULT_GAP", "Sessions", "player_hands", "sessions", "summary"]
