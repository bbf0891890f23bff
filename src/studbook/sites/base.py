"""What every site format provides: detection, splitting and per-hand parsing.

A site module exposes one :class:`SiteFormat` instance. ``studbook.read``
decodes a file, picks the format whose ``detect`` accepts the text (or the
one the user forced with ``--site``), splits the text into hands and hands
each chunk to ``parse_hand``. Site differences live here and in the site's
grammar and :class:`~studbook.engine.profile.RuleProfile`, never in the engine.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Iterator, Protocol

from studbook.events import ParseResult

# Why a hand the site cancelled is skipped: it carries no play to judge (a text
# site's cancel line is common.lark's HAND_CANCELLED; any reader gives this reason).
CANCELLED_REASON = "hand cancelled by the site"
# Why a hand whose header names a stud game in a form the site's reader does not read is
# rejected (never skipped: only a header naming another game by its words is, see
# common.lark's OTHER_GAME_WORD); the rejection's text is the header's line.
UNKNOWN_STUD_HEADER = "unknown stud header"
# Why a block of text between two hands (after one's blank line, before the next header)
# is skipped, not rejected: every line of it carries no play (sites.noplay.LinePolicy).
NO_PLAY_BETWEEN_HANDS = "no play between hands"
# Why a hand whose first line is no header of its site's, and names no stud game, is rejected.
UNRECOGNISED_HEADER = "unrecognised hand header"
# What a rejection at a line of a known kind written in a form the reader does not read
# says after the kind ("a 'Dealt to' line in a form ..."; sites.noplay.LinePolicy.form_of).
UNKNOWN_FORM = "in a form this site's grammar does not know"


@dataclass(frozen=True, slots=True)
class HandText:
    """The text of one hand and the 1-based line of the file it starts on.

    ``lines``: the text's lines without their newlines (the last newline's empty rest left
    out), when the split that cut the hand cut them too, else None (a reader splits the text
    itself). A hand's lines are cut once: the split counts them to number the next hand, the
    line builder reads them (issue 34: the split's count of each hand's newlines was a scan of
    its text the lines' split made again). Read, never changed; no part of a hand's equality."""

    first_line: int
    text: str
    lines: list[str] | None = field(default=None, compare=False, repr=False)


def hand_lines(text: str) -> list[str]:
    """The lines of a hand's ``text`` (which ends with its newline), without their newlines:
    the last newline's empty rest left out. The one definition of a hand's lines: the split
    counts them to number the next hand, the line builder numbers them as it reads them, and
    the two must agree."""
    lines = text.split("\n")
    lines.pop()  # "" after the last newline
    return lines


class SiteFormat(Protocol):
    name: str  # stable short name: "pokerstars", "fulltilt", ...

    def detect(self, head: str) -> bool:
        """True when ``head`` (the first few KB of decoded text) is this format."""
        ...

    def split(self, text: str) -> Iterator[HandText]:
        """Split a whole decoded file into hands."""
        ...

    def parse_hand(self, chunk: HandText, file: str) -> ParseResult:
        """Parse one hand. Never raises on bad input: returns Rejected instead."""
        ...
