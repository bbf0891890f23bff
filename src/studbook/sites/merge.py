"""Merge network (Carbon Poker, ...): XML game records.

A file is a sequence of top-level elements with no single root: a
``<description type="7-Stud" stakes="Limit $0.50/$1"/>`` followed by the
``<game>`` records it describes ("version 2" files add ``version="2"`` and
write stacks without ``$``). A game lists its players by 0-based seat, then
rounds with ids (``BLINDS``, ``BRING_IN``, ``THIRD_STREET`` ... ``SHOWDOWN``,
``END_OF_GAME``), each holding ``<event>`` elements (by seat number) and
``<cards>`` elements that repeat every player's cards so far (``null`` or
empty for a hidden card), then ``<winner>`` elements per pot.

Mixed games (HORSE) name each hand's game by a code (``multigametype``);
stud codes are in :data:`GAME_CODES`, the other games come back Skipped.

Normalisation (so the engine needs no Merge branches): seats become 1-based;
a tournament ``balance`` is the stack after the ante (the ante is added
back: hands 16 and 17 of the HORSE freeroll prove it); a folded game's
winner amount includes the uncalled bet (split into an UncalledReturned),
while version-2 files state it as an ``uncalled="true"`` winner; shows are
gathered into one showdown after the last street; a cash hand's rake is
the pot less the winner amounts.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from datetime import datetime, timezone
from decimal import Decimal
from typing import Iterator
from urllib.parse import unquote
from zoneinfo import ZoneInfo

from studbook.cards import Card
from studbook.events import (
    THIRD, Chatter, ChatterKind, DealCommunity, Event, Half, HandHeader, Muck, NoShow, ParseResult,
    PotSummary, Rejected, Seat, ShowdownStart, Skipped, Stakes, Street, Structure, Tournament,
    UncalledReturned, Variant,
)
from studbook.money import Money, parse_amount
from studbook.sites.base import HandText
from studbook.sites.ledger import Figure, Intent, Ledger
from studbook.sites.xml_common import (
    ZERO, BadRecord, Element, Level, Measure, RecordBuilder, Scanned, StakesLevels, XmlHandText, as_xml_hand, records,
    hand_text, scan, shown_level,
)
from studbook.sites.makers import (
    make_action, make_ante, make_collect, make_deal, make_hand, make_seat, make_show, make_stakes, make_street,
)

SITE = "merge"
RECORD = "game"
CONTEXT = frozenset({"description"})

_DETECT = re.compile(r"<game\s+id=\"[0-9]+-[0-9]+\"\s+starttime=")
_STAKES = re.compile(
    r"^(?P<limit>No Limit|Pot Limit|Half Pot Limit|Limit)\s*"
    r"(?:\(?(?P<a>\$?[0-9.,]+)/(?P<b>\$?[0-9.,]+)(?:/(?P<c>\$?[0-9.,]+))?\)?)?"  # ("$1" a Decimal, "1" chips)
)

# Game names as <description type> writes them -> variant; other names are skipped.
VARIANTS: dict[str, Variant] = {"7-Stud": Variant.STUD, "7-Stud H/L8": Variant.STUD8, "Razz": Variant.RAZZ}
SKIP_REASONS: dict[str, str] = {
    "5-Stud": "5-card stud is not replayed (only 7-card stud, stud hi/lo and razz)",
}
# gametype / multigametype codes -> game name (cash and tournament codes).
GAME_CODES: dict[str, str] = {
    "1": "Holdem", "2": "Holdem", "9": "Holdem", "23": "Holdem", "4": "Omaha",
    "34": "Omaha H/L8", "35": "Omaha H/L8", "37": "Omaha H/L8",
    "38": "7-Stud", "39": "7-Stud", "41": "7-Stud", "42": "7-Stud",
    "43": "7-Stud H/L8", "45": "7-Stud H/L8",
    "46": "Razz", "47": "Razz", "49": "Razz",
}
MIXES = frozenset({"HORSE", "HOSE", "HA", "HO", "HAR", "RASH", "SHOE"})
STRUCTURES: dict[str, Structure] = {
    "Limit": Structure.FIXED, "No Limit": Structure.NO, "Pot Limit": Structure.POT,
    "Half Pot Limit": Structure.POT,
}
# Tournament balances are written after the ante is posted.
BALANCE_AFTER_ANTE = {"tournament": True, "cash": False}
SEAT_BASE = 0  # Merge numbers seats from 0; events use 1-based seats
CURRENCY = "USD"  # Merge real-money games were in dollars
TIME_ZONE = "America/New_York"  # starttime is Eastern time

# <event type="..."> -> (intent, what amount= means). RAISE wrote the chips
# put in until the format change of 2010-09-08, the street total since.
ACTIONS: dict[str, tuple[Intent, Figure]] = {
    "BRING_IN": ("bring_in", "chips"), "CALL": ("call", "chips"), "BET": ("bet", "chips"),
    "RAISE": ("raise", "to"), "COMPLETE": ("complete", "to"), "ALL_IN": ("all_in", "chips"),
    "CHECK": ("check", "chips"), "FOLD": ("fold", "chips"), "SIT_OUT": ("fold", "chips"),
}
RAISE_TO_SINCE = "20100908000000"
OLD_ACTIONS: dict[str, tuple[Intent, Figure]] = {**ACTIONS, "RAISE": ("raise", "chips")}
ANTE = "ANTE"
SHOWS = frozenset({"SHOW", "MUCK"})
CHATTER: dict[str, ChatterKind] = {
    "CHAT": ChatterKind.SAID, "PLAYER_OUT": ChatterKind.OTHER, "LEAVE": ChatterKind.LEAVE,
    "DISCONNECTED": ChatterKind.DISCONNECT, "RECONNECTED": ChatterKind.RECONNECT,
    "SIT_IN": ChatterKind.RETURN,
}
CANCELLED = "GAME_CANCELLED"

# <round id="..."> -> what it is: a street (BRING_IN opens 3rd street, THIRD_STREET
# continues it), the antes, the showdown, or the end of the hand.
STREET_ROUNDS: dict[str, Street] = {
    "BRING_IN": Street.THIRD, "FOURTH_STREET": Street.FOURTH, "FIFTH_STREET": Street.FIFTH,
    "SIXTH_STREET": Street.SIXTH, "SEVENTH_STREET": Street.SEVENTH,
}
CONTINUED_ROUNDS = frozenset({"THIRD_STREET"})
ANTE_ROUNDS = frozenset({"BLINDS"})
SHOWDOWN_ROUNDS = frozenset({"SHOWDOWN"})
END_ROUNDS: dict[str, bool] = {"END_OF_GAME": False, "END_OF_FOLDED_GAME": True}  # -> folded

# <cards type="...">: running lists of a player's cards, hero's, shown, community.
RUNNING_CARDS = frozenset({"DRAW_DRAWN_CARDS", "HOLE"})
HERO_CARDS = "HOLE"
SHOWN_CARDS: dict[str, bool] = {"SHOWN": True, "MUCKED": False}  # -> shown
COMMUNITY = "COMMUNITY"
HIDDEN = frozenset({"", "null"})
# Positions, in a player's running list, of the down and up cards of a street.
DEAL_SLOTS: dict[Street, tuple[tuple[int, ...], tuple[int, ...]]] = {
    Street.THIRD: ((0, 1), (2,)), Street.FOURTH: ((), (3,)), Street.FIFTH: ((), (4,)),
    Street.SIXTH: ((), (5,)), Street.SEVENTH: ((6,), ()),
}
LAST_SLOT: dict[Street, int] = {street: max(down + up) for street, (down, up) in DEAL_SLOTS.items()}
# <winner pottype="..."> -> half of a split pot.
POT_TYPES: dict[str, Half | None] = {"n": None, "h": Half.HIGH, "l": Half.LOW}
MAX_RAKE = Decimal("0.10")


@functools.lru_cache(maxsize=4096)
def money(text: str) -> Money:
    return parse_amount(text) if text else ZERO


@functools.lru_cache(maxsize=1024)
def running(text: str) -> tuple[Card | None, ...]:
    """A running card list (``"Ah,null,3c"``); hidden cards are None."""
    return tuple(None if (part := piece.strip()) in HIDDEN else Card.parse(part) for piece in text.split(","))


@functools.lru_cache(maxsize=1024)
def street_cards(written: str, street: Street, hero: bool) -> tuple[tuple[Card, ...], tuple[Card, ...]] | None:
    """The new (down, up) cards a running list shows on ``street``, down ones only to the
    hero; None when the list holds no card of the street."""
    cards = running(written)
    if LAST_SLOT[street] >= len(cards):
        return None
    down_at, up_at = DEAL_SLOTS[street]
    down = tuple(c for i in down_at if (c := cards[i]) is not None) if hero else ()
    up = tuple(c for i in up_at if (c := cards[i]) is not None)
    return down, up


@dataclass(frozen=True, slots=True)
class Description:
    """A <description>: the game (or mix) and stakes of the games that follow."""

    game: str
    mix: str | None
    tournament: bool
    structure: Structure
    stakes: tuple[Money, Money] | None
    ante: Money | None
    bring_in: Money | None
    written: str
    problem: str | None = None  # why the games it describes cannot be read

    @staticmethod
    def of(element: Element | None) -> "Description":
        if element is None:
            return Description("", None, False, Structure.FIXED, None, None, None, "")
        kind = element.get("type")
        tournament = kind.endswith(" Tournament")
        game = kind.removesuffix(" Tournament")
        mix = game if game in MIXES else None
        stakes_text = element.get("stakes")
        found = _STAKES.match(stakes_text)
        structure = STRUCTURES[found.group("limit")] if found else Structure.FIXED
        stakes = None
        ante = bring_in = None
        written = f"{kind} {stakes_text}".strip()
        try:
            a, b, c = (money(found.group(k)) if found and found.group(k) else None for k in "abc")
        except ValueError:
            return Description(game, mix, tournament, structure, None, None, None, written,
                               f"the <description>'s stakes are not amounts: {stakes_text!r}")  # fmt: skip
        if c is not None:  # "No Limit ($ante/$bring-in/$bet)"
            ante, bring_in, stakes = a, b, (c, c)
        elif a is not None and b is not None:
            stakes = (a, b)
        return Description(game, mix, tournament, structure, stakes, ante, bring_in, written)


class _Builder(RecordBuilder):
    """One <game> element -> Hand, Skipped or Rejected."""

    def __init__(self, file: str, chunk: XmlHandText, description: Description, levels: StakesLevels) -> None:
        self.file = file
        self.chunk = chunk
        self.description = description
        self.levels = levels
        self.events: list[Event] = []
        self.seats: list[Seat] = []
        self.names: dict[str, str] = {}  # seat as written -> player
        self.ledger = Ledger(all_in_takes_chips=True)
        self.known: dict[str, list[Card | None]] = {}
        self.shown: dict[str, tuple[Card, ...]] = {}
        self.shows: list[Element] = []
        self.showdown_line = 0
        self.hero: str | None = None
        self.actions = ACTIONS
        self.winners: list[Element] = []
        self.after_ante = BALANCE_AFTER_ANTE["tournament" if description.tournament else "cash"]

    def build_record(self, game: Element) -> ParseResult:
        hand_id = game.get("id")
        name = self._game_name(game)
        if name not in VARIANTS:
            reason = SKIP_REASONS.get(name, "not a stud, stud hi/lo or razz hand")
            return Skipped(self.file, self.chunk.first_line, hand_id, name or "unknown game", reason)
        if self.description.problem is not None:
            raise BadRecord(game.line, self.description.problem)
        if game.get("starttime") < RAISE_TO_SINCE:
            self.actions = OLD_ACTIONS
        players = game.find("players")
        if players is None:
            raise BadRecord(game.line, "the hand has no <players>")
        self._seat_players(players)
        folded_end = False
        for child in game.children:
            if child.tag == "players":
                continue
            if child.tag != "round":
                self.unknown_element(child, "a hand")
                continue
            folded_end = self._round(child) or folded_end
        self._showdown()
        self._adjust_tournament_stacks()
        header = self._header(game, hand_id, name)
        last = self.chunk.first_line + self.chunk.text.count("\n")
        return make_hand(self.file, self.chunk.first_line, last, header, tuple(self.seats), tuple(self.events))

    def _game_name(self, game: Element) -> str:
        code = game.get("multigametype") or game.get("gametype")
        if code in GAME_CODES:
            return GAME_CODES[code]
        written = self.description.game
        return written if written and written not in MIXES else f"game code {code}"

    # -- seats ---------------------------------------------------------------
    def _seat_players(self, players: Element) -> None:
        self.at = players
        dealer = players.get("dealer")
        self.button = int(dealer) + 1 - SEAT_BASE if dealer else None
        for player in players.findall("player"):
            self.at = player
            name = player.get("nickname")
            written = player.get("seat")
            stack = money(player.get("balance"))
            self.names[written] = name
            self.ledger.seat(name, stack)
            self.seats.append(make_seat(self.file, player.line, int(written) + 1 - SEAT_BASE, name, stack,
                                        player.get("dealtin") == "false", False))  # fmt: skip

    def _adjust_tournament_stacks(self) -> None:
        if not self.after_ante:
            return
        antes = self.ledger.antes
        self.seats = [
            make_seat(s.file, s.line, s.seat, s.player, s.stack + antes.get(s.player, ZERO), s.sitting_out,
                      s.out_of_hand)
            for s in self.seats
        ]  # fmt: skip

    def _player(self, element: Element, attribute: str = "player") -> str:
        written = element.attrs.get(attribute, "")
        names = self.names
        if written not in names:
            raise BadRecord(element.line, f"seat {written!r} has no player")
        return names[written]

    # -- rounds --------------------------------------------------------------
    def _round(self, element: Element) -> bool:
        self.at = element
        kind = element.attrs.get("id", "")
        if kind in STREET_ROUNDS:
            street = STREET_ROUNDS[kind]
            if street is THIRD and self.after_ante:
                self._restore_antes()
            self.ledger.start(street)
            self.events.append(make_street(self.file, element.line, street))
            for cards in element.findall("cards"):
                self._cards(cards, street)
        elif kind in SHOWDOWN_ROUNDS:
            self.showdown_line = element.line
            for cards in element.findall("cards"):
                self._cards(cards, None)
        elif kind not in ANTE_ROUNDS and kind not in CONTINUED_ROUNDS and kind not in END_ROUNDS:
            raise BadRecord(element.line, f"unknown round {kind!r}")
        folded = END_ROUNDS.get(kind, False)
        for child in element.children:
            tag = child.tag
            if tag == "event":
                self._event(child, folded)
            elif tag == "winner":
                self.winners.append(child)
            elif tag != "cards":
                self.unknown_element(child, "a round")
        return folded

    def _restore_antes(self) -> None:
        """A balance written after the ante: the stack behind it is the balance."""
        for player, ante in self.ledger.antes.items():
            self.ledger.stacks[player] += ante

    def _cards(self, element: Element, street: Street | None) -> None:
        self.at = element
        attrs = element.attrs
        kind = attrs.get("type", "")
        if kind == COMMUNITY:
            if street is not Street.SEVENTH:
                raise BadRecord(element.line, f"a community card on {street} in a stud hand")
            self.events.append(DealCommunity(file=self.file, line=element.line,
                                             card=Card.parse(element.get("cards").split(",")[-1])))  # fmt: skip
            return
        player = self._player(element)
        written = attrs.get("cards", "")
        cards = running(written)
        if kind in SHOWN_CARDS:
            self.shown[player] = tuple(c for c in cards if c is not None)
            return
        if kind not in RUNNING_CARDS or street is None:
            raise BadRecord(element.line, f"unknown <cards type={kind!r}>")
        hero = kind == HERO_CARDS
        if hero:
            self.hero = player
        previous = self.known.get(player, [])
        self.known[player] = list(cards) if not previous else [
            c if c is not None else (previous[i] if i < len(previous) else None) for i, c in enumerate(cards)
        ]  # fmt: skip
        shown = street_cards(written, street, hero)
        if shown is None or len(previous) > LAST_SLOT[street]:
            return  # no card of this street for this player (folded earlier)
        down, up = shown
        if down or up:  # like the text sites: no line for an opponent's hidden 7th card
            self.events.append(make_deal(self.file, element.line, player, street, down, up, ()))

    def _event(self, element: Element, folded_end: bool) -> None:
        self.at = element
        kind = element.attrs.get("type", "")
        if kind == ANTE:
            player = self._player(element)
            amount = money(element.attrs.get("amount", ""))
            all_in = self.ledger.post_ante(player, amount)
            self.events.append(make_ante(self.file, element.line, player, amount, all_in))
        elif kind in self.actions:
            self._action(element, kind)
        elif kind in SHOWS:
            if folded_end:
                self.events.append(NoShow(file=self.file, line=element.line, player=self._player(element)))
            else:
                self.shows.append(element)
        elif kind in CHATTER:
            self._chatter(element, CHATTER[kind])
        elif kind == CANCELLED:
            raise BadRecord(element.line, "the site cancelled this hand")
        else:
            raise BadRecord(element.line, f"unknown event type {kind!r}")

    def _action(self, element: Element, kind: str) -> None:
        if self.ledger.street is None:
            raise BadRecord(element.line, f"{kind} before 3rd street")
        player = self._player(element)
        intent, means = self.actions[kind]
        written = element.attrs.get("amount", "")
        figure = money(written) if written else None
        what, amount, to, all_in, _put = self.ledger.act_as(player, intent, figure, means)
        self.events.append(make_action(self.file, element.line, player, what, amount, to, all_in))

    def _chatter(self, element: Element, kind: ChatterKind) -> None:
        written = element.get("player")
        player = self.names.get(written, written) or None
        text = element.get("text") or element.get("type")
        self.events.append(Chatter(file=self.file, line=element.line, kind=kind, text=text, player=player))

    # -- the end ---------------------------------------------------------------
    def _showdown(self) -> None:
        if self.shows:
            self.events.append(ShowdownStart(file=self.file, line=self.showdown_line or self.shows[0].line))
            for element in self.shows:
                player = self._player(element)
                known = self.known.get(player, [])
                full = tuple(c for c in known if c is not None) if known and None not in known else ()
                cards = max(self.shown.get(player, ()), full, key=len)
                if element.get("type") == "SHOW":
                    self.events.append(make_show(self.file, element.line, player, cards, None))
                else:
                    self.events.append(Muck(file=self.file, line=element.line, player=player, cards=cards))
        self._award()

    def _award(self) -> None:
        ledger = self.ledger
        won: dict[tuple[str, int, Half | None], Money] = {}
        lines: dict[str, int] = {}
        returned = False
        for element in self.winners:
            self.at = element
            player = self._player(element)
            amount = money(element.get("amount"))
            lines.setdefault(player, element.line)
            if element.get("uncalled") == "true":
                returned = True
                self.events.append(UncalledReturned(file=self.file, line=element.line, player=player,
                                                    amount=amount))  # fmt: skip
                continue
            pot = int(element.get("potnumber", "1")) - 1
            half = POT_TYPES.get(element.get("pottype", "n"))
            key = (player, pot, half)
            won[key] = won.get(key, ZERO) + amount
        uncalled = ledger.uncalled()
        if uncalled is not None and not returned:
            player, amount = uncalled
            holder = next((k for k in won if k[0] == player and won[k] >= amount), None)
            if holder is None:
                raise BadRecord(lines.get(player, 0) or self.chunk.first_line,
                                f"{player}'s uncalled {amount} is neither returned nor in a winner amount")
            won[holder] -= amount
            self.events.append(UncalledReturned(file=self.file, line=lines[player], player=player, amount=amount))
        collected = ZERO
        for (player, pot, half), amount in won.items():
            if amount > 0:
                collected += amount
                self.events.append(make_collect(self.file, lines[player], player, amount, pot, half))
        if not self.description.tournament and CURRENCY:
            total = sum((amount for amount, _eligible in ledger.pots()), ZERO)
            rake = total - collected
            if ZERO <= rake <= total * MAX_RAKE and self.winners:
                self.events.append(PotSummary(file=self.file, line=self.winners[0].line, total=total, rake=rake))

    def _header(self, game: Element, hand_id: str, name: str) -> HandHeader:
        self.at = game
        description = self.description
        data = game.get("data").split("|")
        tournament = None
        table = unquote(data[1]) if len(data) > 1 else ""
        is_tournament = description.tournament or (len(data) > 4 and data[4] == "true")
        if is_tournament:
            number, _, table_no = (data[2] if len(data) > 2 else "").partition("-")
            tournament = Tournament(id=number)
            table = f"{table} - Table {table_no}" if table_no else table
        play = game.get("realmoney") == "false"
        started = game.get("starttime")
        seats = game.get("seats")
        return HandHeader(
            site=SITE, hand_id=hand_id, variant=VARIANTS[name], structure=description.structure,
            game=name, stakes=self._stakes(game), currency=None if play or is_tournament else CURRENCY,
            play_money=play, tournament=tournament, mix=description.mix, table=table,
            max_seats=int(seats) if seats else None, button=self.button, started=started,
            started_utc=_utc(started),
        )  # fmt: skip

    def _stakes(self, game: Element) -> Stakes:
        description = self.description
        found = description.stakes
        if found is None:
            found = self.ledger.shown_stakes()
        if found is None and self.ledger.ante is not None:
            found = self.levels.get(self.ledger.ante)
        if found is None:
            raise BadRecord(game.line, "no stakes: the description gives none and no bet of this file shows them")
        return make_stakes(found[0], found[1], self.ledger.ante or description.ante, self.ledger.bring_in or description.bring_in)


_EASTERN = ZoneInfo(TIME_ZONE)
# A plain starttime: 14 digits, each field in the range strptime reads as two digits.
_PLAIN_TIME = re.compile(r"\d{4}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[01]\d|2[0-3])[0-5]\d[0-5]\d")


def _utc(started: str) -> datetime | None:
    written = started[:14]
    try:
        if _PLAIN_TIME.fullmatch(written):  # strptime's reading, at a fraction of its cost
            local = datetime(int(written[:4]), int(written[4:6]), int(written[6:8]), int(written[8:10]),
                             int(written[10:12]), int(written[12:]), tzinfo=_EASTERN)  # fmt: skip
        else:
            local = datetime.strptime(written, "%Y%m%d%H%M%S").replace(tzinfo=_EASTERN)
    except ValueError:
        return None
    return local.astimezone(timezone.utc)


def _build(file: str, chunk: XmlHandText, description: Description, levels: StakesLevels) -> ParseResult:
    """Build one hand and tell ``levels`` the ante level its bets show (none
    when it does not build, or when the description gives the stakes)."""
    builder = _Builder(file, chunk, description, levels)
    assert chunk.element is not None
    level: Level | None = None
    try:
        result = builder.build(chunk.element)
        if description.stakes is None:  # else the description gives the stakes, not the bets
            level = shown_level(result, builder.ledger)
    finally:
        levels.note(chunk.record, level)
    return result


def measure_level(game: Element, description: Description) -> Level | None:
    """The ante level ``game`` shows by its own bets, for another hand of the file."""
    if description.stakes is not None:
        return None
    try:
        builder = _Builder("", XmlHandText(game.line, "", element=game), description, StakesLevels())
        result = builder.build(game)
    except (ValueError, KeyError, ArithmeticError):  # BadRecord is a ValueError
        return None
    return shown_level(result, builder.ledger)


def _scanned(text: str) -> Iterator[Scanned]:
    return scan(text, RECORD, CONTEXT, with_text=False)  # Merge writes no element text


def _measures(text: str) -> Iterator[tuple[int, Measure]]:
    """Each record of ``text`` (a second scan, read only as far as asked) with
    how to measure its ante level, under the <description> before it."""
    description = _NO_DESCRIPTION
    for number, item in records(_scanned(text)):
        if item.kind == "context":
            description = Description.of(item.element)
        elif number is not None and item.element is not None:
            yield number, functools.partial(measure_level, item.element, description)


_NO_DESCRIPTION = Description.of(None)


@dataclass(frozen=True, slots=True)
class MergeFormat:
    """Merge network XML game records (any file extension)."""

    name: str = SITE

    def detect(self, head: str) -> bool:
        return _DETECT.search(head) is not None

    def split(self, text: str) -> Iterator[HandText]:
        """One hand at a time, as expat reads the file (see :func:`scan`), each
        under the <description> before it."""
        description = _NO_DESCRIPTION
        levels = StakesLevels(_measures(text))
        for number, item in records(_scanned(text)):
            if item.kind == "context":
                description = Description.of(item.element)
            hand = hand_text(item, {"description": description, "levels": levels}, number)
            if hand is not None:
                yield hand

    def parse_hand(self, chunk: HandText, file: str) -> ParseResult:
        chunk = as_xml_hand(chunk, RECORD)
        element = chunk.element
        hand_id = (element.get("id") or None) if element is not None else None
        if chunk.error is not None or element is None:
            return _reject(chunk, file, chunk.error_line or chunk.first_line, chunk.error or "no hand", hand_id)
        description = chunk.context.get("description")
        if not isinstance(description, Description):
            description = Description.of(None)
        levels = chunk.context.get("levels")
        levels = levels if isinstance(levels, StakesLevels) else StakesLevels()
        try:
            return _build(file, chunk, description, levels)
        except BadRecord as error:
            return _reject(chunk, file, error.line, str(error), hand_id)
        except (ValueError, KeyError, ArithmeticError) as error:
            return _reject(chunk, file, chunk.first_line, f"bad value: {error}", hand_id)
        except Exception as error:  # noqa: BLE001 - a parser never raises on input
            return _reject(chunk, file, chunk.first_line, f"internal error: {error!r}", hand_id)


def _reject(chunk: HandText, file: str, line: int, reason: str, hand_id: str | None) -> Rejected:
    lines = chunk.text.split("\n")
    index = line - chunk.first_line
    text = lines[index].strip() if 0 <= index < len(lines) else ""
    return Rejected(file, line, chunk.first_line, reason, text[:200], hand_id)


FORMAT = MergeFormat()
