"""Checking hands against the rule book: parse + engine over hands and files.

* :func:`check_hand` replays one parsed :class:`~studbook.events.Hand` through
  the engine and returns a :class:`~studbook.engine.result.HandCheck`.
* :func:`check_paths` parses files (``studbook.parse``) and checks every hand,
  yielding one :class:`FileCheck` per file. It remembers each table's bring-in
  across hands (rule ``bringin.amount``: every hand at the same table and
  stakes uses the same bring-in).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Iterable, Iterator, Union

from studbook.engine.profiles import RuleProfile, get_profile
from studbook.engine.result import HandCheck, Violation, new_hand_check
from studbook.engine.settle import finish
from studbook.engine.state import StudState
from studbook.events import Hand, Rejected, Skipped
from studbook.gcpause import gc_paused
from studbook.parse import FileResult, parse_paths

CheckResult = Union[HandCheck, Rejected, Skipped]
TableKey = tuple[str, str, str, Decimal, Decimal]


@dataclass(slots=True)
class TableMemory:
    """What earlier hands said about each table: its bring-in (rule ``bringin.amount``).

    Keyed by site, table, tournament, small and big bet, then the ante posted.
    """

    bring_ins: dict[TableKey, dict[Decimal | None, tuple[Decimal, str]]] = field(default_factory=dict)

    @staticmethod
    def key(hand: Hand) -> TableKey:
        header = hand.header
        tournament = header.tournament.id if header.tournament else ""
        return (header.site, header.table, tournament, header.stakes.small_bet, header.stakes.big_bet)

    def bring_in_for(self, hand: Hand) -> tuple[Decimal, str] | None:
        """(bring-in, hand id) an earlier hand at this table and stakes used, if one ante was seen."""
        by_ante = self.bring_ins.get(self.key(hand))
        if not by_ante:
            return None
        ante = hand.header.stakes.ante
        if ante in by_ante:
            return by_ante[ante]
        return next(iter(by_ante.values())) if len(by_ante) == 1 else None

    def remember(self, hand: Hand, ante: Decimal | None, amount: Decimal) -> None:
        self.bring_ins.setdefault(self.key(hand), {}).setdefault(ante, (amount, hand.hand_id))


_CENT = Decimal("0.01")


def _chip(hand: Hand) -> Decimal | None:
    header = hand.header
    if header.currency and header.tournament is None and not header.play_money:
        return _CENT
    return None


def check_hand(hand: Hand, profile: RuleProfile | None = None, memory: TableMemory | None = None) -> HandCheck:
    """Replay ``hand`` through the engine; never raises on bad input."""
    header = hand.header
    profile = profile or get_profile(header.site)
    known = memory.bring_in_for(hand) if memory is not None else None
    state = StudState(
        header.variant, header.stakes, hand.seats, profile, header.structure,
        button=header.button, chip=_chip(hand), bring_in=known[0] if known else None,
    )
    if known is not None:
        state.bring_in_source = f" as in hand {known[1]} at this table and stakes"
    state.apply_all(hand.events)
    pots, players, rake, showdown = finish(state, hand.end_line)
    if memory is not None:
        _remember_bring_in(state, hand, memory)
    violations = _dedupe(state.violations) if state.violations else ()
    return new_hand_check(hand, violations, tuple(players), tuple(pots), rake, showdown)


def _remember_bring_in(state: StudState, hand: Hand, memory: TableMemory) -> None:
    posted = state.bring_in_posted
    if posted is None or hand.header.stakes.bring_in is not None or posted[2]:
        return
    memory.remember(hand, state.ante_posted, posted[0])


def _dedupe(violations: list[Violation]) -> tuple[Violation, ...]:
    seen: set[tuple[str, str]] = set()
    out: list[Violation] = []
    for v in sorted(violations, key=lambda v: v.line):
        key = (v.rule, v.message)
        if key not in seen:
            seen.add(key)
            out.append(v)
    return tuple(out)


@dataclass(slots=True)
class FileCheck:
    """The checked results of one file, in file order."""

    parsed: FileResult
    results: list[CheckResult]

    @property
    def file(self) -> str:
        return self.parsed.file

    @property
    def site(self) -> str | None:
        return self.parsed.site

    @property
    def error(self) -> str | None:
        return self.parsed.error

    @property
    def checks(self) -> list[HandCheck]:
        return [r for r in self.results if isinstance(r, HandCheck)]

    def counts(self) -> dict[str, int]:
        out = {"hands": len(self.results), "ok": 0, "violations": 0, "rejected": 0, "skipped": 0}
        for r in self.results:
            out[status_of(r)] += 1
        return out


def status_of(result: CheckResult) -> str:
    if isinstance(result, HandCheck):
        return result.status
    return "rejected" if isinstance(result, Rejected) else "skipped"


def check_file_result(parsed: FileResult, memory: TableMemory | None = None) -> FileCheck:
    """Check every hand of an already parsed file."""
    memory = memory if memory is not None else TableMemory()
    results: list[CheckResult] = []
    with gc_paused():
        for r in parsed.results:
            results.append(check_hand(r, None, memory) if isinstance(r, Hand) else r)
    if parsed.error is not None and not parsed.results and parsed.note is None:
        results.append(Rejected(parsed.file, 1, 1, parsed.error, site=parsed.site))
    return FileCheck(parsed, results)


def check_paths(
    paths: Iterable[str | os.PathLike[str]], site: str | None = None, memory: TableMemory | None = None
) -> Iterator[FileCheck]:
    """Parse and check files (directories recursively); one FileCheck per file."""
    memory = memory if memory is not None else TableMemory()
    for parsed in parse_paths(paths, site=site):
        yield check_file_result(parsed, memory)


__all__ = ["CheckResult", "FileCheck", "TableMemory", "check_file_result", "check_hand", "check_paths", "status_of"]
