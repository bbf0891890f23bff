"""Full Tilt Poker: Stud Hi, Stud H/L and Razz hand histories.

Same design as :mod:`studbook.sites.pokerstars`: the grammar
(``grammars/fulltilt.lark``) has one terminal per line kind and rules that fix
the order of sections; :class:`~studbook.read.grammar.LineGrammar` runs it and a
builder turns the line tokens into events, each line's fields being the regex
groups of its terminal.

This module also holds the pieces every line-grammar site of this family
shares (:class:`LineBuilder`, :class:`LineFormat`, :func:`explain`): the
Winning Poker, KingsClub and Absolute modules import them. They normalise each
site's figures to the :mod:`studbook.events` semantics with a per-street
ledger (:meth:`LineBuilder.act`), so the engine needs no site branches.

Full Tilt quirks handled here:

* raises are written "raises to $X" only: ``to`` is X and ``amount`` the
  increment over the bet faced, from the ledger;
* a seat "is sitting out" (on its seat line or in a notice before the deal)
  is out of the hand only when it posts no ante: sit & go players sitting
  out are still dealt in and ante;
* the 10-Game and other mixed rotations: hands of other games, 5-card stud
  included, come back :class:`~studbook.events.Skipped` with the game named;
* tournament summaries ("Full Tilt Poker Tournament Summary") are recognised
  and described, not parsed as hands.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from decimal import Decimal
from pathlib import Path
from typing import Callable, ClassVar, Iterator, Mapping, Optional

from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from studbook.cards import Card, parse_cards
from studbook.events import (
    Action, ActionKind, Chatter, ChatterKind, Collect, Deal, Event, Half, Hand, HandHeader, Muck,
    NoLowHand, ParseResult, PostAnte, PotSummary, Rejected, Seat, SeatSummary, Show,
    ShowdownStart, Skipped, Stakes, Street, StreetStart, Structure, Tournament,
    UncalledReturned, Variant,
)
from studbook.money import currency_of, parse_amount
from studbook.read import split_at_headers
from studbook.read.grammar import Line, LineGrammar, LineGrammarError
from studbook.sites.base import HandText
from studbook.sites.pokerstars import to_utc

GRAMMAR_DIR = Path(__file__).resolve().parents[3] / "grammars"
GRAMMAR = GRAMMAR_DIR / "fulltilt.lark"

Fields = tuple[Optional[str], ...]
ZERO = Decimal(0)

amount = functools.lru_cache(maxsize=8192)(parse_amount)
cards = functools.lru_cache(maxsize=8192)(parse_cards)

CHATTER_TERMINALS: dict[str, ChatterKind] = {
    "JOIN": ChatterKind.JOIN, "LEAVE": ChatterKind.LEAVE, "SIT_OUT": ChatterKind.SIT_OUT,
    "RETURN": ChatterKind.RETURN, "DISCONNECT": ChatterKind.DISCONNECT,
    "RECONNECT": ChatterKind.RECONNECT, "TIMEOUT": ChatterKind.TIMEOUT,
    "CHATTER_OTHER": ChatterKind.OTHER,
}
ACTION_TERMINALS: dict[str, ActionKind] = {
    "BRING_IN": ActionKind.BRING_IN, "COMPLETE": ActionKind.COMPLETE, "BET": ActionKind.BET,
    "CALL": ActionKind.CALL, "RAISE": ActionKind.RAISE, "CHECK": ActionKind.CHECK,
    "FOLD": ActionKind.FOLD,
}
# What line kinds are called in messages (sites add their own).
COMMON_KINDS: dict[str, str] = {
    "SEAT": "seat line", "ANTE": "ante", "DEAL": "deal line", "BRING_IN": "bring-in",
    "COMPLETE": "completion", "BET": "bet", "CALL": "call", "RAISE": "raise", "CHECK": "check",
    "FOLD": "fold", "UNCALLED": "uncalled bet returned", "SHOWDOWN": "showdown marker",
    "SHOW": "shows", "MUCK": "mucks", "COLLECT": "pot won", "NO_LOW": "'No low hand qualified'",
    "SUMMARY": "summary marker", "TOTAL": "'Total pot' line", "SEAT_SUMMARY": "summary seat line",
    "SAID": "chat", "SIT_OUT": "sitting out", "TIMEOUT": "timeout", "CHATTER_OTHER": "table message",
    "$END": "end of hand",
}
_CHATTER_KINDS = {"chat", "join", "leave", "sitting out", "return", "disconnect", "reconnect",
                  "timeout", "table message"}  # fmt: skip


class BuildError(ValueError):
    """A line the grammar accepted whose content does not make sense."""


class SkipHand(Exception):
    """Raised by a builder on a hand of another game; carries the game and a reason."""

    def __init__(self, game: str, reason: str = "not a stud, stud hi/lo or razz hand") -> None:
        super().__init__(game)
        self.game = game
        self.reason = reason


def stud_variant(game: str) -> Variant | None:
    """The variant of a game name as sites write it; None for other games."""
    lowered = game.lower()
    if "razz" in lowered:
        return None if re.search(r"2-7|deuce", lowered) else Variant.RAZZ
    if re.search(r"\b(?:5|five)[- ]card", lowered) or not re.search(r"stud|seven[- ]cards?|7 ?cards?", lowered):
        return None
    return Variant.STUD8 if re.search(r"h/l|hi/lo|hi-lo|high/low|8|eight", lowered) else Variant.STUD


def stud_structure(game: str) -> Structure:
    lowered = game.lower()
    if "pot limit" in lowered or "pot-limit" in lowered:
        return Structure.POT
    return Structure.NO if "no limit" in lowered or "no-limit" in lowered else Structure.FIXED


def skip_reason(game: str) -> str:
    """Why a game is skipped, naming the unsupported stud forms."""
    lowered = game.lower()
    if re.search(r"\b(?:5|five)[- ]card", lowered):
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


class LineBuilder:
    """Turns the line tokens of one hand into a Hand (or a Skipped).

    Subclasses set ``site``, ``handlers`` (terminal -> method) and
    ``player_group`` (terminal -> index of the player field), and call the
    helpers below, which keep a ledger of each player's chips on the current
    street so that every site's figures come out in events.py terms.
    """

    site: ClassVar[str] = ""
    handlers: ClassVar[Mapping[str, Callable[..., None]]] = {}
    player_group: ClassVar[Mapping[str, int]] = {}

    def __init__(self, file: str, chunk: HandText, text: str, regexes: Mapping[str, re.Pattern[str]]) -> None:
        self.file = file
        self.chunk = chunk
        self.text = text
        self.start = self.end = 0
        self.rx = regexes
        self.events: list[Event] = []
        self.seats: list[Seat] = []
        self.names: set[str] = set()
        self.street: Street | None = None
        self.head: dict[str, object] = {}
        self.header: HandHeader | None = None
        self.street_in: dict[str, Decimal] = {}
        self.current = ZERO
        self.opened = False  # 3rd street: a completion or bet was made
        self.anted: set[str] = set()
        self.sitting_out: set[str] = set()
        self.known: dict[str, list[Card | None]] = {}  # cards seen per player, in deal order

    # -- driver ------------------------------------------------------------
    def build(self, tokens: list[Line]) -> ParseResult:
        handlers = self.handlers
        player_group = self.player_group
        names = self.names
        offset = self.chunk.first_line - 1
        for kind, f, line, start, end in tokens:
            line += offset
            try:
                index = player_group.get(kind)
                if index is not None and names and f[index] not in names:
                    f = self._resplit(kind, self.text[start:end], index) or f
                self.start, self.end = start, end
                handlers[kind](self, kind, f, line)
            except SkipHand as skip:
                return Skipped(self.file, self.chunk.first_line, self.hand_id(), skip.game, skip.reason)
            except (ValueError, KeyError, ArithmeticError) as error:
                raise BuildError(f"{line}\x00{error}") from None
        self.finish()
        if self.header is None:
            raise BuildError(f"{self.chunk.first_line}\x00no header")
        first = self.chunk.first_line
        last = first + self.text.count("\n") - 1
        return Hand(self.file, first, last, self.header, tuple(self.seats), tuple(self.events))

    def hand_id(self) -> str | None:
        found = self.head.get("hand_id")
        return str(found) if found is not None else None

    def finish(self) -> None:
        """Hook: called after the last line."""

    def _resplit(self, kind: str, text: str, index: int) -> Fields | None:
        """Re-read a line whose player the lazy regex cut at the wrong place."""
        regex = self.rx[kind]
        match = regex.match(text)
        if match is None:
            return None
        start = match.start(index + 1)
        prefix = text[:start]
        for name in sorted(self.names, key=len, reverse=True):
            if text.startswith(name, start):
                again = regex.match(prefix + "X" + text[start + len(name):])
                if again:
                    groups = list(again.groups())
                    groups[index] = name
                    return tuple(groups)
        return None

    def emit(self, event: Event) -> None:
        self.events.append(event)

    # -- header --------------------------------------------------------------
    def make_header(self, *, hand_id: str, game: str, small: str, big: str, ante: str | None = None,
                    bring_in: str | None = None, tournament: Tournament | None = None,
                    currency: str | None = None, play_money: bool = False, mix: str | None = None,
                    table: str = "", max_seats: int | None = None, button: int | None = None,
                    started: str = "", started_utc: object = None) -> None:  # fmt: skip
        variant = stud_variant(game)
        if variant is None:
            raise SkipHand(game, skip_reason(game))
        self.header = HandHeader(
            site=self.site, hand_id=hand_id, variant=variant, structure=stud_structure(game),
            game=game,
            stakes=Stakes(amount(small), amount(big), amount(ante) if ante else None,
                          amount(bring_in) if bring_in else None),
            currency=currency, play_money=play_money, tournament=tournament, mix=mix, table=table,
            max_seats=max_seats, button=button, started=started,
            started_utc=started_utc,  # type: ignore[arg-type]
        )  # fmt: skip

    # -- seats, antes, streets -------------------------------------------------
    def add_seat(self, seat: int, player: str, stack: Decimal, line: int, sitting_out: bool = False) -> None:
        self.names.add(player)
        if sitting_out:
            self.sitting_out.add(player)
        self.seats.append(Seat(file=self.file, line=line, seat=seat, player=player, stack=stack,
                               sitting_out=sitting_out))  # fmt: skip

    def post_ante(self, player: str, value: Decimal, line: int, all_in: bool = False) -> None:
        self.anted.add(player)
        self.emit(PostAnte(file=self.file, line=line, player=player, amount=value, all_in=all_in))

    def settle_seats(self) -> None:
        """At the deal: a seat marked sitting out is dealt in when it anted."""
        if not self.anted:
            return
        self.seats = [
            dataclasses.replace(s, sitting_out=s.player in self.sitting_out and s.player not in self.anted)
            if s.sitting_out != (s.player in self.sitting_out and s.player not in self.anted) else s
            for s in self.seats
        ]

    def start_street(self, street: Street, line: int) -> None:
        if self.street is None:
            self.settle_seats()
        self.street = street
        self.street_in = {}
        self.current = ZERO
        self.emit(StreetStart(file=self.file, line=line, street=street))

    def deal(self, player: str, line: int, *, down: tuple[Card, ...] = (), up: tuple[Card, ...] = (),
             before: tuple[Card, ...] = ()) -> None:  # fmt: skip
        assert self.street is not None
        seen = self.known.setdefault(player, [])
        if self.street is Street.THIRD:
            seen.extend(list(down) + [None] * (2 - len(down)) + list(up))
        else:
            seen.extend(up or down or (None,))
        self.emit(Deal(file=self.file, line=line, player=player, street=self.street, down=down, up=up,
                       before=before))  # fmt: skip

    # -- betting ---------------------------------------------------------------
    def act(self, kind: ActionKind, player: str, line: int, *, put: Decimal | None = None,
            to: Decimal | None = None, all_in: bool = False) -> None:  # fmt: skip
        """Record an action from either figure a site writes.

        ``put`` is the chips the player puts in with this action, ``to`` the
        player's street total after it; give whichever the log wrote. The
        event gets events.py's figures: chips for bring-in, bet and call; the
        increment over the bet faced plus ``to`` for a raise; ``to`` for a
        completion.
        """
        before = self.street_in.get(player, ZERO)
        value: Decimal | None = None
        total: Decimal | None = None
        if kind in (ActionKind.BRING_IN, ActionKind.BET, ActionKind.CALL):
            value = put if put is not None else (to - before if to is not None else None)
            total = before + (value or ZERO)
            if kind is ActionKind.BET and self.street is Street.THIRD and not self.opened and self.current > 0:
                kind, value = ActionKind.COMPLETE, total  # a bet over the bring-in completes it
        elif kind is ActionKind.COMPLETE:
            total = to if to is not None else before + (put or ZERO)
            value = total
        elif kind is ActionKind.RAISE:
            total = to if to is not None else self.current + (put or ZERO)
            value = total - self.current
            if self.street is Street.THIRD and not self.opened:
                kind, value = ActionKind.COMPLETE, total  # a raise of the bring-in completes it
        if kind in (ActionKind.COMPLETE, ActionKind.BET, ActionKind.RAISE):
            self.opened = True
        if total is not None:
            self.street_in[player] = total
            self.current = max(self.current, total)
        shown_to = total if kind in (ActionKind.RAISE, ActionKind.COMPLETE) else None
        self.emit(Action(file=self.file, line=line, player=player, kind=kind, amount=value, to=shown_to,
                         all_in=all_in))  # fmt: skip

    def uncalled(self, player: str, value: Decimal, line: int) -> None:
        self.emit(UncalledReturned(file=self.file, line=line, player=player, amount=value))

    # -- showdown and award ------------------------------------------------------
    def showdown(self, line: int) -> None:
        self.emit(ShowdownStart(file=self.file, line=line))

    def show(self, player: str, shown: tuple[Card, ...], line: int, description: str | None = None) -> None:
        self.emit(Show(file=self.file, line=line, player=player, cards=shown, description=description or None))

    def muck(self, player: str, line: int, shown: tuple[Card, ...] = ()) -> None:
        self.emit(Muck(file=self.file, line=line, player=player, cards=shown))

    def collect(self, player: str, value: Decimal, line: int, pot: int = 0, half: Half | None = None) -> None:
        self.emit(Collect(file=self.file, line=line, player=player, amount=value, pot=pot, half=half))

    def no_low(self, line: int) -> None:
        self.emit(NoLowHand(file=self.file, line=line))

    def pot_summary(self, total: Decimal, rake: Decimal, line: int, pots: tuple[Decimal, ...] = ()) -> None:
        self.emit(PotSummary(file=self.file, line=line, total=total, rake=rake, pots=pots))

    def seat_summary(self, seat: int, player: str, outcome: str, line: int,
                     shown: tuple[Card, ...] = (), won: Decimal | None = None) -> None:  # fmt: skip
        self.emit(SeatSummary(file=self.file, line=line, seat=seat, player=player, outcome=outcome,
                              cards=shown, won=won))  # fmt: skip

    def chatter(self, kind: ChatterKind, player: str | None, line: int, text: str | None = None) -> None:
        written = text if text is not None else self.text[self.start:self.end].rstrip()
        self.emit(Chatter(file=self.file, line=line, kind=kind, text=written, player=player))


# ---------------------------------------------------------------------------
# The format object and error messages, shared by the sites of this family


@dataclass(frozen=True)
class LineFormat:
    """A site format read with a line grammar and a :class:`LineBuilder`."""

    name: str
    grammar_path: Path
    builder: type[LineBuilder]
    header: re.Pattern[str]  # a hand's first line (re.M); group 1 the hand id when known
    kinds: Mapping[str, str]
    detector: re.Pattern[str] | None = None  # defaults to ``header``
    summary: re.Pattern[str] | None = None  # a tournament summary file
    summary_note: str = ""
    splitter: Callable[[str], Iterator[HandText]] | None = None

    def detect(self, head: str) -> bool:
        return (self.detector or self.header).search(head) is not None

    def describe(self, head: str) -> str | None:
        """Why a file that is not a hand history is not one, when recognisable."""
        if self.summary is not None and self.summary.search(head):
            return self.summary_note
        return None

    def split(self, text: str) -> Iterator[HandText]:
        if self.splitter is not None:
            return self.splitter(text)
        return split_at_headers(text, self.header)

    def grammar(self) -> LineGrammar:
        return _grammar(self.grammar_path)

    def parse_hand(self, chunk: HandText, file: str) -> ParseResult:
        text = chunk.text if chunk.text.endswith("\n") else chunk.text + "\n"
        if not self.header.match(text):
            return self.reject(chunk, file, chunk.first_line, f"text outside any hand (no {self.name} hand header)")
        try:
            rules = self.grammar()
            return self.builder(file, chunk, text, rules.regex).build(rules.lines(text))
        except LineGrammarError as failure:
            line, reason = explain(failure.error, chunk, self.kinds)
            return self.reject(chunk, file, line, reason)
        except BuildError as error:
            where, _, reason = str(error).partition("\x00")
            return self.reject(chunk, file, int(where), reason)
        except Exception as error:  # noqa: BLE001 - a parser never raises on input
            return self.reject(chunk, file, chunk.first_line, f"internal error: {error!r}")

    def reject(self, chunk: HandText, file: str, line: int, reason: str) -> Rejected:
        lines = chunk.text.split("\n")
        index = line - chunk.first_line
        text = lines[index].rstrip() if 0 <= index < len(lines) else ""
        found = self.header.match(chunk.text)
        hand_id = found.group(1) if found and found.groups() else None
        return Rejected(file, line, chunk.first_line, reason, text, hand_id)


@functools.cache
def _grammar(path: Path) -> LineGrammar:
    return LineGrammar(path)


def explain(error: UnexpectedInput, chunk: HandText, kinds: Mapping[str, str]) -> tuple[int, str]:
    """The file line and a readable reason for a Lark error."""
    last = chunk.first_line + chunk.text.rstrip("\n").count("\n")
    line = chunk.first_line + max(getattr(error, "line", 1) or 1, 1) - 1
    if isinstance(error, UnexpectedEOF) or (
        isinstance(error, UnexpectedToken) and error.token.type == "$END"
    ):
        return last, f"hand ends early, truncated? (expected {_expected(error, kinds)})"
    if isinstance(error, UnexpectedCharacters) or (
        isinstance(error, UnexpectedToken) and error.token.type == "_OTHER_LINE"
    ):
        if line == chunk.first_line:
            return line, "unrecognised hand header"
        return line, f"unknown line (expected {_expected(error, kinds)})"
    if isinstance(error, UnexpectedToken):
        kind = kinds.get(error.token.type, error.token.type)
        return line, f"{kind} out of place (expected {_expected(error, kinds)})"
    return line, str(error).splitlines()[0]


def _expected(error: UnexpectedInput, kinds: Mapping[str, str]) -> str:
    names = getattr(error, "expected", None) or getattr(error, "allowed", None) or ()
    shown = sorted({kinds.get(name, name) for name in names if not name.startswith("_")} - _CHATTER_KINDS)
    if len(shown) > 8:
        shown = shown[:8] + ["..."]
    return ", ".join(shown) or "nothing"


# ---------------------------------------------------------------------------
# Full Tilt

HEADER_START = re.compile(r"^Full Tilt Poker Game #(\d+)", re.M)
_SUMMARY_FILE = re.compile(r"^Full Tilt Poker Tournament Summary ", re.M)
_BUY_IN = re.compile(r"^((?:[$€£][0-9][0-9.,]*)(?: ?\+ ?[$€£][0-9][0-9.,]*)*|Freeroll)", re.I)

KINDS: dict[str, str] = {
    **COMMON_KINDS,
    "STUD_HEADER": "hand header", "OTHER_HEADER": "hand header",
    "THIRD": "*** 3RD STREET ***", "FOURTH": "*** 4TH STREET ***", "FIFTH": "*** 5TH STREET ***",
    "SIXTH": "*** 6TH STREET ***", "RIVER": "*** 7TH STREET ***", "LOW_NOTE": "'is low with' note",
    "SHOWDOWN": "*** SHOW DOWN ***", "SUMMARY": "*** SUMMARY ***",
}
_STREET_OF = {
    "THIRD": Street.THIRD, "FOURTH": Street.FOURTH, "FIFTH": Street.FIFTH,
    "SIXTH": Street.SIXTH, "RIVER": Street.SEVENTH,
}
_SIDE_POT = re.compile(r"Side pot(?: #?[0-9]+)? ([$€£]?[0-9][0-9,]*(?:\.[0-9]+)?)\.")
_OUTCOME_CARDS = re.compile(r"(?:showed|mucked) \[([^\]]*)\]")
_OUTCOME_WON = re.compile(r"(?:won|collected) \(([^)]*)\)")


class FullTiltBuilder(LineBuilder):
    site = "fulltilt"

    def header_line(self, kind: str, f: Fields, line: int) -> None:
        (hand_id, tname, tid, table, max_seats, _qualifiers, small, big, ante, game,
         clock, zone, day, et_clock, et_zone, et_day) = f  # fmt: skip
        assert hand_id and table and small and big and game and clock and day
        self.head["hand_id"] = hand_id
        if kind == "OTHER_HEADER":
            raise SkipHand(game, skip_reason(game))
        started = f"{clock} {zone} - {day}" + (f" [{et_clock} {et_zone} - {et_day}]" if et_clock else "")
        utc = to_utc(f"{day} {clock}", zone)
        if et_clock:
            utc = to_utc(f"{et_day} {et_clock}", et_zone) or utc
        tournament = None
        currency = None
        if tid is not None:
            buy_in = _BUY_IN.match(tname or "")
            tournament = Tournament(id=tid, buy_in=buy_in.group(1) if buy_in else None)
        else:
            currency = currency_of(small[0])
        self.make_header(
            hand_id=hand_id, game=game, small=small, big=big, ante=ante, tournament=tournament,
            currency=currency, play_money=tournament is None and currency is None, table=table,
            max_seats=int(max_seats) if max_seats else None, started=started, started_utc=utc,
        )

    def seat(self, kind: str, f: Fields, line: int) -> None:
        seat, player, stack, status = f
        assert seat and player and stack
        self.add_seat(int(seat), player, amount(stack), line, sitting_out=status is not None)

    def ante(self, kind: str, f: Fields, line: int) -> None:
        player, value, all_in = f
        assert player and value
        self.post_ante(player, amount(value), line, all_in=bool(all_in))

    def street_line(self, kind: str, f: Fields, line: int) -> None:
        self.start_street(_STREET_OF[kind], line)

    def deal_line(self, kind: str, f: Fields, line: int) -> None:
        player, first, second = f
        assert player and first
        shown, new = cards(first), cards(second) if second else ()
        if self.street is Street.THIRD:
            down, up = third_street_deal(shown, new)
            self.deal(player, line, down=down, up=up)
        elif self.street is Street.SEVENTH:
            self.deal(player, line, before=shown if new else (), down=new or shown)
        else:
            self.deal(player, line, before=shown if new else (), up=new or shown)

    def low_note(self, kind: str, f: Fields, line: int) -> None:
        self.chatter(ChatterKind.OTHER, f[0], line)

    def action(self, kind: str, f: Fields, line: int) -> None:
        player = f[0]
        assert player
        what = ACTION_TERMINALS[kind]
        if len(f) == 1:
            self.act(what, player, line)
            return
        value, all_in = amount(f[1]), bool(f[2])  # type: ignore[arg-type]
        if what in (ActionKind.RAISE, ActionKind.COMPLETE):
            self.act(what, player, line, to=value, all_in=all_in)
        else:
            self.act(what, player, line, put=value, all_in=all_in)

    def uncalled_line(self, kind: str, f: Fields, line: int) -> None:
        value, player = f
        self.uncalled(player, amount(value), line)  # type: ignore[arg-type]

    def sit_out(self, kind: str, f: Fields, line: int) -> None:
        if self.street is None and f[0]:
            self.sitting_out.add(f[0])
        self.chatter(ChatterKind.SIT_OUT, f[0], line)

    def showdown_line(self, kind: str, f: Fields, line: int) -> None:
        self.showdown(line)

    def show_line(self, kind: str, f: Fields, line: int) -> None:
        player, shown, description = f
        self.show(player, cards(shown or ""), line, description)  # type: ignore[arg-type]

    def muck_line(self, kind: str, f: Fields, line: int) -> None:
        self.muck(f[0], line)  # type: ignore[arg-type]

    def collect_line(self, kind: str, f: Fields, line: int) -> None:
        player, half, pot, value, _description = f
        assert pot is not None
        number = 0
        if pot.startswith("side"):
            digits = re.sub(r"\D", "", pot)
            number = int(digits) if digits else 1
        self.collect(player, amount(value), line, number, Half(half) if half else None)  # type: ignore[arg-type]

    def no_low_line(self, kind: str, f: Fields, line: int) -> None:
        self.no_low(line)

    def summary(self, kind: str, f: Fields, line: int) -> None:
        pass

    def total(self, kind: str, f: Fields, line: int) -> None:
        total, main, sides, rake = f
        pots: tuple[Decimal, ...] = ()
        if main is not None:
            pots = (amount(main), *(amount(side) for side in _SIDE_POT.findall(sides or "")))
            # Full Tilt states the pots before rake (they add up to the total) and
            # takes the rake from the main pot, as its collections show; events
            # state them after rake, as PokerStars does.
            if sum(pots) == amount(total):  # type: ignore[arg-type]
                pots = (pots[0] - amount(rake), *pots[1:])  # type: ignore[arg-type]
        self.pot_summary(amount(total), amount(rake), line, pots)  # type: ignore[arg-type]

    def seat_summary_line(self, kind: str, f: Fields, line: int) -> None:
        seat, player, outcome = f
        assert seat and player and outcome
        shown = _OUTCOME_CARDS.search(outcome)
        won = [amount(value) for value in _OUTCOME_WON.findall(outcome)]
        self.seat_summary(int(seat), player, outcome, line, cards(shown.group(1)) if shown else (),
                          sum(won, ZERO) if won else None)  # fmt: skip

    def said(self, kind: str, f: Fields, line: int) -> None:
        player, message = f
        self.chatter(ChatterKind.SAID, player, line, message or "")

    def other_chatter(self, kind: str, f: Fields, line: int) -> None:
        self.chatter(CHATTER_TERMINALS[kind], f[0], line)

    handlers = {
        "STUD_HEADER": header_line, "OTHER_HEADER": header_line, "SEAT": seat, "ANTE": ante,
        **dict.fromkeys(_STREET_OF, street_line), "DEAL": deal_line, "LOW_NOTE": low_note,
        **dict.fromkeys(ACTION_TERMINALS, action), "UNCALLED": uncalled_line,
        "SHOWDOWN": showdown_line, "SHOW": show_line, "MUCK": muck_line, "COLLECT": collect_line,
        "NO_LOW": no_low_line, "SUMMARY": summary, "TOTAL": total, "SEAT_SUMMARY": seat_summary_line,
        "SAID": said, "SIT_OUT": sit_out, "TIMEOUT": other_chatter, "CHATTER_OTHER": other_chatter,
    }
    player_group = {
        "ANTE": 0, "DEAL": 0, "LOW_NOTE": 0, "BRING_IN": 0, "COMPLETE": 0, "BET": 0, "CALL": 0,
        "RAISE": 0, "CHECK": 0, "FOLD": 0, "SHOW": 0, "MUCK": 0, "COLLECT": 0, "SEAT_SUMMARY": 1,
        "SAID": 0,
    }


FORMAT = LineFormat(
    name="fulltilt",
    grammar_path=GRAMMAR,
    builder=FullTiltBuilder,
    header=HEADER_START,
    kinds=KINDS,
    summary=_SUMMARY_FILE,
    summary_note="a Full Tilt tournament summary, not a hand history",
)

__all__ = [
    "BuildError", "FORMAT", "FullTiltBuilder", "LineBuilder", "LineFormat", "SkipHand", "explain",
    "skip_reason", "stud_structure", "stud_variant", "third_street_deal",
]
