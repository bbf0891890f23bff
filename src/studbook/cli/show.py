"""``studbook show PATH... --hand ID`` (or ``--db FILE --hand ID``): one hand, readably.

A block per street with each live player's board (down cards as ``[?? ??]``
unless the viewer may know them: the hero's, and others' once shown), the
actions with the pot after each, the showdown with each hand's high and low
value and the five cards it uses, who took what from which pot, and the
violations where they happen. ``--reveal`` shows every card the log knows;
``--as pokerstars`` prints the hand as PokerStars text instead, a hand of any
site in PokerStars' own shape, read back by studbook's PokerStars reader before
it is printed; a hand that cannot be written so is refused with the reason.
Exit status: 0, 1 when a hand asked for was not found or was refused, 2 for
usage errors.
"""

from __future__ import annotations

import argparse
import sys
from typing import Any

from studbook.cli.common import stderr
from studbook.cli.selection import add_selection, report, select_hands
from studbook.events import Hand


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
    refused = False
    for i, hand in enumerate(selection.hands):
        if i:
            out.write("\n")
        if args.as_format == "pokerstars":
            text, reason = pokerstars_text(hand)
            if reason:
                stderr(f"{hand.file}:{hand.line}: hand {hand.hand_id}: cannot write as PokerStars text: {reason}")
                refused = True
            out.write(text)
            continue
        from studbook.view import replay
        from studbook.view.text import show_lines

        shown = replay(hand, reveal=args.reveal, hero=args.hero, memory=selection.memory_for(hand))
        out.write("\n".join(show_lines(shown, args.big_bets)) + "\n")
    out.flush()
    return max(report(selection), int(refused))


def pokerstars_text(hand: Hand) -> tuple[str, str]:
    """The hand as PokerStars text and "", or "" and why it cannot be (the text is read
    back first: what the PokerStars reader would not take is not printed)."""
    from studbook.parse import parse_text
    from studbook.write.pokerstars import NotWritable, write_hand

    try:
        text = write_hand(hand)
    except NotWritable as error:
        return "", str(error)
    back = list(parse_text(text, file="written", site="pokerstars"))
    if len(back) == 1 and isinstance(back[0], Hand):
        return text, ""
    return "", "; ".join(getattr(r, "reason", "not read back") for r in back) or "nothing read back"


__all__ = ["add_parser", "pokerstars_text", "run"]
