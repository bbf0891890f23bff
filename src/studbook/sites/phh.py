"""PHH, the Poker Hand History format (pokerkit's standard), read as a site.

A ``.phh`` file is one TOML document; a ``.phhs`` file holds many as tables
``[1]``, ``[2]``, ... . Files are recognised by content (a ``variant = ``
line and one of the required fields), read with the standard ``tomllib``
(amounts exactly: ``parse_float=Decimal``) and turned into the same events
as a site's log, so every rule of the engine applies. Each event carries the
line of what it came from: an action's own line in the ``actions`` array
(one per line as studbook writes them; pokerkit writes them all on one line),
the ``antes`` line for antes, the ``starting_stacks`` line for seats.

What PHH does not say, the reader fills in as data, not guesses: the street
of a ``d dh`` is the number of cards the player has been dealt. The betting
is the readers' one :class:`~studbook.sites.ledger.Ledger` (over
:mod:`studbook.betting`, as a site log's): antes and the bring-in are the
amounts due (``posts_as_due``: a short stack posts all it has); a ``cbr`` is
the street total, the ledger telling a completion, a bet or a raise (3rd
street opened by a bet of the ``small_bet``, as the engine counts bets), and
one that does not raise the bet or overdraws the stack is rejected at its
line; ``cc`` is :meth:`~studbook.sites.ledger.Ledger.check_or_call`.
``winnings`` become collections; a file without them leaves the award to the
engine (profile ``phh``: ``logs_collections=False``). Non-stud variants
(hold'em, draw games) are skipped with the variant named.
"""

from __future__ import annotations

import hashlib
import re
import tomllib
from dataclasses import dataclass
from datetime import datetime, time, timezone
from decimal import Decimal
from typing import Any, Iterator

from studbook.cards import Card
from studbook.events import (
    ActionKind, Event, ParseResult, Rejected, Street, Structure, Variant,
)
from studbook.money import Money, within_limits
from studbook.read import split_at_starts
from studbook.sites.base import HandText
from studbook.sites.ledger import Ledger, Normalised
from studbook.sites.makers import (
    make_action, make_ante, make_collect, make_deal, make_deal_community, make_hand, make_header, make_muck,
    make_seat, make_show, make_showdown, make_skipped, make_stakes, make_street,
)

NAME = "phh"
VARIANTS = {"F7S": Variant.STUD, "F7S/8": Variant.STUD8, "FR": Variant.RAZZ}
REQUIRED = ("variant", "antes", "bring_in", "small_bet", "big_bet", "starting_stacks", "actions")
_TABLE = re.compile(r"^\[[^\]\n]+\][ \t]*$", re.M)
_VARIANT = re.compile(r"^[ \t]*variant[ \t]*=[ \t]*['\"]", re.M)
_FIELD = re.compile(r"^[ \t]*(starting_stacks|actions|antes)[ \t]*=", re.M)
_KEY = re.compile(r"^[ \t]*([A-Za-z0-9_\-]+|'[^'\n]*'|\"[^\"\n]*\")[ \t]*=", re.M)
_STRING = re.compile(r"\"(?:[^\"\\\n]|\\.)*\"|'[^'\n]*'|#[^\n]*")
_CARD = re.compile(r"[2-9TJQKA][cdhs]|\?\?")
_STREETS = (Street.THIRD, Street.THIRD, Street.THIRD, Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH)
_UP = (False, False, True, True, True, True, False)  # dealing order: down, down, up x4, down
K = ActionKind


class BadPhh(ValueError):
    """A PHH value the reader cannot use, at a line."""

    def __init__(self, line: int, reason: str, text: str = "") -> None:
        super().__init__(reason)
        self.line = line
        self.text = text


@dataclass(frozen=True, slots=True)
class PhhFormat:
    name: str = NAME

    def detect(self, head: str) -> bool:
        return bool(_VARIANT.search(head) and _FIELD.search(head))

    def split(self, text: str) -> Iterator[HandText]:
        """A ``.phhs`` file's tables, or a ``.phh`` file whole."""
        if _TABLE.search(text):
            yield from split_at_starts(text, _TABLE)
        else:
            body = text.strip("\n")
            first = 1 + len(text) - len(text.lstrip("\n"))
            yield HandText(first, body.rstrip() + "\n")

    def parse_hand(self, chunk: HandText, file: str) -> ParseResult:
        try:
            return _Reader(chunk, file).hand()
        except BadPhh as error:
            return Rejected(file, error.line, chunk.first_line, str(error), error.text)
        except tomllib.TOMLDecodeError as error:
            found = re.search(r"line (\d+)", str(error))
            line = chunk.first_line - 1 + int(found.group(1)) if found else chunk.first_line
            return Rejected(file, line, chunk.first_line, f"not valid TOML: {error}")
        except (ValueError, TypeError, KeyError, ArithmeticError) as error:  # a field of the wrong type
            return Rejected(file, chunk.first_line, chunk.first_line, f"bad PHH value: {error}")
        except Exception as error:  # noqa: BLE001 - a parser never raises on input
            return Rejected(file, chunk.first_line, chunk.first_line, f"internal error: {error!r}")


FORMAT = PhhFormat()


def _lines_of(text: str, first_line: int) -> tuple[dict[str, int], list[int]]:
    """The line of each top-level key, and of each string of the ``actions`` array."""
    keys: dict[str, int] = {}
    actions: list[int] = []
    for m in _KEY.finditer(text):
        keys.setdefault(m.group(1).strip("'\""), first_line + text.count("\n", 0, m.start()))
    at = re.search(r"^[ \t]*actions[ \t]*=[ \t]*\[", text, re.M)
    if at is not None:
        pos = at.end()
        while pos < len(text):
            item = _STRING.search(text, pos)
            close = text.find("]", pos)
            if item is None or close != -1 and close < item.start():
                break
            if not item.group().startswith("#"):
                actions.append(first_line + text.count("\n", 0, item.start()))
            pos = item.end()
    return keys, actions


@dataclass(slots=True)
class _Player:
    name: str
    cards: int = 0  # dealt so far


class _Reader:
    """One hand's TOML table to events, its betting on one :class:`Ledger`."""

    def __init__(self, chunk: HandText, file: str) -> None:
        self.chunk = chunk
        self.file = file
        self.events: list[Event] = []
        self.ledger: Ledger  # made once the stakes are read
        self.showdown = False
        self.keys: dict[str, int] = {}
        self.players: list[_Player] = []
        self.bring_in: Money = Decimal(0)
        self.small: Money = Decimal(0)
        self.big: Money = Decimal(0)

    def hand(self) -> ParseResult:
        chunk, file = self.chunk, self.file
        data: dict[str, Any] = tomllib.loads(chunk.text, parse_float=Decimal)
        text = chunk.text
        if _TABLE.match(text):  # one table of a .phhs
            tables = [v for v in data.values() if isinstance(v, dict)]
            if len(tables) != 1:
                raise BadPhh(chunk.first_line, "expected one hand table")
            data = tables[0]
        keys, action_lines = _lines_of(text, chunk.first_line)
        self.keys = keys
        variant = data.get("variant")
        hand_id = str(data["hand"]) if "hand" in data else _digest(text)
        if variant not in VARIANTS:
            return make_skipped(file, chunk.first_line, hand_id, f"PHH variant {variant!r}",
                                f"PHH variant {variant!r}: not a stud, stud hi/lo or razz hand", None)
        for name in REQUIRED:
            if name not in data:
                raise BadPhh(chunk.first_line, f"no {name!r} field (PHH requires it for {variant})")
        stacks = self.amounts(data, "starting_stacks")
        count = len(stacks)
        names = [str(n) for n in data.get("players", [f"p{i + 1}" for i in range(count)])]
        seats = [int(s) for s in data.get("seats", range(1, count + 1))]
        antes = self.amounts(data, "antes")
        for key, values in (("players", names), ("seats", seats), ("antes", antes)):
            if len(values) != count:
                raise BadPhh(self.line(key), f"{key} has {len(values)} entries for {count} starting stacks")
        if len(set(names)) != count:
            raise BadPhh(self.line("players"), "two players have the same name")
        self.players = [_Player(n) for n in names]
        self.bring_in = self.amount(data, "bring_in")
        self.small = self.amount(data, "small_bet")
        self.big = self.amount(data, "big_bet")
        # PHH's antes and bring_in are what is due; its stakes are fixed-limit's
        self.ledger = Ledger(dict(zip(names, stacks)), posts_as_due=True, small_bet=self.small)
        seat_line = self.line("starting_stacks")
        seat_events = tuple(make_seat(file, seat_line, s, n, st, False, False)
                            for n, s, st in zip(names, seats, stacks))
        ante_line = self.line("antes")
        for name, ante in zip(names, antes):
            if ante > 0:
                all_in = self.ledger.post_ante(name, ante)
                self.events.append(make_ante(file, ante_line, name, self.ledger.antes[name], all_in))
        actions = data["actions"]
        if not isinstance(actions, list):
            raise BadPhh(self.line("actions"), "actions is not a list")
        for i, action in enumerate(actions):
            line = action_lines[i] if i < len(action_lines) else self.line("actions")
            self.action(str(action), line)
        for name, won in zip(names, self.amounts(data, "winnings") if "winnings" in data else []):
            if won > 0:
                self.events.append(make_collect(file, self.line("winnings"), name, won, 0, None))
        header = make_header(
            NAME, hand_id, VARIANTS[variant], Structure.FIXED, variant,
            make_stakes(self.small, self.big, max(antes, default=None) or None, self.bring_in),
            data.get("currency"), False, None, None, str(data.get("table", "")),
            data.get("seat_count"), None, *_started(data),
        )
        end = chunk.first_line + chunk.text.rstrip("\n").count("\n")
        return make_hand(file, chunk.first_line, end, header, seat_events, tuple(self.events))

    # -- values ----------------------------------------------------------

    def line(self, key: str) -> int:
        return self.keys.get(key, self.chunk.first_line)

    def amount(self, data: dict[str, Any], key: str) -> Money:
        return self.number(data[key], key)

    def amounts(self, data: dict[str, Any], key: str) -> list[Money]:
        values = data[key]
        if not isinstance(values, list):
            raise BadPhh(self.line(key), f"{key} is not a list")
        return [self.number(v, key) for v in values]

    def number(self, value: Any, key: str) -> Money:
        if isinstance(value, bool) or not isinstance(value, (int, Decimal)) or not Decimal(value).is_finite() \
                or value < 0:
            raise BadPhh(self.line(key), f"{key}: not an amount: {value!r}")
        try:
            return within_limits(Decimal(value), value)
        except ValueError as error:
            raise BadPhh(self.line(key), f"{key}: {error}") from None

    # -- actions ---------------------------------------------------------

    def action(self, action: str, line: int) -> None:
        words = action.split("#", 1)[0].split()
        try:
            if not words:
                return
            if words[0] == "d":
                self.deal(words, line)
            else:
                self.player_action(words, line)
        except (IndexError, KeyError, ValueError, ArithmeticError) as error:
            raise BadPhh(line, f"bad action: {error or type(error).__name__}", action) from None

    def player(self, label: str) -> _Player:
        if not re.fullmatch(r"p[1-9][0-9]*", label) or int(label[1:]) > len(self.players):
            raise ValueError(f"no player {label}")
        return self.players[int(label[1:]) - 1]

    def deal(self, words: list[str], line: int) -> None:
        if words[1] == "db" and len(words) == 3:
            self.start(Street.SEVENTH, line)
            self.events.append(make_deal_community(self.file, line, Card.parse(words[2])))
            return
        if words[1] != "dh" or len(words) != 4:
            raise ValueError(f"not a stud deal: {' '.join(words)}")
        p = self.player(words[2])
        cards = _CARD.findall(words[3])
        if "".join(cards) != words[3] or not cards:
            raise ValueError(f"not cards: {words[3]}")
        down: list[Card] = []
        up: list[Card] = []
        street = _STREETS[min(p.cards, 6)]
        for text in cards:
            if p.cards >= 7:
                raise ValueError(f"{p.name} is dealt an eighth card")
            if text != "??":
                (up if _UP[p.cards] else down).append(Card.parse(text))
            p.cards += 1
        self.start(street, line)
        self.events.append(make_deal(self.file, line, p.name, street, tuple(down), tuple(up), ()))

    def start(self, street: Street, line: int) -> None:
        if self.ledger.street is not None and street <= self.ledger.street:
            return
        self.ledger.start(street)
        self.events.append(make_street(self.file, line, street))

    def player_action(self, words: list[str], line: int) -> None:
        p = self.player(words[0])
        verb, args = words[1], words[2:]
        file = self.file
        if verb == "sm":
            if not self.showdown:
                self.showdown = True
                self.events.append(make_showdown(file, line))
            if not args:
                self.events.append(make_muck(file, line, p.name, ()))
            else:
                cards = () if args == ["-"] else tuple(Card.parse(t) for t in _CARD.findall(args[0]) if t != "??")
                self.events.append(make_show(file, line, p.name, cards, None))
            return
        if self.ledger.street is None:
            self.start(Street.THIRD, line)
        if verb == "f" and not args:
            self.record(p.name, line, self.ledger.act(p.name, K.FOLD))
        elif verb == "pb" and not args:
            self.record(p.name, line, self.ledger.act(p.name, K.BRING_IN, self.bring_in))
        elif verb == "cc" and not args:
            self.record(p.name, line, self.ledger.check_or_call(p.name))
        elif verb == "cbr" and len(args) == 1:
            self.record(p.name, line, self.bet_to(p.name, args[0]))
        else:
            raise ValueError(f"not a stud action: {' '.join(words)}")

    def bet_to(self, name: str, figure: str) -> Normalised:
        """A ``cbr``: the street total ``figure``, which must raise the bet and be
        within the stack (the ledger tells a completion, a bet or a raise)."""
        to = Decimal(figure)
        if not to.is_finite():
            raise ValueError(f"not an amount: {figure}")
        within_limits(to, figure)
        level = self.ledger.level
        done = self.ledger.act(name, K.RAISE, None, to)
        if done[0] is K.CALL:  # the ledger reads a total that does not raise the bet as a call
            raise ValueError(f"{name} cbr {figure} does not raise the bet of {level}")
        if self.ledger.stacks[name] < 0:
            raise ValueError(f"{name} cannot make it {figure}: {-self.ledger.stacks[name]} more than the stack")
        return done

    def record(self, name: str, line: int, done: Normalised) -> None:
        kind, amount, to, all_in, _ = done
        self.events.append(make_action(self.file, line, name, kind, amount, to, all_in))


def _digest(text: str) -> str:
    """A hand without a ``hand`` field is named by its content."""
    return "sha1-" + hashlib.sha1(text.encode("utf-8")).hexdigest()[:16]


def _started(data: dict[str, Any]) -> tuple[str, datetime | None]:
    """The start as written (date and time fields) and, when the zone is UTC, as a UTC time."""
    year, month, day = data.get("year"), data.get("month"), data.get("day")
    clock = data.get("time")
    if not (isinstance(year, int) and isinstance(month, int) and isinstance(day, int)):
        return (str(clock) if clock is not None else ""), None
    at = clock if isinstance(clock, time) else time(0)
    written = f"{year:04d}/{month:02d}/{day:02d}" + (f" {clock}" if clock is not None else "")
    zone = str(data.get("time_zone", ""))
    if data.get("time_zone") and zone.upper() in ("UTC", "GMT", "Z"):
        try:
            return f"{written} {zone}", datetime.combine(datetime(year, month, day).date(), at, tzinfo=timezone.utc)
        except ValueError:
            return written, None
    return (f"{written} {zone}" if zone else written), None


__all__ = ["FORMAT", "PhhFormat", "VARIANTS"]
