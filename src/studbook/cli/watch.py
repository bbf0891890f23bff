"""``studbook watch DIR... --db FILE [--interval SECONDS] [--hero NAME] [--once]``.

Imports hands while they are played: polls the folders (and files) named
every ``--interval`` seconds (default 2) and stores each new hand once it is
whole (a hand still being written is left for the next poll), printing one
line per new hand: ``site id: hero +net money: ok`` or its violations, and
rejected or skipped hands with their file and line. Survives the site
rotating or truncating a log; stop it with Ctrl-C and start it again without
losing or doubling a hand (see :mod:`studbook.watch`). ``--once`` polls once
and exits. Exit status: 0, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path
from typing import Any

from studbook.check import CheckResult
from studbook.cli.common import UsageError
from studbook.store import Store, StoreError
from studbook.watch import Watcher, describe


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "watch", help="import hands while playing: poll folders, store each whole hand",
        description="Poll hand-history folders and import each new hand once it is whole.",
    )
    parser.add_argument("paths", nargs="+", metavar="DIR", help="folders (or files) the site writes to")
    parser.add_argument("--db", required=True, metavar="FILE", help="the store (created if missing)")
    parser.add_argument("--interval", type=float, default=2.0, metavar="SECONDS",
                        help="seconds between polls (default 2)")
    parser.add_argument("--hero", metavar="NAME",
                        help="whose result each line shows (default: the player dealt down cards)")
    parser.add_argument("--once", action="store_true", help="poll once and exit")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.interval <= 0:
        raise UsageError(f"--interval must be more than 0 seconds, not {args.interval:g}")
    paths = [Path(p) for p in args.paths]
    missing = [str(p) for p in paths if not p.exists()]
    if missing:
        raise UsageError(f"{', '.join(missing)}: no such file or directory")
    try:
        store = Store(args.db)
    except StoreError as error:
        raise UsageError(str(error)) from None

    def show(result: CheckResult) -> None:
        print(describe(result, args.hero), flush=True)

    watcher = Watcher(store, paths, on_result=show)
    try:
        watcher.poll()
        while not args.once:
            time.sleep(args.interval)
            watcher.poll()
    except KeyboardInterrupt:
        pass
    finally:
        store.close()
    print(f"watch: {watcher.stored} new hands stored in {args.db}", file=sys.stderr)
    return 0


__all__ = ["add_parser", "run"]
