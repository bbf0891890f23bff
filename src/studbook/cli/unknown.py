"""``studbook unknown PATH...``: the line shapes of a folder of logs that no site format reads.

Four kinds of line are listed: ``note``, a line the site's format does not
read that carries no play (the hand goes on; see ``studbook check --notes``);
``reject``, an unknown line that rejected its hand (it names a seated
player, or carries an amount or cards); ``form``, a line of a kind the format
knows ("Dealt to ...") written in a form it does not, that rejected its hand;
and ``header``, a hand's header the format does not read (one naming a stud
game is an "unknown stud header"), which rejected its hand. Each line is abstracted into a shape,
the seated players' names as ``<player>`` (in notes: a rejected hand has no
seats read), amounts as ``<amount>``, cards as ``<card>`` and other numbers as
``<n>``, and the shapes are counted, most
frequent first, with one ``file:line`` example each: what to send with a bug
report, and where to look for a site's next format version.

Output: one ``count  kind  site  shape  example`` line a shape (tab
separated), then ``N shapes, M lines`` on stderr. Exit status: 0 when every
line of every hand reads, 1 when a hand was rejected at a line listed,
2 on usage errors.
"""

from __future__ import annotations

import argparse
import re
import sys
from dataclasses import dataclass
from typing import Any, Iterable

from studbook.cli.common import expand_inputs
from studbook.events import Hand, Note, Rejected
from studbook.parse import read_file
from studbook.sites import site_names
from studbook.sites.base import UNKNOWN_FORM, UNKNOWN_STUD_HEADER, UNRECOGNISED_HEADER
from studbook.words import counted

_CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9TJQKA])[cdhs](?![A-Za-z0-9])")
_AMOUNT = re.compile(r"[$€£]\s?[0-9][0-9,]*(?:\.[0-9]+)?|[0-9][0-9,]*\.[0-9]+")
_NUMBER = re.compile(r"[0-9]+")
_UNKNOWN = "unknown line"
_HEADERS = (UNKNOWN_STUD_HEADER, UNRECOGNISED_HEADER)


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "unknown", help="count the line shapes no site format reads",
        description="List the line shapes of hand-history files that no site format reads "
                    "(notes, and the lines that rejected a hand: unknown lines, known kinds in unknown forms, headers), "
                    "counted, with an example each.",
    )  # fmt: skip
    parser.add_argument("paths", nargs="+", metavar="PATH", help="hand-history files or directories")
    parser.add_argument("--site", choices=site_names(), help="force a site format instead of detecting it")
    parser.set_defaults(run=run)


def shape(text: str, names: Iterable[str] = ()) -> str:
    """``text`` with names, cards, amounts and numbers abstracted."""
    for name in sorted(names, key=len, reverse=True):
        if name:
            text = text.replace(name, "<player>")
    text = _CARD.sub("<card>", text)
    text = _AMOUNT.sub("<amount>", text)
    return _NUMBER.sub("<n>", text)


@dataclass(slots=True)
class _Shape:
    count: int
    example: str


def run(args: argparse.Namespace) -> int:
    files = expand_inputs(args.paths)
    shapes: dict[tuple[str, str, str], _Shape] = {}
    rejected = 0
    for file in files:
        parsed = read_file(file.path, site=args.site)
        site = parsed.site or "?"
        for result in parsed.results:
            if isinstance(result, Hand):
                names = [s.player for s in result.seats]
                for event in result.events:
                    if type(event) is Note:
                        _count(shapes, ("note", site, shape(event.text, names)), f"{event.file}:{event.line}")
            elif isinstance(result, Rejected) and (kind := _rejected_kind(result.reason)) is not None:
                rejected += 1
                _count(shapes, (kind, site, shape(result.text)), f"{result.file}:{result.line}")
    ordered = sorted(shapes.items(), key=lambda item: (-item[1].count, item[0]))
    out = sys.stdout
    for (kind, site, text), found in ordered:
        out.write(f"{found.count}\t{kind}\t{site}\t{text}\t{found.example}\n")
    lines = sum(found.count for found in shapes.values())
    print(f"{counted(len(shapes), 'shape')}, {counted(lines, 'line')}",
          file=sys.stderr)  # fmt: skip
    return 1 if rejected else 0


def _rejected_kind(reason: str) -> str | None:
    """The kind a rejection at a line no form of its site reads is listed as, or None
    (a hand cut short, a line out of its place, a line whose content makes no sense)."""
    if reason.startswith(_UNKNOWN):
        return "reject"
    if UNKNOWN_FORM in reason:
        return "form"
    if reason in _HEADERS:
        return "header"
    return None


def _count(shapes: dict[tuple[str, str, str], _Shape], key: tuple[str, str, str], where: str) -> None:
    found = shapes.get(key)
    if found is None:
        shapes[key] = _Shape(1, where)
    else:
        found.count += 1


__all__ = ["add_parser", "run", "shape"]
