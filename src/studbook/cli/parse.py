"""``studbook parse PATH... [--format text|jsonl|summary] [--site NAME]``.

Prints the events of every hand (as text, or one JSON object per event),
with a per-file summary on stderr; ``--format summary`` prints only the
per-file summaries, on stdout. A file found by walking a directory that is
not a hand history (an FPDB side file, a tournament summary, an empty file)
is listed once as ignored; one named on the command line is an error
(``file:1: error: reason``). Exit status: 0 when nothing was rejected, 1 when
a hand or a file was rejected, 2 for usage errors and unreadable paths.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys
from typing import Any, Callable, TextIO

from studbook.cli.common import expand_inputs, ignored_line, not_a_hand_history
from studbook.events import Event, Hand, money_fields
from studbook.perfile import per_file, within_file
from studbook.parse import FileResult, stream_file, tally
from studbook.sites import site_names
from studbook.write.jsonl import plain  # (one JSON form of a value: the jsonl writer's)
from studbook.words import counted

PROGRESS_MIN_FILES = 10


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "parse",
        help="parse hand histories into typed events",
        description="Parse hand-history files (or directories, recursively) into typed events.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    parser.add_argument(
        "--format", choices=("text", "jsonl", "summary"), default="text",
        help="text: readable events; jsonl: one JSON object per event; "
             "summary: only the per-file summaries (default: text)",
    )  # fmt: skip
    parser.add_argument("--site", choices=site_names(), help="force a site format instead of detecting it")
    parser.set_defaults(run=run)
    return parser


def run(args: argparse.Namespace) -> int:
    files = expand_inputs(args.paths)
    out: TextIO = sys.stdout
    report_to: TextIO = out if args.format == "summary" else sys.stderr
    emit: Callable[[Hand, TextIO], None] | None = {
        "text": write_text, "jsonl": write_jsonl, "summary": None,
    }[args.format]  # fmt: skip
    totals = {"files": 0, "parsed": 0, "skipped": 0, "rejected": 0, "errors": 0}
    unreadable = False
    ignored: list[str] = []
    progress = _progress(len(files))
    say = progress.write if progress is not None else None
    try:
        with per_file(files) as each_file:
            for file in each_file:
                result, results = stream_file(file.path, site=args.site)
                for hand in within_file(tally(result, results)):  # one hand at a time
                    if emit is not None:
                        emit(hand, out)
                reason = not_a_hand_history(result)
                if progress is not None:
                    progress.update(1)
                if reason is not None and not file.explicit:
                    ignored.append(ignored_line(result.file, reason))
                    continue
                lines = result.details() if reason is None else [f"{result.file}:1: error: {result.error or reason}"]
                for line in lines:
                    if say is not None:
                        say(line, file=report_to)
                    else:
                        print(line, file=report_to)
                _count(result, totals, reason is not None)
                unreadable |= result.unreadable
    finally:
        if progress is not None:
            progress.close()
    for line in ignored:
        print(line, file=report_to)
    if len(files) > 1:
        print(
            f"total: {counted(totals['files'], 'file')}, {totals['parsed']} parsed, {totals['skipped']} skipped, "
            f"{totals['rejected']} rejected, {counted(totals['errors'], 'file error')}"
            + (f", {len(ignored)} ignored" if ignored else ""),
            file=report_to,
        )
    out.flush()
    if unreadable:
        return 2
    return 1 if totals["rejected"] or totals["errors"] else 0


def _count(result: FileResult, totals: dict[str, int], error: bool) -> None:
    totals["files"] += 1
    for key, value in result.counts().items():
        totals[key] += value
    totals["errors"] += error or result.error is not None


def _progress(count: int) -> Any:
    """A tqdm bar on stderr for many files, only when stderr is a terminal."""
    if count < PROGRESS_MIN_FILES or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=count, unit="file", file=sys.stderr, leave=False)


# ---------------------------------------------------------------------------
# Output formats


def event_record(hand: Hand, event: Event) -> dict[str, Any]:
    """One JSON object: hand id, file, line, event type, then the fields."""
    record: dict[str, Any] = {"hand_id": hand.hand_id, "file": event.file, "line": event.line,
                              "event": type(event).__name__}  # fmt: skip
    amounts = money_fields(type(event))
    for field in dataclasses.fields(event):
        if field.name not in ("file", "line"):
            record[field.name] = plain(getattr(event, field.name), field.name in amounts)
    return record


def write_jsonl(hand: Hand, out: TextIO) -> None:
    header = {"hand_id": hand.hand_id, "file": hand.file, "line": hand.line,
              "event": "HandHeader", **plain(hand.header)}  # fmt: skip
    out.write(json.dumps(header, ensure_ascii=False) + "\n")
    for event in (*hand.seats, *hand.events):
        out.write(json.dumps(event_record(hand, event), ensure_ascii=False) + "\n")


def write_text(hand: Hand, out: TextIO) -> None:
    h = hand.header
    stakes = f"{h.stakes.small_bet}/{h.stakes.big_bet}" + (f" {h.currency}" if h.currency else "")
    out.write(f"# {hand.file}:{hand.line}: hand {hand.hand_id}: {h.game}, {stakes}, table {h.table!r}\n")
    for event in (*hand.seats, *hand.events):
        fields = event_record(hand, event)
        shown = " ".join(
            f"{key}={_text(value)}" for key, value in fields.items()
            if key not in ("hand_id", "file", "line", "event") and value not in (None, False, [], "")
        )  # fmt: skip
        out.write(f"{event.line:6}  {fields['event']:<16} {shown}\n")
    out.write("\n")


def _text(value: Any) -> str:
    if isinstance(value, list):
        return "[" + " ".join(str(item) for item in value) + "]"
    if isinstance(value, str) and (" " in value or not value):
        return repr(value)
    return str(value)


__all__ = ["add_parser", "run", "event_record", "plain"]
