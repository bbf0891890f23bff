"""``studbook simulate``: random legal stud hands written as PokerStars text.

    studbook simulate --variant razz --hands 500 --players 6 --seed 7 -o razz.txt

The same arguments always give byte-identical output. ``--cash`` (the default)
plays one table with rake and rebuys; ``--tournament`` plays one-table
tournaments with rising levels, one after another until ``--hands``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any, Iterable, TextIO

from studbook.cli.common import UsageError
from studbook.events import Hand
from studbook.simulate import CASH_STAKES, simulate_hands


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "simulate", help="write random legal stud hands as PokerStars text",
        description="Play random legal hands through the rules engine and write them as a PokerStars log.",
    )
    parser.add_argument("--variant", choices=("stud", "stud8", "razz"), default="stud", help="game (default stud)")
    parser.add_argument("--hands", type=int, default=100, metavar="N", help="number of hands (default 100)")
    parser.add_argument("--players", type=int, default=6, metavar="2-8", help="players at the table (default 6)")
    parser.add_argument("--seed", type=int, default=0, metavar="S", help="random seed (default 0)")
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--cash", dest="tournament", action="store_false", help="a cash table (default)")
    mode.add_argument("--tournament", dest="tournament", action="store_true", help="one-table tournaments")
    parser.add_argument("--stakes", choices=tuple(CASH_STAKES), default="2",
                        help="cash stakes by small bet (default 2: $2/$4)")
    parser.add_argument("--hero", metavar="NAME", help="the player whose hole cards the log shows")
    parser.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of standard output")
    parser.set_defaults(run=run, tournament=False)


def run(args: argparse.Namespace) -> int:
    if not 2 <= args.players <= 8:
        raise UsageError(f"--players must be 2 to 8, not {args.players}")
    if args.hands < 0:
        raise UsageError(f"--hands must be 0 or more, not {args.hands}")
    hands = simulate_hands(args.variant, args.hands, args.players, args.seed, args.tournament,
                           stakes=args.stakes, hero=args.hero)
    if args.output:
        try:
            with Path(args.output).open("w", encoding="utf-8", newline="") as out:
                _write(hands, out)
        except OSError as error:
            raise UsageError(f"{args.output}: {error.strerror}") from None
    else:
        _write(hands, sys.stdout)
    return 0


def _write(hands: Iterable[Hand], out: TextIO) -> None:
    """The text of :func:`studbook.simulate.write_hands`, written a hand at a time
    as each is played (a run of any length holds one hand, not the whole file)."""
    from studbook.write.pokerstars import write_hand  # the writer stage comes after the simulator

    written = False
    for hand in hands:
        out.write("\n\n" + write_hand(hand) if written else write_hand(hand))
        written = True
    if written:
        out.write("\n")
