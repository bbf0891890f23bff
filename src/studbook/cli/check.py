"""``studbook check PATH... [--format text|jsonl] [--site NAME] [--notes]``: validate hands against RULES.md.

``text`` prints one line per violation (``file:line: hand ID: RULE: message``)
and per rejected hand (``file:line: hand ID: rejected: reason: 'offending text'``),
with ``--verbose`` one per skipped hand (``file:line: hand ID: skipped: reason: game``),
then a summary (hands with violations, and violations) with a per-site table and the
files ignored. ``-`` as a PATH reads standard input. ``jsonl`` prints exactly
one JSON object per hand, then one ``{"summary": {"files", "hands", "ok",
"violations", "rejected", "skipped"}}`` line; a file named on the command line
that holds no hand to check is one ``rejected`` object at line 1 (``hand_id``
null) with the reason, and the files ignored are listed on stderr.

A hand whose site and hand id an earlier hand of the run had (a spliced or
tampered log, or one file given twice) is not counted again: it is reported
with status ``duplicate`` (``file:line: hand ID: duplicate hand id: the same
as at FILE:LINE``) and counted in the summary (``duplicates``, present when
there are any). Files are read, decoded and checked one hand at a time;
the decoder's repairs (bytes read as cp1252 in a UTF-8 file, characters
replaced) are listed as ``file: warning: ...`` lines.

A file found by walking a directory that is not a hand history (an FPDB side
file, a tournament summary, an empty file) is listed once as ignored and does
not change the exit status; a file named on the command line that is not a
hand history is an error (``file:1: error: reason``).

``--notes`` also lists each hand's notes, the lines no rule of the site's
format reads that carry no play (``file:line: hand ID: note: text``; in
``jsonl`` a ``notes`` list of ``{"line", "text"}`` per hand), and counts them
in the summary. Notes never change the exit status.

Exit status: 0 when every hand is ok or skipped, 1 when any hand has
violations, was rejected or is a duplicate, or a file is in error, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import itertools
import json
import sys
from collections import defaultdict
from pathlib import Path
from typing import Any, Iterator, Sequence, TextIO

from studbook.check import CheckResult, FileCheck, FileStream, SeenHands, TableMemory, check_results, status_of
from studbook.parse import stream_file
from studbook.cli.common import InputFile, UsageError, expand_inputs, ignored_line, not_a_hand_history
from studbook.engine.result import HandCheck, Violation
from studbook.events import Note, Rejected, Skipped
from studbook.perfile import per_file
from studbook.parse import read_data
from studbook.scale import auto_jobs, check_files
from studbook.sites import site_names

_KEYS = ("hands", "ok", "violations", "rejected", "skipped")
Checked = FileCheck | FileStream


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
                             "for inputs of 64 MB or more when 4 or more are free, else 1); same output")
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
    out = sys.stdout
    notes = out if args.format == "text" else sys.stderr
    totals = {"files": 0, **{k: 0 for k in _KEYS}, "duplicate": 0, "violation_count": 0}
    sites: dict[str, dict[str, int]] = defaultdict(lambda: {"files": 0, **{k: 0 for k in _KEYS}, "duplicate": 0})
    rules: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # rule -> [violations, hands]
    errors = 0
    ignored: list[str] = []
    memory = TableMemory()
    seen = SeenHands()
    checks = _checks(files, args.site, memory) if args.jobs == 1 else _checks_pooled(files, args.site, args.jobs)
    with per_file(_progress(checks, len(files))) as each_file:
        for explicit, checked in each_file:
            results = iter(checked.results)
            first = next(results, None)  # a streamed file's report is final when it holds no result
            reason = not_a_hand_history(checked.parsed) if first is None else None
            if reason is not None and not explicit:
                ignored.append(ignored_line(checked.file, reason))
                continue
            totals["files"] += 1
            if checked.site is not None:
                sites[checked.site]["files"] += 1
            if first is not None and checked.site is not None:
                site_row = sites[checked.site]
                for result in itertools.chain((first,), results):
                    earlier = seen.earlier(result.hand) if isinstance(result, HandCheck) else None
                    status = status_of(result) if earlier is None else "duplicate"
                    for row in (totals, site_row):
                        row["hands"] += 1
                        row[status] += 1
                    if earlier is not None:
                        assert isinstance(result, HandCheck)
                        _write_duplicate(out, checked, result, earlier, args.format)
                        continue
                    if isinstance(result, HandCheck) and result.violations:
                        _count_rules(rules, result.violations)
                        totals["violation_count"] += len(result.violations)
                    noted = _notes(result) if args.notes else []
                    totals["notes"] = totals.get("notes", 0) + len(noted)
                    if args.format == "jsonl":
                        record = _record(checked, result)
                        if args.notes and isinstance(result, HandCheck):
                            record["notes"] = [{"line": n.line, "text": n.text} for n in noted]
                        out.write(json.dumps(record) + "\n")
                    else:
                        _write_text(out, checked, result, args.verbose)
                        for n in noted:
                            out.write(f"{checked.file}:{n.line}: hand {_hand_id(result)}: note: {n.text}\n")
            problem = checked.error or reason
            for warning in checked.parsed.repairs if problem is None else ():
                print(f"{checked.file}: warning: {warning}", file=notes)
            if problem is not None:
                errors += 1
                print(f"{checked.file}:1: error: {problem}", file=notes)
                if args.format == "jsonl":  # the records list every input: a file in error is rejected whole
                    totals["hands"] += 1
                    totals["rejected"] += 1
                    out.write(json.dumps(_file_error_record(checked, problem)) + "\n")
    if args.format == "jsonl":
        for line in ignored:
            print(line, file=sys.stderr)
        keys = ("files", *_KEYS, "notes") if args.notes else ("files", *_KEYS)
        summary = {k: totals.get(k, 0) for k in keys}
        if totals["duplicate"]:
            summary["duplicates"] = totals["duplicate"]
        out.write(json.dumps({"summary": summary}) + "\n")
    else:
        _write_summary(out, totals, sites, rules, errors, ignored, args.notes)
    bad = totals["violations"] or totals["rejected"] or totals["duplicate"] or errors
    return 1 if bad else 0


STDIN = Path("-")


def _inputs(paths: Sequence[str]) -> list[InputFile]:
    """The files of ``paths``, with ``-`` (standard input) where it is named."""
    files: list[InputFile] = []
    for path in paths:
        files.extend([InputFile(STDIN, True)] if path == "-" else expand_inputs([path]))
    return files


def _checks(files: list[InputFile], site: str | None, memory: TableMemory) -> Iterator[tuple[bool, Checked]]:
    """Each file checked hand by hand as the caller consumes it (one hand in memory;
    standard input is read whole first)."""
    for file in files:
        if file.path == STDIN:
            parsed = read_data(sys.stdin.buffer.read(), "<stdin>", site=site)
            yield file.explicit, FileStream(parsed, check_results(iter(parsed.results), memory))
            continue
        parsed, results = stream_file(file.path, site=site)
        yield file.explicit, FileStream(parsed, check_results(results, memory))


def _checks_pooled(files: list[InputFile], site: str | None, jobs: int) -> Iterator[tuple[bool, Checked]]:
    """:func:`_checks` in ``jobs`` processes (studbook.scale): the same FileChecks, in order."""
    for file, checked in zip(files, check_files([str(f.path) for f in files], jobs=jobs, site=site)):
        yield file.explicit, checked if checked.error is None else FileCheck(checked.parsed, [])


def _progress(items: Iterator[tuple[bool, Checked]], total: int) -> Iterator[tuple[bool, Checked]]:
    if not sys.stderr.isatty():
        return items
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return items
    return iter(tqdm(items, total=total, unit="file", file=sys.stderr, leave=False))


def _notes(result: CheckResult) -> list[Note]:
    """The notes of a checked hand (none for a rejected or skipped one)."""
    if not isinstance(result, HandCheck):
        return []
    return [e for e in result.hand.events if type(e) is Note]


def _hand_id(result: CheckResult) -> str | None:
    if isinstance(result, HandCheck):
        return result.hand.hand_id
    return result.hand_id


def _write_text(out: TextIO, checked: Checked, result: CheckResult, verbose: bool = False) -> None:
    if isinstance(result, HandCheck):
        for v in result.violations:
            out.write(f"{checked.file}:{v.line}: hand {result.hand.hand_id}: {v.rule}: {v.message}\n")
    elif isinstance(result, Rejected):
        hand = f"hand {result.hand_id}: " if result.hand_id else ""
        shown = f": {result.text!r}" if result.text else ""
        out.write(f"{checked.file}:{result.line}: {hand}rejected: {result.reason}{shown}\n")
    elif verbose:
        hand = f"hand {result.hand_id}: " if result.hand_id else ""
        out.write(f"{checked.file}:{result.line}: {hand}skipped: {result.reason}: {result.game}\n")


def _record(checked: Checked, result: CheckResult) -> dict[str, Any]:
    record: dict[str, Any] = {"file": checked.file}
    if isinstance(result, HandCheck):
        hand = result.hand
        record.update(
            line=hand.line, site=hand.site, hand_id=hand.hand_id, variant=hand.variant.value,
            status=result.status,
            violations=[{"rule": v.rule, "line": v.line, "message": v.message} for v in result.violations],
            net={p.player: str(p.net) for p in result.players},
        )
        return record
    if isinstance(result, Rejected):
        reason = result.reason if result.line == result.hand_line else f"line {result.line}: {result.reason}"
        record.update(line=result.hand_line, site=checked.site, hand_id=result.hand_id, variant=None,
                      status="rejected", violations=[], net={}, reason=reason)
        return record
    assert isinstance(result, Skipped)
    record.update(line=result.line, site=checked.site, hand_id=result.hand_id, variant=None,
                  status="skipped", violations=[], net={}, reason=f"{result.reason}: {result.game}")
    return record


def _write_duplicate(out: TextIO, checked: Checked, result: HandCheck, earlier: tuple[str, int], form: str) -> None:
    """A hand whose site and id an earlier hand of the run had: not counted again."""
    hand = result.hand
    reason = f"duplicate hand id: the same as at {earlier[0]}:{earlier[1]}"
    if form == "jsonl":
        record = _record(checked, result)
        record.update(status="duplicate", violations=[], net={}, reason=reason)
        out.write(json.dumps(record) + "\n")
    else:
        out.write(f"{checked.file}:{hand.line}: hand {hand.hand_id}: {reason}\n")


def _file_error_record(checked: Checked, reason: str) -> dict[str, Any]:
    """A file named on the command line that holds no hand to check, as one rejected record."""
    return {"file": checked.file, "line": 1, "site": checked.site, "hand_id": None, "variant": None,
            "status": "rejected", "violations": [], "net": {}, "reason": reason}  # fmt: skip


def _count_rules(rules: dict[str, list[int]], violations: Sequence[Violation]) -> None:
    for violation in violations:
        rules[violation.rule][0] += 1
    for rule in {violation.rule for violation in violations}:
        rules[rule][1] += 1


def _write_summary(
    out: TextIO, totals: dict[str, int], sites: dict[str, dict[str, int]], rules: dict[str, list[int]],
    errors: int, ignored: list[str], notes: bool = False,
) -> None:  # fmt: skip
    names = {"violations": "hands with violations"}
    parts = [f"{totals[k]} {names.get(k, k)}" for k in ("files", "hands", "ok", "violations")]
    parts.append(f"{totals['violation_count']} violations")
    parts.extend(f"{totals[k]} {k}" for k in ("rejected", "skipped"))
    if totals["duplicate"]:
        parts.append(f"{totals['duplicate']} duplicate{'s' if totals['duplicate'] != 1 else ''}")
    if notes:
        parts.append(f"{totals.get('notes', 0)} notes")
    if errors:
        parts.append(f"{errors} file error{'s' if errors != 1 else ''}")
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
        out.write(f"ignored ({len(ignored)} file{'s' if len(ignored) != 1 else ''}):\n")
        out.writelines(f"  {line}\n" for line in ignored)


def _write_table(out: TextIO, columns: Sequence[str], rows: list[list[str]]) -> None:
    """Columns aligned, the first to the left and the rest to the right; nothing without rows."""
    if not rows:
        return
    widths = [max([len(columns[i]), *(len(r[i]) for r in rows)]) for i in range(len(columns))]
    for r in [list(columns), *rows]:
        out.write("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths))) + "\n")


__all__ = ["add_parser", "run"]
