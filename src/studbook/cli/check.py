"""``studbook check PATH... [--format text|jsonl] [--site NAME]``: validate hands against RULES.md.

``text`` prints one line per violation (``file:line: hand ID: RULE: message``)
and per rejected hand (``file:line: hand ID: rejected: reason``), then a
summary with a per-site table. ``jsonl`` prints exactly one JSON object per
hand, then one ``{"summary": {...}}`` line. Exit status: 0 when every hand is
ok or skipped, 1 when any hand has violations or was rejected (or a file is
not a hand history), 2 on usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import defaultdict
from typing import Any, Iterator, TextIO

from studbook.check import CheckResult, FileCheck, TableMemory, check_file_result, status_of
from studbook.cli.common import UsageError, expand_paths
from studbook.engine.result import HandCheck
from studbook.events import Rejected, Skipped
from studbook.parse import read_file
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
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.site is not None:
        names = list(site_names())
        if args.site.lower() not in names:
            raise UsageError(f"unknown site {args.site!r}; known: {', '.join(names)}")
        args.site = args.site.lower()
    files = expand_paths(args.paths)
    out = sys.stdout
    totals = {"files": 0, **{k: 0 for k in _KEYS}}
    sites: dict[str, dict[str, int]] = defaultdict(lambda: {"files": 0, **{k: 0 for k in _KEYS}})
    errors = 0
    memory = TableMemory()
    for checked in _progress(_checks(files, args.site, memory), len(files)):
        totals["files"] += 1
        site_row = sites[checked.site or "(unrecognised)"]
        site_row["files"] += 1
        if checked.error is not None:
            errors += 1
            print(f"{checked.file}:1: error: {checked.error}", file=out if args.format == "text" else sys.stderr)
        for result in checked.results:
            status = status_of(result)
            for row in (totals, site_row):
                row["hands"] += 1
                row[status] += 1
            if args.format == "jsonl":
                out.write(json.dumps(_record(checked, result)) + "\n")
            else:
                _write_text(out, checked, result)
    if args.format == "jsonl":
        out.write(json.dumps({"summary": {k: totals[k] for k in ("files", *_KEYS)}}) + "\n")
    else:
        _write_summary(out, totals, sites, errors)
    bad = totals["violations"] or totals["rejected"] or errors
    return 1 if bad else 0


def _checks(files: list[Any], site: str | None, memory: TableMemory) -> Iterator[FileCheck]:
    for path in files:
        parsed = read_file(path, site=site)
        yield check_file_result(parsed, memory) if parsed.error is None else FileCheck(parsed, [])


def _progress(items: Iterator[FileCheck], total: int) -> Iterator[FileCheck]:
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


def _write_summary(out: TextIO, totals: dict[str, int], sites: dict[str, dict[str, int]], errors: int) -> None:
    parts = [f"{totals[k]} {k}" for k in ("files", *_KEYS)]
    if errors:
        parts.append(f"{errors} unreadable file{'s' if errors != 1 else ''}")
    out.write("summary: " + ", ".join(parts) + "\n")
    columns = ("site", "files", "hands", "ok", "skipped", "rejected", "violations")
    rows = [[name, *(str(row[c]) for c in columns[1:])] for name, row in sorted(sites.items())]
    widths = [max(len(columns[i]), *(len(r[i]) for r in rows)) for i in range(len(columns))]
    out.write("  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(columns, widths))) + "\n")
    for r in rows:
        out.write("  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(r, widths))) + "\n")


__all__ = ["add_parser", "run"]
