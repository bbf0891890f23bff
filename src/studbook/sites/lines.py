"""What every text site read with a line grammar shares.

A text site is a Lark grammar (``grammars/<site>.lark``) with one terminal
per line kind, a builder that turns the lines into events, and a format
object. This module holds all of it that is not site-specific, so a site
module holds only its grammar name, detection, field mapping and quirks:

* :class:`LineBuilder`, the builder base: one pass over the hand text that
  runs the grammar's LALR tables (:class:`~studbook.read.grammar.LineGrammar`)
  and calls the site's handler for each line with the line's regex groups,
  plus helpers that emit the :mod:`studbook.events` dataclasses;
* the builder's :class:`~studbook.sites.ledger.Ledger` (the readers' one
  chip ledger, the XML readers' too): sites write "chips put in", "new street
  total" or "raised by"; the ledger gives events.py's ``amount``/``to`` and
  tells a completion from a bet or a raise;
* :class:`LineFormat`, the :class:`~studbook.sites.base.SiteFormat` wrapper:
  detection, splitting, rejection with Lark's error turned into a message;
* helpers for game names, streets, pots and times that several sites use.
"""

from __future__ import annotations

import bisect
import dataclasses
import functools
import operator
import re
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from decimal import Decimal
from typing import Any, Callable, ClassVar, Collection, Iterator, Mapping, Optional, TypedDict, cast
from zoneinfo import ZoneInfo

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from studbook.betting import fixed_stakes
from studbook.cards import Card, parse_cards
from studbook.events import (
    BET, BRING_IN, CALL, CHECK, FOLD, RAISE, SEVENTH, SIT_OUT, THIRD,
    ActionKind, ChatterKind, Collect, Event, Half, Hand, HandHeader, NoShow, ParseResult, Rejected, Seat,
    Skipped, Street, Structure, Tournament, TournamentFinish, Variant,
)
from studbook.money import Money, parse_amount, parse_money
from studbook.read import split_at_headers
from studbook.read.grammar import (
    Fields, FirstLinePass, Line, LineGrammar, LineGrammarError, Scanned, common_piece, load_grammar,
)
from studbook.read.memo import TextMemo
from studbook.read import limits
from studbook.read.split import header_starts, literal_text, starts_every_match
from studbook.read.limits import MAX_PLACE, MAX_TEXT_SHOWN, damaged, within_count
from studbook.sites.base import (
    CANCELLED_REASON, NO_PLAY_BETWEEN_HANDS, UNKNOWN_FORM, UNKNOWN_STUD_HEADER, UNRECOGNISED_HEADER, HandText, hand_lines,
)
from studbook.sites.ledger import Ledger
from studbook.sites.makers import (
    make_action, make_ante, make_chatter, make_collect, make_deal, make_hand, make_header, make_muck,
    make_no_low, make_no_show, make_pot_summary, make_seat, make_seat_summary, make_show, make_showdown,
    make_note, make_skipped, make_stakes, make_street, make_uncalled,
)
from studbook.sites.noplay import names_stud, policy_for

# A line's fields are its terminal's regex groups, in order (``Fields``, defined
# with the grammar reader); a handler declares its line kind's own tuple, a str
# where the grammar always fills the group, str | None where it may not
# (tests/test_site_fields.py checks the declarations against the corpus's lines).
PlayerOnly = tuple[str]
"""A line that names a player and nothing more (checks, folds, "doesn't show")."""
PlayerAmount = tuple[str, str, str | None]
"""A player, an amount and an optional all-in mark (antes, bring-ins, bets, calls, completions)."""
ZERO = Decimal(0)


# The typed header record: what a hand's header lines say. A site's header handlers
# fill it as they read the lines, converted (numbers as ints, times as datetimes, the
# tournament as a Tournament), and its HandHeader is built from it, at the line that
# completes it or in LineBuilder.final_header. A key a header does not write is absent
# (reading it is the KeyError a missing line gives); a site keeps its own pieces in a
# subclass (``class _Head(Head, total=False)``, its builder's ``head: _Head``).
# (Written in the functional form: with this module's postponed annotations a class
# body's types would be strings, which TypedDict compiles one by one at every start.)
Head = TypedDict("Head", {
    "hand_id": str,
    "game": str,  # as written
    "small": str,  # the stakes as written (``amount`` reads them, ``currency_in`` their currency)
    "big": str,
    "ante": str | None,  # None: the header names no ante
    "currency": str | None,  # the ISO code the header writes
    "play_money": bool,
    "tournament": Tournament | None,
    "tournament_id": str | None,  # a tournament's parts, where the site assembles it at the end
    "buy_in": str | None,  # as written
    "level": str | None,  # as written
    "club": str | None,  # PokerStars home games
    "mix": str | None,
    "table": str,
    "max_seats": int | None,
    "button": int | None,
    "started": str,  # as written
    "started_utc": datetime | None,
}, total=False)  # fmt: skip

# Amounts and card runs repeat a lot: parse each written form once
# (``AMOUNTS[text]`` or ``amount(text)``, ``CARDS[text]`` or ``cards(text)``).
AMOUNTS: TextMemo[Money] = TextMemo(parse_amount)


def _card_run(text: str) -> tuple[Card, ...]:
    """``parse_cards(text)``, from the memo's reading of all its cards but the last where the
    memo holds it (issue 34: a deal line's cards before are the last street's, read on that
    street's line with its new card; a run read whole costs some 5 k instructions, four runs a
    simulated hand read so). Split at a space, the two parts' cards are the whole's, in order."""
    head, space, last = text.rpartition(" ")
    if space:
        known = CARDS.get(head)
        if known is not None:
            return known + cards(last)
    return parse_cards(text)


CARDS: TextMemo[tuple[Card, ...]] = TextMemo(_card_run)
# (typed to take Any, as the lru_cache wrappers they replace did: handlers pass
# regex groups, str | None, that their terminal always fills)
amount: Callable[[Any], Money] = AMOUNTS.__getitem__
# A cash game's amounts where its log names no currency (Kings Club, Winning's older client):
# money, each a Decimal (money.parse_money), so that "44" does not read as chips beside "33.16"
CASH_AMOUNTS: TextMemo[Decimal] = TextMemo(parse_money)
cash_amount: Callable[[Any], Decimal] = CASH_AMOUNTS.__getitem__
cards: Callable[[Any], tuple[Card, ...]] = CARDS.__getitem__


# An amount as the sites write it ("$0.04", "1,250 USD", "USD 5", "5€"), no group.
WRITTEN_AMOUNT = common_piece("AMOUNT_WRITTEN")

ACTION_TERMINALS: dict[str, ActionKind] = {
    "BRING_IN": ActionKind.BRING_IN, "COMPLETE": ActionKind.COMPLETE, "BET": ActionKind.BET,
    "CALL": ActionKind.CALL, "RAISE": ActionKind.RAISE, "CHECK": ActionKind.CHECK,
    "FOLD": ActionKind.FOLD,
}
CHATTER_TERMINALS: dict[str, ChatterKind] = {
    "JOIN": ChatterKind.JOIN, "LEAVE": ChatterKind.LEAVE, "SIT_OUT": ChatterKind.SIT_OUT,
    "RETURN": ChatterKind.RETURN, "DISCONNECT": ChatterKind.DISCONNECT,
    "RECONNECT": ChatterKind.RECONNECT, "TIMEOUT": ChatterKind.TIMEOUT,
    "CHATTER_OTHER": ChatterKind.OTHER,
}
STREET_TERMINALS: dict[str, Street] = {
    "THIRD": Street.THIRD, "FOURTH": Street.FOURTH, "FIFTH": Street.FIFTH,
    "SIXTH": Street.SIXTH, "RIVER": Street.SEVENTH,
}
# (the handlers name the members on a line's path by events' module names, THIRD, RAISE, ...,
# and test a street with ``is``: an IntEnum's ``==`` is int's generic compare)
# What line kinds are called in messages (sites add their own).
COMMON_KINDS: dict[str, str] = {
    "SEAT": "seat line", "ANTE": "ante", "DEAL": "deal line", "BRING_IN": "bring-in",
    "COMPLETE": "completion", "BET": "bet", "CALL": "call", "RAISE": "raise", "CHECK": "check",
    "FOLD": "fold", "UNCALLED": "uncalled bet returned", "SHOWDOWN": "showdown marker",
    "SHOW": "shows", "MUCK": "mucks", "COLLECT": "pot won", "NO_LOW": "'No low hand qualified'",
    "SUMMARY": "summary marker", "TOTAL": "'Total pot' line", "SEAT_SUMMARY": "summary seat line",
    "SAID": "chat", "SIT_OUT": "sitting out", "TIMEOUT": "timeout", "CHATTER_OTHER": "table message",
    "HAND_CANCELLED": "cancel line", "$END": "end of hand",
}
# Line kinds left out of "expected ..." lists: chatter may come anywhere.
_CHATTER_KINDS = {"chat", "join", "leave", "sitting out", "return", "disconnect", "reconnect",
                  "timeout", "table message", "cancel line"}  # fmt: skip


# ---------------------------------------------------------------------------
# Games, streets, pots, times


def stud_variant(game: str) -> Variant | None:
    """The variant of a game name as sites write it; None for other games (by their words:
    common.lark's OTHER_GAME_WORD, STUD_WORD)."""
    if not names_stud(game):
        return None
    lowered = game.lower()
    if "razz" in lowered:
        return Variant.RAZZ
    return Variant.STUD8 if re.search(r"h/l|hi/lo|hi-lo|hilo|high/low|8|eight", lowered) else Variant.STUD


def game_variant(game: str) -> Variant:
    """The variant of a game name a grammar read as stud (``STUD_GAME_NAME``)."""
    variant = stud_variant(game)
    if variant is None:
        raise ValueError(f"not a seven-card stud, stud hi/lo or razz game: {game!r}")
    return variant


def stud_structure(game: str) -> Structure:
    """The betting structure a game name states: pot or no limit ("PL", "NL"), else fixed."""
    lowered = game.lower()
    if "pot limit" in lowered or "pot-limit" in lowered or re.search(r"\bpl\b", lowered):
        return Structure.POT
    if "no limit" in lowered or "no-limit" in lowered or re.search(r"\bnl\b", lowered):
        return Structure.NO
    return Structure.FIXED


_FIVE_CARD = re.compile(r"\b(?:5|five)[-_ ]*card")


@functools.lru_cache(maxsize=256)  # a mixed game's few other games, their hands skipped by the hundred
def skip_reason(game: str) -> str:
    """Why a game is skipped, naming the unsupported stud forms."""
    lowered = game.lower()
    if _FIVE_CARD.search(lowered):
        return "5-card stud is not replayed (seven-card stud games only)"
    if "razz" in lowered:
        return "2-7 razz (deuce-to-seven low) is not replayed (A-5 razz only)"
    return "not a stud, stud hi/lo or razz hand"


def third_street_deal(first: tuple[Card, ...], second: tuple[Card, ...]) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    """(down, up) of a 3rd-street line "[a b] [c]", "[c]" or "[a b c]"."""
    if second:
        return first, second
    if len(first) == 1:
        return (), first
    return first[:2], first[2:]


def pot_number(pot: str | None) -> int:
    """0 for "pot"/"main pot", k for "side pot k" or "side pot-k" (an unnumbered side pot is 1)."""
    if pot and pot.startswith("side pot"):
        return within_count(int(pot[9:]), "pot number") if len(pot) > 9 else 1
    return 0


_OUTCOME_CARDS = re.compile(r"(?:showed|mucked) \[([^\]]*)\]")
_OUTCOME_WON = re.compile(r"(?:won|collected) \(([^)]*)\)")


def _read_outcome(outcome: str) -> tuple[tuple[Card, ...], Money | None]:
    """The cards shown and the chips won that a PokerStars-like summary seat line states
    ("showed [Ah Kd ...] and won ($1.20)", "mucked [...]", "collected ($0.80)"); the sum of
    the chips won in order, the first amount itself (no Decimal zero: chips stay ints)."""
    shown = _OUTCOME_CARDS.search(outcome) if "ed [" in outcome else None
    won: Money | None = None
    if "(" in outcome:
        for value in _OUTCOME_WON.findall(outcome):  # (a loop: a comprehension is a function and a frame, 3.11)
            won = amount(value) if won is None else won + amount(value)
    return cards(shown.group(1)) if shown else (), won


# A summary seat line's outcome, read once a text: a folder's outcomes repeat ("folded on the 3rd
# Street"), a winner's or a shown hand's are mostly new (some 2.4 of a simulated hand's 7.7), so
# a reader whose outcomes are so looks up with ``OUTCOMES.get`` and remembers (read/memo.py; issue
# 34: an ``lru_cache``'s miss calls the function from C, with its key's link and arguments' tuple)
OUTCOMES: TextMemo[tuple[tuple[Card, ...], Money | None]] = TextMemo(_read_outcome, 4096)
summary_outcome: Callable[[str], tuple[tuple[Card, ...], Money | None]] = OUTCOMES.__getitem__


def dedupe(shown: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(dict.fromkeys(shown))


def not_shown_as_mucks(events: list[Event], live: list[str]) -> list[Event]:
    """"Does not show" from a player who collects nothing at a showdown is a muck."""
    if len(live) < 2:
        return events
    winners = {e.player for e in events if isinstance(e, Collect)}
    return [make_muck(e.file, e.line, e.player, ()) if isinstance(e, NoShow) and e.player not in winners else e
            for e in events]  # fmt: skip


# Time-zone abbreviations sites write; each is a region, so daylight saving
# time follows the date ("CET" in April is UTC+2, as the sites mean).
ZONES: dict[str, str] = {
    "ET": "America/New_York", "EST": "America/New_York", "EDT": "America/New_York",
    "CT": "America/Chicago", "MT": "America/Denver", "PT": "America/Los_Angeles",
    "AKT": "America/Anchorage", "HT": "Pacific/Honolulu", "AT": "America/Halifax",
    "NT": "America/St_Johns", "BRT": "America/Sao_Paulo", "ART": "America/Argentina/Buenos_Aires",
    "UTC": "UTC", "GMT": "UTC", "WET": "Europe/Lisbon", "WEST": "Europe/Lisbon",
    "BST": "Europe/London", "CET": "Europe/Paris", "CEST": "Europe/Paris",
    "EET": "Europe/Helsinki", "EEST": "Europe/Helsinki", "MSK": "Europe/Moscow",
    "IST": "Asia/Kolkata", "CCT": "Asia/Shanghai", "JST": "Asia/Tokyo", "KST": "Asia/Seoul",
    "AWST": "Australia/Perth", "ACST": "Australia/Adelaide", "AEST": "Australia/Sydney",
    "AET": "Australia/Sydney", "NZT": "Pacific/Auckland", "NZST": "Pacific/Auckland",
}
_zone = functools.lru_cache(maxsize=None)(ZoneInfo)


_NUMBERS = re.compile(r"[0-9]+")


def to_utc(when: str, zone: str | None) -> datetime | None:
    """``2009/11/26 10:27:46`` in a zone of :data:`ZONES`, as an aware UTC datetime.

    Older clients' forms read too: ``2007/05/20 - 19:04:40``, ``2009-11-26 10:27:46``
    (common.lark's DATETIME): the six numbers in order are what counts."""
    if zone not in ZONES:
        return None
    if when[-6:-5] == ":" and when[-3:-2] == ":":  # "... HH:MM:SS": the hour's start remembered, MM and SS added
        start = _hour_starts(ZONES[zone])[when[:-6]]
        if start is not None:
            minutes, seconds = _MINUTES[when[-5:-3]], _SECONDS[when[-2:]]
            if minutes is not None and seconds is not None:
                return start + minutes + seconds
    year, month, date, hour, minute, second = map(int, _NUMBERS.findall(when)[:6])
    offset = _hour_offset(ZONES[zone], year, month, date, hour)
    if offset is None:  # the hour holds a change of offset: the zone's rules, second by second
        local = datetime(year, month, date, hour, minute, second, tzinfo=_zone(ZONES[zone]))
        return local.astimezone(timezone.utc)
    return datetime(year, month, date, hour, minute, second, tzinfo=timezone.utc) - offset


# A log's hands come a minute apart: the numbers of a time are read and its zone's
# offset looked up once an hour (issue 34: findall, six ints and two datetimes were
# some 25 k instructions a hand, every hand's header, the skipped hands' too). The
# fast path gives what the general one gives, or steps aside: a time written
# "<the hour's four numbers>:MM:SS" is the hour's start in UTC (None when the text
# before ":MM:SS" holds other than four numbers, or the offset changes within the
# hour) plus MM and SS (None unless two digits below 60: else the general path, and its
# ValueError; sixty of each, remembered, where "MM:SS" would be 3,600 met one by one);
# an invalid date raises as before, and is not remembered.
_HOUR_STARTS: dict[str, TextMemo[datetime | None]] = {}


def _hour_starts(zone: str) -> TextMemo[datetime | None]:
    """The hours' starts in UTC of ``zone``, by the text of the time before its ":MM:SS"."""
    starts = _HOUR_STARTS.get(zone)
    if starts is None:
        starts = _HOUR_STARTS[zone] = TextMemo(functools.partial(_hour_start, zone))
    return starts


def _hour_start(zone: str, head: str) -> datetime | None:
    numbers = _NUMBERS.findall(head)
    if len(numbers) != 4:
        return None
    year, month, date, hour = map(int, numbers)
    offset = _hour_offset(zone, year, month, date, hour)
    return None if offset is None else datetime(year, month, date, hour, tzinfo=timezone.utc) - offset


def _sixtieth(unit: str) -> Callable[[str], timedelta | None]:
    """"MM" (or "SS") as a timedelta of ``unit``; None unless two digits, below 60."""
    return lambda written: timedelta(**{unit: int(written)}) if _BELOW_SIXTY.fullmatch(written) else None


_BELOW_SIXTY = re.compile(r"[0-5][0-9]")
_MINUTES: TextMemo[timedelta | None] = TextMemo(_sixtieth("minutes"))
_SECONDS: TextMemo[timedelta | None] = TextMemo(_sixtieth("seconds"))


@functools.lru_cache(maxsize=1024)
def _hour_offset(zone: str, year: int, month: int, date: int, hour: int) -> timedelta | None:
    """The offset from UTC of every time of an hour in ``zone`` (as ``astimezone`` takes
    it: an hour skipped or repeated by a change of clocks has the earlier offset throughout),
    or None when the hour's first and last second differ (a change inside it). A log's
    hands come a few seconds apart, so the zone's rules are looked up once an hour, not a
    hand (an invalid date raises as ``datetime`` does)."""
    tz = _zone(zone)
    first = datetime(year, month, date, hour, tzinfo=tz).utcoffset()
    return first if first == datetime(year, month, date, hour, 59, 59, tzinfo=tz).utcoffset() else None


def local_to_utc(local: datetime, zone: str | None) -> datetime | None:
    """A naive local time in an IANA zone (or fixed offset "+03:00") as aware UTC."""
    if zone is None:
        return None
    if zone[0] in "+-":
        sign = -1 if zone[0] == "-" else 1
        hours, minutes = int(zone[1:3]), int(zone[-2:])
        offset = sign * (hours * 60 + minutes)
        return (local.replace(tzinfo=timezone.utc) - timedelta(minutes=offset)).astimezone(timezone.utc)
    return local.replace(tzinfo=ZoneInfo(zone)).astimezone(timezone.utc)


# ---------------------------------------------------------------------------
# The builder base


_DAMAGED = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\ufffd]")  # control characters, replaced bytes

class BuildError(ValueError):
    """A line the grammar accepted whose content does not make sense."""


class SkipHand(Exception):
    """Raised by a builder on a hand of another game; carries the game and a reason."""

    def __init__(self, game: str, reason: str = "not a stud, stud hi/lo or razz hand") -> None:
        super().__init__(game)
        self.game = game
        self.reason = reason


class HandCancelled(SkipHand):
    """The site cancelled the hand (common.lark's HAND_CANCELLED): skipped with
    :data:`~studbook.sites.base.CANCELLED_REASON`, whatever the lines after it."""

    def __init__(self, game: str) -> None:
        super().__init__(game, CANCELLED_REASON)


@dataclass(frozen=True)
class OtherGame:
    """How a site's header line names another game, for a grammar that reads the
    body of such a hand as any lines (``_OTHER_LINE*``): the terminal that names
    the game, its fields that may (the first written one does), and the
    (terminal, field) that gives the hand's id. The builder's ``other_game``
    handler skips the hand at that terminal; :class:`LineFormat` skips it from
    one match of its first line (:meth:`LineGrammar.first_line_pass`), no
    builder made (issue 34: a mixed log's other games, read by the hundred)."""

    terminal: str
    game_fields: tuple[int, ...]
    hand_id: tuple[str, int]

    def game(self, fields: Fields) -> str:
        """The game the header names: the first of ``fields`` written."""
        for field in fields:  # (a loop: a generator's steps are a call each, issue 34)
            if field:
                return field
        raise ValueError("the header names no game")

    def skip(self, fields: Fields) -> SkipHand:
        """The skip of a hand whose game the terminal's ``fields`` name."""
        game = self.game(tuple(fields[index] for index in self.game_fields))
        return SkipHand(game, skip_reason(game))


# Errors in a handler that mean "this line makes no sense": reported at the line.
_LINE_ERRORS = (ValueError, KeyError, ArithmeticError, TypeError, AssertionError)
Handler = Callable[[Any, str, Fields, int], None]
# What a line of a terminal read on a parser stack does for a builder:
# (next parser stack, handler, player field or None (tested with ``is``: fewer steps a
#  line than a comparison), next scanner's memo and read method, next steps)
Reader = Callable[[str, int, str], Optional[Scanned]]
_Step = tuple[int, Handler, int | None, dict[str, Scanned], Reader, dict[str, Any]]
_Plan = dict[int, dict[str, _Step]]
_Start = tuple[_Plan, int, dict[str, Scanned], Reader, dict[str, _Step]]
# What the scan unpacks for a line no terminal reads here (the reader's None): a token of no
# parts, whose unpacking raises ValueError (issue 34: no token variable and no None test a line)
_UNREAD = cast(Scanned, ())
# A builder's plan for one grammar and where its scan starts: (plan, start stack, its
# scanner's memo and read, its steps). Made once, looked up once a hand.


def _no_handler(builder: Any, kind: str, f: Fields, line: int) -> None:
    raise KeyError(kind)


def _ignore(builder: Any, kind: str, f: Fields, line: int) -> None:
    """Terminals named ``_...`` are matched and checked, not built."""


class LineBuilder:
    """Turns one hand's text into a Hand (or a Skipped), in one pass.

    Subclasses set ``SITE`` and ``HANDLERS`` (terminal -> name of the method
    called with ``(kind, fields, line)`` for each line of that kind).
    Handlers record events with the ``add_*`` helpers, which keep the
    :class:`Ledger` up to date.

    A player's name is matched lazily (names may hold any text), so on a line
    whose name is not a seated one, or is a seated name that starts another
    ("Bob" and "Bob:"), the name is read again with the seated names (see
    :meth:`_resplit`): the field is the terminal's first lazy name
    (``LineGrammar.name_field``), on every terminal but those in
    ``NOT_PLAYERS`` (seat lines, which name the players, and table names).
    """

    SITE: ClassVar[str] = ""
    HANDLERS: ClassVar[Mapping[str, str]] = {}
    NOT_PLAYERS: ClassVar[frozenset[str]] = frozenset({"SEAT"})  # lazy names that are not a seated player's
    STREETS: ClassVar[Mapping[str, Street]] = {}  # street marker text -> street, for street_named
    IMPLIED_SHOWDOWN: ClassVar[bool] = False  # no showdown marker: the first card shown opens it
    LOG_MARKS_ALL_IN: ClassVar[bool] = False  # the log says "all-in" itself: stacks do not tell
    LOG_NAMES_ACTIONS: ClassVar[bool] = False  # bet, raise, call as the log names them (see Ledger)
    # How the hand's figures read in the shared handlers (player_ante, player_bet, ...): amount,
    # or cash_amount where a reader knows the hand is a cash game's and its log writes the sign
    # or unit apart from the figure (Winamax's "5€", Everleaf's "$ 2"): money, never a whole
    # figure as chips. A reader sets it on the builder with the header, or a default here:
    # a memo's bound lookup, which binds to nothing, so no staticmethod (an instance attribute
    # shadowing a class's descriptor is looked up the slow way). Read from the class, it costs
    # the sites whose amounts go through these handlers (PartyPoker, OnGame) some 200
    # instructions an amount over a global's (measured: PartyPoker's cash log +0.17%); set in
    # __init__ it cost more, the builder's attributes past CPython's shared-keys limit.
    read: Callable[[Any], Money] = amount
    NO_HEADER: ClassVar[str] = "no header"
    FIRST_STREET: ClassVar[Street | None] = None  # the street a hand starts on, before its first street line
    OTHER_GAME: ClassVar[OtherGame | None] = None  # how the header names another game, when one terminal does
    _dispatch: ClassVar[dict[str, Handler]] = {}
    _plans: ClassVar[dict[LineGrammar, _Start]] = {}  # each class its own: the steps fold its handlers in

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        cls._plans = {}
        handlers = {"HAND_CANCELLED": "hand_cancelled", **cls.HANDLERS}  # any grammar may use the shared line
        cls._dispatch = {terminal: getattr(cls, method) for terminal, method in handlers.items()}

    def __init__(self, file: str, chunk: HandText, text: str, grammar: LineGrammar) -> None:
        self.file = file
        self.chunk = chunk
        self.text = text
        self.grammar = grammar
        self.newlines: int | None = None  # the text's lines, once the scan has split it (see _hand)
        self.start = 0  # offset of the token whose handler raised (its line is the error's)
        self.stopped_at: tuple[int, int] | None = None  # parser stack and offset after the line whose handler raised
        self.events: list[Event] = []
        self.seats: list[Seat] = []
        self.names: set[str] = set()
        self.unique_names: set[str] = set()  # the seated names no other seated name starts with (the scan's one lookup)
        self.ordered_names: list[str] = []  # the names, sorted (see seat_name)
        self.head: Head = {}
        self.header: HandHeader | None = None
        self.street: Street | None = self.FIRST_STREET
        self.at_showdown = False

    # What few hands need, made when first asked for (issue 34: four containers made and
    # freed a hand, PokerStars' handlers never asking for them)
    @functools.cached_property
    def anted(self) -> set[str]:
        """The players who posted an ante (:meth:`add_ante`)."""
        return set()

    @functools.cached_property
    def sitting_out(self) -> set[str]:
        """The players a line marks sitting out (:meth:`settle_seats`)."""
        return set()

    @functools.cached_property
    def known(self) -> dict[str, list[Card | None]]:
        """The cards seen per player, in deal order (:meth:`add_deal`)."""
        return {}

    @functools.cached_property
    def noted(self) -> list[int]:
        """The file lines the line policy noted (see :meth:`_note`)."""
        return []

    @functools.cached_property
    def ledger(self) -> Ledger:
        """The hand's chip ledger, made when a handler first needs it
        (PokerStars' handlers never do)."""
        return Ledger(stacks_tell_all_in=not self.LOG_MARKS_ALL_IN, kinds_as_written=self.LOG_NAMES_ACTIONS)

    # -- the driver ------------------------------------------------------------
    def build(self) -> ParseResult:
        """Scan, check the order of the lines and build, in one pass."""
        try:
            sid = self._scan()
        except HandCancelled as cancelled:
            return self._skipped(cancelled)  # what follows the cancel line carries no play to judge
        except SkipHand as skip:
            self._check_grammar()  # the grammar's verdict on the whole hand comes first
            return self._skipped(skip)
        except Exception as error:
            self._check_grammar()
            if isinstance(error, _LINE_ERRORS):
                line = self.chunk.first_line + self.text.count("\n", 0, self.start)
                raise BuildError(f"{line}\x00{error}") from None
            raise
        if sid is not None and self.grammar.accepts(sid):
            return self._hand()
        return self._from_lark()

    def _scan(self) -> int | None:
        """Read the lines and call their handlers: the parser stack at the
        end, or None when the scan stops on a line the grammar does not allow."""
        grammar, text, names, unique = self.grammar, self.text, self.names, self.unique_names
        if not text.endswith("\n"):
            return None
        plan, sid, memo, read, steps = self._plans.get(grammar) or self._plan(grammar)
        pos = 0
        chunk = self.chunk
        line = chunk.first_line
        lines = chunk.lines  # cut by the split (HandText.lines): read in one pass
        body: str | None = None  # the lines after the first, while not split yet
        if lines is None or chunk.text is not text:
            # The first line (the header) is read before the rest is split into lines:
            # a hand of another game is skipped at its header, its body never split.
            first, _, body = text.partition("\n")
            lines = [first]
        while True:
            for rest in lines:
                while True:  # the tokens of the line: one, save in headers
                    try:  # (an empty memo is not looked in: a scanner's whose lines come once, the line not hashed)
                        kind, f, length, newline = (memo and memo.get(rest)) or read(text, pos, rest) or _UNREAD
                    except ValueError:  # no terminal reads the line here
                        # a line's first token (``pos`` just past a newline): the line policy may pass it
                        if sid and (not pos or text[pos - 1] == "\n") and self._note(line, rest, sid):
                            pos += len(rest) + 1  # a line that carries no play: noted, the hand goes on
                            break
                        return None
                    try:
                        sid, handler, index, memo, read, steps = steps[kind]
                    except KeyError:
                        step = self._plan_step(plan, sid, kind)
                        if step is None:
                            return None
                        sid, handler, index, memo, read, steps = step
                    # a name read lazily that is no seated name, or one that starts another: read again
                    # (``names`` tested last: it is empty only before the seat lines, where ``unique`` is too)
                    if index is not None and f[index] not in unique and names:
                        f = self._resplit(kind, text[pos : pos + length], index) or f
                    try:
                        handler(self, kind, f, line)
                    except Exception:
                        self.stopped_at, self.start = (sid, pos + length), pos
                        raise
                    pos += length
                    if newline:
                        break
                    rest = rest[length:]
                line += 1
            if body is None:
                break
            lines = hand_lines(body)
            body = None
        self.newlines = line - chunk.first_line
        return sid

    def _note(self, line: int, text: str, sid: int) -> bool:
        """The line policy (:mod:`studbook.sites.noplay`) on a line the grammar
        does not read here (on parser stack ``sid``): True, with a Note made, when it
        carries no play. The site's cancel line ends the hand wherever it is written;
        a stud game's line the grammar does not know, where it reads the game, is no Note."""
        policy = policy_for(self.grammar)
        cancel = policy.cancellation(text)
        if cancel is not None and self._names_this_hand(cancel):
            self.hand_cancelled("HAND_CANCELLED", cancel, line)
        if policy.unknown_stud_header(text, self.grammar.scanner(sid).groups):
            return False
        verdict = policy.judge(text, self.names)
        if verdict is None:
            return False
        if verdict.sits_out and verdict.player is not None and self.street is None:
            self.sitting_out.add(verdict.player)
        self.noted.append(line)
        self.emit(make_note(self.file, line, text.rstrip()))
        return True

    def _lark_lines(self) -> list[Line]:
        """Lark's tokens of the hand (or its error), the noted lines left out:
        line numbers and offsets are those of the whole hand's text."""
        if not self.noted:
            return self.grammar.lines(self.text)
        kept, numbers, offsets = self._without_notes()
        try:
            tokens = self.grammar.lines(kept)
        except LineGrammarError as failure:
            failure.line_of = numbers
            raise
        return [(kind, f, numbers[at - 1], start + offsets[at - 1], end + offsets[at - 1])
                for kind, f, at, start, end in tokens]  # fmt: skip

    def _without_notes(self) -> tuple[str, list[int], list[int]]:
        """The text without the noted lines, each kept line's number in the
        hand's text (1-based) and the shift of its offsets."""
        first, noted = self.chunk.first_line, set(self.noted)
        kept: list[str] = []
        numbers: list[int] = []
        offsets: list[int] = []
        at = removed = 0
        for number, written in enumerate(hand_lines(self.text), 1):
            if number + first - 1 in noted:
                removed += len(written) + 1
            else:
                kept.append(written)
                numbers.append(number)
                offsets.append(removed)
            at += len(written) + 1
        return "".join(k + "\n" for k in kept), numbers, offsets

    def _check_grammar(self) -> None:
        """Raise Lark's error when the hand does not follow the grammar, once a
        handler stopped the scan: the scan goes on from there without handlers,
        and only when that does not accept does the whole hand go to Lark."""
        stopped = self.stopped_at
        if stopped is None or not (self.grammar.accepts_rest(self.text, *stopped) or self._rest_reads(*stopped)):
            self._lark_lines()

    def _rest_reads(self, sid: int, pos: int) -> bool:
        """The grammar's scan of the rest of the text from offset ``pos`` on
        stack ``sid``, without handlers but with the line policy (a line it
        lets pass is noted, so Lark's check leaves it out too): True when it
        reads to the end and the grammar accepts the end."""
        grammar, text = self.grammar, self.text
        if pos >= len(text):
            return grammar.accepts(sid)
        scanner = grammar.scanner(sid)
        line = self.chunk.first_line + text.count("\n", 0, pos)
        at_start = pos == 0 or text[pos - 1] == "\n"
        while pos < len(text):
            end = text.index("\n", pos)
            rest = text[pos:end]
            token = scanner.memo.get(rest) or scanner.read(text, pos, rest)
            step = grammar.step(sid, token[0]) if token is not None else None
            if token is None or step is None:
                if not (at_start and policy_for(grammar).judge(rest, self.names) is not None):
                    return False
                self.noted.append(line)
                pos, line = end + 1, line + 1
                continue
            sid, _, scanner, _ = step
            pos += token[2]
            at_start = token[3]
            line += at_start
        return grammar.accepts(sid)

    def _from_lark(self) -> ParseResult:
        """When the fast scan stops: Lark's parser raises its error (or, should
        the two ever disagree, gives its tokens, which a fresh builder replays)."""
        return type(self)(self.file, self.chunk, self.text, self.grammar).replay(self._lark_lines())

    @classmethod
    def _plan(cls, grammar: LineGrammar) -> _Start:
        """Per parser stack, what each terminal read there does for this
        builder: the grammar's step with the handler folded in (filled as
        the scans meet them), and where a scan starts (see :data:`_Start`)."""
        sid, scanner, _ = grammar.begin()
        plan: _Plan = {sid: {}}
        cls._plans[grammar] = start = (plan, sid, scanner.memo, scanner.read, plan[sid])
        return start

    def _plan_step(self, plan: _Plan, sid: int, kind: str) -> _Step | None:
        step = self.grammar.step(sid, kind)
        if step is None:
            return None
        nxt, keep, scanner, _ = step
        handler = self._dispatch.get(kind, _no_handler) if keep else _ignore
        player = self._player_field(kind) if keep else None
        plan[sid][kind] = found = (nxt, handler, player, scanner.memo, scanner.read, plan.setdefault(nxt, {}))
        return found

    def replay(self, tokens: list[Line]) -> ParseResult:
        """Build from a list of line tokens (Lark's own, on the reference path)."""
        offset = self.chunk.first_line - 1
        line = self.chunk.first_line
        try:
            for kind, f, at, start, end in tokens:
                line = at + offset
                handler, index = self._dispatch[kind], self._player_field(kind)
                if index is not None and self.names and f[index] not in self.unique_names:
                    f = self._resplit(kind, self.text[start:end], index) or f
                handler(self, kind, f, line)
        except SkipHand as skip:
            return self._skipped(skip)
        except _LINE_ERRORS as error:
            raise BuildError(f"{line}\x00{error}") from None
        return self._hand()

    def _hand(self) -> Hand:
        events = self.finish()  # may also fix up the seats
        header = self.header
        first = self.chunk.first_line
        if header is None:
            try:
                header = self.final_header()
            except (ValueError, KeyError, ArithmeticError) as error:
                raise BuildError(f"{first}\x00{error}") from None
        newlines = self.newlines if self.newlines is not None else self.text.count("\n")
        last = first + newlines - 1
        return make_hand(self.file, first, last, header, tuple(self.seats), tuple(events))

    def _skipped(self, skip: SkipHand) -> Skipped:
        # named by the site as its hands' headers are (its format's name, tests/test_text_sites_fast.py): made once,
        # not again by parse.py to fill the site (a mixed log's other games are skipped by the hundred)
        return make_skipped(self.file, self.chunk.first_line, self.head.get("hand_id"), skip.game, skip.reason,
                            self.SITE or None)  # fmt: skip

    def _player_field(self, kind: str) -> int | None:
        """The index of the player among a ``kind`` line's fields, or None (no player)."""
        return None if kind in self.NOT_PLAYERS else self.grammar.name_field.get(kind)

    def _resplit(self, kind: str, text: str, index: int) -> Fields | None:
        """Re-read a line whose player the lazy regex cut at the wrong place
        (names may hold brackets, colons, ...): try the seated names."""
        regex = self.grammar.regex[kind]
        match = regex.match(text)
        if match is None:
            return None
        start = match.start(index + 1)
        prefix = text[:start]
        for name in sorted(self.names, key=len, reverse=True):
            if text.startswith(name, start):
                again = regex.match(prefix + "X" + text[start + len(name) :])
                if again and again.group(index + 1) == "X":  # the name ends where the seated one does
                    groups = list(again.groups())
                    groups[index] = name
                    return tuple(groups)
        return None

    def hand_cancelled(self, kind: str, f: Fields, line: int) -> None:
        """The site's cancel line (common.lark's HAND_CANCELLED): the hand is skipped.
        One that names another hand may belong to another hand's text: it rejects."""
        if not self._names_this_hand(f):
            raise ValueError(f"the cancel line names hand #{f[0]}, not this hand (#{self.head.get('hand_id')})")
        raise HandCancelled(self.header.game if self.header is not None else self.head.get("game", ""))

    def _names_this_hand(self, f: Fields) -> bool:
        """True when a cancel line's hand id is this hand's (or either names none)."""
        named = self.head.get("hand_id")
        return named is None or f[0] is None or f[0] == named

    def line_text(self, line: int) -> str:
        """The text of the hand's line ``line`` (a file line, as handlers are given it),
        without its newline. Handlers that read their line's text are few (chatter, a
        few sites' summary lines): they ask with their line, so that the scan need not
        store each line's offset on the builder (issue 34: a store a line, every line)."""
        return self._text_lines[line - self.chunk.first_line]

    @functools.cached_property
    def _text_lines(self) -> list[str]:
        """The hand's lines (:func:`~studbook.sites.base.hand_lines`), split when a handler
        first asks for one."""
        return hand_lines(self.text)

    # -- hooks -----------------------------------------------------------------
    def final_header(self) -> HandHeader:
        """The header once every line is read, for sites that assemble it from
        several lines (others set ``self.header`` from a line)."""
        raise ValueError(self.NO_HEADER)

    def finish(self) -> list[Event]:
        """The events once every line is read (a site may fix them up here)."""
        return self.events

    def emit(self, event: Event) -> None:
        self.events.append(event)

    # -- handlers shared by sites: markers, and lines "<player> <verb> <amount>" ----
    def skip(self, kind: str, f: Fields, line: int) -> None:
        pass

    def other_game(self, kind: str, f: Fields, line: int) -> None:
        """The header's game is another game (:attr:`OTHER_GAME`): the hand is skipped."""
        assert self.OTHER_GAME is not None
        raise self.OTHER_GAME.skip(f)

    def hand_number(self, kind: str, f: tuple[str], line: int) -> None:
        self.head["hand_id"] = f[0]

    def player_ante(self, kind: str, f: Fields, line: int) -> None:
        self.add_ante(line, str(f[0]), self.read(str(f[1])))

    def third_street(self, kind: str, f: Fields, line: int) -> None:
        self.start_street(line, THIRD)

    def street_named(self, kind: str, f: Fields, line: int) -> None:
        self.start_street(line, self.STREETS[str(f[0])])

    def street_terminal(self, kind: str, f: Fields, line: int) -> None:
        self.start_street(line, STREET_TERMINALS[kind])

    def showdown_marker(self, kind: str, f: Fields, line: int) -> None:
        self.add_showdown(line)

    def no_low_marker(self, kind: str, f: Fields, line: int) -> None:
        self.add_no_low(line)

    def player_bring_in(self, kind: str, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), BRING_IN, chips=self.read(str(f[1])))

    def player_bet(self, kind: str, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), BET, chips=self.read(str(f[1])))

    def player_call(self, kind: str, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), CALL, chips=self.read(str(f[1])))

    def player_raise_by_chips(self, kind: str, f: Fields, line: int) -> None:
        """A raise written as the chips it puts in."""
        self.add_action(line, str(f[0]), RAISE, chips=self.read(str(f[1])))

    def player_all_in(self, kind: str, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), RAISE, chips=self.read(str(f[1])), all_in=True)

    def player_check(self, kind: str, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), CHECK)

    def player_fold(self, kind: str, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), FOLD)

    # -- header, seats, antes ------------------------------------------------------
    def make_header(self, *, hand_id: str, game: str, small: str, big: str, ante: str | None = None,
                    bring_in: str | None = None, tournament: Tournament | None = None,
                    currency: str | None = None, play_money: bool = False, mix: str | None = None,
                    table: str = "", max_seats: int | None = None, button: int | None = None,
                    started: str = "", started_utc: datetime | None = None,
                    read: Callable[[Any], Money] = amount) -> None:  # fmt: skip
        """Set the header from written stakes, each figure read with ``read`` (:data:`cash_amount`
        for a cash game whose log names no currency); a game that is not stud skips the hand."""
        variant = stud_variant(game)
        if variant is None:
            raise SkipHand(game, skip_reason(game))
        stakes = make_stakes(read(small), read(big), read(ante) if ante else None,
                         read(bring_in) if bring_in else None)  # fmt: skip
        self.header = make_header(self.SITE, hand_id, variant, stud_structure(game), game, stakes, currency,
                              play_money, tournament, mix, table, max_seats, button, started, started_utc)  # fmt: skip

    def stakes_from_betting(self) -> tuple[Money, Money]:
        """Small and big bet read off the betting, for headers that do not give them:
        the bets' (:meth:`Ledger.stakes`), else twice the bring-in as the small bet."""
        ledger = self.ledger
        found = ledger.shown_stakes()
        if found is None and ledger.bring_in:
            found = fixed_stakes(ledger.bring_in * 2, None)
        if found is None:
            raise ValueError("neither the header nor the betting gives the stakes")
        return found

    def seat_name(self, player: str) -> None:
        """Note a seated player's name. A line naming a player whose name
        another seated name starts with ("Bob" and "Bob:") is read again with
        the seated names, longest first (see :meth:`_resplit`)."""
        # In sorted order the names a name starts follow it at once, so the
        # neighbours of its place tell every new prefix (a name that starts it
        # and is not just before it starts that one too: it is noted already).
        # (the names another starts are ``names - unique_names``, read by no reader: not kept apart)
        names, unique = self.names, self.unique_names
        if player in names:  # seated twice: a name that starts a seated one
            unique.discard(player)
            return
        ordered = self.ordered_names
        at = bisect.bisect(ordered, player)
        if at == len(ordered) or not ordered[at].startswith(player):
            unique.add(player)
        if at and player.startswith(ordered[at - 1]):
            unique.discard(ordered[at - 1])
        ordered.insert(at, player)
        names.add(player)

    def add_seat(self, line: int, seat: int, player: str, stack: Money, sitting_out: bool = False) -> None:
        self.seat_name(player)
        if sitting_out:
            self.sitting_out.add(player)
        self.ledger.seat(player, stack)
        self.seats.append(make_seat(self.file, line, seat, player, stack, sitting_out, False))

    def add_ante(self, line: int, player: str, chips: Money, all_in: bool = False) -> None:
        self.anted.add(player)
        all_in = self.ledger.post_ante(player, chips) or all_in
        self.emit(make_ante(self.file, line, player, chips, all_in))

    def settle_seats(self) -> None:
        """At the deal: a seat marked sitting out is dealt in when it anted."""
        if not self.anted or not self.sitting_out:
            return
        self.seats = [
            dataclasses.replace(s, sitting_out=s.player in self.sitting_out and s.player not in self.anted)
            if s.sitting_out != (s.player in self.sitting_out and s.player not in self.anted) else s
            for s in self.seats
        ]

    # -- streets and cards -----------------------------------------------------------
    def start_street(self, line: int, street: Street) -> None:
        if self.street is None:
            self.settle_seats()
        self.street = street
        self.ledger.start(street)
        self.emit(make_street(self.file, line, street))

    def next_street(self, line: int) -> None:
        """Start the street after the current one (sites without street markers)."""
        if self.street is None:
            self.start_street(line, THIRD)
        elif self.street < SEVENTH:
            self.start_street(line, Street(self.street + 1))
        else:
            raise ValueError("cards dealt after 7th street")

    def add_deal(self, line: int, player: str, *, down: tuple[Card, ...] = (), up: tuple[Card, ...] = (),
                 before: tuple[Card, ...] = ()) -> None:  # fmt: skip
        """Cards dealt to ``player`` on the current street, as down and up cards."""
        street = self.street
        if street is None:
            raise ValueError("cards dealt before 3rd street")
        self.ledger.in_hand[player] = None
        seen = self.known.setdefault(player, [])
        if street is THIRD:
            seen.extend(list(down) + [None] * (2 - len(down)) + list(up))
        else:
            seen.extend(up or down or (None,))
        self.emit(make_deal(self.file, line, player, street, down, up, before))

    def add_bracketed_deal(self, line: int, player: str, first: str, second: str | None) -> None:
        """A PokerStars-like deal line's brackets: on 3rd street "[a b] [c]", "[c]" or
        "[a b c]" (:func:`third_street_deal`), later "[cards before] [new]" or "[new]"."""
        shown, new = cards(first), cards(second) if second else ()
        if self.street is THIRD:
            down, up = third_street_deal(shown, new)
            self.add_deal(line, player, down=down, up=up)
        elif self.street is SEVENTH:
            self.add_deal(line, player, before=shown if new else (), down=new or shown)
        else:
            self.add_deal(line, player, before=shown if new else (), up=new or shown)

    def add_new_cards(self, line: int, player: str, shown: tuple[Card, ...], *, before: tuple[Card, ...] = (),
                      hidden_down: int = 0) -> None:  # fmt: skip
        """The street's new cards in dealing order; ``hidden_down`` is how many
        leading down cards the log hid (opponents' hole cards)."""
        if self.street is THIRD:
            known_down = max(2 - hidden_down, 0)
            self.add_deal(line, player, down=shown[:known_down], up=shown[known_down:], before=before)
        elif self.street is SEVENTH:
            self.add_deal(line, player, down=shown, before=before)
        else:
            self.add_deal(line, player, up=shown, before=before)

    # -- betting -----------------------------------------------------------------------
    def add_action(self, line: int, player: str, kind: ActionKind, *, chips: Money | None = None,
                   to: Money | None = None, by: Money | None = None, all_in: bool = False) -> None:  # fmt: skip
        """An action from what the site wrote: ``chips`` put in, street total ``to``
        or raise increment ``by`` (see :meth:`Ledger.act`)."""
        if self.street is None:
            raise ValueError("betting before 3rd street")
        kind, value, total, all_in, _put = self.ledger.act(player, kind, chips, to, by, all_in)
        self.emit(make_action(self.file, line, player, kind, value, total, all_in))

    def add_uncalled(self, line: int, player: str, chips: Money) -> None:
        self.ledger.returned(player, chips)
        self.emit(make_uncalled(self.file, line, player, chips))

    # -- showdown and award ------------------------------------------------------------
    def add_showdown(self, line: int) -> None:
        self.at_showdown = True
        self.emit(make_showdown(self.file, line))

    def open_showdown(self, line: int) -> None:
        """A showdown the log does not mark: before the first card shown while two or more are live."""
        if not self.at_showdown and len(self.ledger.live()) >= 2:
            self.add_showdown(line)

    def add_show(self, line: int, player: str, shown: tuple[Card, ...], description: str | None = None) -> None:
        if self.IMPLIED_SHOWDOWN:
            self.open_showdown(line)
        self.emit(make_show(self.file, line, player, shown, description or None))

    def add_muck(self, line: int, player: str, shown: tuple[Card, ...] = ()) -> None:
        if self.IMPLIED_SHOWDOWN:
            self.open_showdown(line)
        self.emit(make_muck(self.file, line, player, shown))

    def add_noshow(self, line: int, player: str) -> None:
        self.emit(make_no_show(self.file, line, player))

    def add_collect(self, line: int, player: str, chips: Money, pot: int = 0, half: Half | None = None) -> None:
        self.ledger.won(player, chips)
        self.emit(make_collect(self.file, line, player, chips, pot, half))

    def add_no_low(self, line: int) -> None:
        self.emit(make_no_low(self.file, line))

    def add_total(self, line: int, total: Money, rake: Money | None, pots: tuple[Money, ...] = ()) -> None:
        self.emit(make_pot_summary(self.file, line, total, rake, pots))

    def add_seat_summary(self, line: int, seat: int, player: str, outcome: str,
                         shown: tuple[Card, ...] = (), won: Money | None = None) -> None:  # fmt: skip
        self.emit(make_seat_summary(self.file, line, within_count(seat, "seat number"), player, outcome, shown, won))

    def add_chatter(self, line: int, kind: ChatterKind, player: str | None = None, text: str | None = None) -> None:
        """Table talk; ``text`` defaults to the whole line as written. A seated player's
        sitting out before the deal marks the seat sitting out, as the line policy's does."""
        if kind is SIT_OUT and player is not None and self.street is None:
            self.sitting_out.add(player)
        written = text if text is not None else self.line_text(line).rstrip()
        self.emit(make_chatter(self.file, line, kind, written, player))

    def add_finish(self, line: int, player: str, place: str | None, prize: str | None) -> None:
        """A tournament finish as the line states it (no place written: the winner's, 1)."""
        self.emit(TournamentFinish(file=self.file, line=line, kind=ChatterKind.OTHER, text=self.line_text(line).rstrip(),
                                   player=player, place=within_count(int(place), "tournament place", MAX_PLACE) if place else 1,
                                   prize=amount(prize) if prize else None))  # fmt: skip


# ---------------------------------------------------------------------------
# The format object and error messages


@dataclass(eq=False)
class _OtherGames:
    """A site's hands of another game (:class:`OtherGame`, its builder's) skipped from
    their first line (issue 34: a mixed log's other games are read by the hundred)
    by the pass that reads it (:meth:`LineGrammar.first_line_pass`, made when first
    needed: a log of stud hands never needs it, nor a one-hand check's start-up).

    Other games come in runs (a mix's rotation, a log of one game): a hand is tried
    from its first line while ``running``, that is while the hands read before it
    were skipped; after a hand the builder read, the next one is read by the builder
    until it skips one. Either way a hand comes out the same (the builder's result):
    a log of stud hands is not read twice at each header, a mix's other games made
    by a builder once a run. While running, the split offers it each hand
    (:meth:`LineFormat.hands`), so a run is read in the split's loop."""

    other: OtherGame
    grammar: Callable[[], LineGrammar]
    site: str | None
    # what a hand's text must start with (the format's), or None when every header the split
    # finds does (a skipped hand's regex match fewer, issue 34); parse_hand tests it before
    starts: re.Pattern[str] | None
    running: bool = False

    @functools.cached_property
    def first_line(self) -> FirstLinePass[_Named] | None:
        """The pass, or None when the hand id is not in a first line's first token
        or the grammar cannot make one. It remembers, by a header's rest, the game
        it names (:meth:`_named`): a log's few other games, their hands skipped by
        the hundred (no call a hand, issue 34)."""
        other = self.other
        found = self.grammar().first_line_pass(other.terminal, (other.terminal,), self._named)
        return found if found is not None and found.first == other.hand_id[0] else None

    @functools.cached_property
    def _games(self) -> Callable[[Fields], Fields]:
        """What takes the pass's groups that may name the game, in order (two at least: a tuple)."""
        assert self.first_line is not None
        other = self.other
        games = [place[index] - 1 for place in self.first_line.fields[other.terminal] for index in other.game_fields]
        return operator.itemgetter(*games, *games[:1])

    def _named(self, groups: Fields) -> _Named:
        """The game the pass's ``groups`` name, why such a hand is skipped, and
        whether the game's name is damaged."""
        game = self.other.game(self._games(groups))
        return game, skip_reason(game), damaged(game)

    def read(self, context: tuple[str, int, bool], hand: str, line: int) -> Skipped | None:
        """The hand whose text is ``hand`` (starting on line ``line`` of the text it was
        split from) skipped from its first line, as the builder would skip it, or None:
        the hand over the size limit (rejected unread), not starting as a hand must
        (not a hand: tested unless every header starts so), a first line the pass
        does not read (then the run ends: the builder reads the hand), or, with
        ``whole``, a game whose name is damaged (rejected by the screen). ``context``:
        (the file, how many lines the split text's are past the file's, ``whole``).
        Asked while running.

        :meth:`LineFormat.parse_hand` reads a hand so; the split offers it each hand
        of a text but the first (:meth:`LineFormat.hands`), so a run of other games is
        read in the split's loop, with no ``HandText``, no ``parse_hand``, no screen."""
        if len(hand) > limits.MAX_HAND_CHARS:
            return None
        first_line = self.first_line
        if first_line is None or (self.starts is not None and not self.starts.match(hand)):
            return None
        found = first_line.match(hand)
        if found is None:
            self.running = False
            return None
        first, (game, reason, damaged_name) = found
        file, shift, whole = context
        if whole and damaged_name:
            return None
        return make_skipped(file, line + shift, first[self.other.hand_id[1]], game, reason, self.site)


# (game, why skipped, whether the game's name is damaged), as _OtherGames reads a header's rest
_Named = tuple[str, str, bool]


@dataclass(frozen=True)
class LineFormat:
    """A :class:`~studbook.sites.base.SiteFormat` read with a line grammar and a :class:`LineBuilder`."""

    name: str
    grammar_name: str  # grammars/<grammar_name>.lark
    builder: type[LineBuilder]
    header: re.Pattern[str]  # a hand's first line (re.M); group 1 the hand id when known
    kinds: Mapping[str, str]  # terminal -> what it is called in messages
    # what a file of this site holds (several: any of them); defaults to ``header``
    detector: re.Pattern[str] | tuple[re.Pattern[str], ...] | None = None
    starts: re.Pattern[str] | None = None  # what a hand's text must start with; defaults to ``header``
    # searched in a rejected hand's first line (in its whole text when the
    # pattern is re.M); group 1 if it has groups. Defaults to ``header``.
    hand_id_pattern: re.Pattern[str] | None = None
    summary: re.Pattern[str] | None = None  # a tournament summary file of this site
    summary_note: str = ""
    splitter: Callable[[str, re.Pattern[str]], Iterator[HandText]] = split_at_headers
    truncated_hint: Callable[[str], str | None] | None = None  # a site's diagnosis of a cut hand
    title: str = ""  # the site as messages name it; defaults to ``name``

    def detect(self, head: str) -> bool:
        return bool(self._first_header(head))

    @functools.cached_property
    def _first_header(self) -> Callable[[str], list[int]]:
        """The splitter's search for a header, first match only: it tries a
        ``^literal`` pattern only where a line starts with the literal."""
        detector = self.detector or self.header
        if isinstance(detector, re.Pattern):
            return header_starts(detector, first_only=True)
        finders = [header_starts(pattern, first_only=True) for pattern in detector]
        return lambda head: next((found for find in finders if (found := find(head))), [])

    def describe(self, head: str) -> str | None:
        """Why a file that is not a hand history is not one, when recognisable."""
        if self.summary is not None and self.summary.search(head):
            return self.summary_note
        return None

    def split(self, text: str) -> Iterator[HandText]:
        return self.splitter(text, self.header)

    def hands(self, text: str, file: str, shift: int) -> Iterator[HandText | list[Skipped]]:
        """:meth:`split`, with the hands of a run of another game's read on the split's
        way (:meth:`_OtherGames.read`): each such hand's result, as parse.py would
        have it from :meth:`parse_hand`, in its place (lines ``shift`` past ``text``'s),
        the results of hands read in a row in one list."""
        other_games = self._other_games
        if other_games is None or self.splitter is not split_at_headers:
            return self.split(text)
        # a hand whose game's name is damaged is left to the general way (parse.py's screen rejects it)
        return split_at_headers(text, self.header, other_games, (file, shift, True))

    def grammar(self) -> LineGrammar:
        return load_grammar(self.grammar_name)

    def parse_hand(self, chunk: HandText, file: str) -> ParseResult:
        text = chunk.text if chunk.text.endswith("\n") else chunk.text + "\n"
        literal = self._literal_start
        if not (text.startswith(literal) if literal is not None else (self.starts or self.header).match(text)):
            if self.plays_nothing(text):  # a table notice, chat or a timer between two hands
                first = text.lstrip().split("\n", 1)[0]
                return Skipped(file, chunk.first_line, None, repr(first[:MAX_TEXT_SHOWN]), NO_PLAY_BETWEEN_HANDS,
                               site=self.name)
            return self.reject(chunk, file, chunk.first_line, f"text outside any hand (no {self.title or self.name} hand header)")
        # a hand of another game is skipped from its first line, as the builder would skip it (OtherGame)
        other_games = self._other_games
        if other_games is not None and other_games.running and (
                skipped := other_games.read((file, 0, False), text, chunk.first_line)) is not None:
            return skipped
        try:
            result = self.builder(file, chunk, text, self.grammar()).build()
        except LineGrammarError as failure:
            line, reason = self.explain(failure.error, chunk, text, failure)
            return self.reject(chunk, file, line, reason)
        except BuildError as error:
            where, _, reason = str(error).partition("\x00")
            return self.reject(chunk, file, int(where), reason)
        except Exception as error:  # noqa: BLE001 - a parser never raises on input
            return self.reject(chunk, file, chunk.first_line, f"internal error: {error!r}")
        if other_games is not None:
            other_games.running = type(result) is Skipped
        return result

    @functools.cached_property
    def _literal_start(self) -> str | None:
        """What a hand's text must start with (``starts``, else ``header``) when that is
        literal text alone: tested with ``str.startswith``, not a regex's match, on every hand."""
        return literal_text(self.starts or self.header)

    @functools.cached_property
    def _other_games(self) -> _OtherGames | None:
        """The builder's :class:`OtherGame`, to skip hands from their first line, or None."""
        other = self.builder.OTHER_GAME
        if other is None:
            return None
        starts = self.starts or self.header
        return _OtherGames(other, self.grammar, self.builder.SITE or self.name,
                           None if starts_every_match(self.header, starts) else starts)

    def plays_nothing(self, text: str) -> bool:
        """Whether every line of ``text``, text outside any hand, is a note by the line
        policy (no seat is known there: a line with an amount or a card may be a play;
        a hand in a header form the site does not read has such lines) and none is
        damaged (control characters, bytes the decoder replaced: a damaged play, maybe)."""
        if _DAMAGED.search(text):
            return False
        policy = policy_for(self.grammar())
        return all(policy.judge(line, ()) is not None for line in text.split("\n"))

    def explain(self, error: UnexpectedInput, chunk: HandText, text: str,
                failure: LineGrammarError | None = None) -> tuple[int, str]:  # fmt: skip
        """The file line and a readable reason for a Lark error."""
        last = chunk.first_line + chunk.text.rstrip("\n").count("\n")
        line = chunk.first_line + max(getattr(error, "line", 1) or 1, 1) - 1
        numbers = failure.line_of if failure is not None else None
        if numbers:  # Lark read the hand without its noted lines
            line = chunk.first_line + numbers[min(line - chunk.first_line, len(numbers) - 1)] - 1
        hint = self.truncated_hint(text) if self.truncated_hint else None
        if hint:
            return line, hint
        if isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END"):
            return last, f"hand ends early, truncated? (expected {self.expected(error)})"
        if not isinstance(error, (UnexpectedCharacters, UnexpectedToken)):
            return line, str(error).splitlines()[0]
        return line, self._line_reason(error, _line_of(chunk, line), line == chunk.first_line)

    def _line_reason(self, error: UnexpectedCharacters | UnexpectedToken, written: str, first: bool) -> str:
        """Why the line ``written`` (``first``: the hand's first) stopped the grammar: a stud
        game's line in a form it does not know where it reads the game, a line of a known
        kind in a form it does not know, a line of a known kind out of its place, or an
        unknown line."""
        policy = policy_for(self.grammar())
        names = _names(error)
        if policy.unknown_stud_header(written, names) or (first and names_stud(written)):
            return UNKNOWN_STUD_HEADER
        token = error.token.type if isinstance(error, UnexpectedToken) else None
        unread = token is None or policy.reads_any(token)  # no terminal of the grammar reads it
        if unread and first:
            return UNRECOGNISED_HEADER
        form = policy.form_of(written, names)  # a kind the grammar reads here: in a form it does not know
        if form is not None:
            kind = self.kinds.get(form, form)
            article = "an" if kind.lstrip("'")[:1] in "aeiou" else "a"
            return f"{article} {kind} {UNKNOWN_FORM}"
        if unread:
            return f"unknown line (expected {self.expected(error)})"
        return f"{self.kinds.get(str(token), str(token))} out of place (expected {self.expected(error)})"

    def expected(self, error: UnexpectedInput) -> str:
        """The line kinds the parser would have accepted, chatter left out."""
        kinds = {self.kinds.get(n, n) for n in _names(error) if not n.startswith("_") and n != "CHATTER"}
        shown = sorted(kinds - _CHATTER_KINDS)
        if len(shown) > 8:
            shown = shown[:8] + ["..."]
        return ", ".join(shown) or "nothing"

    def reject(self, chunk: HandText, file: str, line: int, reason: str) -> Rejected:
        text = _line_of(chunk, line)
        pattern = self.hand_id_pattern
        if pattern is not None:
            found = pattern.search(chunk.text if pattern.flags & re.M else chunk.text.split("\n", 1)[0])
            hand_id = found.group(1 if pattern.groups else 0) if found else None
        else:
            found = self.header.match(chunk.text)
            hand_id = found.group(1) if found and found.groups() else None
        return Rejected(file, line, chunk.first_line, reason, text, hand_id)


def _names(error: UnexpectedInput) -> Collection[str]:
    """The terminals the parser would have accepted where ``error`` stopped it."""
    return getattr(error, "expected", None) or getattr(error, "allowed", None) or ()


def _line_of(chunk: HandText, line: int) -> str:
    """The text of file line ``line`` of a hand, without its newline ("" past its end)."""
    lines = chunk.text.split("\n")
    index = line - chunk.first_line
    return lines[index].rstrip() if 0 <= index < len(lines) else ""


__all__ = [
    "ACTION_TERMINALS", "AMOUNTS", "CARDS", "CASH_AMOUNTS", "CHATTER_TERMINALS", "COMMON_KINDS", "OUTCOMES", "STREET_TERMINALS", "UNKNOWN_FORM",
    "UNKNOWN_STUD_HEADER", "UNRECOGNISED_HEADER", "ZERO", "ZONES",
    "BuildError", "Fields", "HandCancelled", "Head", "Ledger", "LineBuilder", "LineFormat", "OtherGame", "PlayerAmount", "PlayerOnly", "SkipHand", "amount", "cards", "cash_amount",
    "dedupe", "game_variant", "local_to_utc", "not_shown_as_mucks", "pot_number", "skip_reason", "stud_structure",
    "stud_variant", "summary_outcome", "third_street_deal", "to_utc",
]
