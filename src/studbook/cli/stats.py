"""``studbook stats [--db FILE | PATH...]``: stud player statistics.

One row per player and variant (or per starting-hand class with
``--starting-hands``); ``--format text`` prints players side by side, one
statistic a line; ``csv`` and ``json`` give one record per row with every
statistic (percentages 0..100, ``net_won`` as an exact decimal string, no
value where a stat had no opportunity). ``--list`` prints the definitions.
Exit status: 0, or 2 for usage errors.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from decimal import Decimal
from typing import Any, Mapping, Sequence

import pandas as pd

from studbook.cli.common import UsageError, expand_paths
from studbook.frames import Frames, load
from studbook.stats import BY_NAME, COLUMNS, STARTING_HAND_STATS, STATS, by_starting_hand, compute
from studbook.store import StoreError, is_store

VARIANTS = ("stud", "stud8", "razz")
COLUMNS_PER_BLOCK = 5


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """``--db FILE`` or ``PATH...``, and the player/variant filters (shared with plot)."""
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="hand-history files or directories (parsed and checked)")
    parser.add_argument("--db", metavar="FILE", help="a store made by 'studbook import'")
    parser.add_argument("--player", action="append", metavar="NAME",
                        help="only this player (repeat for several)")
    parser.add_argument("--variant", action="append", choices=VARIANTS,
                        help="only this variant (repeat for several)")


def load_source(args: argparse.Namespace, columns: Mapping[str, Sequence[str]] | None = None) -> Frames:
    """The frames named by ``--db`` or the paths; UsageError for a bad source.
    ``columns``: only those tables and columns (the others load when used)."""
    tables = list(columns) if columns else None
    if bool(args.db) == bool(args.paths):
        raise UsageError("give either --db FILE or hand-history PATHs")
    if args.db:
        if not is_store(args.db):
            raise UsageError(f"{args.db}: not a studbook store (make one with 'studbook import')")
        try:
            return load(args.db, frames=tables, columns=columns)
        except StoreError as error:
            raise UsageError(str(error)) from None
    return load(expand_paths(args.paths), frames=tables, columns=columns)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "stats", help="player statistics made for stud",
        description="Per player and variant: VPIP, 3rd-street completes, steals, bring-in "
                    "defence, aggression by street, showdown stats, results.",
    )
    add_source_arguments(parser)
    parser.add_argument("--format", choices=("text", "csv", "json"), default="text")
    parser.add_argument("--starting-hands", action="store_true",
                        help="results by starting-hand class (where the cards are known)")
    parser.add_argument("--stats", metavar="NAME,...",
                        help="only these statistics (see --list)")
    parser.add_argument("--min-hands", type=int, default=0, metavar="N",
                        help="only rows with at least N hands")
    parser.add_argument("--list", action="store_true", help="list the statistics and exit")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.list:
        for stat in STATS:
            print(f"{stat.name:<24} {stat.label:<22} {stat.doc}")
        return 0
    chosen = _chosen_stats(args.stats)
    frames = load_source(args, COLUMNS)
    if args.starting_hands:
        table = by_starting_hand(frames, player=args.player, variant=args.variant)
        if chosen:
            table = table[[c for c in table.columns if c not in BY_NAME or c in chosen]]
    else:
        table = compute(frames, player=args.player, variant=args.variant, stats=chosen,
                        min_hands=args.min_hands)
    if args.min_hands and "hands" in table:
        table = table[table["hands"] >= args.min_hands]
    if args.format == "csv":
        _records_frame(table).to_csv(sys.stdout, index=False)
    elif args.format == "json":
        json.dump(_records(table), sys.stdout, indent=2)
        print()
    else:
        print(format_text(table) if len(table) else "no hands match")
    return 0


def _chosen_stats(text: str | None) -> list[str] | None:
    if not text:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in BY_NAME]
    if unknown:
        raise UsageError(f"unknown statistic {', '.join(unknown)} (see 'studbook stats --list')")
    return names


def _plain(value: Any) -> Any:
    if isinstance(value, Decimal):
        return str(value)
    if isinstance(value, float) and math.isnan(value):
        return None
    if value is pd.NA or value is None:
        return None
    if hasattr(value, "item"):
        return value.item()
    return value


def _records(table: pd.DataFrame) -> list[dict[str, Any]]:
    return [{k: _plain(v) for k, v in row.items()} for row in table.to_dict("records")]


def _records_frame(table: pd.DataFrame) -> pd.DataFrame:
    return pd.DataFrame(_records(table), columns=table.columns)


def format_text(table: pd.DataFrame) -> str:
    """Groups side by side, one statistic a line, in blocks of a few columns."""
    keys = [c for c in ("player", "variant", "start_class") if c in table.columns]
    stat_names = [c for c in table.columns if c in BY_NAME]
    blocks = []
    for start in range(0, len(table), COLUMNS_PER_BLOCK):
        chunk = table.iloc[start:start + COLUMNS_PER_BLOCK]
        headers = [" ".join(str(row[k]) for k in keys) for _, row in chunk.iterrows()]
        width = max(12, *(len(h) for h in headers))
        label_width = max(len(BY_NAME[n].label) for n in stat_names) if stat_names else 10
        lines = [" " * label_width + "".join(f"  {h:>{width}}" for h in headers)]
        currencies = ["" if c in ("", None) else str(c) for c in chunk["currency"]]
        for name in stat_names:
            stat = BY_NAME[name]
            cells = [_cell(v, stat.unit, cur) for v, cur in zip(chunk[name], currencies)]
            lines.append(f"{stat.label:<{label_width}}" + "".join(f"  {c:>{width}}" for c in cells))
        blocks.append("\n".join(lines))
    return "\n\n".join(blocks)


def _cell(value: Any, unit: str, currency: str) -> str:
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return "-"
    if unit == "money":
        return "-" if currency == "mixed" else f"{value} {currency or 'chips'}"
    if unit == "hands":
        return str(int(value))
    if unit == "%":
        return f"{value:.1f}"
    return f"{value:.2f}"


__all__ = ["add_parser", "add_source_arguments", "format_text", "load_source", "run",
           "STARTING_HAND_STATS"]
