"""``studbook hands [--db FILE | PATH...] [filters] [--player X] [--showdown] [--won|--lost]
[--min-bb N] [--starting-hand CLASS] [--rule RULE]``: find hands.

One line per hand of the player (``--player``, else the hero) in time order:
start, site, hand id, stakes, the player's cards (down cards the log showed in
parentheses, then the up cards), the result in money and in big bets, and the
rules the hand broke. ``--format csv|json`` gives every column of
:data:`studbook.search.COLUMNS`; ``site`` and ``hand_id`` name the hand for
the commands that take hand ids. Exit status: 0, or 2 for usage errors.
"""

from __future__ import annotations

import argparse
import re
from typing import Any

import pandas as pd

from studbook.cli.common import UsageError
from studbook.cli.output import FORMATS, aligned, write
from studbook.cli.source import add_source_arguments, load_source, players_or_hero
from studbook.lean import filled
from studbook.money import money_text
from studbook.search import CLASSES, find_hands, start_class


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "hands", help="find hands: by result, showdown, starting hand, rule broken",
        description="List a player's hands (--player, else the hero) with cards, result and "
                    "violations; every filter applies.",
    )
    add_source_arguments(parser)
    parser.add_argument("--showdown", action="store_true", help="only hands the player took to showdown")
    result = parser.add_mutually_exclusive_group()
    result.add_argument("--won", dest="won", action="store_const", const=True,
                        help="only hands the player won money in")
    result.add_argument("--lost", dest="won", action="store_const", const=False,
                        help="only hands the player lost money in")
    parser.add_argument("--min-bb", type=float, metavar="N",
                        help="only results of at least N big bets, won or lost")
    parser.add_argument("--starting-hand", metavar="CLASS",
                        help=f"only this starting-hand class ({', '.join(CLASSES)})")
    parser.add_argument("--rule", metavar="RULE",
                        help="only hands that broke this rule (e.g. bet.size, or bet for all bet.*)")
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    starting = None
    if args.starting_hand is not None:
        starting = start_class(args.starting_hand)
        if starting is None:
            raise UsageError(f"unknown starting-hand class {args.starting_hand!r}; "
                             f"known: {', '.join(CLASSES)}")
    frames, filters = load_source(args)
    players = players_or_hero(frames, filters, args.format)
    if not players:
        return 0
    # a rule broken is found in every hand, as check finds it, not only in the hero's
    table = find_hands(frames, players, showdown=True if args.showdown else None, won=args.won,
                       min_bb=args.min_bb, starting_hand=starting, rule=args.rule,
                       any_hand=args.rule is not None and not filters.players)
    write(table, args.format, format_text)
    return 0


def format_text(table: pd.DataFrame) -> str:
    """Aligned columns, one hand a line."""
    several = table["player"].nunique() > 1 or table["player"].isna().any()
    view = pd.DataFrame({
        "started (UTC)": [_when(utc, written) for utc, written in
                          zip(table["started_utc"], table["started"])],
        "site": table["site"], "hand": table["hand_id"], "variant": table["variant"],
        **({"player": filled(table["player"], "-")} if several else {}),
        "stakes": table["stakes"],
        "cards": [_cards(down, up) for down, up in zip(table["down_cards"], table["up_cards"])],
        "net": ["-" if net is None else money_text(net, kind, None if pd.isna(currency) else currency)
                for net, kind, currency in zip(table["net"], table["kind"], table["currency"])],
        "bb": ["-" if pd.isna(bb) else f"{bb:+.2f}" for bb in table["net_bb"]],
        "violations": [f"{n} ({rules})" if n else "" for n, rules in
                       zip(table["violations"], table["rules"])],
    })
    return aligned(view, left=("site", "variant", "player", "stakes", "cards", "violations"))


_WRITTEN_TIME = re.compile(r"(\d{4})[/-](\d{1,2})[/-](\d{1,2})[ T](\d{1,2}):(\d{1,2})(?::(\d{1,2}))?")
"""A start time written year first without a zone (Winning's ``2016/8/2 11:13:2``)."""


def _when(utc: Any, written: str) -> str:
    if pd.isna(utc):
        return f"{_normalised(written)} (zone unknown)"
    return str(utc.strftime("%Y-%m-%d %H:%M:%S"))


def _normalised(written: str) -> str:
    """A year-first time written as ``YYYY-MM-DD HH:MM:SS``; any other text as written."""
    match = _WRITTEN_TIME.fullmatch(written.strip())
    if match is None:
        return written
    year, month, day, hour, minute, second = (int(part or 0) for part in match.groups())
    return f"{year:04d}-{month:02d}-{day:02d} {hour:02d}:{minute:02d}:{second:02d}"


def _cards(down: Any, up: Any) -> str:
    down = down if isinstance(down, str) else ""
    up = up if isinstance(up, str) else ""
    return f"({down}) {up}".strip() if down else up


__all__ = ["add_parser", "format_text", "run"]
