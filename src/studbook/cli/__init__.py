"""The ``studbook`` command line.

Each subcommand lives in its own module of this package and exposes
``add_parser(subparsers)`` and ``run(args) -> int``. Exit codes follow Unix
conventions: 0 success, 1 when the input had problems (rejected hands,
violations), 2 for usage errors and unreadable paths.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from typing import Sequence

from studbook.cli.common import UsageError

SUBCOMMANDS = ("parse", "check", "simulate", "import", "stats", "plot")
_MODULES = {"import": "importer"}


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="studbook",
        description="Seven-Card Stud hand histories: parse, validate, analyse.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name in SUBCOMMANDS:
        module_name = _MODULES.get(name, name)
        try:
            module = importlib.import_module(f"studbook.cli.{module_name}")
        except ModuleNotFoundError as error:
            if error.name != f"studbook.cli.{module_name}":
                raise
            continue
        module.add_parser(subparsers)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        code: int = args.run(args)
    except UsageError as error:
        print(f"studbook {args.command}: error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("studbook: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return code


if __name__ == "__main__":
    sys.exit(main())
