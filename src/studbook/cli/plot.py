"""``studbook plot KIND [--db FILE | PATH...] [--player NAME] -o FILE``.

Kinds: results (cumulative net won, with showdown and non-showdown lines),
players (stats side by side), starting-hands, violations, sessions (big bets
per sitting). Every filter applies; the one-player charts are drawn for
``--player``, else for the hero (the player the logs deal down cards to). The output format
follows the file's extension (png, svg, pdf). Exit status: 0, or 2 for usage
errors.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from studbook.cli.common import UsageError
from studbook.cli.source import add_source_arguments, load_source, players_or_hero
from studbook.plots import KINDS, plot, save

FORMATS = (".png", ".svg", ".pdf")
ONE_PLAYER = ("results", "starting-hands", "sessions", "tournaments")  # drawn for --player, else the hero


def add_parser(subparsers: Any) -> None:
    kinds = "; ".join(f"{name}: {text}" for name, text in KINDS.items())
    parser = subparsers.add_parser(
        "plot", help="charts: results, players, starting hands, violations",
        description=f"Draw a chart to a file. Kinds: {kinds}.",
    )
    parser.add_argument("kind", choices=tuple(KINDS), metavar="KIND",
                        help=", ".join(KINDS))
    add_source_arguments(parser)
    parser.add_argument("--min-hands", type=int, default=0, metavar="N",
                        help="players chart: grey out players with fewer than N hands")
    parser.add_argument("-o", "--output", required=True, metavar="FILE",
                        help="the image to write (.png, .svg or .pdf)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    output = Path(args.output)
    if output.suffix.lower() not in FORMATS:
        raise UsageError(f"{output}: the file name must end in {', '.join(FORMATS)}")
    if not output.parent.is_dir():
        raise UsageError(f"{output.parent}: no such directory")
    frames, filters = load_source(args)
    players = players_or_hero(frames, filters) if args.kind in ONE_PLAYER else filters.players
    save(plot(args.kind, frames, players or None, min_hands=args.min_hands), output)
    print(f"wrote {output}")
    return 0
