"""Sane limits on what one hand may hold, and the screening of each parse result.

A hand history is written by a poker client: player names of a dozen
characters, table names of a few dozen, hands of a few KB. A file that breaks
these bounds by orders of magnitude is damaged or hostile (a 50 MB "player
name" would make a 100 MB store for one hand), so :func:`screen` rejects the
hand, naming the file, the line and the field; the other hands of the file
read on. It also keeps what a rejected hand carries small (the offending text
capped, with a note), and turns a hand skipped as "not stud" because its game
name holds bytes the decoder had to replace (U+FFFD) into a rejection: the
hand is damaged, not of another game; a header rejected as one the site's
reader does not know that holds such bytes is said to be damaged too.
"""

from __future__ import annotations

from studbook.events import Hand, ParseResult, Rejected
from studbook.money import shortened
from studbook.sites.base import UNKNOWN_STUD_HEADER, UNRECOGNISED_HEADER, HandText

MAX_HAND_CHARS = 1_000_000  # the longest real hands (a tournament with chatter) are some 20 KB
MAX_NAME_CHARS = 100  # player names: sites allow 12 to 30
MAX_TABLE_CHARS = 200  # table names, tournament ids, game names, hand ids
MAX_TEXT_SHOWN = 200  # the offending text a rejected hand keeps
MAX_SEAT = 99  # seat numbers, table sizes, the button, pot numbers: a stud table seats 8, a site's tables 10
MAX_PLACE = 10_000_000  # a tournament finishing place: the largest fields are some hundred thousand

REPLACED = "\ufffd"
_DAMAGED = "the {what} holds bytes that could not be decoded (replaced by U+FFFD): the hand is damaged"


def overlong_hand(start: HandText, size: int, file: str) -> Rejected:
    """The rejection of a hand of ``size`` characters, over the limit, given its start."""
    newline = start.text.find("\n")
    first = start.text if newline == -1 else start.text[:newline]
    return Rejected(file, start.first_line, start.first_line,
                    f"hand of {size:,} characters, over the limit of {MAX_HAND_CHARS:,}; not read",
                    capped(first))  # fmt: skip


def screen(result: ParseResult, chunk: HandText, file: str) -> ParseResult:
    """``result`` as it should reach the user: within the limits, damage named."""
    if isinstance(result, Hand):
        return _over_limit(result) or result
    if isinstance(result, Rejected):
        if result.reason in (UNKNOWN_STUD_HEADER, UNRECOGNISED_HEADER) and REPLACED in result.text:
            return Rejected(result.file, result.line, result.hand_line, _DAMAGED.format(what="header"),
                            capped(result.text), result.hand_id)  # fmt: skip
        if len(result.text) > MAX_TEXT_SHOWN:
            return Rejected(result.file, result.line, result.hand_line, result.reason, capped(result.text),
                            result.hand_id)  # fmt: skip
        return result
    if damaged(result.game):
        return Rejected(file, result.line, chunk.first_line, _DAMAGED.format(what="game name"), capped(result.game),
                        result.hand_id)  # fmt: skip
    return result


def damaged(name: str) -> bool:
    """Whether ``name`` (a game's, as a header writes it) holds bytes the decoder had to
    replace: a hand skipped as of another game by such a name is damaged (:func:`screen`)."""
    return REPLACED in name


def capped(text: str) -> str:
    """``text`` cut to :data:`MAX_TEXT_SHOWN` characters, with a note of what was cut."""
    if len(text) <= MAX_TEXT_SHOWN:
        return text
    return f"{text[:MAX_TEXT_SHOWN]}... ({len(text) - MAX_TEXT_SHOWN:,} more characters cut)"


def _over_limit(hand: Hand) -> Rejected | None:
    """The first field of ``hand`` past its limit, as a rejection; None when all are within.
    Every hand comes here: a loop over its seats and the header's lengths added (their sum
    within the limit: each is) tell a hand within every limit (nearly all of them) before
    the field-by-field search for the first one past it. (``min``/``max`` over ``map``s
    cost some 13 k instructions a two-seat hand, the loop some 4 k: issue 34.)"""
    for seat in hand.seats:
        if not 0 <= seat.seat <= MAX_SEAT or len(seat.player) > MAX_NAME_CHARS:
            return _first_over_limit(hand)
    header = hand.header
    tournament = header.tournament
    table, hand_id, game, mix = header.table, header.hand_id, header.game, header.mix or ""
    tournament_id = tournament.id if tournament else ""
    if (len(table) + len(hand_id) + len(game) + len(mix) + len(tournament_id) > MAX_TABLE_CHARS
            and max(len(table), len(hand_id), len(game), len(mix), len(tournament_id)) > MAX_TABLE_CHARS
            or not 0 <= (header.max_seats or 0) <= MAX_SEAT or not 0 <= (header.button or 0) <= MAX_SEAT):  # fmt: skip
        return _first_over_limit(hand)
    return None


def _first_over_limit(hand: Hand) -> Rejected | None:
    header = hand.header
    for what, number in (("table size", header.max_seats), ("button seat", header.button)):
        if number is not None and not 0 <= number <= MAX_SEAT:
            return _reject_number(hand, hand.line, what, number, MAX_SEAT)
    for seat in hand.seats:
        if not 0 <= seat.seat <= MAX_SEAT:
            return _reject_number(hand, seat.line, "seat number", seat.seat, MAX_SEAT)
        if len(seat.player) > MAX_NAME_CHARS:
            return _reject(hand, seat.line, f"seat {seat.seat}: a player name", seat.player, MAX_NAME_CHARS)
    for what, value in (("table name", header.table), ("hand id", header.hand_id), ("game name", header.game),
                        ("mix name", header.mix or ""),
                        ("tournament id", header.tournament.id if header.tournament else "")):  # fmt: skip
        if len(value) > MAX_TABLE_CHARS:
            return _reject(hand, hand.line, f"a {what}", value, MAX_TABLE_CHARS)
    return None


def within_count(number: int, what: str, limit: int = MAX_SEAT) -> int:
    """``number`` (a ``what`` read from the log), or ValueError past ``limit``: the one limit
    for counts, as :func:`~studbook.money.within_limits` is for amounts (beyond it the store's
    and the frames' integer columns would overflow). The line readers call it where they
    turn a seat of a summary line, a pot number or a finishing place into an int; the seats
    and the header's numbers are screened with the hand (:func:`screen`)."""
    if not 0 <= number <= limit:
        raise ValueError(_out_of_range(what, number, limit))
    return number


def _out_of_range(what: str, number: int, limit: int) -> str:
    return f"{what} {shortened(number, 'digits')} is out of range 0 to {limit:,} (damaged or not a real {what})"


def _reject_number(hand: Hand, line: int, what: str, number: int, limit: int) -> Rejected:
    return Rejected(hand.file, line, hand.line, _out_of_range(what, number, limit), "", _shown_id(hand))


def _shown_id(hand: Hand) -> str | None:
    """The hand's id for its rejection, unless the id itself is past the limit."""
    return hand.hand_id if len(hand.hand_id) <= MAX_TABLE_CHARS else None


def _reject(hand: Hand, line: int, what: str, value: str, limit: int) -> Rejected:
    return Rejected(hand.file, line, hand.line, f"{what} of {len(value):,} characters, over the limit of {limit}",
                    capped(value), _shown_id(hand))  # fmt: skip


__all__ = [
    "MAX_HAND_CHARS", "MAX_NAME_CHARS", "MAX_PLACE", "MAX_SEAT", "MAX_TABLE_CHARS", "MAX_TEXT_SHOWN", "capped",
    "damaged", "overlong_hand", "screen", "within_count",
]
