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
from studbook.engine.table import TableOptions
from studbook.events import Hand, ParseResult, Rejected, Skipped
from studbook.money import Money
from studbook.originals import HandSource
from studbook.perfile import within_file
from studbook.parse import FileResult, parse_paths
from studbook.parse import stream_file as parse_stream
from studbook.parse import stream_sourced as parse_sourced
from studbook.read import files_in

CheckResult = Union[HandCheck, Rejected, Skipped]
SourcedCheck = tuple[CheckResult, Union[HandSource, None]]
"""A checked result beside its hand's original text (:func:`studbook.parse.stream_sourced`)."""
TableKey = tuple[str, str, str, Money, Money]


MAX_TABLES = 50_000  # tables (with stakes) remembered; some 200 bytes each


@dataclass(slots=True)
class TableMemory:
    """What earlier hands said about each table: its bring-in (rule ``bringin.amount``).

    Keyed by site, table, tournament, small and big bet, then the ante posted.
    At most :data:`MAX_TABLES` tables are kept (the first remembered goes first),
    so a run over any number of files holds bounded memory.
    """

    bring_ins: dict[TableKey, dict[Money | None, tuple[Money, str]]] = field(default_factory=dict)
    # the key of the hand last asked about (the hand kept beside it): remember, at the hand's
    # end, reuses what bring_in_for built at its start (some 600 instructions a build)
    _hand: Hand | None = field(default=None, init=False, repr=False, compare=False)
    _key: TableKey | None = field(default=None, init=False, repr=False, compare=False)

    @staticmethod
    def key(hand: Hand) -> TableKey:
        header = hand.header
        tournament = header.tournament.id if header.tournament else ""
        return (header.site, header.table, tournament, header.stakes.small_bet, header.stakes.big_bet)

    def bring_in_for(self, hand: Hand) -> tuple[Money, str] | None:
        """(bring-in, hand id) an earlier hand at this table and stakes used, if one ante was seen."""
        self._hand = hand
        key = self._key = self.key(hand)
        by_ante = self.bring_ins.get(key)
        if not by_ante:
            return None
        ante = hand.header.stakes.ante
        if ante in by_ante:
            return by_ante[ante]
        if len(by_ante) == 1:
            for only in by_ante.values():  # (its one value: no iter and next calls)
                return only
        return None

    def remember(self, hand: Hand, ante: Money | None, amount: Money) -> None:
        key = self._key if self._hand is hand and self._key is not None else self.key(hand)
        bring_ins = self.bring_ins
        # (a table met before, most hands: one look-up, no dict or tuple made for nothing)
        by_ante = bring_ins.get(key)
        if by_ante is None:
            if len(bring_ins) >= MAX_TABLES:  # bounded: the first remembered goes
                del bring_ins[next(iter(bring_ins))]
            by_ante = bring_ins[key] = {}
        if ante not in by_ante:
            by_ante[ante] = (amount, hand.hand_id)


MAX_SEEN = 200_000  # hand ids remembered to find repeats; some 150 bytes each


class SeenHands:
    """The hands met so far in a run, by site and hand id, to find a hand id
    met twice (a spliced or tampered log, or one file given twice).

    At most :data:`MAX_SEEN` ids are kept (the first met goes first), so a
    run over any number of hands holds bounded memory: a repeat further back
    than that goes unnoticed.
    """

    __slots__ = ("_seen", "limit")

    def __init__(self, limit: int = MAX_SEEN) -> None:
        self._seen: dict[int, tuple[str, int]] = {}
        self.limit = limit

    def earlier(self, hand: Hand) -> tuple[str, int] | None:
        """(file, line) of an earlier hand with ``hand``'s site and id, else None (and ``hand`` is remembered)."""
        key = hash((hand.header.site, hand.header.hand_id))
        seen = self._seen
        found = seen.get(key)
        if found is None:
            if len(seen) >= self.limit:
                del seen[next(iter(seen))]
            seen[key] = (hand.file, hand.line)
        return found


_CENT = Decimal("0.01")


def _chip(hand: Hand) -> Decimal | None:
    header = hand.header
    if header.currency and header.tournament is None and not header.play_money:
        return _CENT
    return None


def start_state(hand: Hand, profile: RuleProfile | None = None, memory: TableMemory | None = None) -> StudState:
    """The engine's state for ``hand`` before its first event (site profile, chip, the
    bring-in an earlier hand at the table used): what :func:`check_hand` and replayers feed."""
    header = hand.header
    profile = profile or get_profile(header.site)
    # only the options the hand has: keywords cost the class call a dict (some 2,000
    # instructions a hand for four); a real log's hands have none or two
    options: TableOptions = {}
    if header.button is not None:
        options["button"] = header.button
    chip = _chip(hand)
    if chip is not None:
        options["chip"] = chip
    known = memory.bring_in_for(hand) if memory is not None else None
    if known is not None:
        options["bring_in"], options["bring_in_hand"] = known
    return StudState(header.variant, header.stakes, hand.seats, profile, header.structure, **options)


def check_hand(hand: Hand, profile: RuleProfile | None = None, memory: TableMemory | None = None) -> HandCheck:
    """Replay ``hand`` through the engine; never raises on bad input."""
    state = start_state(hand, profile, memory)
    state.apply_all(hand.events)
    pots, players, rake, showdown = finish(state, hand.end_line)
    if memory is not None:
        _remember_bring_in(state, hand, memory)
    violations = _dedupe(state.violations) if state.violations else ()
    return new_hand_check(hand, violations, tuple(players), tuple(pots), rake, showdown, tuple(state.action_log))


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


class _OfFile:
    """The file-level facts of a checked file, from its parse report."""

    __slots__ = ()
    parsed: FileResult

    @property
    def file(self) -> str:
        return self.parsed.file

    @property
    def site(self) -> str | None:
        return self.parsed.site

    @property
    def error(self) -> str | None:
        return self.parsed.error


@dataclass(slots=True)
class FileCheck(_OfFile):
    """The checked results of one file, in file order."""

    parsed: FileResult
    results: list[CheckResult]

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
    for r in parsed.results:
        results.append(check_hand(r, None, memory) if isinstance(r, Hand) else r)
    rejection = _file_rejection(parsed, len(parsed.results))
    if rejection is not None:
        results.append(rejection)
    return FileCheck(parsed, results)


def _file_rejection(parsed: FileResult, results: int) -> Rejected | None:
    """A file in error that gave no result and no note is one rejected item at its line 1."""
    if parsed.error is not None and not results and parsed.note is None:
        return Rejected(parsed.file, 1, 1, parsed.error, site=parsed.site)
    return None


def is_file_rejection(parsed: FileResult, result: object) -> bool:
    """Whether ``result`` is the one rejected item that stands for ``parsed``, a file in
    error that gave no result (what :func:`check_file_result` and the streams add)."""
    return isinstance(result, Rejected) and result == _file_rejection(parsed, 0)


@dataclass(slots=True)
class FileStream(_OfFile):
    """A file being checked hand by hand: ``results`` is consumed once; the
    report (``parsed``: site, encoding, warnings, file-level error) is
    complete once it is exhausted. What :func:`stream_paths` yields."""

    parsed: FileResult
    results: Iterator[CheckResult]


def stream_file(path: str | os.PathLike[str], site: str | None = None,
                memory: TableMemory | None = None) -> FileStream:  # fmt: skip
    """Check one file hand by hand (the same results as :func:`check_file_result`
    on :func:`~studbook.parse.read_file`'s, one hand in memory at a time)."""
    memory = memory if memory is not None else TableMemory()
    parsed, results = parse_stream(path, site=site)
    sourced = _checked(parsed, ((result, None) for result in results), memory)
    return FileStream(parsed, (result for result, _ in sourced))


@dataclass(slots=True)
class SourcedStream(_OfFile):
    """A :class:`FileStream` whose results come each beside its hand's original
    text (None for a hand too big to hold, a skipped hand and a file's rejection), read in
    the same pass: what :func:`stream_sourced` yields and ``studbook import`` stores."""

    parsed: FileResult
    results: Iterator[SourcedCheck]


def stream_sourced(path: str | os.PathLike[str], site: str | None = None,
                   memory: TableMemory | None = None) -> SourcedStream:  # fmt: skip
    """:func:`stream_file`, each result beside its original text (the file read once)."""
    memory = memory if memory is not None else TableMemory()
    parsed, sourced = parse_sourced(path, site=site)
    return SourcedStream(parsed, _checked(parsed, sourced, memory))


def streams_sourced(paths: Iterable[str | os.PathLike[str]], site: str | None = None) -> Iterator[SourcedStream]:
    """:func:`stream_sourced` of each file in turn, in this process, against one memory of
    bring-ins: how files are checked for their original texts when one process checks them
    all (``studbook import --jobs 1``, :func:`studbook.scale.prepare_files`' one task)."""
    memory = TableMemory()
    return (stream_sourced(path, site, memory) for path in paths)


def _checked(parsed: FileResult, sourced: Iterator[tuple[ParseResult, HandSource | None]],
             memory: TableMemory) -> Iterator[SourcedCheck]:  # fmt: skip
    count = 0
    for result, source in within_file(sourced):
        count += 1
        yield (check_hand(result, None, memory) if isinstance(result, Hand) else result), source
    rejection = _file_rejection(parsed, count)
    if rejection is not None:
        yield rejection, None


def check_results(results: Iterable[ParseResult], memory: TableMemory) -> Iterator[CheckResult]:
    """Each parse result checked as it comes (hands replayed, the rest passed on);
    a long file collects as it goes (:func:`studbook.perfile.within_file`)."""
    for r in within_file(results):
        yield check_hand(r, None, memory) if isinstance(r, Hand) else r


def stream_paths(
    paths: Iterable[str | os.PathLike[str]], site: str | None = None, memory: TableMemory | None = None
) -> Iterator[FileStream]:
    """:func:`check_paths`, each file as a :class:`FileStream` (consume each
    one's results before taking the next)."""
    memory = memory if memory is not None else TableMemory()
    for path in paths:
        for file in files_in(path):
            yield stream_file(file, site, memory)


def check_paths(
    paths: Iterable[str | os.PathLike[str]], site: str | None = None, memory: TableMemory | None = None
) -> Iterator[FileCheck]:
    """Parse and check files (directories recursively); one FileCheck per file."""
    memory = memory if memory is not None else TableMemory()
    for parsed in parse_paths(paths, site=site):
        yield check_file_result(parsed, memory)


__all__ = [
    "CheckResult", "FileCheck", "FileStream", "TableMemory", "check_file_result", "check_hand", "check_paths",
    "SeenHands", "SourcedCheck", "SourcedStream", "check_results", "is_file_rejection", "start_state", "status_of", "stream_file",
    "stream_paths", "stream_sourced", "streams_sourced",
]
