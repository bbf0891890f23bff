"""``studbook import PATH... --db FILE``: parse, check and store hands.

Every file is parsed and checked, and its new hands are stored in one
transaction; hands already in the store (same site and hand id) are counted
as duplicates and left alone. A file imported before with the same content
(SHA-256) is not read again unless ``--rescan``; one that grew is. A summary follows: new, duplicate, skipped,
rejected and with-violations counts, then each rejected hand with its line, and each hand id repeated within
the files of this import (with the line of its first). With one job, files are read and stored hand by hand;
with ``--jobs N``, each worker process makes its files' rows and packs their original texts
(:func:`studbook.scale.prepare_files`), and this process only stores them, a file a transaction as with one.

A file found in a directory that is not a hand history (a README, an index,
another program's side files) is ignored, as ``studbook check`` ignores it: counted
and listed apart from rejected hands, never a row of the rejects table.
A file that cannot be read (no permission, gone since the directory was
walked) is listed with the reason and not marked imported, so the next import
reads it; the other files are imported. A full disk rolls back the file being
written and stops the import: the store keeps every file before it.

Exit status: 0 when the import ran, even if some hands were rejected or broke
rules (they are listed, and violations are stored for the integrity report);
1 with ``--strict`` when any hand was rejected or had violations, or when the
store could not be written (a full disk, a damaged store); 2 for usage errors
(a path that does not exist, a ``--db`` that is not a studbook store or may not
be written, found at opening or at the first write) and when a file could not be read.
"""

from __future__ import annotations

import argparse
import itertools
import os
import sqlite3
import sys
from pathlib import Path
from collections import Counter
from typing import TYPE_CHECKING, Any, Iterable, Iterator, Sequence, TextIO

from studbook.check import SeenHands, SourcedCheck, SourcedStream, is_file_rejection, streams_sourced
from studbook.cli.common import UsageError, expand_inputs, ignored_line, not_a_hand_history
from studbook.engine.result import HandCheck
from studbook.events import Hand, Rejected, Skipped
from studbook.jobs import AUTO_PREPARED_FREE_CORES, auto_jobs
from studbook.perfile import per_file
from studbook.printable import printable_path
from studbook.sites.base import CANCELLED_REASON, NO_PLAY_BETWEEN_HANDS
from studbook.store import (ImportSummary, PreparedRows, ReadOnlyStore, Store, StoreError, explain, file_sha256,
                            prepare_rows)
from studbook.words import counted

if TYPE_CHECKING:
    from tqdm import tqdm

    from studbook.scale import Prepared

SHOW_REJECTED = 50


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "import", help="parse, check and store hands in a database",
        description="Parse and check hand histories and add the new hands to a store "
                    "(an SQLite file) for stats, plots and notebooks.",
    )
    parser.add_argument("paths", nargs="+", metavar="PATH", help="files or directories")
    parser.add_argument("--db", required=True, metavar="FILE",
                        help="the store to create or add to, e.g. hands.db")
    parser.add_argument("--site", help="force the site format instead of detecting it")
    parser.add_argument("--rescan", action="store_true",
                        help="parse every file again, even those imported unchanged before "
                             "(after a studbook upgrade that reads more hands)")
    parser.add_argument("--strict", action="store_true",
                        help="exit 1 when any hand is rejected or breaks a rule")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="parse, check and make the rows of files in N processes (0 = one per core; "
                             "default: one per free core for inputs of 64 MB or more when "
                             f"{AUTO_PREPARED_FREE_CORES} or more are free, else 1)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar and no list of rejected hands")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 0:
        raise UsageError(f"--jobs must be 0 (all cores) or more, not {args.jobs}")
    inputs = expand_inputs(args.paths)
    # the store keeps each file by its absolute path: a hand read from a relative path
    # is found again from any folder (and its original text is kept: show needs no file)
    files = [Path(os.path.abspath(f.path)) for f in inputs]
    walked = {str(path) for path, f in zip(files, inputs) if not f.explicit}  # a file named itself is read as a hand history
    if args.jobs is None:
        args.jobs = auto_jobs(files)
    try:
        store = Store(args.db)
    except StoreError as error:
        raise UsageError(str(error)) from None
    summary = ImportSummary()
    seen, repeated = SeenHands(), list[str]()  # hand ids met twice in this run's files
    unreadable: list[str] = []
    ignored: list[str] = []
    progress = _progress(len(files), shown=not args.quiet and sys.stderr.isatty())

    def cannot_read(path: object, reason: str) -> None:
        unreadable.append(f"{printable_path(str(path))}: {reason}")
        progress.write(f"studbook import: cannot read {unreadable[-1]}", file=sys.stderr)

    try:
        todo, hashes = [], {}
        for path in files:
            try:
                hashes[str(path)] = digest = file_sha256(path)
            except OSError as error:
                cannot_read(path, error.strerror or str(error))
                progress.update(1)
                continue
            if not args.rescan and store.imported(path, digest):
                summary.unchanged_files += 1
                progress.update(1)
            else:
                todo.append(path)
        with per_file(_checks([str(f) for f in todo], args.jobs, args.site)) as each_file:
            for file_check in each_file:
                progress.update(1)
                if file_check.parsed.unreadable:  # since it was hashed: not marked imported
                    cannot_read(file_check.parsed.file, _reason(file_check.parsed.error))
                    continue
                record = (file_check.parsed.file, hashes[file_check.parsed.file])
                try:
                    if file_check.parsed.file in walked and _ignorable(file_check, ignored):
                        store.add([], summary=summary, record=record)  # marked imported: not read again
                        continue
                    _store(store, file_check, seen, repeated, summary, record)
                except sqlite3.Error as error:
                    raise explain(args.db, error, writing=file_check.parsed.file) from None
                for warning in file_check.parsed.warnings:  # what the decoder repaired or dropped
                    progress.write(f"studbook import: {printable_path(file_check.parsed.file)}: warning: {warning}",
                                   file=sys.stderr)
                progress.set_postfix(new=summary.new, duplicate=summary.duplicate, refresh=False)
        total = store.counts(["hands"])["hands"]
    except KeyboardInterrupt:
        progress.close()
        print(f"interrupted: the store keeps the {summary.new} new hands of the files "
              f"finished; import again to add the rest", file=sys.stderr)
        raise
    except StoreError as error:
        progress.close()
        print(f"studbook import: error: {error}", file=sys.stderr)
        return 2 if isinstance(error, ReadOnlyStore) else 1  # a store that may not be written: as at opening
    finally:
        progress.close()
        store.close()
    print(report(summary, args.db, len(files) - len(unreadable) - len(ignored), total,
                 show_problems=not args.quiet, unreadable=unreadable, repeated=repeated, ignored=ignored))
    if unreadable:
        return 2
    if args.strict and (summary.rejected or summary.with_violations):
        return 1
    return 0


class _NoBar:
    """The progress bar's part when none is shown (``--quiet``, or standard error not a
    terminal): nothing drawn, its messages written as tqdm writes them. tqdm itself is
    then not imported: importing it looks its version up in the installed packages'
    metadata, some 0.1 G instructions, most of what a one-hand import's start-up paid
    more than a check's."""

    def update(self, n: int = 1) -> None:
        pass

    def set_postfix(self, **values: object) -> None:
        pass

    def close(self) -> None:
        pass

    @staticmethod
    def write(text: str, file: TextIO) -> None:
        print(text, file=file)


def _progress(total: int, *, shown: bool) -> tqdm | _NoBar:
    """The files' progress bar on standard error, or its quiet stand-in."""
    if not shown:
        return _NoBar()
    from tqdm import tqdm  # here: only a bar that is drawn needs it

    return tqdm(total=total, unit="file", file=sys.stderr, dynamic_ncols=True)


def _checks(files: list[str], jobs: int, site: str | None) -> Iterator[SourcedStream | Prepared[PreparedRows]]:
    """The files checked: hand by hand in this process with one job (one hand in memory,
    its original text beside it, one memory of bring-ins as :func:`studbook.scale.prepare_files`
    keeps), else in ``jobs`` processes, each of which makes the store's rows of its files
    (:func:`studbook.store.prepare_rows`)."""
    if jobs == 1:
        return streams_sourced(files, site)
    from studbook.scale import prepare_files  # the pool (pickle, multiprocessing): not imported with one job

    return prepare_files(files, prepare_rows, jobs=jobs, site=site)


def _ignorable(checked: SourcedStream | Prepared[PreparedRows], ignored: list[str]) -> bool:
    """Whether a file is not a hand history (its line added to ``ignored``). A stream is
    looked at its first result: a file that is not a hand history gives none (a
    tournament summary) or one, the file's rejection, after its report is final; else
    the result is put back."""
    if isinstance(checked, SourcedStream):
        first = next(checked.results, None)
        if first is not None and not is_file_rejection(checked.parsed, first[0]):
            checked.results = itertools.chain([first], checked.results)
            return False
        # the stream is at its end (no result, or the file's rejection): its report is final
        checked.results = iter([] if first is None else [first])
    reason = not_a_hand_history(checked.parsed)
    if reason is None:
        return False
    ignored.append(ignored_line(checked.parsed.file, reason))
    return True


def _store(store: Store, checked: SourcedStream | Prepared[PreparedRows], seen: SeenHands, repeated: list[str],
           summary: ImportSummary, record: tuple[str, str]) -> None:
    """One file's new hands stored (one transaction), the hand ids met earlier in
    the run noted in ``repeated`` (the store counts them as duplicates and keeps the first)."""
    if isinstance(checked, SourcedStream):
        store.add(_noting_repeats(checked.results, seen, repeated), summary=summary, record=record)
    else:
        for hand in checked.hands:
            if hand is not None:
                _note_repeat(hand, seen, repeated)
        store.add_prepared(checked.made, rechecked=checked.rechecked, summary=summary, record=record)


def _noting_repeats(results: Iterable[SourcedCheck], seen: SeenHands, repeated: list[str]) -> Iterator[SourcedCheck]:
    """A file's results as they go to the store, each hand id met earlier noted."""
    for item in results:
        if isinstance(item[0], HandCheck):
            _note_repeat(item[0].hand, seen, repeated)
        yield item


def _note_repeat(hand: Hand, seen: SeenHands, repeated: list[str]) -> None:
    earlier = seen.earlier(hand)
    if earlier is not None:
        repeated.append(f"{hand.file}:{hand.line}: hand {hand.hand_id}: "
                        f"the same hand id as at {earlier[0]}:{earlier[1]}")  # fmt: skip


def _reason(error: str | None) -> str:
    """Why a file could not be read, without read_file's 'cannot read: ' prefix."""
    text = error or "cannot read"
    return text.removeprefix("cannot read: ")


def _skipped_note(skips: Sequence[Skipped]) -> str:
    """What the skipped hands were: the cancelled ones and the blocks of no play between
    hands counted, then the games not replayed."""
    apart = (CANCELLED_REASON, NO_PLAY_BETWEEN_HANDS)
    counts = Counter(skip.reason for skip in skips if skip.reason in apart)
    games = Counter(skip.game for skip in skips if skip.reason not in apart)
    parts = [f"{reason} {counts[reason]}" for reason in apart if counts[reason]]
    if games:
        parts.append("not stud: " + ", ".join(f"{game} {n}" for game, n in games.most_common(5)))
    return "; ".join(parts)


def report(summary: ImportSummary, db: str, files: int, total: int, *,
           show_problems: bool = True, unreadable: list[str] | None = None,
           repeated: Sequence[str] = (), ignored: Sequence[str] = ()) -> str:
    """The end-of-import summary; ``unreadable`` lists the files not read, with why,
    ``repeated`` the hand ids met twice in this import's files, and ``ignored`` the
    files that are not hand histories (as ``studbook check`` lists them)."""
    games = _skipped_note([p for p in summary.problems if isinstance(p, Skipped)])
    lines = [
        f"imported {counted(files, 'file')} into {printable_path(db)}",
        f"  new hands        {summary.new:>8}",
        f"  duplicates       {summary.duplicate:>8}  (already in the store"
        + (f", or repeated in these files: {len(repeated)}, listed below)" if repeated else ")"),
        f"  skipped          {summary.skipped:>8}" + (f"  ({games})" if games else ""),
        f"  rejected         {summary.rejected:>8}",
        f"  with violations  {summary.with_violations:>8}  "
        f"({counted(summary.violations, 'violation')})",
        f"the store holds {total} hands",
    ]
    if summary.unchanged_files:
        lines.insert(1, f"  unchanged files  {summary.unchanged_files:>8}  "
                        "(imported before with the same content: not read again; --rescan)")
    if ignored:
        lines.insert(1, f"  ignored files    {len(ignored):>8}  (not hand histories, listed below)")
    if unreadable:
        lines.insert(1, f"  unreadable files {len(unreadable):>8}  "
                        "(not imported; the next import reads them)")
        lines.append("files not read:")
        lines.extend(f"  {line}" for line in unreadable)
    rejected = [p for p in summary.problems if isinstance(p, Rejected)]
    if show_problems and rejected:
        lines.append("rejected hands:")
        lines.extend(f"  {printable_path(r.message())}" for r in rejected[:SHOW_REJECTED])
        if len(rejected) > SHOW_REJECTED:
            lines.append(f"  ... and {len(rejected) - SHOW_REJECTED} more "
                         "(all are in the store's rejects table)")
    if show_problems and ignored:
        lines.append(f"ignored ({len(ignored)} file{'s' if len(ignored) != 1 else ''}):")
        lines.extend(f"  {printable_path(line)}" for line in ignored[:SHOW_REJECTED])
        if len(ignored) > SHOW_REJECTED:
            lines.append(f"  ... and {len(ignored) - SHOW_REJECTED} more")
    if show_problems and repeated:
        lines.append("hand ids repeated in these files (the first was kept):")
        lines.extend(f"  {line}" for line in repeated[:SHOW_REJECTED])
        if len(repeated) > SHOW_REJECTED:
            lines.append(f"  ... and {len(repeated) - SHOW_REJECTED} more")
    return "\n".join(lines)
