"""``studbook check PATH... [--format text|jsonl] [--site NAME]``: validate hands against RULES.md.

``text`` prints one line per violation (``file:line: hand ID: RULE: message``)
and per rejected hand (``file:line: hand ID: rejected: reason``), then a
summary with a per-site table and the files ignored. ``jsonl`` prints exactly
one JSON object per hand, then one ``{"summary": {"files", "hands", "ok",
"violations", "rejected", "skipped"}}`` line; a file named on the command line
that holds no hand to check is one ``rejected`` object at line 1 (``hand_id``
null) with the reason, and the files ignored are listed on stderr.

A file found by walking a directory that is not a hand history (an FPDB side
file, a tournament summary, an empty file) is listed once as ignored and does
not change the exit status; a file named on the command line that is not a
hand history is an error (``file:1: error: reason``).

Exit status: 0 when every hand is ok or skipped, 1 when any hand has
violations or was rejected or a file is in error, 2 on usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from typing import Any, Iterator, Sequence, TextIO

from studbook.check import CheckResult, FileCheck, TableMemory, check_file_result, status_of
from studbook.cli.common import InputFile, UsageError, expand_inputs, ignored_line, not_a_hand_history
from studbook.engine.result import HandCheck, Violation
from studbook.events import Rejected, Skipped
from studbook.gcpause import gc_between_files
from studbook.parse import read_file
from studbook.scale import auto_jobs, check_files
from studbook.sites import site_names

_KEYS = ("hands", "ok", "violations", "rejected", "skipped")


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "check", help="validate stud hands against the rule book",
        description="Replay every hand through the rules engine and report rule violations.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="hand-history files or directories")
    parser.add_argument("--format", choices=("text", "jsonl"), default="text", help="output format (default text)")
    parser.add_argument("--site", metavar="NAME", help="force the site format instead of detecting it")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="check files in N processes (0 = one per core; default: one per free core "
                             "for inputs of 64 MB or more when 4 or more are free, else 1); same output")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.site is not None:
        names = list(site_names())
        if args.site.lower() not in names:
            raise UsageError(f"unknown site {args.site!r}; known: {', '.join(names)}")
        args.site = args.site.lower()
    if args.jobs is not None and args.jobs < 0:
        raise UsageError(f"--jobs must be 0 (all cores) or more, not {args.jobs}")
    files = expand_inputs(args.paths)
    if args.jobs is None:
        args.jobs = auto_jobs(f.path for f in files)
    out = sys.stdout
    notes = out if args.format == "text" else sys.stderr
    totals = {"files": 0, **{k: 0 for k in _KEYS}}
    sites: dict[str, dict[str, int]] = defaultdict(lambda: {"files": 0, **{k: 0 for k in _KEYS}})
    rules: dict[str, list[int]] = defaultdict(lambda: [0, 0])  # rule -> [violations, hands]
    errors = 0
    ignored: list[str] = []
    memory = TableMemory()
    checks = _checks(files, args.site, memory) if args.jobs == 1 else _checks_pooled(files, args.site, args.jobs)
    with gc_between_files() as next_file:
        for explicit, checked in _progress(checks, len(files)):
            next_file()
            reason = not_a_hand_history(checked.parsed)
            if reason is not None and not explicit:
                ignored.append(ignored_line(checked.file, reason))
                continue
            totals["files"] += 1
            problem = checked.error or reason
            if problem is not None:
                errors += 1
                print(f"{checked.file}:1: error: {problem}", file=notes)
                if args.format == "jsonl":  # the records list every input: a file in error is rejected whole
                    totals["hands"] += 1
                    totals["rejected"] += 1
                    out.write(json.dumps(_file_error_record(checked, problem)) + "\n")
            if checked.site is None:
                continue
            site_row = sites[checked.site]
            site_row["files"] += 1
            for result in checked.results:
                status = status_of(result)
                for row in (totals, site_row):
                    row["hands"] += 1
                    row[status] += 1
                if isinstance(result, HandCheck) and result.violations:
                    _count_rules(rules, result.violations)
                if args.format == "jsonl":
                    out.write(json.dumps(_record(checked, result)) + "\n")
                else:
                    _write_text(out, checked, result)
    if args.format == "jsonl":
        for line in ignored:
            print(line, file=sys.stderr)
        out.write(json.dumps({"summary": {k: totals[k] for k in ("files", *_KEYS)}}) + "\n")
    else:
        _write_summary(out, totals, sites, rules, errors, ignored)
    bad = totals["violations"] or totals["rejected"] or errors
    return 1 if bad else 0


def _checks(files: list[InputFile], site: str | None, memory: TableMemory) -> Iterator[tuple[bool, FileCheck]]:
    for file in files:
        parsed = read_file(file.path, site=site)
        checked = check_file_result(parsed, memory) if parsed.error is None else FileCheck(parsed, [])
        yield file.explicit, checked


def _checks_pooled(files: list[InputFile], site: str | None, jobs: int) -> Iterator[tuple[bool, FileCheck]]:
    """:func:`_checks` in ``jobs`` processes (studbook.scale): the same FileChecks, in order."""
    for file, checked in zip(files, check_files([str(f.path) for f in files], jobs=jobs, site=site)):
        yield file.explicit, checked if checked.error is None else FileCheck(checked.parsed, [])


def _progress(items: Iterator[tuple[bool, FileCheck]], total: int) -> Iterator[tuple[bool, FileCheck]]:
    if not sys.stderr.isatty():
        return items
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return items
    return iter(tqdm(items, total=total, unit="file", file=sys.stderr, leave=False))


def _hand_id(result: CheckResult) -> str | None:
    if isinstance(result, HandCheck):
        return result.hand.hand_id
    return result.hand_id


def _write_text(out: TextIO, checked: FileCheck, result: CheckResult) -> None:
    if isinstance(result, HandCheck):
        for v in result.violations:
            out.write(f"{checked.file}:{v.line}: hand {result.hand.hand_id}: {v.rule}: {v.message}\n")
    elif isinstance(result, Rejected):
        hand = f"hand {result.hand_id}: " if result.hand_id else ""
        out.write(f"{checked.file}:{result.line}: {hand}rejected: {result.reason}\n")


def _record(checked: FileCheck, result: CheckResult) -> dict[str, Any]:
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


def _file_error_record(checked: FileCheck, reason: str) -> dict[str, Any]:
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
    errors: int, ignored: list[str],
) -> None:  # fmt: skip
    parts = [f"{totals[k]} {k}" for k in ("files", *_KEYS)]
    if errors:
        parts.append(f"{errors} file error{'s' if errors != 1 else ''}")
    if ignored:
        parts.append(f"{len(ignored)} ignored")
    out.write("summary: " + ", ".join(parts) + "\n")
    columns = ("site", "files", "hands", "ok", "skipped", "rejected", "violations")
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
