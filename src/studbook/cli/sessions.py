"""``studbook sessions [--db FILE | PATH...] [filters] [--player X] [--gap MINUTES] [--by-table | --days]``.

The player's (``--player``, else the hero's) sessions: their hands at every table
with no pause longer than ``--gap`` minutes (default 30), so tables played at
once are one session (hands and hours counted once); ``--by-table`` gives the
sittings at each table instead, ``--days`` every hand of a UTC date. Each row has
its start (UTC), duration, tables, hands, net in its money, big bets, bb/100 and
big bets per hour, then the totals per kind of game and currency. ``--format
csv|json`` gives the rows alone (the duration in seconds). Exit status: 0, or 2
for usage errors.
"""

from __future__ import annotations

import argparse
from decimal import Decimal
from typing import Any

import pandas as pd

from studbook.cli.common import UsageError
from studbook.cli.output import FORMATS, aligned, note, write
from studbook.cli.source import add_source_arguments, load_source, one_player
from studbook.money import money_text
from studbook.sessions import sessions, summary
from studbook.words import counted


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "sessions", help="sessions, table sittings and days: start, duration, tables, hands, net, bb/hour",
        description="A player's sessions (hands at every table without a long pause: tables played "
                    "at once are one session), table sittings or days, with results; every filter applies.",
    )
    add_source_arguments(parser)
    parser.add_argument("--gap", type=float, default=30, metavar="MINUTES",
                        help="a pause longer than this ends a sitting (default 30)")
    view = parser.add_mutually_exclusive_group()
    view.add_argument("--by-table", action="store_true",
                      help="one row per sitting at one table (tables played at once each count "
                           "their hours)")
    view.add_argument("--days", action="store_true", help="one row per UTC day instead")
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.gap <= 0:
        raise UsageError(f"--gap must be more than 0 minutes, not {args.gap:g}")
    frames, filters = load_source(args)
    player = one_player(frames, filters, args.format, "sessions")
    if player is None:
        return 0
    found = sessions(frames, player, gap=pd.Timedelta(minutes=args.gap),
                     by="day" if args.days else "table" if args.by_table else "session")
    if found.zoneless:
        note(f"{counted(found.zoneless, 'hand')} of {player} have a start time written without "
             "a time zone and are left out (they cannot be placed in UTC)", args.format)
    if found.untimed > found.zoneless:
        note(f"{counted(found.untimed - found.zoneless, 'hand')} of {player} have no start time "
             "and are left out", args.format)
    write(found.table, args.format, format_text)
    return 0


def format_text(table: pd.DataFrame) -> str:
    """The rows, then the totals per kind of game and currency."""
    rows = _view(table)
    totals = summary(table)
    total_view = pd.DataFrame({
        "kind": totals["kind"], "sessions": totals["sessions"], "hands": totals["hands"],
        "hours": [f"{h:.1f}" for h in totals["hours"]],
        "net": [_money(n, k, c) for n, k, c in zip(totals["net"], totals["kind"], totals["currency"])],
        "bb": [f"{b:+.2f}" for b in totals["net_bb"]],
        "bb/100": [_figure(v) for v in totals["bb_per_100"]],
        "bb/hour": [_figure(v) for v in totals["bb_per_hour"]],
    })
    return f"{aligned(rows, left=_WORDS)}\n\ntotal\n{aligned(total_view, left=_WORDS)}"


_WORDS = ("kind", "tables")  # the columns of words, aligned left


def _view(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame({
        "start (UTC)": table["start"].dt.strftime("%Y-%m-%d %H:%M"),
        "duration": [_duration(d) for d in table["duration"]],
        "kind": table["kind"], "tables": [_tables(t) for t in table["tables"]], "hands": table["hands"],
        "net": [_money(n, k, c) for n, k, c in zip(table["net"], table["kind"], table["currency"])],
        "bb": [f"{b:+.2f}" for b in table["net_bb"]],
        "bb/100": [_figure(v) for v in table["bb_per_100"]],
        "bb/hour": [_figure(v) for v in table["bb_per_hour"]],
    })


def _tables(names: str) -> str:
    """The tables of a row, or how many when more than two (the CSV and JSON name them all)."""
    count = names.count(", ") + 1
    return names if count <= 2 else f"{count} tables"


def _money(net: Any, kind: str, currency: str) -> str:
    """The net with what it is in, by the one money rule (an empty currency: unknown)."""
    return money_text(Decimal(str(net)), kind, currency or None)


def _figure(value: float) -> str:
    return "-" if pd.isna(value) else f"{value:+.1f}"


def _duration(value: pd.Timedelta) -> str:
    minutes = int(value.total_seconds() // 60)
    return f"{minutes // 60}h{minutes % 60:02d}"


__all__ = ["add_parser", "format_text", "run"]
