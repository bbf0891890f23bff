"""The ``studbook`` command line.

Each subcommand lives in its own module of this package and exposes
``add_parser(subparsers)`` and ``run(args) -> int``. Exit codes follow Unix
conventions: 0 success, 1 when the input had problems (rejected hands,
violations), 2 for usage errors and unreadable paths.
"""

from __future__ import annotations

import argparse
import importlib
import io
import sqlite3
import sys
from typing import Sequence

from studbook import __version__
from studbook.cli.common import UsageError
from studbook.printable import ERRORS, TerminalSafe, printable_path

SUBCOMMANDS = {
    "parse": "parse hand histories into typed events",
    "check": "validate stud hands against the rule book",
    "simulate": "write random legal stud hands as PokerStars text",
    "import": "parse, check and store hands in a database",
    "stats": "player statistics made for stud",
    "plot": "charts: results, players, starting hands, violations",
    "export": "write hands as PHH, original text, Parquet, CSV or JSON lines",
    "show": "print a hand readably, street by street",
    "replay": "step through hands: terminal, plain frames, or a web page",
    "unknown": "count the line shapes no site format reads",
    "hands": "find hands: by result, showdown, starting hand, rule broken",
    "sessions": "sittings and days: start, duration, tables, hands, net, bb/hour",
    "watch": "import hands while playing: poll folders, store each whole hand",
    "tournaments": "tournaments: buy-in, hands, chips at start and end",
    "integrity": "collusion scores of pairs (soft play, chip dumping), violations in context",
}
_MODULES = {"import": "importer"}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only ``command``'s module is imported (all of them when None).

    Importing a subcommand can mean importing pandas and matplotlib, so
    ``studbook check`` does not pay for ``studbook plot``.
    """
    parser = argparse.ArgumentParser(
        prog="studbook",
        description="Seven-Card Stud hand histories: parse, validate, analyse.",
    )
    parser.add_argument("--version", action="version", version=f"studbook {__version__}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, summary in SUBCOMMANDS.items():
        if command is not None and name != command:
            subparsers.add_parser(name, help=summary)
            continue
        module = importlib.import_module(f"studbook.cli.{_MODULES.get(name, name)}")
        module.add_parser(subparsers)
    return parser


def _command_of(argv: Sequence[str]) -> str:
    first = next((arg for arg in argv if not arg.startswith("-")), None)
    return first if first in SUBCOMMANDS else ""


def main(argv: Sequence[str] | None = None) -> int:
    arguments = list(sys.argv[1:] if argv is None else argv)
    parser = build_parser(_command_of(arguments))
    args = parser.parse_args(arguments)
    _escape_file_names()
    streams = sys.stdout, sys.stderr
    try:
        _terminal_safe(args)
        code: int = args.run(args)
    except UsageError as error:
        print(f"studbook {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("studbook: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except (OSError, sqlite3.Error) as error:
        # The safety net: each command reports the faults it expects itself.
        print(f"studbook {args.command}: error: {_fault(args, error)}", file=sys.stderr)
        return 2
    except Exception as error:
        store = sys.modules.get("studbook.store")  # loaded by the commands that use a store
        if store is None or not isinstance(error, store.StoreError):
            raise
        print(f"studbook {args.command}: error: {error}", file=sys.stderr)
        return 2
    finally:
        sys.stdout, sys.stderr = streams
    return code


RAW_OUTPUT = frozenset({"export", "simulate"})
"""Commands whose standard output is data (hand histories, PHH, CSV, JSON): written as it is."""


def _terminal_safe(args: argparse.Namespace) -> None:
    """Messages (standard error) and text output through :func:`~studbook.printable.terminal_safe`;
    data formats (CSV, JSON, JSON lines, exports) as they are when they go to a file or a pipe
    (JSON escapes control characters itself, CSV cells are made spreadsheet-safe)."""
    sys.stderr = TerminalSafe(sys.stderr)
    text = args.command not in RAW_OUTPUT and getattr(args, "format", "text") == "text"
    sys.stdout = TerminalSafe(sys.stdout, escape=text or sys.stdout.isatty())


def _escape_file_names() -> None:
    """Print file names holding bytes that are not UTF-8 as ``\\xff`` escapes,
    as the store keeps them (:mod:`studbook.printable`), not as a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if isinstance(stream, io.TextIOWrapper):
            try:
                stream.reconfigure(errors=ERRORS)
            except (ValueError, OSError):  # pragma: no cover - a closed or odd stream
                pass


def _fault(args: argparse.Namespace, error: OSError | sqlite3.Error) -> str:
    """An operating-system or store error as one line naming its path."""
    if isinstance(error, sqlite3.Error):
        from studbook.store import explain  # imported here: it brings pandas

        return str(explain(getattr(args, "db", None) or "the store", error))
    name = error.filename
    reason = error.strerror or str(error)
    return f"{printable_path(str(name))}: {reason}" if name is not None else reason


if __name__ == "__main__":
    sys.exit(main())
