"""Picking hands to look at, shared by ``studbook show`` and ``studbook replay``.

The hands come from files (``PATH...``) or from a store (``--db FILE``: the
store remembers each hand's file and line, and the hand is read again from
there). :func:`add_selection` adds the options that narrow them down; each
becomes one predicate of :func:`predicates`, so a new filter is one option and
one predicate.
"""

from __future__ import annotations

import argparse
import copy
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterable

from studbook.check import TableMemory, check_hand
from studbook.cli.common import UsageError, expand_inputs, stderr
from studbook.events import Hand
from studbook.parse import read_file
from studbook.sites import site_names

VARIANTS = ("stud", "stud8", "razz")
Predicate = Callable[[Hand], bool]


def add_selection(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("paths", nargs="*", metavar="PATH", help="hand-history files or directories")
    parser.add_argument("--db", metavar="FILE", help="a store made by 'studbook import' (hands are read again "
                                                      "from the files it names)")
    parser.add_argument("--hand", action="append", metavar="ID", help="only the hand with this id (repeat for several)")
    parser.add_argument("--player", action="append", metavar="NAME", help="only hands this player was dealt into")
    parser.add_argument("--variant", action="append", choices=VARIANTS, help="only this variant (repeat for several)")
    parser.add_argument("--site", choices=site_names(), help="read the files as this site's format")


def predicates(args: argparse.Namespace) -> list[Predicate]:
    """One test per selection option given."""
    tests: list[Predicate] = []
    if args.hand:
        ids = set(args.hand)
        tests.append(lambda h: h.hand_id in ids)
    if args.player:
        names = set(args.player)
        tests.append(lambda h: not names.isdisjoint(h.players()))
    if args.variant:
        variants = set(args.variant)
        tests.append(lambda h: h.variant.value in variants)
    return tests


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

    def memory_for(self, hand: Hand) -> TableMemory | None:
        return self.memories.get((hand.file, hand.line))


def select_hands(args: argparse.Namespace) -> Selection:
    """The hands of ``PATH...`` or ``--db`` that pass every selection option."""
    if bool(args.db) == bool(args.paths):
        raise UsageError("give either --db FILE or hand-history PATHs")
    files = _store_files(args.db, args.hand) if args.db else [f.path for f in expand_inputs(args.paths)]
    chosen = select_from(files, predicates(args), args.site, args.hand or ())
    if args.hand:
        found = {h.hand_id for h in chosen.hands}
        rejected = {r.split("hand ", 1)[-1].split(":", 1)[0] for r in chosen.problems}
        chosen.problems.extend(f"hand {i}: not found" for i in args.hand if i not in found and i not in rejected)
    return chosen


def select_from(files: Iterable[Path], tests: Iterable[Predicate], site: str | None = None,
                ids: Iterable[str] = ()) -> Selection:
    """The hands of ``files`` that pass every test; ``ids``: hand ids asked for (a rejected
    one is named among the problems)."""
    tests, ids = list(tests), set(ids)
    chosen = Selection()
    memory = TableMemory()
    for path in files:
        if not path.is_file():
            chosen.problems.append(f"{path}: no such file")
            continue
        result = read_file(path, site=site)
        for hand in result.hands:
            if all(test(hand) for test in tests):
                chosen.hands.append(hand)
                chosen.memories[(hand.file, hand.line)] = copy.deepcopy(memory)
            check_hand(hand, None, memory)  # what this hand tells the checker about its table
        chosen.problems.extend(r.message() for r in result.rejected if r.hand_id in ids)
    return chosen


def _store_files(db: str, ids: list[str] | None) -> list[Path]:
    from studbook.store import Store, StoreError

    try:  # read-only; missing, empty, damaged or not a store: the store's own one-line error
        with Store(db, create=False) as store:
            query = "SELECT DISTINCT file FROM hands"
            rows = store.conn.execute(query + (f" WHERE hand_id IN ({','.join('?' * len(ids))})" if ids else "")
                                      + " ORDER BY file", ids or []).fetchall()
    except StoreError as error:
        raise UsageError(str(error)) from None
    return [Path(row[0]) for row in rows]


def report(selection: Selection) -> int:
    """Print the problems on stderr; the exit status: 1 when there were any or no hand was chosen."""
    for line in selection.problems:
        stderr(line)
    if not selection.hands:
        stderr("no hand matches")
        return 1
    return 1 if selection.problems else 0


__all__ = ["Selection", "add_selection", "predicates", "report", "select_from", "select_hands"]
