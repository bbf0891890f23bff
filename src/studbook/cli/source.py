"""Where a reading command's hands come from, and which of them it looks at.

``add_source_arguments(parser)`` adds ``PATH...`` / ``--db FILE`` and every
filter of :mod:`studbook.filters`; ``load_source(args)`` returns the frames
already filtered and the :class:`~studbook.filters.Filters` read from the
options. A command that takes hands (stats, plot, hands, sessions, tournaments)
calls these two and nothing else; export, show and replay, which take hands one
by one, add the filters with :func:`add_filter_arguments` and read them with
:func:`filters_from_args`. So every command reads the filters the same way.
"""

from __future__ import annotations

import argparse
from typing import Callable, Iterable

from studbook.cli.common import UsageError, expand_paths, stderr
from studbook.cli.output import note
from studbook.filters import KINDS, VARIANTS, FilterError, Filters, hero_line, select, unknown_players
from studbook.frames import Frames, load
from studbook.query import player_names, read_selected
from studbook.store import StoreError
from studbook.words import counted


def add_source_arguments(parser: argparse.ArgumentParser) -> None:
    """``--db FILE`` or ``PATH...``, then the filters (:func:`add_filter_arguments`)."""
    parser.add_argument("paths", nargs="*", metavar="PATH",
                        help="hand-history files or directories (parsed and checked)")
    parser.add_argument("--db", metavar="FILE", help="a store made by 'studbook import'")
    add_filter_arguments(parser)


def add_filter_arguments(parser: argparse.ArgumentParser) -> None:
    """The filter options, in their own group of the help."""
    group = parser.add_argument_group(
        "filters", "which hands to look at (times without a zone are UTC; a date alone as "
                   "--until includes that day)")
    group.add_argument("--player", action="append", metavar="NAME",
                       help="only this player (repeat for several)")
    group.add_argument("--hero", metavar="NAME",
                       help="the player whose hands these are (default: the player the logs "
                            "deal down cards to, stated in the output)")
    group.add_argument("--variant", action="append", choices=VARIANTS,
                       help="only this variant (repeat for several)")
    group.add_argument("--since", metavar="WHEN",
                       help="hands started at or after WHEN: 2024-03-02, '2024-03-02 18:30', "
                            "'2024-03-02 18:30 Europe/Berlin', 2024-03-02T18:30+01:00")
    group.add_argument("--until", metavar="WHEN", help="hands started before WHEN")
    group.add_argument("--site", action="append", metavar="NAME",
                       help="only this site (repeat for several)")
    group.add_argument("--stakes", action="append", metavar="SMALL-BIG",
                       help="only these stakes, e.g. 0.50-1 (repeat for several)")
    for kind in KINDS:
        group.add_argument(f"--{kind}", dest="kinds", action="append_const", const=kind,
                           help=f"only {kind.replace('-', ' ')} hands (combine to keep several)")
    group.add_argument("--currency", action="append", metavar="CODE",
                       help="only this currency, e.g. USD (repeat for several)")
    group.add_argument("--table-size", metavar="N|LOW-HIGH",
                       help="only tables of this many seats, e.g. 2-8 or 6")


def filters_from_args(args: argparse.Namespace) -> Filters:
    """The Filters of the parsed options; UsageError for a value that does not read."""
    try:
        return Filters.of(
            since=args.since, until=args.until, sites=args.site or (), stakes=args.stakes or (),
            kinds=args.kinds or (), currencies=args.currency or (), table_size=args.table_size,
            variants=args.variant or (), players=args.player or (), hero=args.hero,
        )
    except FilterError as error:
        raise UsageError(str(error)) from None


def load_source(args: argparse.Namespace) -> tuple[Frames, Filters]:
    """The frames named by ``--db`` or the paths, filtered; UsageError for a bad source
    or filter, and for a ``--player`` or ``--hero`` with no hands at all (with a hint)."""
    filters = filters_from_args(args)
    if bool(args.db) == bool(args.paths):
        raise UsageError("give either --db FILE or hand-history PATHs")
    if args.db:
        try:  # read-only; not a store, damaged, unreadable: one line with a hint (StoreError)
            frames = read_selected(args.db, filters)  # filtered in SQL
            known = player_names(args.db)
        except StoreError as error:
            raise UsageError(str(error)) from None
    else:
        everything = load(expand_paths(args.paths))
        known = set(everything.players["player"])
        frames = select(everything, filters)
    require_read(known, lambda: len(frames.rejects), filters)
    return frames, filters


def require_read(known: set[str], rejected: Callable[[], int], filters: Filters) -> None:
    """What every reading command checks of its input's players (``known``, every
    player read whatever the filters): when none was read, how many hands were
    rejected (``rejected()``, counted only then); then that each ``--player`` is
    known (:func:`require_known_players`)."""
    if not known:  # no hand read at all: say why rather than only that none matches
        say_rejected(0, rejected())
    require_known_players(known, filters)


def say_rejected(read: int, rejected: int) -> None:
    """When no hand of the input was read but some were rejected, say so on stderr
    (the output itself would say only that no hand matches)."""
    if not read and rejected:
        stderr(f"no hand of the input could be read: {counted(rejected, 'hand')} rejected "
               "('studbook check' says why)")


def require_known_players(known: Iterable[str], filters: Filters) -> None:
    """A ``--player`` or ``--hero`` that no hand of ``known`` seats is a usage
    error, with a near name (:func:`studbook.filters.unknown_players`)."""
    problem = unknown_players(known, filters.named_players)
    if problem is not None:
        raise UsageError(problem)


def players_or_hero(frames: Frames, filters: Filters, fmt: str = "text") -> list[str]:
    """The ``--player`` names, else the hero, stated on a line of its own (see
    :func:`studbook.cli.output.note`); empty when there is no hero to find."""
    if filters.players:
        return list(filters.players)
    hero, line = hero_line(frames, filters)
    note(line, fmt)
    return [hero] if hero else []


def one_player(frames: Frames, filters: Filters, fmt: str, what: str) -> str | None:
    """The one ``--player`` (UsageError for several), else the hero (stated), or None."""
    if len(filters.players) > 1:
        raise UsageError(f"{what} are one player's: give --player once")
    players = players_or_hero(frames, filters, fmt)
    return players[0] if players else None


__all__ = ["add_filter_arguments", "add_source_arguments", "filters_from_args", "load_source",
           "one_player", "players_or_hero", "require_read", "say_rejected"]
