"""``studbook check PATH... [--format text|jsonl] [--site NAME] [--notes]``: validate hands against docs/rules.md.

``text`` prints one line per violation (``file:line: hand ID: RULE: message``)
and per rejected hand (``file:line: hand ID: rejected: reason: 'offending text'``),
with ``--verbose`` one per skipped hand (``file:line: hand ID: skipped: reason: game``),
then a summary (hands with violations, and violations) with a per-site table and the
files ignored. ``-`` as a PATH reads standard input. ``jsonl`` prints exactly
one JSON object per hand, then one ``{"summary": {"files", "hands", "ok",
"violations", "rejected", "skipped"}}`` line (with ``unknown_stud_headers``, the
rejected hands whose header names a stud game in a form the site's reader does not
know, when there are any: in text, after the rejected count); a file named on the command line
that holds no hand to check is one ``rejected`` object at line 1 (``hand_id``
null) with the reason, and the files ignored are listed on stderr.

A hand whose site and hand id an earlier hand of the run had (a spliced or
tampered log, or one file given twice) is not counted again: it is reported
with status ``duplicate`` (``file:line: hand ID: duplicate hand id: the same
as at FILE:LINE``) and counted in the summary (``duplicates``, present when
there are any). Files are read, decoded and checked one hand at a time;
the decoder's repairs (bytes read as cp1252 in a UTF-8 file, characters
replaced, NUL bytes dropped) are listed as ``file: warning: ...`` lines.

A file found by walking a directory that is not a hand history (an FPDB side
file, a tournament summary, an empty file) is listed once as ignored and does
not change the exit status; a file named on the command line that is not a
hand history is an error (``file:1: error: reason``).

``--notes`` also lists each hand's notes, the lines no rule of the site's
format reads that carry no play (``file:line: hand ID: note: text``; in
``jsonl`` a ``notes`` list of ``{"line", "text"}`` per hand), and counts them
in the summary. Notes never change the exit status.

``--jobs N`` checks the files in N processes (:func:`studbook.scale.prepare_files`)
with exactly the output of ``--jobs 1``: each worker shows its hands (:func:`show`,
the one renderer) and sends that back with each hand's header, not the checks;
this process finds the repeats, counts, prints in order, and shows the hands it
checks again for the bring-in memory (a table's hands across tasks). Without
``--jobs``: one process per free core for inputs of 64 MB or more when two or
more cores are free (:data:`studbook.jobs.AUTO_PREPARED_FREE_CORES`), else one.

Exit status: 0 when every hand is ok or skipped, 1 when any hand has
violations, was rejected or is a duplicate, or a file is in error, 2 on usage errors
and when a file could not be read (the other files are checked and printed).
"""

from __future__ import annotations

import argparse
import functools
import itertools
import json
import sys
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable, Iterator, Sequence, TextIO, Union

from studbook.check import CheckResult, SeenHands, SourcedCheck, SourcedStream, TableMemory, check_results
from studbook.check import is_file_rejection, status_of
from studbook.cli.common import InputFile, UsageError, expand_inputs, ignored_line, not_a_hand_history
from studbook.engine.messages import violation_record, violation_text
from studbook.engine.result import HandCheck
from studbook.events import Hand, Note, Rejected, Skipped
from studbook.parse import FileResult, stream_data, stream_file
from studbook.sites.base import UNKNOWN_STUD_HEADER
from studbook.perfile import per_file
from studbook.jobs import AUTO_PREPARED_FREE_CORES, auto_jobs
from studbook.sites import site_names
from studbook.words import counted

_KEYS = ("hands", "ok", "violations", "rejected", "skipped")


@dataclass(frozen=True, slots=True)
class Output:
    """How the command prints each result (the options its ``--jobs`` workers get)."""

    format: str = "text"
    notes: bool = False
    verbose: bool = False


@dataclass(frozen=True, slots=True)
class Shown:
    """What the command prints and counts of one result, made by :func:`show`
    where the result was checked (in a ``--jobs`` worker, or here)."""

    status: str  # ok, violations, rejected or skipped
    rules: tuple[str, ...]  # each violation's rule id
    notes: int
    text: str  # the result's lines (text) or its JSON line (jsonl)
    unknown_header: bool = False  # a hand rejected as an unknown stud header (sites.lines.UNKNOWN_STUD_HEADER)


Made = Union[Shown, CheckResult]  # a result shown by a worker, or to show here
Item = tuple[Union[Hand, None], Made]  # beside its hand's header and place (None: a rejected or skipped hand)
Checked = tuple[bool, FileResult, Iterator[Item]]  # a file named on the command line?, its report, its results


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check", help="validate stud hands against the rule book",
        description="Replay every hand through the rules engine and report rule violations.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH",
                        help="hand-history files or directories; - reads standard input")
    parser.add_argument("--format", choices=("text", "jsonl"), default="text", help="output format (default text)")
    parser.add_argument("--site", metavar="NAME", help="force the site format instead of detecting it")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="check files in N processes (0 = one per core; default: one per free core "
                             f"for inputs of 64 MB or more when {AUTO_PREPARED_FREE_CORES} or more are free, else 1); "
                             "same output")
    parser.add_argument("--notes", action="store_true",
                        help="also list the lines that carry no play (notes) of each hand")
    parser.add_argument("-v", "--verbose", action="store_true",
                        help="text: also list each skipped hand (not a stud game) with its line")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.site is not None:
        names = list(site_names())
        if args.site.lower() not in names:
            raise UsageError(f"unknown site {args.site!r}; known: {', '.join(names)}")
        args.site = args.site.lower()
    if args.jobs is not None and args.jobs < 0:
        raise UsageError(f"--jobs must be 0 (all cores) or more, not {args.jobs}")
    files = _inputs(args.paths)
    reads_stdin = any(f.path == STDIN for f in files)
    if args.jobs is None:  # standard input is read by this process
        args.jobs = 1 if reads_stdin else auto_jobs(f.path for f in files)
    if args.jobs != 1 and reads_stdin:
        raise UsageError("- (standard input) is read by one process: leave out --jobs")
    output = Output(args.format, args.notes, args.verbose)
    out = sys.stdout
    notes = out if args.format == "text" else sys.stderr
    totals = {"files": 0, **{k: 0 for k in _KEYS}, "duplicate": 0, "violation_count": 0, "notes": 0, "unknown_header": 0}
    sites: dict[str, dict[str, int]] = defaultdict(lambda: {"files": 0, **{k: 0 for k in _KEYS}, "duplicate": 0})
    rules: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # rule -> [violations, hands]
    errors = 0
    unreadable = False  # a file that could not be read: exit 2, as for an unreadable path
    ignored: list[str] = []
    seen = SeenHands()
    checks = _checks(files, args.site) if args.jobs == 1 else _checks_pooled(files, args.site, args.jobs, output)
    with per_file(_progress(checks, len(files))) as each_file:
        for explicit, parsed, items in each_file:
            first = next(items, None)  # a streamed file's report is final when it holds no result
            reason = not_a_hand_history(parsed) if first is None else None
            if reason is not None and not explicit:
                ignored.append(ignored_line(parsed.file, reason))
                continue
            totals["files"] += 1
            if parsed.site is not None:
                sites[parsed.site]["files"] += 1
            if first is not None and parsed.site is not None:
                site_row = sites[parsed.site]
                for head, made in itertools.chain((first,), items):
                    earlier = seen.earlier(head) if head is not None else None
                    if head is not None and earlier is not None:
                        _count_hand((totals, site_row), "duplicate")
                        out.write(_duplicate(head, earlier, args.format))
                        continue
                    shown = made if isinstance(made, Shown) else show(made, parsed.file, parsed.site, output)
                    _count_hand((totals, site_row), shown.status)
                    _count_rules(rules, shown.rules)
                    totals["violation_count"] += len(shown.rules)
                    totals["notes"] += shown.notes
                    totals["unknown_header"] += shown.unknown_header
                    out.write(shown.text)
            problem = parsed.error or reason
            unreadable |= parsed.unreadable
            for warning in parsed.warnings if problem is None else ():  # repairs and NUL bytes dropped
                print(f"{parsed.file}: warning: {warning}", file=notes)
            if problem is not None:
                errors += 1
                print(f"{parsed.file}:1: error: {problem}", file=notes)
                if args.format == "jsonl":  # the records list every input: a file in error is rejected whole
                    totals["hands"] += 1
                    totals["rejected"] += 1
                    out.write(json.dumps(_file_error_record(parsed, problem)) + "\n")
    if args.format == "jsonl":
        for line in ignored:
            print(line, file=sys.stderr)
        keys = ("files", *_KEYS, "notes") if args.notes else ("files", *_KEYS)
        summary = {k: totals[k] for k in keys}
        if totals["duplicate"]:
            summary["duplicates"] = totals["duplicate"]
        if totals["unknown_header"]:  # among the rejected: stud hands whose header no form of its site reads
            summary["unknown_stud_headers"] = totals["unknown_header"]
        out.write(json.dumps({"summary": summary}) + "\n")
    else:
        _write_summary(out, totals, sites, rules, errors, ignored, args.notes)
    bad = totals["violations"] or totals["rejected"] or totals["duplicate"] or errors
    return 2 if unreadable else 1 if bad else 0


STDIN = Path("-")


def _inputs(paths: Sequence[str]) -> list[InputFile]:
    """The files of ``paths``, with ``-`` (standard input) where it is named."""
    files: list[InputFile] = []
    for path in paths:
        files.extend([InputFile(STDIN, True)] if path == "-" else expand_inputs([path]))
    return files


def _checks(files: list[InputFile], site: str | None) -> Iterator[Checked]:
    """Each file checked hand by hand as the caller consumes it (one hand in memory,
    standard input too: read a block at a time), against one memory of bring-ins."""
    memory = TableMemory()
    for file in files:
        if file.path == STDIN:
            stdin = open(sys.stdin.fileno(), "rb", closefd=False)  # noqa: SIM115 - closed by the stream
            parsed, results = stream_data(stdin, "<stdin>", site=site)
            yield file.explicit, parsed, _with_heads(check_results(results, memory))
            continue
        parsed, results = stream_file(file.path, site=site)
        yield file.explicit, parsed, _with_heads(check_results(results, memory))


def _checks_pooled(files: list[InputFile], site: str | None, jobs: int, output: Output) -> Iterator[Checked]:
    """:func:`_checks` in ``jobs`` processes (:func:`studbook.scale.prepare_files`): each
    worker shows its hands' checks (:func:`show`) and sends that back, not the checks;
    the hands checked again here for the bring-in memory are shown here. Same output."""
    from studbook.scale import Prepared, prepare_files  # the pool: not imported by a check in one process

    prepare = functools.partial(_show_checks, output)  # to the workers: a module-level function and data
    checked_files = prepare_files([str(f.path) for f in files], prepare, jobs=jobs, site=site)
    for file, checked in zip(files, checked_files):
        made: Iterator[Item]
        if isinstance(checked, Prepared):
            again = checked.rechecked
            made = ((head, again.get(i, shown)) for i, (head, shown) in enumerate(zip(checked.hands, checked.made)))
        else:
            assert isinstance(checked, SourcedStream)  # checked here, hand by hand
            made = _with_heads(result for result, _ in checked.results)
        yield file.explicit, checked.parsed, _reported(checked.parsed, made)


def _show_checks(output: Output, results: list[SourcedCheck]) -> list[Made]:
    """A worker's part (``prepare`` of :func:`studbook.scale.prepare_files`): each hand's
    check shown; a rejected or skipped hand goes back as it is (it is small, and shown
    with its file's site, which the caller has)."""
    return [show(result, result.hand.file, None, output) if isinstance(result, HandCheck) else result
            for result, _ in results]


def _with_heads(results: Iterable[CheckResult]) -> Iterator[Item]:
    return ((result.hand if isinstance(result, HandCheck) else None, result) for result in results)


def _reported(parsed: FileResult, items: Iterator[Item]) -> Iterator[Item]:
    """``items`` without the one rejected item that stands for a file in error that gave
    no result (prepare_files' files carry it): the command reports that error itself."""
    first = next(items, None)
    if first is None:
        return
    second = next(items, None)
    if second is None and is_file_rejection(parsed, first[1]):  # the report is final: no result follows
        return
    yield first
    if second is not None:
        yield second
        yield from items


def _progress(items: Iterator[Checked], total: int) -> Iterator[Checked]:
    if not sys.stderr.isatty():
        return items
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return items
    return iter(tqdm(items, total=total, unit="file", file=sys.stderr, leave=False))


def show(result: CheckResult, file: str, site: str | None, output: Output) -> Shown:
    """What the command prints and counts of ``result``, a result of ``file`` read as
    ``site``'s (a checked hand names its own): the one renderer, in a worker or here."""
    noted = _notes(result) if output.notes else []
    if output.format == "jsonl":
        record = _record(file, site, result)
        if output.notes and isinstance(result, HandCheck):
            record["notes"] = [{"line": n.line, "text": n.text} for n in noted]
        text = json.dumps(record) + "\n"
    else:
        text = _text(file, result, output.verbose)
        if noted:
            hand = _hand_id(result)
            text += "".join(f"{file}:{n.line}: hand {hand}: note: {n.text}\n" for n in noted)
    rules = tuple(v.rule for v in result.violations) if isinstance(result, HandCheck) else ()
    unknown = isinstance(result, Rejected) and result.reason == UNKNOWN_STUD_HEADER
    return Shown(status_of(result), rules, len(noted), text, unknown)


def _notes(result: CheckResult) -> list[Note]:
    """The notes of a checked hand (none for a rejected or skipped one)."""
    if not isinstance(result, HandCheck):
        return []
    return [e for e in result.hand.events if type(e) is Note]


def _hand_id(result: CheckResult) -> str | None:
    if isinstance(result, HandCheck):
        return result.hand.hand_id
    return result.hand_id


def _text(file: str, result: CheckResult, verbose: bool = False) -> str:
    if isinstance(result, HandCheck):
        hand_id = result.hand.hand_id
        return "".join(f"{file}:{v.line}: hand {hand_id}: {violation_text(v)}\n" for v in result.violations)
    if isinstance(result, Rejected):
        hand = f"hand {result.hand_id}: " if result.hand_id else ""
        shown = f": {result.text!r}" if result.text else ""
        return f"{file}:{result.line}: {hand}rejected: {result.reason}{shown}\n"
    if verbose:
        hand = f"hand {result.hand_id}: " if result.hand_id else ""
        return f"{file}:{result.line}: {hand}skipped: {result.reason}: {result.game}\n"
    return ""


def _record(file: str, site: str | None, result: CheckResult) -> dict[str, Any]:
    if isinstance(result, HandCheck):
        return {**_hand_fields(result.hand), "status": result.status,
                "violations": [violation_record(v) for v in result.violations],
                "net": {p.player: str(p.net) for p in result.players}}
    if isinstance(result, Rejected):
        reason = result.reason if result.line == result.hand_line else f"line {result.line}: {result.reason}"
        return {"file": file, "line": result.hand_line, "site": site, "hand_id": result.hand_id, "variant": None,
                "status": "rejected", "violations": [], "net": {}, "reason": reason}
    assert isinstance(result, Skipped)
    return {"file": file, "line": result.line, "site": site, "hand_id": result.hand_id, "variant": None,
            "status": "skipped", "violations": [], "net": {}, "reason": f"{result.reason}: {result.game}"}


def _hand_fields(hand: Hand) -> dict[str, Any]:
    """Where a hand is and what it is, as its JSON line begins (its header is enough)."""
    return {"file": hand.file, "line": hand.line, "site": hand.site, "hand_id": hand.hand_id,
            "variant": hand.variant.value}


def _duplicate(hand: Hand, earlier: tuple[str, int], form: str) -> str:
    """A hand whose site and id an earlier hand of the run had: not counted again
    (shown from its header alone, which is all a worker sends of a hand)."""
    reason = f"duplicate hand id: the same as at {earlier[0]}:{earlier[1]}"
    if form == "jsonl":
        return json.dumps({**_hand_fields(hand), "status": "duplicate", "violations": [], "net": {},
                           "reason": reason}) + "\n"
    return f"{hand.file}:{hand.line}: hand {hand.hand_id}: {reason}\n"


def _file_error_record(parsed: FileResult, reason: str) -> dict[str, Any]:
    """A file named on the command line that holds no hand to check, as one rejected record."""
    return {"file": parsed.file, "line": 1, "site": parsed.site, "hand_id": None, "variant": None,
            "status": "rejected", "violations": [], "net": {}, "reason": reason}  # fmt: skip


def _count_hand(rows: Iterable[dict[str, int]], status: str) -> None:
    for row in rows:
        row["hands"] += 1
        row[status] += 1


def _count_rules(rules: dict[str, list[int]], ids: Sequence[str]) -> None:
    """Each violation's rule counted, and each rule once for its hand."""
    for rule in ids:
        rules[rule][0] += 1
    for rule in set(ids):
        rules[rule][1] += 1


def _write_summary(
    out: TextIO, totals: dict[str, int], sites: dict[str, dict[str, int]], rules: dict[str, list[int]],
    errors: int, ignored: list[str], notes: bool = False,
) -> None:  # fmt: skip
    parts = [counted(totals["files"], "file"), counted(totals["hands"], "hand"), f"{totals['ok']} ok",
             counted(totals["violations"], "hand with violations", "hands with violations"),
             counted(totals["violation_count"], "violation"), f"{totals['rejected']} rejected"]
    if totals["unknown_header"]:
        parts[-1] += f" ({counted(totals['unknown_header'], 'unknown stud header')})"
    parts.append(f"{totals['skipped']} skipped")
    if totals["duplicate"]:
        parts.append(counted(totals["duplicate"], "duplicate"))
    if notes:
        parts.append(counted(totals["notes"], "note"))
    if errors:
        parts.append(counted(errors, "file error"))
    if ignored:
        parts.append(f"{len(ignored)} ignored")
    out.write("summary: " + ", ".join(parts) + "\n")
    columns: tuple[str, ...] = ("site", "files", "hands", "ok", "skipped", "rejected", "violations")
    if totals["duplicate"]:
        columns += ("duplicate",)
    _write_table(out, columns, [[name, *(str(row[c]) for c in columns[1:])] for name, row in sorted(sites.items())])
    by_count = sorted(rules.items(), key=lambda item: (-item[1][1], item[0]))
    _write_table(out, ("rule", "violations", "hands"), [[rule, str(n), str(hands)] for rule, (n, hands) in by_count])
    if ignored:
        out.write(f"ignored ({counted(len(ignored), 'file')}):\n")
        out.writelines(f"  {line}\n" for line in ignored)


def _write_table(out: TextIO, columns: Sequence[str], rows: list[list[str]]) -> None:
    """Columns aligned, the first to the left and the rest to the right; nothing without rows."""
    if not rows:
        return
    widths = [max([len(columns[i]), *(len(r[i]) for r in rows)]) for i in range(len(columns))]
    for r in [list(columns), *rows]:
        out.write("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths))) + "\n")


__all__ = ["add_parser", "run"]
