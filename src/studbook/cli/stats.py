"""``studbook stats [--db FILE | PATH...] [filters]``: stud player statistics.

One row per site, player and variant (a player is a name on a site; ``--alias
SITE:NAME=PERSON`` merges names into one person on purpose), split by kind of
game (cash, tournament, play money) and currency so money never mixes (or per
starting-hand class with ``--starting-hands``); ``--format text`` prints the
rows as a table, each percentage with its sample size (the denominator) beside
it, ``23.1 (52)``, each money figure with what it is in (``27.44 USD``,
``35020 tournament chips``, ``-0.02 unknown currency``), the columns
:data:`studbook.stats.TABLE_STATS` unless ``--stats`` chooses; ``--sort NAME``
orders the rows (highest first). ``csv`` and ``json`` give one record per row
with every statistic and its ``<name>_n`` sample size (percentages 0..100,
money as exact decimal strings in whole units of the row's ``currency``, or of
chips where ``kind`` is tournament or play-money; no value where a stat had no
opportunity or a row has no currency). ``--opponents`` gives the stud HUD row
(:data:`studbook.stats.HUD_STATS`) of every player the hero has faced.
``--list`` prints the definitions. Exit status: 0, or 2 for usage errors (an
unknown statistic or sort column names the nearest known one).
"""

from __future__ import annotations

import argparse
import math
from collections import Counter
from decimal import Decimal
from contextlib import contextmanager
from typing import Any, Callable, Iterable, Iterator

import pandas as pd

from studbook.cli.common import UsageError
from studbook.cli.output import FORMATS, aligned, note, write
from studbook.cli.source import (
    add_source_arguments, filters_from_args, load_source, players_or_hero, require_read,
)
from studbook.filters import Filters, dealt_counts, faced, hero_stated, met_by, most_dealt, select, suggest
from studbook.frames import Frames, from_minor, typed_frame
from studbook.money import CASH, money_label, money_text
from studbook.query import hand_where, player_names, rejected_count
from studbook.sites import site_names
from studbook.stats import (
    BY_NAME, HUD_STATS, MONEY_KEYS, MONEY_STATS, STARTING_HAND_KEYS, STARTING_HAND_STATS, STATS, TABLE_STATS,
    Aliases, by_starting_hand, compute, compute_chunks, in_class_order,
)
from studbook.store import Store, StoreError


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "stats", help="player statistics made for stud",
        description="Per player and variant: VPIP, 3rd-street completes, steals, bring-in "
                    "defence, aggression by street, showdown stats, results.",
    )
    add_source_arguments(parser)
    parser.add_argument("--format", choices=FORMATS, default="text")
    parser.add_argument("--starting-hands", action="store_true",
                        help="results by starting-hand class (where the cards are known)")
    parser.add_argument("--stats", metavar="NAME,...",
                        help="only these statistics (see --list)")
    parser.add_argument("--min-hands", type=int, default=0, metavar="N",
                        help="only rows with at least N hands")
    parser.add_argument("--sort", metavar="NAME",
                        help="order the rows by this statistic, highest first (or by player)")
    parser.add_argument("--opponents", action="store_true",
                        help="the HUD row (VPIP, complete/raise 3rd, 3-bet 3rd, fold to a 3rd-street "
                             "completion or raise, steal, bring-in fold to steal, fold to a 4th-street "
                             "bet, AFq 4th-7th, WTSD, hands) of each player the hero faced")
    parser.add_argument("--alias", action="append", default=[], metavar="SITE:NAME=PERSON",
                        help="count NAME on SITE as PERSON (repeat to merge the names of one person "
                             "across sites: their row's site lists the sites joined with '+')")
    parser.add_argument("--list", action="store_true", help="list the statistics and exit")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.list:
        for stat in STATS:
            print(f"{stat.name:<24} {stat.label:<26} {stat.doc}")
        return 0
    chosen = _chosen_stats(args.stats)
    aliases = parse_aliases(args.alias)
    if args.opponents and args.starting_hands:
        raise UsageError("--opponents and --starting-hands are separate tables: choose one")
    if args.format == "text" and not chosen:
        chosen = list(HUD_STATS if args.opponents else TABLE_STATS)
    if args.db and not args.paths:  # a store: read in chunks, bounded memory
        table = (_opponents_from_store(args, chosen, aliases) if args.opponents
                 else _from_store(args, chosen, aliases))
        _write(_sorted(table, args.sort, args.opponents), args.format)
        return 0
    frames, filters = load_source(args)
    if args.opponents:
        hero = players_or_hero(frames, filters, args.format)
        opponents = faced(frames, hero[0]) if hero else []
        table = _hud(compute(frames, player=opponents, aliases=aliases, **_hud_options(args, chosen)))
    elif args.starting_hands:
        table = _only(by_starting_hand(frames, player=filters.players or None, aliases=aliases,
                                       min_hands=args.min_hands, denominators=True), chosen)
    else:
        table = compute(frames, player=filters.players or None, stats=chosen, aliases=aliases,
                        min_hands=args.min_hands, denominators=True)
    _write(_sorted(table, args.sort, args.opponents), args.format)
    return 0


def parse_aliases(texts: list[str]) -> Aliases:
    """``--alias SITE:NAME=PERSON`` options as ``{(site, name): person}`` (the site is
    before the first ':', the person after the last '='); a usage error names a
    malformed one or an unknown site."""
    aliases: dict[tuple[str, str], str] = {}
    for text in texts:
        site, colon, rest = text.partition(":")
        name, equals, person = rest.rpartition("=")
        if not (colon and equals and site and name and person.strip()):
            raise UsageError(f"--alias {text}: write SITE:NAME=PERSON, e.g. pokerstars:Hero=me")
        if site not in site_names():
            near = suggest(site, site_names())
            hint = f"; did you mean {near}?" if near else f" (sites: {', '.join(site_names())})"
            raise UsageError(f"--alias {text}: unknown site {site}{hint}")
        aliases[(site, name)] = person.strip()
    return aliases or None


Chunks = Callable[..., Iterator[Frames]]
"""``chunks(tables=CHUNK_TABLES)``: the filters' hands of a store, a chunk at a time."""


@contextmanager
def _store_chunks(args: argparse.Namespace) -> Iterator[tuple[Filters, Chunks]]:
    """The filters of ``args`` and the chunks of ``--db``'s hands they keep
    (:meth:`studbook.store.Store.hand_chunks`, the hand criteria in SQL), each
    pass a new read; a store's error, raised here or while the chunks are read,
    is the usage error of its one line."""
    filters = filters_from_args(args)
    where, params = hand_where(filters)
    try:
        require_read(player_names(args.db), lambda: rejected_count(args.db), filters)
        with Store(args.db, create=False) as store:
            def chunks(tables: tuple[str, ...] = CHUNK_TABLES) -> Iterator[Frames]:
                return (select(Frames.lazy(part, _no_table), filters)
                        for part in store.hand_chunks(tables, where=where, params=params))

            yield filters, chunks
    except StoreError as error:
        raise UsageError(str(error)) from None


def _from_store(args: argparse.Namespace, chosen: list[str] | None, aliases: Aliases) -> pd.DataFrame:
    """The stats table (or ``--starting-hands``' table) of a store, read a chunk of
    hands at a time and summed: the same table as from the whole frames, in
    memory bounded by one chunk."""
    with _store_chunks(args) as (filters, chunks):
        if args.starting_hands:
            return _only(in_class_order(compute_chunks(
                chunks(), player=filters.players or None, by=STARTING_HAND_KEYS, aliases=aliases,
                stats=STARTING_HAND_STATS, min_hands=args.min_hands, denominators=True)), chosen)
        return compute_chunks(chunks(), player=filters.players or None, stats=chosen, aliases=aliases,
                              min_hands=args.min_hands, denominators=True)


def _opponents_from_store(args: argparse.Namespace, chosen: list[str] | None,
                          aliases: Aliases) -> pd.DataFrame:
    """``--opponents`` of a store, a chunk of hands at a time as :func:`_from_store`:
    one pass finds the hero (unless named), one their opponents, one the HUD rows;
    the same table as from the whole frames, in memory bounded by one chunk."""
    with _store_chunks(args) as (filters, chunks):
        seated = ("hands", "players")  # the filters judge the hands rows
        hero = filters.players[0] if filters.players else _store_hero(chunks(seated), filters, args.format)
        opponents: set[tuple[str, str]] = set()
        if hero is not None:
            for frames in chunks(seated):
                opponents |= met_by(frames, hero)
        table = compute_chunks(chunks(), player=sorted(p for p in opponents if p[1] != hero), aliases=aliases,
                               **_hud_options(args, chosen))
    return _hud(table)


def _store_hero(chunks: Iterable[Frames], filters: Filters, fmt: str) -> str | None:
    """The hero of a store's hands read in chunks (:func:`studbook.filters.hero_line`'s), stated."""
    counts: Counter[tuple[str, str]] = Counter()
    hands = 0
    for frames in chunks if not filters.hero else ():  # a named hero needs no pass
        hands += len(frames.hands)
        counts.update(dealt_counts(frames))
    hero, line = hero_stated(filters, most_dealt(counts), hands)
    note(line, fmt)
    return hero


def _hud_options(args: argparse.Namespace, chosen: list[str] | None) -> dict[str, Any]:
    """How ``--opponents`` computes its rows: one a player and variant, monies not split."""
    return {"stats": chosen or HUD_STATS, "split_money": False, "min_hands": args.min_hands,
            "denominators": True}


def _hud(table: pd.DataFrame) -> pd.DataFrame:
    """The HUD rows: their money columns only when a money stat is shown."""
    if any(name in table.columns for name in MONEY_STATS):
        return table
    return table.drop(columns=list(MONEY_KEYS))


def _only(table: pd.DataFrame, chosen: list[str] | None) -> pd.DataFrame:
    """A starting-hand table with only the ``chosen`` stats (and their sample sizes)
    beside its keys; all of them when none are chosen."""
    if not chosen:
        return table
    return table[[c for c in table.columns if c.removesuffix("_n") not in BY_NAME or c.removesuffix("_n") in chosen]]


CHUNK_TABLES = ("hands", "players", "actions")
"""The tables the stats are made of (:func:`studbook.stats.facts`)."""


def _no_table(name: str) -> pd.DataFrame:
    return typed_frame(name, [])  # the stats read no other table: an empty one stands in


def _sorted(table: pd.DataFrame, by: str | None, opponents: bool) -> pd.DataFrame:
    if by is None:
        by = "hands" if opponents else None
    if by is None or table.empty:
        return table
    if by not in table.columns:
        shown = [c for c in table.columns if not c.endswith("_n")]
        raise UsageError(f"--sort {by}: not a column of this table{_did_you_mean(by, shown)} "
                         f"({', '.join(shown)})")
    ascending = by in ("site", "player", "variant", "kind", "currency", "start_class")
    return table.sort_values(by, ascending=ascending, kind="stable",
                             na_position="last").reset_index(drop=True)


def _did_you_mean(name: str, columns: list[str]) -> str:
    """'; did you mean X?' for the column (or the stat whose label) ``name`` is nearest, else ''."""
    known = {column: column for column in columns}
    known.update({BY_NAME[c].label.removesuffix(" %").lower(): c for c in columns if c in BY_NAME})
    near = suggest(name, known)
    return f"; did you mean {known[near]}?" if near else ""


def _chosen_stats(text: str | None) -> list[str] | None:
    if not text:
        return None
    names = [name.strip() for name in text.split(",") if name.strip()]
    for name in names:
        if name not in BY_NAME:
            raise UsageError(f"unknown statistic {name}{_did_you_mean(name, list(BY_NAME))} "
                             "(see 'studbook stats --list')")
    return names


def _write(table: pd.DataFrame, fmt: str) -> None:
    """The table out; in CSV and JSON each money figure an exact decimal string, whole
    where chips are whole (the text table says what each is in)."""
    if fmt != "text":
        table = table.copy()
        kinds = table["kind"] if "kind" in table else pd.Series(CASH, index=table.index)
        for name in MONEY_STATS:
            if name in table:
                table[name] = [None if pd.isna(v) else _exact(v, k) for v, k in zip(table[name], kinds)]
    write(table, fmt, format_text)


def _exact(value: float, kind: str) -> Decimal:
    """A money stat's float (whole units, summed exactly in minor units) as the exact
    amount: two decimals for cash, chips whole where they are whole."""
    amount = from_minor(round(value * 100))
    return amount if kind == CASH or amount != amount.to_integral_value() else Decimal(int(amount))


def format_text(table: pd.DataFrame) -> str:
    """One row per group, a column per statistic; each percentage or ratio with
    its sample size beside it, ``23.1 (52)``; money with what it is in."""
    keys = [c for c in ("site", "player", "variant", "kind", "currency", "start_class") if c in table.columns]
    names = [c for c in table.columns if c in BY_NAME]
    view = pd.DataFrame({key: table[key].fillna("-") for key in keys})
    kinds = table["kind"] if "kind" in table else pd.Series("mixed", index=table.index)
    currencies = table["currency"] if "currency" in table else pd.Series(None, index=table.index)
    if "currency" in view:
        view["currency"] = [_money_name(k, c) for k, c in zip(kinds, currencies)]
    for name in names:
        stat = BY_NAME[name]
        samples = table[f"{name}_n"] if f"{name}_n" in table else [None] * len(table)
        view[stat.label] = [_money_cell(v, k, c) if stat.unit == "money" else _cell(v, stat.unit, n)
                            for v, k, c, n in zip(table[name], kinds, currencies, samples)]
    return aligned(view, left=tuple(keys))


def _money_name(kind: Any, currency: Any) -> str:
    """The currency column's text: the code, or what the money is where there is none."""
    currency = None if pd.isna(currency) else currency
    if "mixed" in (kind, currency):
        return "mixed"
    return money_label(kind, currency)


def _money_cell(value: Any, kind: Any, currency: Any) -> str:
    currency = None if pd.isna(currency) else currency
    if pd.isna(value) or "mixed" in (kind, currency):
        return "-"
    return money_text(_exact(value, kind), kind, currency)


def _cell(value: Any, unit: str, sample: Any = None) -> str:
    size = f" ({int(sample)})" if sample is not None and not pd.isna(sample) else ""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return f"-{size}"
    if unit == "hands":
        return str(int(value))
    if unit == "%":
        return f"{value:.1f}{size}"
    if unit == "ratio":
        return f"{value:.2f}{size}"
    return f"{value:.2f}"


__all__ = ["add_parser", "add_source_arguments", "format_text", "load_source", "parse_aliases", "run",
           "STARTING_HAND_STATS"]
