"""Picking hands to look at, shared by ``studbook show`` and ``studbook replay``.

The hands come from files (``PATH...``) or from a store (``--db FILE``: the
store keeps each hand's original text, and the hand is read again from it,
so the files need not be where they were). :func:`add_selection` adds ``--hand ID`` and the filters every reading
command takes (:func:`studbook.cli.source.add_filter_arguments`; ``--site``
selects the hands of a site, as in ``stats``), applied by
:func:`studbook.filters.select_checks`; ``--read-as NAME`` forces the files'
format (what ``--site`` did here before the filters came).
"""

from __future__ import annotations

import argparse
import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterable

from studbook.check import TableMemory, check_hand
from studbook.cli.common import UsageError, expand_inputs, stderr
from studbook.cli.source import add_filter_arguments, filters_from_args, require_known_players, say_rejected
from studbook.engine.result import HandCheck
from studbook.events import Hand
from studbook.filters import Filters, select_checks
from studbook.parse import read_file
from studbook.sites import site_names


def add_selection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="hand-history files or directories")
    parser.add_argument("--db", metavar="FILE", help="a store made by 'studbook import' (hands are read again "
                                                      "from the files it names)")
    add_hand_arguments(parser)
    add_filter_arguments(parser)


def add_hand_arguments(parser: argparse.ArgumentParser) -> None:
    """``--hand ID`` and ``--read-as NAME``: the options of the commands that take hands
    one by one (show, replay, export) beside the filters."""
    parser.add_argument("--hand", action="append", metavar="ID", help="only the hand with this id (repeat for several)")
    parser.add_argument("--read-as", metavar="NAME", type=str.lower,
                        help="read the PATHs as this site's format (as 'check --site' does); "
                             f"one of {', '.join(site_names())}")


def read_as(args: argparse.Namespace) -> str | None:
    """The ``--read-as`` site, checked; UsageError naming the known sites."""
    if args.read_as is not None and args.read_as not in site_names():
        raise UsageError(f"unknown site {args.read_as!r}; known: {', '.join(site_names())}")
    return args.read_as


@dataclass
class Selection:
    """The hands chosen, in file order, and the problems met on the way (one line each).

    ``memories`` holds, per chosen hand, what the hands before it told the checker
    about their tables (their bring-ins), so that a replay finds exactly the
    violations ``studbook check`` finds in the same files.
    """

    hands: list[Hand] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    memories: dict[tuple[str, int], TableMemory] = field(default_factory=dict)
    seated: set[str] = field(default_factory=set)  # every player of the hands read, chosen or not
    read: int = 0  # hands read, chosen or not
    rejected: int = 0  # hands of the files that could not be read

    def memory_for(self, hand: Hand) -> TableMemory | None:
        return self.memories.get((hand.file, hand.line))


def select_hands(args: argparse.Namespace) -> Selection:
    """The hands of ``PATH...`` or ``--db`` that pass ``--hand`` and every filter."""
    filters = filters_from_args(args)
    site = read_as(args)
    if bool(args.db) == bool(args.paths):
        raise UsageError("give either --db FILE or hand-history PATHs")
    if args.db:
        chosen = _from_store(args.db, args.hand, filters)
    else:
        chosen = select_from([f.path for f in expand_inputs(args.paths)], filters, site, args.hand or ())
    if args.hand:
        found = {h.hand_id for h in chosen.hands}
        rejected = {r.split("hand ", 1)[-1].split(":", 1)[0] for r in chosen.problems}
        chosen.problems.extend(f"hand {i}: not found" for i in args.hand if i not in found and i not in rejected)
    # a misspelt --player or --hero: a usage error with a near name, as in stats
    require_known_players(chosen.seated, filters)
    return chosen


def select_from(files: Iterable[Path], filters: Filters = Filters(), site: str | None = None,
                ids: Iterable[str] = ()) -> Selection:
    """The hands of ``files`` that ``filters`` keep (:func:`studbook.filters.select_checks`);
    with ``ids``, only those hand ids (a rejected one is named among the problems)."""
    ids = set(ids)
    chosen = Selection()
    memory = TableMemory()
    for path in files:
        if not path.is_file():
            chosen.problems.append(f"{path}: no such file")
            continue
        result = read_file(path, site=site)
        checks: list[HandCheck] = []
        memories: dict[tuple[str, int], TableMemory] = {}
        chosen.read += len(result.hands)
        chosen.rejected += len(result.rejected)
        for hand in result.hands:
            chosen.seated.update(seat.player for seat in hand.seats)
            if not ids or hand.hand_id in ids:
                memories[(hand.file, hand.line)] = copy.deepcopy(memory)
                checks.append(check_hand(hand, None, memory))  # also tells the memory about the table
            else:
                check_hand(hand, None, memory)  # what this hand tells the checker about its table
        for check in select_checks(checks, filters):
            chosen.hands.append(check.hand)
            chosen.memories[(check.hand.file, check.hand.line)] = memories[(check.hand.file, check.hand.line)]
        chosen.problems.extend(r.message() for r in result.rejected if r.hand_id in ids)
    return chosen


def _from_store(db: str, ids: list[str] | None, filters: Filters) -> Selection:
    """The store's hands that ``ids`` and the filters keep, read again from the
    original texts the store keeps (never from their files, which may have
    moved): the criteria in SQL first, then each hand judged again as read."""
    from studbook.originals import read_again
    from studbook.query import hand_where
    from studbook.store import Store, StoreError

    where, params = hand_where(filters)
    if ids:
        where += f" AND hand_id IN ({','.join('?' * len(ids))})"
        params += ids
    try:  # read-only; missing, empty, damaged or not a store: the store's own one-line error
        with Store(db, create=False) as store:
            keys = store.conn.execute(f"SELECT site, hand_id FROM hands WHERE {where} ORDER BY file, line",
                                      params).fetchall()
            kept = list(store.originals([(str(site), str(hand_id)) for site, hand_id in keys]))
    except StoreError as error:
        raise UsageError(str(error)) from None
    chosen = Selection()
    memory = TableMemory()
    checks: list[HandCheck] = []
    for original in kept:
        result = read_again(original.site, original.source, original.file, original.line)
        if not isinstance(result, Hand):
            chosen.problems.append(f"{original.file}:{original.line}: hand {original.hand_id}: "
                                   f"cannot read the kept text again: {getattr(result, 'reason', result)}")
            continue
        chosen.seated.update(seat.player for seat in result.seats)
        chosen.memories[(result.file, result.line)] = copy.deepcopy(memory)
        checks.append(check_hand(result, None, memory))
    chosen.hands = [check.hand for check in select_checks(checks, filters)]
    if len(kept) < len(keys):
        chosen.problems.append(f"{len(keys) - len(kept)} selected hands without original text in {db}")
    return chosen


def report(selection: Selection) -> int:
    """Print the problems on stderr; the exit status: 1 when there were any or no hand was chosen."""
    for line in selection.problems:
        stderr(line)
    if not selection.hands:
        say_rejected(selection.read, selection.rejected)
        stderr("no hand matches")
        return 1
    return 1 if selection.problems else 0


__all__ = ["Selection", "add_hand_arguments", "add_selection", "read_as", "report", "select_from", "select_hands"]
