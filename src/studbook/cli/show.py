"""``studbook show PATH... --hand ID`` (or ``--db FILE --hand ID``): one hand, readably.

A block per street with each live player's board (down cards as ``[?? ??]``
unless the viewer may know them: the hero's, and others' once shown), the
actions with the pot after each, the showdown with each hand's high and low
value and the five cards it uses, who took what from which pot, and the
violations where they happen. ``--reveal`` shows every card the log knows;
``--as pokerstars`` prints the hand as PokerStars text instead.
Exit status: 0, 1 when a hand asked for was not found, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from studbook.cli.selection import add_selection, report, select_hands


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "show", help="print a hand readably, street by street",
        description="Print hands street by street: boards, actions, pots, showdown, violations.",
    )
    add_selection(parser)
    parser.add_argument("--as", dest="as_format", choices=("text", "pokerstars"), default="text",
                        help="text: street by street (default); pokerstars: PokerStars hand-history text")
    parser.add_argument("--reveal", action="store_true", help="show every card the log knows, from the deal on")
    parser.add_argument("--big-bets", action="store_true", help="amounts in big bets")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    selection = select_hands(args)
    out = sys.stdout
    for i, hand in enumerate(selection.hands):
        if i:
            out.write("\n")
        if args.as_format == "pokerstars":
            from studbook.write.pokerstars import write_hand

            out.write(write_hand(hand))
            continue
        from studbook.view import replay
        from studbook.view.text import show_lines

        shown = replay(hand, reveal=args.reveal, hero=args.hero, memory=selection.memory_for(hand))
        out.write("\n".join(show_lines(shown, args.big_bets)) + "\n")
    out.flush()
    return report(selection)


__all__ = ["add_parser", "run"]
