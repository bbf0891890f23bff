"""PokerStars: 7 Card Stud, Stud Hi/Lo and Razz hand histories.

The grammar (``grammars/pokerstars.lark``) has one terminal per line kind
and rules that fix the order of sections, so the LALR parser both classifies
the lines and checks the structure of the hand in one pass, without a tree
(every rule is inlined: a parse is the hand's flat list of line tokens).
:class:`~studbook.read.grammar.LineGrammar` runs Lark's tables with a lean
loop; :class:`_Builder` turns the tokens into events, each line's fields
being the regex groups of its terminal.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Callable, Iterator, Optional
from zoneinfo import ZoneInfo

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from studbook.cards import Card, parse_cards
from studbook.events import (
    Action, ActionKind, BettingCapped, Chatter, ChatterKind, Collect, Deal, DealCommunity,
    Event, Hand, HandHeader, Muck, NoLowHand, NoShow, OpenPairNotice, ParseResult, PostAnte,
    PotSummary, Rejected, Seat, SeatSummary, Show, ShowdownStart, Skipped, Stakes, Street,
    StreetStart, Structure, Tournament, UncalledReturned, Variant,
)
from studbook.money import currency_of, parse_amount
from studbook.read import split_at_headers
from studbook.read.grammar import Line, LineGrammar, LineGrammarError
from studbook.read.records import maker
from studbook.sites.base import HandText

GRAMMAR_DIR = Path(__file__).resolve().parents[3] / "grammars"
GRAMMAR = GRAMMAR_DIR / "pokerstars.lark"

HEADER_START = re.compile(r"^PokerStars (?:Home Game )?(?:Zoom )?(?:Hand|Game) #(\d+)", re.M)
_TOURNEY_SUMMARY = re.compile(r"^PokerStars Tournament #\d+", re.M)

# Time-zone abbreviations PokerStars writes; each is a region, so daylight
# saving time follows the date ("CET" in April is UTC+2, as PokerStars means).
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

# What each line kind is called in messages.
KINDS: dict[str, str] = {
    "HAND_NO": "hand header", "CLUB": "home-game club", "TOURNEY": "tournament id",
    "STUD_CASH": "game and stakes", "STUD_MIX": "game and stakes", "STUD_TOURNEY": "game",
    "OTHER_GAME": "game", "LEVEL": "tournament level", "TIME": "start time",
    "TABLE": "table line", "SEAT": "seat line", "ANTE": "ante",
    "THIRD": "*** 3rd STREET ***", "FOURTH": "*** 4th STREET ***", "FIFTH": "*** 5th STREET ***",
    "SIXTH": "*** 6th STREET ***", "RIVER": "*** RIVER ***", "DEAL": "'Dealt to' line",
    "BRING_IN": "bring-in", "COMPLETE": "completion", "BET": "bet", "CALL": "call",
    "RAISE": "raise", "CHECK": "check", "FOLD": "fold", "CAPPED": "'Betting is capped'",
    "PAIR_ON_BOARD": "'Pair on board' notice", "UNCALLED": "uncalled bet returned",
    "SHOWDOWN": "*** SHOW DOWN ***", "SHOW": "shows", "MUCK": "mucks", "NOSHOW": "doesn't show",
    "COLLECT": "collected", "NO_LOW": "'No low hand qualified'", "SUMMARY": "*** SUMMARY ***",
    "TOTAL": "'Total pot' line", "BOARD": "'Board' line", "SEAT_SUMMARY": "summary seat line",
    "SAID": "chat", "JOIN": "join", "LEAVE": "leave", "SIT_OUT": "sitting out",
    "RETURN": "return", "DISCONNECT": "disconnect", "RECONNECT": "reconnect",
    "TIMEOUT": "timeout", "CHATTER_OTHER": "table message", "$END": "end of hand",
}

_STREET_OF = {
    "THIRD": Street.THIRD, "FOURTH": Street.FOURTH, "FIFTH": Street.FIFTH,
    "SIXTH": Street.SIXTH, "RIVER": Street.SEVENTH,
}
_ACTION_OF = {
    "BRING_IN": ActionKind.BRING_IN, "COMPLETE": ActionKind.COMPLETE, "BET": ActionKind.BET,
    "CALL": ActionKind.CALL, "RAISE": ActionKind.RAISE, "CHECK": ActionKind.CHECK,
    "FOLD": ActionKind.FOLD,
}
_CHATTER_OF = {
    "JOIN": ChatterKind.JOIN, "LEAVE": ChatterKind.LEAVE, "SIT_OUT": ChatterKind.SIT_OUT,
    "RETURN": ChatterKind.RETURN, "DISCONNECT": ChatterKind.DISCONNECT,
    "RECONNECT": ChatterKind.RECONNECT, "TIMEOUT": ChatterKind.TIMEOUT,
    "CHATTER_OTHER": ChatterKind.OTHER,
}
# Terminals whose first group is the player at the start of the line (or after
# a fixed prefix): the builder re-splits these with the seated names when the
# lazy regex picked a name nobody sits under (names may hold brackets).
_PLAYER_GROUP = {
    "ANTE": 0, "DEAL": 0, "BRING_IN": 0, "COMPLETE": 0, "BET": 0, "CALL": 0, "RAISE": 0,
    "CHECK": 0, "FOLD": 0, "SHOW": 0, "MUCK": 0, "NOSHOW": 0, "COLLECT": 0, "SEAT_SUMMARY": 1,
}
_REAL_BUY_IN = re.compile(r"[$€£]|Freeroll|[A-Z]{2}")
_SIDE_POT = re.compile(r"Side pot(?:-[0-9]+)? ([$€£]?[0-9][0-9,]*(?:\.[0-9]+)?)\.")
_OUTCOME_CARDS = re.compile(r"(?:showed|mucked) \[([^\]]*)\]")
_OUTCOME_WON = re.compile(r"(?:won|collected) \(([^)]*)\)")

Fields = tuple[Optional[str], ...]

amount = functools.lru_cache(maxsize=8192)(parse_amount)
cards = functools.lru_cache(maxsize=8192)(parse_cards)


@functools.cache
def grammar() -> LineGrammar:
    """The compiled grammar, one per process."""
    return LineGrammar(GRAMMAR)


def game_variant(game: str) -> Variant:
    lowered = game.lower()
    if "razz" in lowered:
        return Variant.RAZZ
    return Variant.STUD8 if "hi/lo" in lowered else Variant.STUD


def game_structure(game: str) -> Structure:
    lowered = game.lower()
    if "pot limit" in lowered:
        return Structure.POT
    return Structure.NO if "no limit" in lowered else Structure.FIXED


def to_utc(when: str, zone: str | None) -> datetime | None:
    """``2009/11/26 10:27:46`` in a PokerStars zone, as an aware UTC datetime."""
    if zone not in ZONES:
        return None
    day, clock = when.split(" ")
    year, month, date = day.split("/")
    hour, minute, second = clock.split(":")
    local = datetime(int(year), int(month), int(date), int(hour), int(minute), int(second),
                     tzinfo=_zone(ZONES[zone]))  # fmt: skip
    return local.astimezone(timezone.utc)


_zone = functools.lru_cache(maxsize=None)(ZoneInfo)


class BuildError(ValueError):
    """A line the grammar accepted whose content does not make sense."""


class _Builder:
    """Turns the line tokens of one hand into a Hand (or a Skipped)."""

    def __init__(self, file: str, chunk: HandText, text: str, regexes: dict[str, re.Pattern[str]]) -> None:
        self.file = file
        self.chunk = chunk
        self.text = text
        self.start = self.end = 0
        self.offset = chunk.first_line - 1
        self.rx = regexes
        self.events: list[Event] = []
        self.seats: list[Seat] = []
        self.names: set[str] = set()
        self.street = Street.THIRD
        self.head: dict[str, object] = {}
        self.header: HandHeader | None = None
        self.community: Card | None = None

    # -- driver ------------------------------------------------------------
    def build(self, tokens: list[Line]) -> ParseResult:
        dispatch = _DISPATCH
        names = self.names
        offset = self.offset
        line = self.chunk.first_line
        try:
            for kind, f, line, start, end in tokens:
                handler, index = dispatch[kind]
                if index >= 0 and f[index] not in names and names:
                    f = self._resplit(kind, self.text[start:end], index) or f
                handler(self, kind, f, line + offset, start, end)
        except _SkipHand as skip:
            return Skipped(self.file, self.chunk.first_line, str(self.head.get("hand_id")), str(skip))
        except (ValueError, KeyError, ArithmeticError, TypeError) as error:
            raise BuildError(f"{line + offset}\x00{error}") from None
        if self.header is None:
            raise BuildError(f"{self.chunk.first_line}\x00no table line")
        first = self.chunk.first_line
        last = first + self.text.count("\n") - 1
        return Hand(self.file, first, last, self.header, tuple(self.seats), tuple(self.events))

    def _resplit(self, kind: str, text: str, index: int) -> Fields | None:
        """Re-read a line whose player the lazy regex cut at the wrong place
        (names may hold brackets, colons, ...): try the seated names."""
        regex = self.rx[kind]
        match = regex.match(text)
        if match is None:
            return None
        start = match.start(index + 1)
        prefix = text[:start]
        for name in sorted(self.names, key=len, reverse=True):
            if text.startswith(name, start):
                again = regex.match(prefix + "X" + text[start + len(name) :])
                if again:
                    groups = list(again.groups())
                    groups[index] = name
                    return tuple(groups)
        return None

    # -- header ------------------------------------------------------------
    def hand_no(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        home, hand_id = f
        self.head.update(hand_id=hand_id, home=home is not None)

    def club(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        self.head["club"] = f[0]

    def tourney(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        tournament_id, buy_in = f
        self.head.update(tournament_id=tournament_id, buy_in=buy_in)

    def stud_cash(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        game, small, big, code = f
        self.head.update(game=game, stakes=(small, big, code))

    def stud_mix(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        mix, game, small, big, code = f
        self.head.update(mix=mix, game=game)
        if small is not None:
            self.head["stakes"] = (small, big, code)

    def stud_tourney(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        self.head["game"] = f[0]

    def other_game(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        mix, game_in_mix, game = f
        self.head.update(mix=mix, game=game_in_mix or game, other=True)

    def level(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        _round, level, small, big, code = f
        self.head.update(level=level, level_stakes=(small, big, code))

    def time(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        when, zone, other_when, other_zone = f
        assert when is not None
        written = when + (f" {zone}" if zone else "")
        if other_when:
            written += f" [{other_when}" + (f" {other_zone}" if other_zone else "") + "]"
        utc = to_utc(other_when, other_zone) if other_when else None
        self.head.update(started=written, started_utc=utc or to_utc(when, zone))
        if self.head.get("other"):
            raise _SkipHand(str(self.head["game"]))

    def table(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        name, max_seats, play_money, button = f
        self.header = _header(self.head, str(name), max_seats, play_money is not None, button)

    # -- seats, antes, streets ---------------------------------------------
    def seat(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        seat, player, stack, _bounty, status = f
        self.names.add(player)  # type: ignore[arg-type]
        sitting_out = status == " is sitting out"
        self.seats.append(_SEAT(self.file, line, int(seat), player, amount(stack),  # type: ignore[arg-type]
                                sitting_out, bool(status) and not sitting_out))  # fmt: skip

    def ante(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        player, value, all_in = f
        self.events.append(_POST_ANTE(self.file, line, player, amount(value), all_in is not None))

    def street_start(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        self.street = street = _STREET_OF[kind]
        self.events.append(_STREET_START(self.file, line, street))
        if f and f[0]:
            self.community = Card.parse(f[0])
            self.events.append(_DEAL_COMMUNITY(self.file, line, self.community))

    def deal(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        player, first, second, bare = f
        shown = cards(first)
        hidden = False
        try:
            new = cards(second or bare) if (second or bare) else ()
        except ValueError:  # "[of]": a card PokerStars printed but did not show
            new, hidden = (), True
        street = self.street
        if 3 < street < 7:  # the common case: [before] [up]
            self.events.append(_DEAL(self.file, line, player, street, (), new, shown))
            return
        down: tuple[Card, ...] = ()
        up: tuple[Card, ...] = ()
        before: tuple[Card, ...] = ()
        if street == Street.THIRD:
            if new or hidden:
                down, up = shown, new
            elif len(shown) == 1:
                up = shown
            else:
                down, up = shown[:2], shown[2:]
        elif street == Street.SEVENTH:
            before, down = shown, new
        else:
            before, up = shown, new
        self.events.append(_DEAL(self.file, line, player, street, down, up, before))

    # -- betting -------------------------------------------------------------
    def bet(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        """Bring-in, bet, call: one figure, the chips put in."""
        player, value, all_in = f
        self.events.append(_ACTION(self.file, line, player, _ACTION_OF[kind], amount(value), None,
                                   all_in is not None))  # fmt: skip

    def complete(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        player, value, all_in = f
        to = amount(value)
        self.events.append(_ACTION(self.file, line, player, ActionKind.COMPLETE, to, to,
                                   all_in is not None))  # fmt: skip

    def raise_(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        player, value, to, all_in = f
        self.events.append(_ACTION(self.file, line, player, ActionKind.RAISE, amount(value),
                                   amount(to), all_in is not None))  # fmt: skip

    def check_fold(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        self.events.append(_ACTION(self.file, line, f[0], _ACTION_OF[kind], None, None, False))

    def capped(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        self.events.append(BettingCapped(file=self.file, line=line))

    def pair_on_board(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        self.events.append(OpenPairNotice(file=self.file, line=line))

    def uncalled(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        value, player = f
        self.events.append(UncalledReturned(file=self.file, line=line, player=player,  # type: ignore[arg-type]
                                            amount=amount(value)))  # fmt: skip

    # -- showdown and award --------------------------------------------------
    def showdown(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        self.events.append(ShowdownStart(file=self.file, line=line))

    def show(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        player, shown, description = f
        self.events.append(_SHOW(self.file, line, player, cards(shown), description))

    def muck(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        player, shown = f
        self.events.append(_MUCK(self.file, line, player, cards(shown) if shown else ()))

    def noshow(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        self.events.append(NoShow(file=self.file, line=line, player=f[0]))  # type: ignore[arg-type]

    def collect(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        player, value, pot = f
        number = 0
        if pot is not None and pot != "pot" and pot != "main pot":
            number = int(pot[9:]) if pot.startswith("side pot-") else 1
        self.events.append(_COLLECT(self.file, line, player, amount(value), number, None))

    def no_low(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        self.events.append(NoLowHand(file=self.file, line=line))

    # -- summary ---------------------------------------------------------------
    def summary(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        pass

    def total(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        total, main, sides, rake, _extra = f
        pots: tuple[Decimal, ...] = ()
        if main is not None:
            pots = (amount(main), *(amount(side) for side in _SIDE_POT.findall(sides or "")))
        self.events.append(PotSummary(file=self.file, line=line, total=amount(total),
                                      rake=amount(rake), pots=pots))  # fmt: skip

    def board(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        if self.community is None or cards(f[0]) != (self.community,):
            raise ValueError(f"board [{f[0]}] does not match the river's community card")

    def seat_summary(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        seat, player, outcome = f
        assert outcome is not None
        shown = _OUTCOME_CARDS.search(outcome) if "ed [" in outcome else None
        won = [amount(value) for value in _OUTCOME_WON.findall(outcome)] if "(" in outcome else []
        self.events.append(_SEAT_SUMMARY(
            self.file, line, int(seat), player, outcome,  # type: ignore[arg-type]
            cards(shown.group(1)) if shown else (), sum(won, Decimal(0)) if won else None,
        ))  # fmt: skip

    # -- chatter -----------------------------------------------------------------
    def said(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        player, message = f
        self.events.append(Chatter(file=self.file, line=line, kind=ChatterKind.SAID,
                                   text=message or "", player=player))  # fmt: skip

    def chatter(self, kind: str, f: Fields, line: int, start: int, end: int) -> None:
        self.events.append(Chatter(file=self.file, line=line, kind=_CHATTER_OF[kind],
                                   text=self.text[start:end].rstrip(), player=f[0]))  # fmt: skip


def _header(head: dict[str, object], table: str, max_seats: str | None, play_money: bool,
            button: str | None) -> HandHeader:  # fmt: skip
    """The HandHeader from the header's pieces and the table line."""
    game = str(head["game"])
    level = head.get("level")
    buy_in = head.get("buy_in")
    club = head.get("club")
    tournament_id = head.get("tournament_id")
    stakes = head.get("level_stakes") if level is not None else head.get("stakes")
    if stakes is None:
        raise ValueError("the header gives no stakes")
    small: str
    big: str
    code: str | None
    small, big, code = stakes  # type: ignore[misc]
    currency = None
    if level is None:  # chips in tournaments, money at cash tables
        currency = code or currency_of(small[0])
    is_play = play_money or (level is None and currency is None)
    if buy_in is not None and not _REAL_BUY_IN.search(str(buy_in)):
        is_play = True  # a buy-in without a currency: play-money chips
    tournament = None
    if tournament_id is not None or level is not None or club is not None:
        tournament = Tournament(id=str(tournament_id or ""), buy_in=buy_in, level=level,  # type: ignore[arg-type]
                                home_club=club)  # type: ignore[arg-type]  # fmt: skip
    return _HEADER(
        "pokerstars", head["hand_id"], game_variant(game), game_structure(game), game,
        _STAKES(amount(small), amount(big), None, None), currency, is_play, tournament,
        head.get("mix"), table, int(max_seats) if max_seats else None,
        int(button) if button else None, head["started"], head["started_utc"],
    )


_HEADER = maker(HandHeader)
_STAKES = maker(Stakes)
_SEAT = maker(Seat)
_POST_ANTE = maker(PostAnte)
_STREET_START = maker(StreetStart)
_DEAL_COMMUNITY = maker(DealCommunity)
_DEAL = maker(Deal)
_ACTION = maker(Action)
_SHOW = maker(Show)
_MUCK = maker(Muck)
_COLLECT = maker(Collect)
_SEAT_SUMMARY = maker(SeatSummary)


class _SkipHand(Exception):
    """Raised by the builder on a hand of another game; carries the game."""


_HANDLERS: dict[str, Callable[[_Builder, str, Fields, int, int, int], None]] = {
    "HAND_NO": _Builder.hand_no, "CLUB": _Builder.club, "TOURNEY": _Builder.tourney,
    "STUD_CASH": _Builder.stud_cash, "STUD_MIX": _Builder.stud_mix,
    "STUD_TOURNEY": _Builder.stud_tourney, "OTHER_GAME": _Builder.other_game,
    "LEVEL": _Builder.level, "TIME": _Builder.time, "TABLE": _Builder.table,
    "SEAT": _Builder.seat, "ANTE": _Builder.ante, "DEAL": _Builder.deal,
    **{name: _Builder.street_start for name in _STREET_OF},
    "BRING_IN": _Builder.bet, "BET": _Builder.bet, "CALL": _Builder.bet,
    "COMPLETE": _Builder.complete, "RAISE": _Builder.raise_,
    "CHECK": _Builder.check_fold, "FOLD": _Builder.check_fold,
    "CAPPED": _Builder.capped, "PAIR_ON_BOARD": _Builder.pair_on_board,
    "UNCALLED": _Builder.uncalled, "SHOWDOWN": _Builder.showdown, "SHOW": _Builder.show,
    "MUCK": _Builder.muck, "NOSHOW": _Builder.noshow, "COLLECT": _Builder.collect,
    "NO_LOW": _Builder.no_low, "SUMMARY": _Builder.summary, "TOTAL": _Builder.total,
    "BOARD": _Builder.board, "SEAT_SUMMARY": _Builder.seat_summary, "SAID": _Builder.said,
    **{name: _Builder.chatter for name in _CHATTER_OF},
}


# terminal -> (handler, index of the player group or -1)
_DISPATCH = {kind: (handler, _PLAYER_GROUP.get(kind, -1)) for kind, handler in _HANDLERS.items()}


@dataclass(frozen=True, slots=True)
class PokerStarsFormat:
    """PokerStars hand histories (English), stud games."""

    name: str = "pokerstars"

    def detect(self, head: str) -> bool:
        return HEADER_START.search(head) is not None

    def describe(self, head: str) -> str | None:
        """Why a file that is not a hand history is not one, when recognisable."""
        if _TOURNEY_SUMMARY.search(head):
            return "a PokerStars tournament summary, not a hand history"
        return None

    def split(self, text: str) -> Iterator[HandText]:
        return split_at_headers(text, HEADER_START)

    def parse_hand(self, chunk: HandText, file: str) -> ParseResult:
        text = chunk.text if chunk.text.endswith("\n") else chunk.text + "\n"
        if not text.startswith("PokerStars "):
            return _reject(chunk, file, chunk.first_line, "text outside any hand (no PokerStars hand header)")
        rules = grammar()
        try:
            return _Builder(file, chunk, text, rules.regex).build(rules.lines(text))
        except LineGrammarError as failure:
            line, reason = _explain(failure.error, chunk)
            return _reject(chunk, file, line, reason)
        except BuildError as error:
            where, _, reason = str(error).partition("\x00")
            return _reject(chunk, file, int(where), reason)
        except Exception as error:  # noqa: BLE001 - a parser never raises on input
            return _reject(chunk, file, chunk.first_line, f"internal error: {error!r}")


def _explain(error: UnexpectedInput, chunk: HandText) -> tuple[int, str]:
    """The file line and a readable reason for a Lark error."""
    last = chunk.first_line + chunk.text.rstrip("\n").count("\n")
    line = chunk.first_line + max(getattr(error, "line", 1) or 1, 1) - 1
    if isinstance(error, UnexpectedEOF) or (
        isinstance(error, UnexpectedToken) and error.token.type == "$END"
    ):
        expected = _expected(error)
        return last, f"hand ends early, truncated? (expected {expected})"
    if isinstance(error, UnexpectedCharacters) or (
        isinstance(error, UnexpectedToken) and error.token.type == "_OTHER_LINE"
    ):
        if line == chunk.first_line:
            return line, "unrecognised hand header"
        return line, f"unknown line (expected {_expected(error)})"
    if isinstance(error, UnexpectedToken):
        kind = KINDS.get(error.token.type, error.token.type)
        return line, f"{kind} out of place (expected {_expected(error)})"
    return line, str(error).splitlines()[0]


def _expected(error: UnexpectedInput) -> str:
    names = getattr(error, "expected", None) or getattr(error, "allowed", None) or ()
    kinds = sorted({KINDS.get(name, name) for name in names if not name.startswith("_")})
    chatter = {"chat", "join", "leave", "sitting out", "return", "disconnect", "reconnect",
               "timeout", "table message"}  # fmt: skip
    shown = [kind for kind in kinds if kind not in chatter]
    if len(shown) > 8:
        shown = shown[:8] + ["..."]
    return ", ".join(shown) or "nothing"


def _reject(chunk: HandText, file: str, line: int, reason: str) -> Rejected:
    lines = chunk.text.split("\n")
    index = line - chunk.first_line
    text = lines[index].rstrip() if 0 <= index < len(lines) else ""
    found = HEADER_START.match(chunk.text)
    return Rejected(file, line, chunk.first_line, reason, text, found.group(1) if found else None)


FORMAT = PokerStarsFormat()
