"""``studbook tournaments [--db FILE | PATH...] [filters] [--player X]``.

The player's (``--player``, else the hero's) tournaments, one row each: the
buy-in as written, variants, hands, first and last hand (UTC, level), chips
at the start and after the last hand, chips won or lost, whether the last
hand left no chips (``busted``), and the place and prize where the log states
them (blank in text, null in JSON, empty in CSV where it does not).
``plot tournaments`` draws the chips over time. Exit status: 0, or 2 for usage errors.
"""

from __future__ import annotations

import argparse
from decimal import Decimal
from typing import Any

import pandas as pd

from studbook.cli.output import FORMATS, write
from studbook.cli.source import add_source_arguments, load_source, one_player
from studbook.money import CASH, TOURNAMENT, currency_in, money_text
from studbook.tournaments import tournaments
from studbook.words import ordinal


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "tournaments", help="tournaments: buy-in, hands, chips at start and end, finishing place",
        description="A player's tournaments; every filter applies.",
    )
    add_source_arguments(parser)
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    frames, filters = load_source(args)
    player = one_player(frames, filters, args.format, "tournaments")
    if player is None:
        return 0
    write(tournaments(frames, player), args.format, format_text,
          empty="no tournament hands match")
    return 0


def format_text(table: pd.DataFrame) -> str:
    view = table.assign(
        first_utc=table["first_utc"].dt.strftime("%Y-%m-%d %H:%M"),
        last_utc=table["last_utc"].dt.strftime("%Y-%m-%d %H:%M"),
        busted=table["busted"].map({True: "yes", False: ""}),
        place=[_ordinal(p) for p in table["place"]],
        # money by the one rule: the prize in the buy-in's currency, chips whole where
        # whole and said to be tournament chips
        prize=["" if p is None else money_text(p, CASH, currency_in(str(b)))
               for p, b in zip(table["prize"], table["buy_in"])],
        **{name: [money_text(Decimal(str(v)), TOURNAMENT, None) for v in table[name]]
           for name in ("start_chips", "end_chips", "net_chips")},
    ).drop(columns=["site"]).rename(columns={"start_chips": "start", "end_chips": "end", "net_chips": "net"})
    return view.to_string(index=False)


def _ordinal(place: float) -> str:
    """``1st``, ``2nd``, ``28th``; '' for NA (the places column holds NaN where unknown)."""
    return "" if pd.isna(place) else ordinal(int(place))


__all__ = ["add_parser", "format_text", "run"]
