"""``studbook replay PATH... [--hand ID]``: step through hands.

* interactive (a terminal; with ``--hand`` the other hands of its file are a ``n``/``p`` away):
  right/left one step, down/up one street (its deal, the showdown, the result), Home/End,
  space play/pause, ``+``/``-`` speed, ``n``/``p`` next/previous hand, ``r``
  reveal the cards the log knows, ``b`` big bets, ``q`` quit (standard ``curses``);
* ``--plain``: one frame per step on stdout, for pipes and tests (the steps: ``studbook.view.steps``);
* ``--html OUT.html``: one self-contained web page with every selected hand.

Exit status: 0, 1 when a hand asked for was not found, 2 for usage errors.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from studbook.cli.common import UsageError, stderr
from studbook.cli.selection import Selection, add_selection, read_as, report, select_from, select_hands
from studbook.words import counted


def add_parser(subparsers: Any) -> None:
    parser: argparse.ArgumentParser = subparsers.add_parser(
        "replay", help="step through hands: terminal, plain frames, or a web page",
        description="Step through hands event by event: interactively in the terminal, as plain "
                    "frames (--plain), or as one self-contained web page (--html OUT.html).",
    )
    add_selection(parser)
    mode = parser.add_mutually_exclusive_group()
    mode.add_argument("--plain", action="store_true", help="print one frame per step (for pipes)")
    mode.add_argument("--html", metavar="OUT.html", help="write a self-contained HTML replayer")
    parser.add_argument("--reveal", action="store_true", help="show every card the log knows, from the deal on")
    parser.add_argument("--big-bets", action="store_true", help="amounts in big bets")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if not (args.plain or args.html) and not (sys.stdin.isatty() and sys.stdout.isatty()):
        raise UsageError("the interactive replayer needs a terminal; use --plain or --html OUT.html")
    selection = select_hands(args)
    if selection.hands:
        if args.html:
            _write_html(selection, Path(args.html), args.reveal, args.hero)
        elif args.plain:
            _plain(selection, args.reveal, args.big_bets, args.hero)
        else:
            import curses

            from studbook.view.terminal import Replayer

            around, start = _with_neighbours(selection, args)
            curses.wrapper(Replayer(around.hands, start=start, memories=around.memories, reveal=args.reveal,
                                    big_bets=args.big_bets, hero=args.hero).run)
    return report(selection)


def _with_neighbours(chosen: Selection, args: argparse.Namespace) -> tuple[Selection, int]:
    """With ``--hand``: every hand of the files holding the chosen ones (so ``n``/``p``
    reach the hands before and after), and where the first chosen one is."""
    if not args.hand:
        return chosen, 0
    around = select_from([Path(f) for f in dict.fromkeys(h.file for h in chosen.hands)], site=read_as(args))
    if not around.hands:  # a stored hand whose file is gone: the chosen hands alone
        return chosen, 0
    first = chosen.hands[0]
    start = next((i for i, h in enumerate(around.hands) if h.file == first.file and h.line == first.line), 0)
    return around, start


def _plain(selection: Selection, reveal: bool, big_bets: bool, hero: str | None) -> None:
    from studbook.view import replay
    from studbook.view.text import header, plain_frames

    out = sys.stdout
    for i, hand in enumerate(selection.hands):
        if i:
            out.write("\n")
        out.write(f"=== {header(hand)}\n")
        for text in plain_frames(replay(hand, reveal=reveal, hero=hero, memory=selection.memory_for(hand)), big_bets):
            out.write(text + "\n")
    out.flush()


def _write_html(selection: Selection, path: Path, reveal: bool, hero: str | None) -> None:
    from studbook.view import replay
    from studbook.view.html import page

    hands = selection.hands
    text = page([replay(hand, reveal=reveal, hero=hero, memory=selection.memory_for(hand)) for hand in hands],
                title=f"studbook: {hands[0].hand_id}" + (f" and {len(hands) - 1} more" if len(hands) > 1 else ""))
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as error:
        raise UsageError(f"{path}: {error.strerror}") from None
    stderr(f"wrote {path}: {counted(len(hands), 'hand')}")


__all__ = ["add_parser", "run"]
