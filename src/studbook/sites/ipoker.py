"""iPoker network: XML session files (``<session>`` of ``<game>`` elements).

A session file holds one ``<general>`` header (game and stakes, table,
currency, the hero's nickname, tournament facts) and one ``<game>`` per hand.
A hand lists its players (starting stacks, ``win`` and ``bet`` totals), then
numbered rounds: 0 antes, 1 blinds (empty in stud), 2..6 third street to the
river. Each round writes, per player, a ``<cards>`` element followed by that
player's ``<action>`` elements; the actions' ``no`` attribute gives the real
order. Cards are written suit first (``H10``, ``DA``), hidden ones ``X``;
the down cards of players who reached the showdown are filled in.

What the log does not write and the builder derives (normalisation, so the
engine needs no iPoker branches): the showdown (players live at the end,
shown in rule order), the uncalled bet (``win`` includes it; it becomes an
:class:`UncalledReturned` and the collection is the rest), and, in
tournaments, the stakes (the header has none: the bets of the hand show the
small and big bet, else another hand of the file at the same ante and
bring-in).

Every XML name and code the builder understands is in the tables below.
"""

from __future__ import annotations

import dataclasses
import functools
import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Iterator, Mapping

from studbook.betting import split_winnings
from studbook.cards import Card
from studbook.events import (
    Chatter, ChatterKind, Event, HandHeader, Muck, ParseResult, PotSummary, Rejected, Seat,
    ShowdownStart, Skipped, Stakes, Street, Structure, Tournament, TournamentFinish, UncalledReturned, Variant,
)
from studbook.money import Money, currency_of, parse_amount
from studbook.read.limits import MAX_PLACE, within_count
from studbook.sites.base import HandText
from studbook.sites.ledger import Figure, Intent, Ledger
from studbook.sites.xml_common import (
    ZERO, BadRecord, Element, Level, Measure, RecordBuilder, StakesLevels, XmlHandText, as_xml_hand, records,
    hand_text, scan, shown_level,
)
from studbook.sites.makers import (
    make_action, make_ante, make_collect, make_deal, make_hand, make_seat, make_show, make_stakes, make_street,
)

SITE = "ipoker"
RECORD = "game"
CONTEXT = frozenset({"general"})

_DETECT = re.compile(r"<session\b[^>]*>.*?<game\s+gamecode=", re.S)
# other skins write the ante after the stakes ("7 Card Stud L $0.05/$0.10 Ante $0.01"; the
# ante actions state it as well); FPDB's iPokerToFpdb.py reads it so
_GAMETYPE = re.compile(r"^(?P<game>.+?)\s+(?P<limit>L|LZ|NL|SL|PL|LP|БЛ)(?:\s+(?P<small>\S+)/(?P<big>\S+))?"
                       r"(?:\s+Ante\s+\S+)?\s*$")

# The game as <gametype> names it (without limit and stakes) -> variant.
VARIANTS: dict[str, Variant] = {
    "7 Card Stud": Variant.STUD,
    "7 Card Stud Hi-Lo": Variant.STUD8,
    "7 Card Stud Hi/Lo": Variant.STUD8,
    "7 Card Stud HiLow": Variant.STUD8,  # other skins' name (FPDB's iPokerToFpdb.py)
    "Razz": Variant.RAZZ,
}
# Games studbook does not replay, with the reason given in Skipped.
SKIPPED: dict[str, str] = {
    "5 Card Stud": "5-card stud is not replayed (only 7-card stud, stud hi/lo and razz)",
}
STRUCTURES: dict[str, Structure] = {
    "L": Structure.FIXED, "LZ": Structure.FIXED, "NL": Structure.NO, "SL": Structure.NO,
    "БЛ": Structure.NO, "PL": Structure.POT, "LP": Structure.POT,
}
# <mode> / <currency> values that mean play money.
PLAY_MODES = frozenset({"play", "fun"})
PLAY_CURRENCIES = frozenset({"", "fun", "play"})

# <action type="..."> -> (intent, what sum= means): "chips" put in by the
# action, or "to" = the player's street total after it.
ACTIONS: dict[str, tuple[Intent, Figure]] = {
    "0": ("fold", "chips"),
    "3": ("call", "chips"),
    "4": ("check", "chips"),
    "5": ("bet", "chips"),  # on 3rd street after the bring-in: the completion
    "7": ("all_in", "chips"),
    "16": ("bring_in", "chips"),
    "23": ("raise", "to"),
}
ANTE = "15"
# The log's own quirk: the ``bet`` total of a player who made a "raise to"
# (type 23) is unreliable: in the 117-hand SNG it is usually one ante too
# many, once more than the player's whole stack, while the pot and ``win``
# figures agree with the actions. The builder checks ``bet`` for the others.
BET_TOTAL_UNRELIABLE_AFTER = frozenset({"23"})
# Codes with no effect on a stud hand, as table chatter.
NOTICES: dict[str, ChatterKind] = {"8": ChatterKind.OTHER, "9": ChatterKind.SIT_OUT}

# <round no="..."> -> street; rounds 0 (antes) and 1 (blinds) hold no street.
ROUNDS: dict[str, Street | None] = {
    "0": None, "1": None, "2": Street.THIRD, "3": Street.FOURTH, "4": Street.FIFTH,
    "5": Street.SIXTH, "6": Street.SEVENTH,
}
# <cards type="..."> -> the street it deals (checked against the round).
CARD_STREETS: dict[str, Street] = {
    "Third Street": Street.THIRD, "Fourth Street": Street.FOURTH, "Fifth Street": Street.FIFTH,
    "Sixth Street": Street.SIXTH, "River": Street.SEVENTH, "Seventh Street": Street.SEVENTH,
}
# Which of a street's written cards are down and which up (index lists).
DEAL_SLOTS: dict[Street, tuple[tuple[int, ...], tuple[int, ...]]] = {
    Street.THIRD: ((0, 1), (2,)), Street.FOURTH: ((), (0,)), Street.FIFTH: ((), (0,)),
    Street.SIXTH: ((), (0,)), Street.SEVENTH: ((0,), ()),
}
# A cash hand's rake is the pot less the ``win`` figures, stated as a
# PotSummary only when it is plausible (else the engine sees the mismatch).
MAX_RAKE = Decimal("0.10")
_RANKS = {"10": "T"}
Shown = tuple[tuple[Card, ...], tuple[Card, ...]]  # new down cards, new up cards
_HIDDEN = "X"


@functools.lru_cache(maxsize=256)
def card(text: str) -> Card | None:
    """``H10`` -> Th, ``DA`` -> Ad, ``X`` -> None (hidden)."""
    if text == _HIDDEN:
        return None
    suit, rank = text[0], text[1:]
    return Card.parse(_RANKS.get(rank, rank) + suit.lower())


@functools.lru_cache(maxsize=1024)
def cards_dealt(text: str, street: Street, hero: bool) -> tuple[tuple[Card | None, ...], Shown | None]:
    """A <cards> element's cards as written (hidden ones None) and the new (down, up) cards
    it shows, down ones only to the hero; None when the count is wrong for the street."""
    cards = tuple(card(part) for part in text.split())
    down_at, up_at = DEAL_SLOTS[street]
    if len(cards) != len(down_at) + len(up_at):
        return cards, None
    down = tuple(c for i in down_at if (c := cards[i]) is not None) if hero else ()
    up = tuple(c for i in up_at if (c := cards[i]) is not None)
    return cards, (down, up)


# Other skins group thousands with a space ("1 440", a no-break space too), where the
# corpus's write "1,440" (FPDB's iPokerToFpdb.py reads both)
_GROUPING_SPACE = re.compile(r"(?<=[0-9])[ \u00a0](?=[0-9]{3}(?![0-9]))")


@functools.lru_cache(maxsize=4096)
def money(text: str) -> Money:
    if not text:
        return ZERO
    try:
        return parse_amount(text)
    except ValueError:  # only then look for grouping spaces: the usual figure pays nothing more
        grouped = _GROUPING_SPACE.sub("", text)
        if grouped == text:
            raise
        return parse_amount(grouped)


@dataclass(frozen=True, slots=True)
class Session:
    """The session header, as the hands of the file share it."""

    game: str  # <gametype> as written
    name: str | None  # the game without limit and stakes
    structure: Structure
    small: Money | None
    big: Money | None
    table: str
    currency: str | None
    play_money: bool
    hero: str
    tournament: Tournament | None
    problem: str | None = None  # why the hands of this session cannot be read
    finish: TournamentFinish | None = None  # the hero's place (and win) as a tournament session states it

    @staticmethod
    def of_element(general: Element) -> "Session":
        """The session of a <general> header: a tournament session's header
        states how its hero finished (<place>, <win>), at the <place> line."""
        session = Session.of(general.texts())
        place = general.find("place")
        if session.tournament is None or place is None or not place.text.strip().isdigit():
            return session
        win = general.find("win")
        prize = money(win.text.strip()) if win is not None and win.text.strip() else None
        finish = TournamentFinish(file="", line=place.line, kind=ChatterKind.OTHER, player=session.hero,
                                  text=f"<place>{place.text.strip()}</place>",
                                  place=within_count(int(place.text.strip()), "tournament place", MAX_PLACE),
                                  prize=prize)
        return dataclasses.replace(session, finish=finish)

    @staticmethod
    def of(general: Mapping[str, str]) -> "Session":
        written = general.get("gametype", "")
        found = _GAMETYPE.match(written)
        name = found.group("game") if found else None
        structure = STRUCTURES[found.group("limit")] if found else Structure.FIXED
        small = big = None
        problem = None
        if found and found.group("small") and found.group("big"):
            try:
                small, big = money(found.group("small")), money(found.group("big"))
            except ValueError:
                problem = f"the session's <gametype> has stakes that are not amounts: {written!r}"
        table = general.get("tablename", "")
        mode = general.get("mode", "real").lower()
        # the table's currency, else the stakes' symbol, else the account's
        # (<currency> is the account's: USD on a EUR table)
        symbol = currency_of(found.group("small")[:1]) if found and found.group("small") else None
        code = general.get("tablecurrency") or symbol or general.get("currency", "")
        play = mode in PLAY_MODES or code.lower() in PLAY_CURRENCIES
        tournament = None
        if "tournamentname" in general or "buyin" in general:
            parts = [part.strip() for part in table.split(",")]
            tournament = Tournament(id=parts[-1] if len(parts) > 1 else "", buy_in=general.get("buyin"))
            table = parts[0]
        currency = None if play or tournament is not None else (code or None)
        return Session(written, name, structure, small, big, table, currency, play,
                       general.get("nickname", ""), tournament, problem)  # fmt: skip


class _Builder(RecordBuilder):
    """One <game> element -> Hand, Skipped or Rejected."""

    def __init__(self, file: str, chunk: XmlHandText, session: Session, levels: StakesLevels) -> None:
        self.file = file
        self.chunk = chunk
        self.session = session
        self.levels = levels
        self.events: list[Event] = []
        self.seats: list[Seat] = []
        self.acted: set[str] = set()
        self.unchecked: set[str] = set()  # players whose log bet total is unreliable
        self.known: dict[str, list[Card | None]] = {}  # every card written, in deal order
        self.ledger = Ledger(all_in_takes_chips=True)

    def build_record(self, game: Element) -> ParseResult:
        session = self.session
        hand_id = game.get("gamecode")
        if session.name not in VARIANTS:
            reason = SKIPPED.get(session.name or "", "not a stud, stud hi/lo or razz hand")
            return Skipped(self.file, self.chunk.first_line, hand_id, session.game, reason)
        if session.problem is not None:
            raise BadRecord(game.line, session.problem)
        general = game.find("general")
        if general is None:
            raise BadRecord(game.line, "the hand has no <general> block")
        players = general.find("players")
        if players is None:
            raise BadRecord(general.line, "the hand has no <players>")
        wins = self._seat_players(players)
        rounds = game.findall("round")
        for child in game.children:
            if child.tag not in ("general", "round"):
                self.unknown_element(child, "a hand")
        for element in sorted(rounds, key=_round_order):
            self._round(element)
        self._mark_sitting_out()
        self._showdown(game)
        self._award(wins, game)
        header = self._header(game, hand_id, general)
        finish = session.finish
        if finish is not None and any(seat.player == finish.player for seat in self.seats):
            self.events.append(dataclasses.replace(finish, file=self.file))
        last = self.chunk.first_line + self.chunk.text.count("\n")
        return make_hand(self.file, self.chunk.first_line, last, header, tuple(self.seats), tuple(self.events))

    # -- seats ---------------------------------------------------------------
    def _seat_players(self, players: Element) -> dict[str, tuple[Money, Money, int]]:
        wins: dict[str, tuple[Money, Money, int]] = {}
        self.button: int | None = None
        for player in players.findall("player"):
            self.at = player
            attrs = player.attrs
            name = attrs.get("name", "")
            if not name:
                continue  # an empty seat
            seat = int(attrs.get("seat", ""))
            stack = money(attrs.get("chips", ""))
            self.seats.append(make_seat(self.file, player.line, seat, name, stack, False, False))
            self.ledger.seat(name, stack)
            wins[name] = (money(attrs.get("win", "")), money(attrs.get("bet", "")), player.line)
            if attrs.get("dealer") == "1":
                self.button = seat
        return wins

    def _mark_sitting_out(self) -> None:
        self.seats = [
            seat if seat.player in self.acted else
            make_seat(seat.file, seat.line, seat.seat, seat.player, seat.stack, True, False)
            for seat in self.seats
        ]  # fmt: skip

    # -- rounds --------------------------------------------------------------
    def _round(self, element: Element) -> None:
        self.at = element
        number = element.attrs.get("no", "")
        if number not in ROUNDS:
            raise BadRecord(element.line, f"unknown round no={number!r}")
        street = ROUNDS[number]
        if street is not None:
            self.ledger.start(street)
            self.events.append(make_street(self.file, element.line, street))
        actions = []
        for child in element.children:
            tag = child.tag
            if tag == "cards":
                self._deal(child, street)
            elif tag == "action":
                actions.append(child)
            else:
                self.unknown_element(child, "a round")
        for action in sorted(actions, key=_action_order):
            self._action(action, street)

    def _deal(self, element: Element, street: Street | None) -> None:
        self.at = element
        dealt = CARD_STREETS.get(element.attrs.get("type", ""))
        if street is None or dealt is not street:
            raise BadRecord(element.line, f"<cards type={element.get('type')!r}> in round of {street}")
        player = self._player(element)
        cards, shown = cards_dealt(element.text, street, player == self.session.hero)
        if shown is None:
            raise BadRecord(element.line, f"{len(cards)} cards dealt on {street.label} street")
        self.known.setdefault(player, []).extend(cards)
        self.acted.add(player)
        down, up = shown
        if down or up:
            self.events.append(make_deal(self.file, element.line, player, street, down, up, ()))

    def _action(self, element: Element, street: Street | None) -> None:
        self.at = element
        player = self._player(element)
        attrs = element.attrs
        code = attrs.get("type", "")
        figure = money(attrs.get("sum", ""))
        self.acted.add(player)
        if code == ANTE:
            all_in = self.ledger.post_ante(player, figure)
            self.events.append(make_ante(self.file, element.line, player, figure, all_in))
            return
        if code in NOTICES:
            self.events.append(Chatter(file=self.file, line=element.line, kind=NOTICES[code],
                                       text=f"action type {code}", player=player))  # fmt: skip
            return
        if code not in ACTIONS:
            raise BadRecord(element.line, f"unknown action type {code!r}")
        if street is None:
            raise BadRecord(element.line, f"action type {code} before 3rd street")
        intent, means = ACTIONS[code]
        if code in BET_TOTAL_UNRELIABLE_AFTER:
            self.unchecked.add(player)
        kind, amount, to, all_in, _put = self.ledger.act_as(player, intent, figure, means)
        self.events.append(make_action(self.file, element.line, player, kind, amount, to, all_in))

    def _player(self, element: Element) -> str:
        player = element.attrs.get("player", "")
        if player not in self.ledger.stacks:
            raise BadRecord(element.line, f"{player!r} has no seat")
        return player

    # -- the end ---------------------------------------------------------------
    def _showdown(self, game: Element) -> None:
        ledger = self.ledger
        live = [s.player for s in self.seats if s.player in self.acted and s.player not in ledger.folded]
        if len(live) < 2:
            return
        line = self._last_line(game)
        first = ledger.aggressor if ledger.aggressor in live else live[0]
        start = live.index(first)
        self.events.append(ShowdownStart(file=self.file, line=line))
        for player in live[start:] + live[:start]:
            cards = self.known.get(player, [])
            if cards and all(c is not None for c in cards):
                self.events.append(make_show(self.file, line, player, tuple(c for c in cards if c is not None), None))
            else:
                self.events.append(Muck(file=self.file, line=line, player=player))

    def _award(self, wins: dict[str, tuple[Money, Money, int]], game: Element) -> None:
        ledger = self.ledger
        for player, (_win, bet, line) in wins.items():
            put_in = ledger.put_in.get(player, ZERO)
            if put_in != bet and player not in self.unchecked:
                raise BadRecord(line, f"{player}'s actions put in {put_in}, but the log's bet total is {bet}")
        won = {player: win for player, (win, _bet, _line) in wins.items()}
        lines = {player: line for player, (_win, _bet, line) in wins.items()}
        uncalled = ledger.uncalled()
        if uncalled is not None:
            player, amount = uncalled
            if won[player] < amount:
                raise BadRecord(lines[player], f"{player} wins {won[player]}, less than the uncalled bet {amount}")
            self.events.append(UncalledReturned(file=self.file, line=lines[player], player=player, amount=amount))
            won[player] -= amount
        pots = ledger.pots()
        for player, amount, pot in split_winnings(won, pots):
            self.events.append(make_collect(self.file, lines[player], player, amount, pot, None))
        if self.session.currency is not None and self.session.tournament is None:
            self._rake(pots, sum(won.values(), ZERO), game)

    def _rake(self, pots: list[tuple[Money, frozenset[str]]], collected: Money, game: Element) -> None:
        """Cash games: the log states no total pot; its ``win`` figures imply the rake."""
        total = sum((amount for amount, _eligible in pots), ZERO)
        rake = total - collected
        if ZERO <= rake <= total * MAX_RAKE:
            self.events.append(PotSummary(file=self.file, line=game.line, total=total, rake=rake))

    def _last_line(self, game: Element) -> int:
        """The line of the hand's last start tag: the last element in document order."""
        element = game
        while element.children:
            element = element.children[-1]
        return element.line

    def _header(self, game: Element, hand_id: str, general: Element) -> HandHeader:
        self.at = game
        session = self.session
        assert session.name is not None
        started = (general.find("startdate") or Element("startdate", {}, 0)).text.strip()
        return HandHeader(
            site=SITE, hand_id=hand_id, variant=VARIANTS[session.name], structure=session.structure,
            game=session.game, stakes=self._stakes(game), currency=session.currency,
            play_money=session.play_money, tournament=session.tournament, table=session.table,
            button=self.button, started=started,
            hero=session.hero or None, hero_mark="<nickname>" if session.hero else "",
        )  # fmt: skip

    def _stakes(self, game: Element) -> Stakes:
        session = self.session
        small, big = session.small, session.big
        if small is None or big is None:
            found = self.ledger.shown_stakes()
            if found is None and self.ledger.ante is not None:
                found = self.levels.get(self.ledger.ante)
            if found is None:
                raise BadRecord(game.line, "no stakes: the header gives none and no bet of this file shows them")
            small, big = found
        return make_stakes(small, big, self.ledger.ante, self.ledger.bring_in)


def _round_order(element: Element) -> int:
    return int(element.attrs.get("no", "-1"))


def _action_order(element: Element) -> int:
    return int(element.attrs.get("no", "0"))


def measure_level(game: Element, session: Session) -> Level | None:
    """The ante level ``game`` shows by its own bets, for another hand of the file."""
    builder = _Builder("", XmlHandText(game.line, "", element=game), session, StakesLevels())
    try:
        result = builder.build(game)
    except (ValueError, KeyError, ArithmeticError):  # BadRecord is a ValueError
        return None
    return shown_level(result, builder.ledger)


def _measures(text: str) -> Iterator[tuple[int, Measure]]:
    """Each record of ``text`` (a second scan, read only as far as asked) with
    how to measure its ante level, under the file's first session header."""
    session: Session | None = None
    for number, item in records(scan(text, RECORD, CONTEXT)):
        if item.kind == "context" and session is None and item.element is not None:
            session = Session.of_element(item.element)
        elif number is not None and item.element is not None:
            yield number, functools.partial(measure_level, item.element, session or _NO_SESSION)


_NO_SESSION = Session.of({})


@dataclass(frozen=True, slots=True)
class IPokerFormat:
    """iPoker XML session files (any file extension)."""

    name: str = SITE

    def detect(self, head: str) -> bool:
        return _DETECT.search(head) is not None

    def split(self, text: str) -> Iterator[HandText]:
        """One hand at a time, as expat reads the file (see :func:`scan`). Every
        hand gets the file's first session header (<general>); a hand before
        it gets an empty one."""
        session: Session | None = None
        levels = StakesLevels(_measures(text))
        for number, item in records(scan(text, RECORD, CONTEXT)):
            if item.kind == "context" and session is None and item.element is not None:
                session = Session.of_element(item.element)
            hand = hand_text(item, {"session": session or _NO_SESSION, "levels": levels}, number)
            if hand is not None:
                yield hand

    def parse_hand(self, chunk: HandText, file: str) -> ParseResult:
        chunk = as_xml_hand(chunk, RECORD)
        hand_id = chunk.element.get("gamecode") or None if chunk.element is not None else None
        if chunk.error is not None or chunk.element is None:
            return _reject(chunk, file, chunk.error_line or chunk.first_line, chunk.error or "no hand", hand_id)
        session = chunk.context.get("session")
        if not isinstance(session, Session):
            return _reject(chunk, file, chunk.first_line, "a hand without its session header (<general>)", hand_id)
        levels = chunk.context.get("levels")
        levels = levels if isinstance(levels, StakesLevels) else StakesLevels()
        level: Level | None = None  # noted for the hands after it, built or not
        try:
            builder = _Builder(file, chunk, session, levels)
            result = builder.build(chunk.element)
            level = shown_level(result, builder.ledger)
            return result
        except BadRecord as error:
            return _reject(chunk, file, error.line, str(error), hand_id)
        except (ValueError, KeyError, ArithmeticError) as error:
            return _reject(chunk, file, chunk.first_line, f"bad value: {error}", hand_id)
        except Exception as error:  # noqa: BLE001 - a parser never raises on input
            return _reject(chunk, file, chunk.first_line, f"internal error: {error!r}", hand_id)
        finally:
            levels.note(chunk.record, level)


def _reject(chunk: HandText, file: str, line: int, reason: str, hand_id: str | None) -> Rejected:
    lines = chunk.text.split("\n")
    index = line - chunk.first_line
    text = lines[index].strip() if 0 <= index < len(lines) else ""
    return Rejected(file, line, chunk.first_line, reason, text[:200], hand_id)


FORMAT = IPokerFormat()
