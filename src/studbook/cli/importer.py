"""``studbook import PATH... --db FILE``: parse, check and store hands.

Every file is parsed and checked, and its new hands are stored in one
transaction; hands already in the store (same site and hand id) are counted
as duplicates and left alone. A file imported before with the same content
(SHA-256) is not read again unless ``--rescan``; one that grew is. A summary follows: new, duplicate, skipped,
rejected and with-violations counts, then each rejected hand with its line.

Exit status: 0 when the import ran, even if some hands were rejected or broke
rules (they are listed, and violations are stored for the integrity report);
1 with ``--strict`` when any hand was rejected or had violations, or when the
store could not be written; 2 for usage errors (a path that does not exist, a
``--db`` that is not a studbook store).
"""

from __future__ import annotations

import argparse
import sqlite3
import sys
from collections import Counter
from typing import Any

from tqdm import tqdm

from studbook.cli.common import UsageError, expand_paths
from studbook.events import Rejected, Skipped
from studbook.gcpause import gc_between_files
from studbook.scale import auto_jobs, check_files
from studbook.store import ImportSummary, Store, StoreError, file_sha256

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
                        help="parse and check files in N processes (0 = one per core; default: one per free "
                             "core for inputs of 64 MB or more when 4 or more are free, else 1)")
    parser.add_argument("-q", "--quiet", action="store_true",
                        help="no progress bar and no list of rejected hands")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.jobs is not None and args.jobs < 0:
        raise UsageError(f"--jobs must be 0 (all cores) or more, not {args.jobs}")
    files = expand_paths(args.paths)
    if args.jobs is None:
        args.jobs = auto_jobs(files)
    try:
        store = Store(args.db)
    except (StoreError, sqlite3.DatabaseError) as error:
        raise UsageError(str(error)) from None
    summary = ImportSummary()
    progress = tqdm(total=len(files), unit="file", file=sys.stderr, dynamic_ncols=True,
                    disable=args.quiet or not sys.stderr.isatty())
    try:
        todo, hashes = [], {}
        for path in files:
            hashes[str(path)] = digest = file_sha256(path)
            if not args.rescan and store.imported(path, digest):
                summary.unchanged_files += 1
                progress.update(1)
            else:
                todo.append(path)
        with gc_between_files() as next_file:
            for file_check in check_files([str(f) for f in todo], jobs=args.jobs, site=args.site):
                next_file()
                store.add(file_check.results, summary=summary)
                digest = hashes.get(file_check.file) or file_sha256(file_check.file)
                store.record_file(file_check.file, digest, len(file_check.results))
                progress.update(1)
                progress.set_postfix(new=summary.new, duplicate=summary.duplicate, refresh=False)
        total = store.counts()["hands"]
    except KeyboardInterrupt:
        progress.close()
        print(f"interrupted: the store keeps the {summary.new} new hands of the files "
              f"finished; import again to add the rest", file=sys.stderr)
        raise
    except sqlite3.Error as error:
        progress.close()
        print(f"studbook import: error: {args.db}: {error}", file=sys.stderr)
        return 1
    finally:
        progress.close()
        store.close()
    print(report(summary, args.db, len(files), total, show_problems=not args.quiet))
    if args.strict and (summary.rejected or summary.with_violations):
        return 1
    return 0


def report(summary: ImportSummary, db: str, files: int, total: int, *,
           show_problems: bool = True) -> str:
    """The end-of-import summary."""
    skipped_games = Counter(p.game for p in summary.problems if isinstance(p, Skipped))
    games = ", ".join(f"{game} {n}" for game, n in skipped_games.most_common(5))
    lines = [
        f"imported {files} file{'s' if files != 1 else ''} into {db}",
        f"  new hands        {summary.new:>8}",
        f"  duplicates       {summary.duplicate:>8}  (already in the store)",
        f"  skipped          {summary.skipped:>8}" + (f"  (not stud: {games})" if games else ""),
        f"  rejected         {summary.rejected:>8}",
        f"  with violations  {summary.with_violations:>8}  "
        f"({summary.violations} violation{'s' if summary.violations != 1 else ''})",
        f"the store holds {total} hands",
    ]
    if summary.unchanged_files:
        lines.insert(1, f"  unchanged files  {summary.unchanged_files:>8}  "
                        "(imported before with the same content: not read again; --rescan)")
    rejected = [p for p in summary.problems if isinstance(p, Rejected)]
    if show_problems and rejected:
        lines.append("rejected hands:")
        lines.extend(f"  {r.message()}" for r in rejected[:SHOW_REJECTED])
        if len(rejected) > SHOW_REJECTED:
            lines.append(f"  ... and {len(rejected) - SHOW_REJECTED} more "
                         "(all are in the store's rejects table)")
    return "\n".join(lines)
