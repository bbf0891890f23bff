"""Is a file's last hand whole? The cut-hand rule.

A site writes a hand, then its end: the next hand's header, a closing line
(OnGame's ``***** End of hand``, the XML sites' closing tags), or a blank
line after the summary. A file that stops before that may hold a hand cut
while it was being written (the site still writing, a copy cut short).

* :func:`whole_last_hand` is what ``check`` and ``import`` apply to a closed
  file: the last hand of a site whose summary lists every seated player
  (:data:`SUMMARY_LISTS_EVERY_SEAT`, read off the corpus) is rejected as cut
  when a seated player has no summary line. (A last summary line cut in the
  middle cannot be told from a whole one in a closed file: many real files end
  without a newline.)
* :func:`ended` is the stricter rule ``watch`` applies to a file the site may
  still be writing: its last hand is taken only once the text after it shows
  the hand's end; until then it is left for later, never stored half.
"""

from __future__ import annotations

import re

from studbook.events import Hand, ParseResult, Rejected, SeatSummary

SUMMARY_LISTS_EVERY_SEAT = frozenset({
    "pokerstars", "fulltilt", "bovada", "winning", "kingsclub", "ongame", "absolute",
})
"""Sites whose summary has one line per seated player (Winamax lists only those who
showed or won; iPoker, Merge, Everleaf and PartyPoker write no seat summary)."""

_ENDED = re.compile(
    r"\n[ \t]*\n\s*\Z"  # a blank line after the hand
    r"|\*\*\*\*\* End of hand [^\n]*\*\*\*\*\*\s*\Z"  # OnGame
    r"|</(?:session|game|history)>\s*\Z",  # the XML sites' closing tags
)


def ended(text: str) -> bool:
    """The text ends where a hand ends: a blank line, or a site's closing line."""
    return _ENDED.search(text[-4096:]) is not None


def whole_last_hand(result: ParseResult) -> ParseResult:
    """``result``, or a Rejected when it is a hand cut inside its summary: a player
    dealt in has no summary line."""
    if not isinstance(result, Hand) or result.site not in SUMMARY_LISTS_EVERY_SEAT:
        return result
    summarised = {e.seat for e in result.events if isinstance(e, SeatSummary)}
    missing = [seat.player for seat in result.seats  # the players dealt in
               if not (seat.sitting_out or seat.out_of_hand) and seat.seat not in summarised]
    if not summarised or not missing:
        return result
    return Rejected(
        result.file, result.end_line, result.line,
        f"hand cut: the file ends in the summary (no summary line for {', '.join(missing)})",
        hand_id=result.hand_id, site=result.site,
    )


__all__ = ["SUMMARY_LISTS_EVERY_SEAT", "ended", "whole_last_hand"]
