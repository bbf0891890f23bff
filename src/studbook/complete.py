"""Is a file's last hand whole? The cut-hand rule.

A site writes a hand, then its end: the next hand's header, a closing line
(OnGame's ``***** End of hand``, the XML sites' closing tags), or a blank
line after the summary. A file that stops before that may hold a hand cut
while it was being written (the site still writing, a copy cut short).

* :func:`whole_last_hand` is what ``check`` and ``import`` apply to a closed
  file: the last hand of a site whose summary lists every seated player
  (:data:`SUMMARY_LISTS_EVERY_SEAT`, read off the corpus) is rejected as cut
  when a seated player has no summary line, or when the file stops inside its
  last line: a last line with no newline after it must end the way that
  site's last lines end whole (:data:`WHOLE_LAST_LINE`: a fold on a named
  street, a hand's value, a card list, the closing line). Many real files end
  without a newline after a whole line; those still read.
* :func:`ended` is the stricter rule ``watch`` applies to a file the site may
  still be writing: its last hand is taken only once the text after it shows
  the hand's end; until then it is left for later, never stored half.
"""

from __future__ import annotations

import re

from studbook.events import Collect, Hand, ParseResult, Rejected, SeatSummary, Show
from studbook.read.regex import compiled

SUMMARY_LISTS_EVERY_SEAT = frozenset({
    "pokerstars", "fulltilt", "bovada", "winning", "kingsclub", "ongame", "absolute",
})
"""Sites whose summary has one line per seated player (Winamax lists only those who
showed or won; iPoker, Merge, Everleaf and PartyPoker write no seat summary)."""

SUMMARY_LISTS_SHOWN_AND_WINNERS = frozenset({"winamax"})
"""Sites whose summary has one line per player who showed or collected (read off the corpus)."""

_ENDED = compiled(
    r"\n[ \t]*\n\s*\Z"  # a blank line after the hand
    r"|\*\*\*\*\* End of hand [^\n]*\*\*\*\*\*\s*\Z"  # OnGame
    r"|</(?:session|game|history)>\s*\Z",  # the XML sites' closing tags
)


_P = r"(?:Deuces|Twos|Threes|Treys|Fours|Fives|Sixes|Sevens|Eights|Nines|Tens|Jacks|Queens|Kings|Aces)"
_R = r"(?:Deuce|Two|Three|Trey|Four|Five|Six|Seven|Eight|Nine|Ten|Jack|Queen|King|Ace)"
_VALUE = (  # a hand's value as PokerStars and Full Tilt write it last on a line, whole
    rf"(?:(?:pair of|kind,) {_P}|{_P} and {_P}|full of {_P}|{_R} high|to {_R}|card {_R}|Royal Flush"
    r"|[2-9TJQKA](?:,(?:[2-9TJQKA]|10)){4})"  # a low: five ranks
)
WHOLE_LAST_LINE: dict[str, re.Pattern[str]] = {
    site: compiled(rf"(?:{ending})\s*\Z") for site, ending in {
        "pokerstars": rf"(?:Street|River) \(didn't bet\)|Street|River|collected \([^()\n]*\)"
                      rf"|mucked(?: \[[^\]\n]*\])?|{_VALUE}",
        "fulltilt": rf"St\.|mucked|is sitting out|\(folded\)|{_VALUE}",
        "bovada": r"STREET|RIVER|\]",
        "absolute": r"STREET|\]",
        "winning": r"Game ended at: \d{4}/\d{1,2}/\d{1,2} \d{1,2}:\d{1,2}:\d{1,2}|Street|did not bet"
                   r"|won \$?[\d.,]*\d|\d\.",
        "kingsclub": r"\)|\) from pot",
        "ongame": r"\*\*\*\*\*",
        "partypoker": r"[A-Z]{3}|[a-z]\.|low hand",  # "wins $13.20 USD", "... Four to Eight."
        "winamax": r"(?:won [\d.,]*\d(?:€|\$)?|lost)(?: with [^\n]*(?:\d|[a-z]s|high))?",
    }.items()
}
"""Per site whose summary lists every seat (or whose last line says so), how a hand's last line ends when it is
whole (read off the corpus). A line cut before that ending is a hand cut while the
site was writing it; a cut that happens to leave a whole line of another form
(``folded on the 3rd Street`` of ``... (didn't bet)``) cannot be told apart."""


def ended(text: str) -> bool:
    """The text ends where a hand ends: a blank line, or a site's closing line."""
    return _ENDED.search(text[-4096:]) is not None


def whole_last_hand(result: ParseResult, text: str = "") -> ParseResult:
    """``result``, or a Rejected when it is a hand cut inside its summary: the file,
    whose ``text`` ends as the hand's does, stops inside a line, or a player dealt
    in has no summary line."""
    if not isinstance(result, Hand):
        return result
    if result.site not in WHOLE_LAST_LINE:
        return result
    last = _cut_line(result.site, text)
    if last is not None:
        return Rejected(result.file, result.end_line, result.line,
                        "hand cut: the file ends inside a line of the summary",
                        text=last, hand_id=result.hand_id, site=result.site)
    if result.site in SUMMARY_LISTS_SHOWN_AND_WINNERS:
        missing = _unlisted(result, {e.player for e in result.events if isinstance(e, (Show, Collect))})
    elif result.site not in SUMMARY_LISTS_EVERY_SEAT:
        return result
    else:
        missing = _unlisted(result, {seat.player for seat in result.seats  # the players dealt in
                                     if not (seat.sitting_out or seat.out_of_hand)})
    if not missing:
        return result
    return Rejected(
        result.file, result.end_line, result.line,
        f"hand cut: the file ends in the summary (no summary line for {', '.join(missing)})",
        hand_id=result.hand_id, site=result.site,
    )


def _unlisted(hand: Hand, players: set[str]) -> list[str]:
    """Those of ``players`` with no summary line, in seat order."""
    summarised = {e.seat for e in hand.events if isinstance(e, SeatSummary)}
    return [seat.player for seat in hand.seats if seat.player in players and seat.seat not in summarised]


def _cut_line(site: str, text: str) -> str | None:
    """The hand's last line when the text stops inside it (no newline after it and
    not the ending the site writes whole), else None."""
    text = text.rstrip(" \t")
    if not text or text.endswith("\n"):
        return None
    last = text.rsplit("\n", 1)[-1]
    whole = WHOLE_LAST_LINE.get(site)
    return None if whole is None or whole.search(last) else last


__all__ = ["SUMMARY_LISTS_EVERY_SEAT", "SUMMARY_LISTS_SHOWN_AND_WINNERS", "WHOLE_LAST_LINE", "ended", "whole_last_hand"]
