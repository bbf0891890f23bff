"""Bovada (Bodog, Ignition): 7 Card Stud and Stud Hi/Lo hand histories.

The grammar (``grammars/bovada.lark``) has one terminal per line kind; the
builder turns the line tokens into events. Bovada writes no names, so a
player is called after the seat, ``Seat+4``. Tournament logs have no street
markers and a header without stakes (``Level 1 (0/0)``): the builder starts
a street when cards are dealt after betting (or to a player already dealt on
the street) and reads the stakes from the betting (bring-in, completion,
the first bets). Amounts are normalised to :mod:`studbook.events`: Bovada
tournaments write a raise as its new total ("Raises 30"), cash games as
"Raises $7.50 to $10" (chips put in, then the total).

The first part of this module is the machinery the line-grammar sites of
this batch share (Bovada, PartyPoker, Winamax, OnGame, Everleaf): a money
ledger that turns what a site writes into events.py amounts, a builder base
and the SiteFormat wrapper.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field, replace
from datetime import datetime, timezone
from decimal import Decimal
from pathlib import Path
from typing import Callable, ClassVar, Iterator, Optional, cast
from zoneinfo import ZoneInfo

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from studbook.cards import Card, parse_cards
from studbook.events import (
    Action, ActionKind, Chatter, ChatterKind, Collect, Deal, Event, Half, Hand, HandHeader, Muck,
    NoLowHand, NoShow, ParseResult, PostAnte, PotSummary, Rejected, Seat, SeatSummary, Show,
    ShowdownStart, Skipped, Stakes, Street, StreetStart, Structure, Tournament, UncalledReturned,
    Variant,
)
from studbook.money import parse_amount
from studbook.read.grammar import Line, LineGrammar, LineGrammarError
from studbook.sites.base import HandText

GRAMMAR_DIR = Path(__file__).resolve().parents[3] / "grammars"

Fields = tuple[Optional[str], ...]
ZERO = Decimal(0)

amount = functools.lru_cache(maxsize=8192)(parse_amount)
cards = functools.lru_cache(maxsize=8192)(parse_cards)


@functools.cache
def line_grammar(name: str) -> LineGrammar:
    """The compiled grammar ``grammars/<name>.lark``, one per process."""
    return LineGrammar(GRAMMAR_DIR / f"{name}.lark")


def local_to_utc(local: datetime, zone: str | None) -> datetime | None:
    """A naive local time in an IANA zone (or fixed offset "+03:00") as aware UTC."""
    if zone is None:
        return None
    if zone[0] in "+-":
        sign = -1 if zone[0] == "-" else 1
        hours, minutes = int(zone[1:3]), int(zone[-2:])
        offset = sign * (hours * 60 + minutes)
        return (local.replace(tzinfo=timezone.utc) - _minutes(offset)).astimezone(timezone.utc)
    return local.replace(tzinfo=ZoneInfo(zone)).astimezone(timezone.utc)


def _minutes(count: int):  # type: ignore[no-untyped-def]
    from datetime import timedelta

    return timedelta(minutes=count)


# ---------------------------------------------------------------------------
# The money ledger: what each site writes -> events.py amounts


class Ledger:
    """Per-hand betting state, so a builder can normalise a site's figures.

    Sites write a raise as chips put in, as the new street total, or as both;
    the ledger knows each player's street total and the bet to match, so it
    can always give events.py's ``amount`` (chips for bring-in/bet/call, the
    increment for a raise) and ``to`` (the new street total), and tell a
    completion from a bet or a raise.
    """

    def __init__(self) -> None:
        self.stacks: dict[str, Decimal] = {}
        self.street_in: dict[str, Decimal] = {}
        self.in_hand: dict[str, None] = {}  # ordered set: posted, dealt or acted
        self.folded: set[str] = set()
        self.street: Street | None = None
        self.level = ZERO  # the bet to match on this street
        self.opened = False  # a bet or completion made on this street (a bring-in is not one)
        self.bring_in: Decimal | None = None
        self.completion: Decimal | None = None  # 3rd-street completion total
        self.first_bets: dict[Street, Decimal] = {}  # first bet (not doubled) per street
        self.ante: Decimal | None = None

    def seat(self, player: str, stack: Decimal) -> None:
        self.stacks[player] = stack
        self.street_in[player] = ZERO

    def post_ante(self, player: str, chips: Decimal) -> bool:
        """Take an ante; True when it leaves the player all-in."""
        self.in_hand[player] = None
        if self.ante is None:
            self.ante = chips
        self.stacks[player] = self.stacks.get(player, ZERO) - chips
        return self.stacks[player] <= 0

    def start(self, street: Street) -> None:
        self.street = street
        self.level = ZERO
        self.opened = False
        for player in self.street_in:
            self.street_in[player] = ZERO

    def live(self) -> list[str]:
        return [p for p in self.in_hand if p not in self.folded]

    def _put(self, player: str, chips: Decimal) -> bool:
        self.in_hand[player] = None
        self.stacks[player] = self.stacks.get(player, ZERO) - chips
        self.street_in[player] = self.street_in.get(player, ZERO) + chips
        return self.stacks[player] <= 0

    def returned(self, player: str, chips: Decimal) -> None:
        self.stacks[player] = self.stacks.get(player, ZERO) + chips
        self.street_in[player] = self.street_in.get(player, ZERO) - chips

    def won(self, player: str, chips: Decimal) -> None:
        self.stacks[player] = self.stacks.get(player, ZERO) + chips

    def fold(self, player: str) -> None:
        self.in_hand[player] = None
        self.folded.add(player)

    def owed(self, player: str) -> Decimal:
        return max(self.level - self.street_in.get(player, ZERO), ZERO)

    # -- actions -----------------------------------------------------------
    def act(self, file: str, line: int, player: str, kind: ActionKind, *,
            chips: Decimal | None = None, to: Decimal | None = None, all_in: bool = False) -> Action:
        """The Action for what a site wrote: ``chips`` put in and/or the street total ``to``."""
        self.in_hand[player] = None
        if kind is ActionKind.FOLD:
            self.fold(player)
            return Action(file=file, line=line, player=player, kind=kind)
        if kind is ActionKind.CHECK:
            return Action(file=file, line=line, player=player, kind=kind)
        if kind is ActionKind.BRING_IN:
            assert chips is not None
            if self.bring_in is None:
                self.bring_in = chips
            all_in = self._put(player, chips) or all_in
            self.level = max(self.level, self.street_in[player])
            return Action(file=file, line=line, player=player, kind=kind, amount=chips, all_in=all_in)
        before = self.street_in.get(player, ZERO)
        if kind is ActionKind.CALL:
            if chips is None:
                chips = min(self.owed(player), self.stacks.get(player, ZERO)) if to is None else to - before
            all_in = self._put(player, chips) or all_in
            return Action(file=file, line=line, player=player, kind=kind, amount=chips, all_in=all_in)
        total = to if to is not None else before + (chips or ZERO)
        if total <= self.level:  # less than a raise: an all-in call for less
            all_in = self._put(player, total - before) or all_in
            return Action(file=file, line=line, player=player, kind=ActionKind.CALL,
                          amount=total - before, all_in=all_in)  # fmt: skip
        all_in = self._put(player, total - before) or all_in
        if self.street is Street.THIRD and not self.opened:
            kind, value, new_to = ActionKind.COMPLETE, total, total
            if self.completion is None:
                self.completion = total
        elif self.level == 0:
            kind, value, new_to = ActionKind.BET, total - before, None
            if not all_in:
                self.first_bets.setdefault(self.street or Street.THIRD, total)
        else:
            kind, value, new_to = ActionKind.RAISE, total - self.level, total
        self.level = total
        self.opened = True
        return Action(file=file, line=line, player=player, kind=kind, amount=value, to=new_to, all_in=all_in)


# ---------------------------------------------------------------------------
# The builder base


class BuildError(ValueError):
    """A line the grammar accepted whose content does not make sense."""


class SkipHand(Exception):
    """Raised by a builder on a hand of another game; carries the game."""


class LineBuilder:
    """Turns the line tokens of one hand into a Hand; subclasses name their handlers.

    ``HANDLERS`` maps each terminal to a method name; a handler gets the
    line's regex groups and its file line. Common events have helpers here.
    """

    SITE: ClassVar[str] = ""
    HANDLERS: ClassVar[dict[str, str]] = {}

    def __init__(self, file: str, chunk: HandText, text: str) -> None:
        self.file = file
        self.chunk = chunk
        self.text = text
        self.events: list[Event] = []
        self.seats: list[Seat] = []
        self.ledger = Ledger()
        self.head: dict[str, object] = {}
        self.street: Street | None = None
        self.showdown = False
        self.start = self.end = 0

    def build(self, tokens: list[Line]) -> ParseResult:
        offset = self.chunk.first_line - 1
        handlers = self.HANDLERS
        for kind, f, line, start, end in tokens:
            line += offset
            self.start, self.end = start, end
            try:
                getattr(self, handlers[kind])(f, line)
            except SkipHand as skip:
                hand_id = self.head.get("hand_id")
                return Skipped(self.file, self.chunk.first_line, str(hand_id) if hand_id else None, str(skip))
            except (ValueError, KeyError, ArithmeticError, AssertionError) as error:
                raise BuildError(f"{line}\x00{error}") from None
        try:
            header = self.header()
        except (ValueError, KeyError, ArithmeticError) as error:
            raise BuildError(f"{self.chunk.first_line}\x00{error}") from None
        first = self.chunk.first_line
        last = first + self.text.count("\n") - 1
        events = tuple(self.finish())  # may also fix up the seats
        return Hand(self.file, first, last, header, tuple(self.seats), events)

    # -- hooks -----------------------------------------------------------------
    def header(self) -> HandHeader:
        raise NotImplementedError

    def finish(self) -> list[Event]:
        """The events once every line is read (a site may fix them up here)."""
        return self.events

    # -- handlers shared by sites whose lines start with the player ------------
    STREETS: ClassVar[dict[str, Street]] = {}  # street marker text -> street

    def skip(self, f: Fields, line: int) -> None:
        pass

    def hand_number(self, f: Fields, line: int) -> None:
        self.head["hand_id"] = f[0]

    def player_ante(self, f: Fields, line: int) -> None:
        self.add_ante(line, str(f[0]), amount(str(f[1])))

    def third_street(self, f: Fields, line: int) -> None:
        self.start_street(line, Street.THIRD)

    def street_named(self, f: Fields, line: int) -> None:
        self.start_street(line, self.STREETS[str(f[0])])

    def player_bring_in(self, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), ActionKind.BRING_IN, chips=amount(str(f[1])))

    def player_bet(self, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), ActionKind.BET, chips=amount(str(f[1])))

    def player_call(self, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), ActionKind.CALL, chips=amount(str(f[1])))

    def player_raise_by_chips(self, f: Fields, line: int) -> None:
        """A raise written as the chips it puts in."""
        self.add_action(line, str(f[0]), ActionKind.RAISE, chips=amount(str(f[1])))

    def player_all_in(self, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), ActionKind.RAISE, chips=amount(str(f[1])), all_in=True)

    def player_check(self, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), ActionKind.CHECK)

    def player_fold(self, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), ActionKind.FOLD)

    # -- helpers ---------------------------------------------------------------
    def add_seat(self, line: int, seat: int, player: str, stack: Decimal, sitting_out: bool = False) -> None:
        self.ledger.seat(player, stack)
        self.seats.append(Seat(file=self.file, line=line, seat=seat, player=player, stack=stack,
                               sitting_out=sitting_out))  # fmt: skip

    def add_ante(self, line: int, player: str, chips: Decimal) -> None:
        all_in = self.ledger.post_ante(player, chips)
        self.events.append(PostAnte(file=self.file, line=line, player=player, amount=chips, all_in=all_in))

    def start_street(self, line: int, street: Street) -> None:
        self.street = street
        self.ledger.start(street)
        self.events.append(StreetStart(file=self.file, line=line, street=street))

    def next_street(self, line: int) -> None:
        """Start the street after the current one (sites without street markers)."""
        if self.street is None:
            self.start_street(line, Street.THIRD)
        elif self.street < Street.SEVENTH:
            self.start_street(line, Street(self.street + 1))
        else:
            raise ValueError("cards dealt after 7th street")

    def add_deal(self, line: int, player: str, shown: tuple[Card, ...], *, before: tuple[Card, ...] = (),
                 hidden_down: int = 0) -> None:
        """Cards dealt on the current street; ``shown`` the street's new cards in dealing order,
        ``hidden_down`` how many leading down cards the log hid (opponents' hole cards)."""
        street = self.street
        if street is None:
            raise ValueError("cards dealt before 3rd street")
        self.ledger.in_hand[player] = None
        down: tuple[Card, ...] = ()
        up: tuple[Card, ...] = ()
        if street is Street.THIRD:
            known_down = max(2 - hidden_down, 0)
            down, up = shown[:known_down], shown[known_down:]
        elif street is Street.SEVENTH:
            down = shown
        else:
            up = shown
        self.events.append(Deal(file=self.file, line=line, player=player, street=street,
                                down=down, up=up, before=before))  # fmt: skip

    def add_action(self, line: int, player: str, kind: ActionKind, *, chips: Decimal | None = None,
                   to: Decimal | None = None, all_in: bool = False) -> None:
        if self.street is None:
            raise ValueError("betting before 3rd street")
        self.events.append(self.ledger.act(self.file, line, player, kind, chips=chips, to=to, all_in=all_in))

    def add_uncalled(self, line: int, player: str, chips: Decimal) -> None:
        self.ledger.returned(player, chips)
        self.events.append(UncalledReturned(file=self.file, line=line, player=player, amount=chips))

    def open_showdown(self, line: int) -> None:
        """A showdown the log does not mark: before the first card shown while two or more are live."""
        if not self.showdown and len(self.ledger.live()) >= 2:
            self.showdown = True
            self.events.append(ShowdownStart(file=self.file, line=line))

    def add_show(self, line: int, player: str, shown: tuple[Card, ...], description: str | None = None) -> None:
        self.open_showdown(line)
        self.events.append(Show(file=self.file, line=line, player=player, cards=shown, description=description))

    def add_muck(self, line: int, player: str, shown: tuple[Card, ...] = ()) -> None:
        self.open_showdown(line)
        self.events.append(Muck(file=self.file, line=line, player=player, cards=shown))

    def add_noshow(self, line: int, player: str) -> None:
        self.events.append(NoShow(file=self.file, line=line, player=player))

    def add_collect(self, line: int, player: str, chips: Decimal, pot: int = 0, half: Half | None = None) -> None:
        self.ledger.won(player, chips)
        self.events.append(Collect(file=self.file, line=line, player=player, amount=chips, pot=pot, half=half))

    def add_no_low(self, line: int) -> None:
        self.events.append(NoLowHand(file=self.file, line=line))

    def add_total(self, line: int, total: Decimal, rake: Decimal, pots: tuple[Decimal, ...] = ()) -> None:
        self.events.append(PotSummary(file=self.file, line=line, total=total, rake=rake, pots=pots))

    def add_chatter(self, line: int, kind: ChatterKind, player: str | None = None) -> None:
        text = self.text[self.start : self.end].rstrip()
        self.events.append(Chatter(file=self.file, line=line, kind=kind, text=text, player=player))

    def stakes_from_betting(self) -> tuple[Decimal, Decimal]:
        """Small and big bet read off the betting, for headers that do not give them."""
        ledger = self.ledger
        small = ledger.completion or ledger.first_bets.get(Street.FOURTH)
        big = next((ledger.first_bets[s] for s in (Street.FIFTH, Street.SIXTH, Street.SEVENTH)
                    if s in ledger.first_bets), None)  # fmt: skip
        if small is None and big is not None:
            small = big / 2
        if small is None and ledger.bring_in is not None:
            small = ledger.bring_in * 2
        if small is None:
            raise ValueError("neither the header nor the betting gives the stakes")
        return small, big if big is not None else small * 2


def pot_number(pot: str | None) -> int:
    """0 for "pot"/"main pot", k for "side pot k" (an unnumbered side pot is 1)."""
    if pot and pot.startswith("side pot"):
        return int(pot[9:]) if len(pot) > 9 else 1
    return 0


def not_shown_as_mucks(events: list[Event], live: list[str]) -> list[Event]:
    """"Does not show" from a player who collects nothing at a showdown is a muck."""
    if len(live) < 2:
        return events
    winners = {e.player for e in events if isinstance(e, Collect)}
    return [Muck(file=e.file, line=e.line, player=e.player)
            if isinstance(e, NoShow) and e.player not in winners else e for e in events]  # fmt: skip


def dedupe(shown: tuple[Card, ...]) -> tuple[Card, ...]:
    return tuple(dict.fromkeys(shown))


# ---------------------------------------------------------------------------
# The SiteFormat wrapper


def split_at(text: str, header: re.Pattern[str]) -> Iterator[HandText]:
    """Hands starting at each ``header`` match (a ``re.M`` pattern), up to the next one,
    trailing blank lines dropped; blank lines inside a hand are kept (the grammar decides).
    Text before the first header is dropped."""
    starts = [m.start() for m in header.finditer(text)]
    line = 1 + text.count("\n", 0, starts[0]) if starts else 1
    for index, start in enumerate(starts):
        end = starts[index + 1] if index + 1 < len(starts) else len(text)
        chunk = text[start:end]
        body = chunk.rstrip()
        if body:
            yield HandText(line, body + "\n")
        line += chunk.count("\n")


@dataclass(frozen=True, slots=True)
class LineSiteFormat:
    """A site whose hands a line grammar and a :class:`LineBuilder` read."""

    name: str
    grammar_name: str
    builder: type[LineBuilder]
    hand_start: re.Pattern[str]  # where a hand starts (re.M); also detects the site
    kinds: dict[str, str] = field(default_factory=dict)  # terminal -> what it is called in messages
    summary: re.Pattern[str] | None = None  # a tournament summary of this site
    summary_note: str = ""
    blank_lines_split: bool = True  # hands end at the first blank line
    truncated_hint: Callable[[str], str | None] | None = None

    def detect(self, head: str) -> bool:
        return self.hand_start.search(head) is not None

    def describe(self, head: str) -> str | None:
        if self.summary is not None and self.summary.search(head):
            return self.summary_note
        return None

    def split(self, text: str) -> Iterator[HandText]:
        if self.blank_lines_split:
            from studbook.read import split_at_headers

            return split_at_headers(text, self.hand_start)
        return split_at(text, self.hand_start)

    def parse_hand(self, chunk: HandText, file: str) -> ParseResult:
        text = chunk.text if chunk.text.endswith("\n") else chunk.text + "\n"
        if not self.hand_start.match(text):
            return self._reject(chunk, file, chunk.first_line, f"text outside any hand (no {self.name} hand header)")
        rules = line_grammar(self.grammar_name)
        try:
            return self.builder(file, chunk, text).build(rules.lines(text))
        except LineGrammarError as failure:
            line, reason = self._explain(failure.error, chunk, text)
            return self._reject(chunk, file, line, reason)
        except BuildError as error:
            where, _, reason = str(error).partition("\x00")
            return self._reject(chunk, file, int(where), reason)
        except Exception as error:  # noqa: BLE001 - a parser never raises on input
            return self._reject(chunk, file, chunk.first_line, f"internal error: {error!r}")

    def _explain(self, error: UnexpectedInput, chunk: HandText, text: str) -> tuple[int, str]:
        last = chunk.first_line + chunk.text.rstrip("\n").count("\n")
        line = chunk.first_line + max(getattr(error, "line", 1) or 1, 1) - 1
        hint = self.truncated_hint(text) if self.truncated_hint else None
        if hint:
            return line, hint
        expected = self._expected(error)
        if isinstance(error, UnexpectedEOF) or (isinstance(error, UnexpectedToken) and error.token.type == "$END"):
            return last, f"hand ends early, truncated? (expected {expected})"
        if isinstance(error, UnexpectedCharacters) or (
            isinstance(error, UnexpectedToken) and error.token.type == "_OTHER_LINE"
        ):
            if line == chunk.first_line:
                return line, "unrecognised hand header"
            return line, f"unknown line (expected {expected})"
        if isinstance(error, UnexpectedToken):
            kind = self.kinds.get(error.token.type, error.token.type)
            return line, f"{kind} out of place (expected {expected})"
        return line, str(error).splitlines()[0]

    def _expected(self, error: UnexpectedInput) -> str:
        names = getattr(error, "expected", None) or getattr(error, "allowed", None) or ()
        kinds = sorted({self.kinds.get(n, n) for n in names if not n.startswith("_") and n != "CHATTER"})
        if len(kinds) > 8:
            kinds = kinds[:8] + ["..."]
        return ", ".join(kinds) or "nothing"

    def _reject(self, chunk: HandText, file: str, line: int, reason: str) -> Rejected:
        lines = chunk.text.split("\n")
        index = line - chunk.first_line
        text = lines[index].rstrip() if 0 <= index < len(lines) else ""
        found = re.search(r"[0-9][0-9-]{3,}", lines[0]) if lines else None
        hand_id = found.group(0) if found else None
        return Rejected(file, line, chunk.first_line, reason, text, hand_id)


# ---------------------------------------------------------------------------
# Bovada

_BOVADA_START = re.compile(r"^(?:Bovada|Ignition|Bodog(?:\.com|\.eu| UK| Canada|88)?) Hand #C?([0-9]+)", re.M)
_STREET_MARK = {"3RD STREET": Street.THIRD, "4TH STREET": Street.FOURTH, "5TH STREET": Street.FIFTH,
                "6TH STREET": Street.SIXTH, "RIVER": Street.SEVENTH}  # fmt: skip
_BOVADA_CHATTER = {"Table enter user": ChatterKind.JOIN, "Table leave user": ChatterKind.LEAVE,
                   "Stand": ChatterKind.LEAVE, "Sit out": ChatterKind.SIT_OUT,
                   "Re-join": ChatterKind.RETURN}  # fmt: skip
# Summary outcomes: "HI $73.50  with Straight [7 cards-best five]", "  with One pair [...] LO $73.50 [...]",
# "2465  with Full House [...]", "97 [Does not show]", " [Mucked] [7 cards ]", " lose with ...".
_SUMMARY_CARDS = re.compile(r"\[((?:(?:10|[2-9TJQKA])[cdhs] ?){3,7})(?:-|\s*\])")
_SUMMARY_HI = re.compile(r"^\s*(?:HI )?([$]?[0-9][0-9,]*(?:\.[0-9]+)?) ")
_SUMMARY_LO = re.compile(r" LO ([$]?[0-9][0-9,]*(?:\.[0-9]+)?) ")


def _bovada_player(seat: str | None) -> str:
    return f"Seat+{seat}"


class BovadaBuilder(LineBuilder):
    SITE = "bovada"
    HANDLERS = {
        "STUD_HEADER": "stud_header", "OTHER_HEADER": "other_header", "SEAT": "seat", "ANTE": "ante",
        "HOLE_CARDS": "hole_cards", "STREET": "street_mark", "DEAL": "deal", "BRING_IN": "bring_in",
        "BET": "bet", "CALL": "call", "RAISE": "raise_", "ALL_IN": "all_in", "CHECK": "check",
        "FOLD": "fold", "UNCALLED": "uncalled", "SHOW": "show", "MUCK": "muck", "NOSHOW": "noshow",
        "COLLECT": "collect", "SUMMARY": "summary", "TOTAL": "total", "SEAT_SUMMARY": "seat_summary",
        "CHATTER": "chatter",
    }  # fmt: skip

    def __init__(self, file: str, chunk: HandText, text: str) -> None:
        super().__init__(file, chunk, text)
        self.dealt: set[str] = set()
        self.betting = False
        self.marked = False  # the current street began with a marker line
        self.seat_names: dict[int, str] = {}

    # -- header ------------------------------------------------------------
    def stud_header(self, f: Fields, line: int) -> None:
        hand_id, game_t, tourney, table, game_c, limit, level, small, big, when = f
        self.head.update(hand_id=hand_id, game=game_t or game_c, tournament=tourney, table=table,
                         limit=limit, level=level, stakes=(small, big), started=when)  # fmt: skip

    def other_header(self, f: Fields, line: int) -> None:
        hand_id, game = f
        self.head["hand_id"] = hand_id
        raise SkipHand(game or "unknown game")

    def header(self) -> HandHeader:
        h = self.head
        game = str(h["game"])
        limit = str(h["limit"])
        small_w, big_w = cast(tuple[Optional[str], Optional[str]], h["stakes"])
        tournament = h["tournament"]
        if small_w is not None and big_w is not None and amount(small_w) > 0:
            small, big = amount(small_w), amount(big_w)
        else:
            small, big = self.stakes_from_betting()
        currency = None if tournament else "USD"
        written = str(h["started"])
        return HandHeader(
            site=self.SITE, hand_id=str(h["hand_id"]),
            variant=Variant.STUD8 if game != "7CARD" else Variant.STUD,
            structure={"Fixed Limit": Structure.FIXED, "Pot Limit": Structure.POT}.get(limit, Structure.NO),
            game=f"{game} {limit}", stakes=Stakes(small, big), currency=currency,
            tournament=Tournament(id=str(tournament), level=str(h["level"])) if tournament else None,
            table=str(h["table"]), started=written,
            started_utc=None,  # Bovada writes no time zone
        )  # fmt: skip

    # -- seats and antes -----------------------------------------------------
    def seat(self, f: Fields, line: int) -> None:
        seat, _me, stack = f
        player = _bovada_player(seat)
        self.seat_names[int(seat)] = player  # type: ignore[arg-type]
        self.add_seat(line, int(seat), player, amount(stack))  # type: ignore[arg-type]

    def ante(self, f: Fields, line: int) -> None:
        seat, _me, chips = f
        self.add_ante(line, _bovada_player(seat), amount(chips))  # type: ignore[arg-type]

    # -- streets and cards -----------------------------------------------------
    def hole_cards(self, f: Fields, line: int) -> None:
        self._mark(line, Street.THIRD)

    def street_mark(self, f: Fields, line: int) -> None:
        self._mark(line, _STREET_MARK[str(f[0])])

    def _mark(self, line: int, street: Street) -> None:
        self.start_street(line, street)
        self.dealt.clear()
        self.betting = False
        self.marked = True

    def deal(self, f: Fields, line: int) -> None:
        seat, _me, shown = f
        player = _bovada_player(seat)
        if self.street is None or self.betting or player in self.dealt:
            self.next_street(line)
            self.dealt.clear()
            self.betting = False
        self.dealt.add(player)
        self.add_deal(line, player, cards(shown))  # type: ignore[arg-type]

    # -- betting ---------------------------------------------------------------
    def _act(self, f: Fields, line: int, kind: ActionKind, **values: object) -> None:
        self.betting = True
        self.add_action(line, _bovada_player(f[0]), kind, **values)  # type: ignore[arg-type]

    def bring_in(self, f: Fields, line: int) -> None:
        self._act(f, line, ActionKind.BRING_IN, chips=amount(f[2]))  # type: ignore[arg-type]

    def bet(self, f: Fields, line: int) -> None:
        seat, _me, verb, chips = f
        value = amount(chips)  # type: ignore[arg-type]
        before = self.ledger.street_in.get(_bovada_player(seat), ZERO)
        self._act(f, line, ActionKind.BET, to=before + value)
        if verb == "Double bets":
            self.ledger.first_bets.pop(Street.FOURTH, None)  # a double bet is not the small bet

    def call(self, f: Fields, line: int) -> None:
        self._act(f, line, ActionKind.CALL, chips=amount(f[2]))  # type: ignore[arg-type]

    def raise_(self, f: Fields, line: int) -> None:
        _seat, _me, first, total = f
        # "Raises 30" (tournaments) is the new total; "Raises $7.50 to $10" gives it after "to"
        self._act(f, line, ActionKind.RAISE, to=amount(total or first))  # type: ignore[arg-type]

    def all_in(self, f: Fields, line: int) -> None:
        seat, _me, raised, chips = f
        value = amount(chips)  # type: ignore[arg-type]
        if raised:  # "All-in(raise) 1054": the new street total
            self._act(f, line, ActionKind.RAISE, to=value, all_in=True)
        else:  # "All-in 245": chips put in, calling (or betting) all-in
            player = _bovada_player(seat)
            before = self.ledger.street_in.get(player, ZERO)
            kind = ActionKind.CALL if before + value <= self.ledger.level else ActionKind.RAISE
            self._act(f, line, kind, to=before + value, all_in=True)

    def check(self, f: Fields, line: int) -> None:
        self._act(f, line, ActionKind.CHECK)

    def fold(self, f: Fields, line: int) -> None:
        self._act(f, line, ActionKind.FOLD)

    def uncalled(self, f: Fields, line: int) -> None:
        self.add_uncalled(line, _bovada_player(f[0]), amount(f[2]))  # type: ignore[arg-type]

    # -- showdown and award ------------------------------------------------------
    def show(self, f: Fields, line: int) -> None:
        seat, _me, shown, description = f
        # hi/lo shows list the best high five then the best low five: each card once
        self.add_show(line, _bovada_player(seat), dedupe(cards(shown)), description)  # type: ignore[arg-type]

    def muck(self, f: Fields, line: int) -> None:
        seat, _me, shown, _description = f
        self.add_muck(line, _bovada_player(seat), dedupe(cards(shown)))  # type: ignore[arg-type]

    def noshow(self, f: Fields, line: int) -> None:
        self.add_noshow(line, _bovada_player(f[0]))

    def collect(self, f: Fields, line: int) -> None:
        seat, _me, side, chips = f
        self.add_collect(line, _bovada_player(seat), amount(chips), 1 if side else 0)  # type: ignore[arg-type]

    # -- summary ---------------------------------------------------------------
    def summary(self, f: Fields, line: int) -> None:
        pass

    def total(self, f: Fields, line: int) -> None:
        total, rake = f
        self.add_total(line, amount(total), amount(rake) if rake else ZERO)  # type: ignore[arg-type]

    def seat_summary(self, f: Fields, line: int) -> None:
        seat, outcome = f
        player = self.seat_names.get(int(seat), _bovada_player(seat))  # type: ignore[arg-type]
        text = str(outcome)
        shown = _SUMMARY_CARDS.search(text)
        won: Decimal | None = None
        hi = _SUMMARY_HI.match(text)
        lo = _SUMMARY_LO.search(text)
        if hi or lo:
            won = (amount(hi.group(1)) if hi else ZERO) + (amount(lo.group(1)) if lo else ZERO)
        if hi and lo or (lo and not hi) or text.lstrip().startswith("HI "):
            self._halves(player, amount(hi.group(1)) if hi else None, amount(lo.group(1)) if lo else None)
        self.events.append(SeatSummary(
            file=self.file, line=line, seat=int(seat), player=player,  # type: ignore[arg-type]
            outcome=text.strip(), cards=cards(shown.group(1).strip()) if shown else (), won=won,
        ))  # fmt: skip

    def _halves(self, player: str, hi: Decimal | None, lo: Decimal | None) -> None:
        """Mark the player's collections high or low, as the summary says."""
        for index, event in enumerate(self.events):
            if isinstance(event, Collect) and event.player == player and event.half is None:
                if hi is not None and event.amount == hi:
                    self.events[index] = replace(event, half=Half.HIGH)
                    hi = None
                elif lo is not None and event.amount == lo:
                    self.events[index] = replace(event, half=Half.LOW)
                    lo = None

    # -- chatter -------------------------------------------------------------------
    def chatter(self, f: Fields, line: int) -> None:
        seat, _me, what = f
        kind = _BOVADA_CHATTER.get(str(what), ChatterKind.OTHER)
        self.add_chatter(line, kind, _bovada_player(seat))


def _bovada_truncated(text: str) -> str | None:
    if "*** HOLE CARDS ***" not in text and "*** 3RD STREET ***" not in text:
        return "truncated hand: it starts after 3rd street (no antes, no cards dealt)"
    return None


BOVADA_KINDS = {
    "STUD_HEADER": "hand header", "OTHER_HEADER": "hand header", "SEAT": "seat line", "ANTE": "ante",
    "HOLE_CARDS": "*** HOLE CARDS ***", "STREET": "street marker", "DEAL": "card dealt",
    "BRING_IN": "bring-in", "BET": "bet", "CALL": "call", "RAISE": "raise", "ALL_IN": "all-in",
    "CHECK": "check", "FOLD": "fold", "UNCALLED": "uncalled bet returned", "SHOW": "showdown",
    "MUCK": "mucks", "NOSHOW": "does not show", "COLLECT": "hand result", "SUMMARY": "*** SUMMARY ***",
    "TOTAL": "'Total Pot' line", "SEAT_SUMMARY": "summary seat line", "$END": "end of hand",
}  # fmt: skip

FORMAT = LineSiteFormat(
    name="bovada", grammar_name="bovada", builder=BovadaBuilder, hand_start=_BOVADA_START,
    kinds=BOVADA_KINDS, truncated_hint=_bovada_truncated,
)
