"""BetOnline and the Chico network's other skins: stud hand histories.

The skins (:data:`SKINS`) write one PokerStars-like text format, read by
``grammars/betonline.lark``. It was learned from other parsers' code (FPDB's
``BetOnlineToFpdb.py`` and an open Chico-network reader), not from a real log:
no BetOnline log is in the corpus, and neither parser reads the skins' stud
hands, so the stud lines are the PokerStars template those parsers follow
(``*** 3rd STREET ***`` ... ``*** RIVER ***``, ``Dealt to``, ``brings in for``).

What the skins do that other PokerStars-like logs do not:

* antes are ``ante processed 0.10`` (older: ``posts the ante``); a zero ante
  puts no chips in and is no event, and its seat, when dealt no card, was not
  in the hand (sitting out);
* ``raises 0.50 to 1.00``: the second figure is the street total (the first
  repeats it on a street's first raise); ``Raises 1000.00`` with no ``to``
  (the Title-Case skins) is the chips the raise puts in;
* nobody ``collected`` in the stream: the summary's ``won (X)`` /
  ``collected (X)`` are the collections;
* ``Total pot X | Rake Y`` comes once a pot (main, side pots), the rake on
  each line being the hand's: the lines make one pot summary;
* amounts carry no currency sign: the currency is the header stakes' sign
  (None when they have none, at tournaments and play-money tables);
* the time zone is an abbreviation or Windows' words (``GMT Standard Time``),
  or missing (ActionPoker.com, Gear Poker): then the start has no UTC time.
"""

from __future__ import annotations

import dataclasses
import re
from datetime import datetime

from studbook.events import ActionKind, Event, HandHeader, PotSummary
from studbook.money import Money, currency_in, exact
from studbook.sites.base import HandText
from studbook.read.grammar import LineGrammar
from studbook.sites.lines import (
    ACTION_TERMINALS, COMMON_KINDS, STREET_TERMINALS, ZERO, Fields, LineBuilder, LineFormat, SkipHand, amount,
    cards, game_variant, skip_reason, stud_structure, summary_outcome, to_utc,
)
from studbook.sites.makers import make_header, make_stakes, make_tournament

# The network's skins, as their headers name them: "<skin> Game #N: ..."
SKINS = ("BetOnline Poker", "PayNoRake", "ActionPoker.com", "Gear Poker", "SportsBetting.ag Poker", "Tiger Gaming")
_SKIN = "|".join(re.escape(skin) for skin in SKINS)
HEADER_START = re.compile(rf"^(?:{_SKIN}) Game #(\d+)", re.M)
# Detection: the literal " Game #" first, then a skin's name before it at a line start
# (a lookbehind): a ``^`` alternation would be tried at every offset of other sites' files.
_DETECT = re.compile(" Game #(?:" + "|".join(f"(?<=^{re.escape(skin)} Game #)" for skin in SKINS) + r")\d", re.M)

# Time zones written in Windows' words, as the zone abbreviations of lines.ZONES
# (each a region: daylight saving time follows the date).
_WINDOWS_ZONES = {
    "Eastern Standard Time": "ET", "Eastern Daylight Time": "ET", "Central Standard Time": "CT",
    "Central Daylight Time": "CT", "Mountain Standard Time": "MT", "Mountain Daylight Time": "MT",
    "Pacific Standard Time": "PT", "Pacific Daylight Time": "PT", "GMT Standard Time": "BST",
    "GMT Daylight Time": "BST", "Coordinated Universal Time": "UTC",
}

KINDS: dict[str, str] = {
    **COMMON_KINDS,
    "HAND_NO": "hand header", "STUD_HEADER": "hand header", "OTHER_HEADER": "hand header",
    "TABLE": "table line", "THIRD": "*** 3rd STREET ***", "FOURTH": "*** 4th STREET ***",
    "FIFTH": "*** 5th STREET ***", "SIXTH": "*** 6th STREET ***", "RIVER": "*** RIVER ***",
    "RAISE_CHIPS": "raise", "SHOW_BARE": "shows", "NOSHOW": "doesn't show", "SHOWDOWN": "*** SHOW DOWN ***",
    "SUMMARY": "*** SUMMARY ***",
}


def _utc(when: str, zone: str | None) -> datetime | None:
    """The start in UTC, from a time with or without seconds and a zone in either form."""
    written = when if when.count(":") == 2 else when + ":00"
    return to_utc(written, _WINDOWS_ZONES.get(zone, zone)) if zone else None


# The header line's fields (betonline.lark): the hand id, the tournament's id and buy-in,
# the game, small and big bet, the start time and its zone.
_StudHeader = tuple[str, str | None, str | None, str, str | None, str | None, str, str | None]


class BetOnlineBuilder(LineBuilder):
    SITE = "betonline"

    def __init__(self, file: str, chunk: HandText, text: str, grammar: LineGrammar) -> None:
        super().__init__(file, chunk, text, grammar)
        self.total_at: int | None = None  # the index of the hand's pot summary among the events
        self.pot_lines: list[tuple[str, str | None]] = []
        self.no_ante: set[str] = set()  # seats whose ante was "0.00"
        self.collected = False  # a "collected" line in the stream (else the summary's wins are the collections)

    # -- header, table, seats, antes ------------------------------------------
    def stud_header(self, kind: str, f: _StudHeader, line: int) -> None:
        hand_id, tournament, buy_in, game, small, big, when, zone = f
        head = self.head
        head.update({"hand_id": hand_id, "tournament_id": tournament, "buy_in": buy_in, "game": game,
                     "started": f"{when} {zone}" if zone else when, "started_utc": _utc(when, zone)})  # fmt: skip
        if small is not None and big is not None:  # (the grammar's stakes: both or neither)
            head["small"], head["big"] = small, big

    def other_header(self, kind: str, f: tuple[str, str | None, str | None, str], line: int) -> None:
        self.head["hand_id"] = f[0]
        other = f[3]  # another game by its words (common.lark's OTHER_GAME_NAME)
        raise SkipHand(other, skip_reason(other))

    def table(self, kind: str, f: tuple[str, str | None, str | None, str | None], line: int) -> None:
        name, max_seats, money, button = f
        self.head.update({"table": name, "max_seats": int(max_seats) if max_seats else None,
                          "play_money": money == "Play", "button": int(button) if button else None})  # fmt: skip

    def final_header(self) -> HandHeader:
        h = self.head
        game, written_small = h["game"], h.get("small")
        small: Money
        big: Money
        if written_small is not None and amount(written_small) > 0:
            # Decimals: every figure after the header is written with cents ("1500.00 in chips"),
            # a tournament's whole stakes ("100/200") too, so the hand's amounts are of one kind
            small, big = exact(amount(written_small)), exact(amount(h["big"]))
        else:
            small, big = self.stakes_from_betting()
        tournament = None
        if h["tournament_id"] is not None:
            tournament = make_tournament(h["tournament_id"], h["buy_in"], None, None)
        play = h["play_money"]
        currency = None if tournament or play or written_small is None else currency_in(written_small)
        return make_header(self.SITE, h["hand_id"], game_variant(game), stud_structure(game), game,
                           make_stakes(small, big, None, None), currency, play, tournament, None, h["table"],
                           h["max_seats"], h["button"], h["started"], h["started_utc"])  # fmt: skip

    def seat(self, kind: str, f: Fields, line: int) -> None:
        seat, player, stack, status = f
        self.add_seat(line, int(str(seat)), str(player), amount(stack), sitting_out=status is not None)

    def ante(self, kind: str, f: Fields, line: int) -> None:
        player, value, all_in = f
        chips = amount(value)
        if chips > 0:
            self.add_ante(line, str(player), chips, all_in=bool(all_in))
        else:  # "ante processed 0.00": no chips put in (the skins write one for a seat sitting out)
            self.no_ante.add(str(player))

    def finish(self) -> list[Event]:
        """A seat that put no ante in and was dealt no card was not in the hand."""
        out = self.no_ante - self.known.keys()
        if out:
            self.seats = [dataclasses.replace(s, sitting_out=True) if s.player in out else s for s in self.seats]
        return self.events

    # -- cards -------------------------------------------------------------------
    def deal(self, kind: str, f: Fields, line: int) -> None:
        player, first, second = f
        self.add_bracketed_deal(line, str(player), str(first), second)

    # -- betting -------------------------------------------------------------------
    def action(self, kind: str, f: Fields, line: int) -> None:
        what, player = ACTION_TERMINALS.get(kind, ActionKind.RAISE), str(f[0])
        if len(f) == 1:
            self.add_action(line, player, what)
        elif kind == "RAISE":  # "raises 0.50 to 1.00": the street total
            self.add_action(line, player, what, to=amount(f[2]), all_in=bool(f[3]))
        elif kind == "COMPLETE":
            self.add_action(line, player, what, to=amount(f[1]), all_in=bool(f[2]))
        else:  # bring-in, bet, call and "Raises 1000.00": the chips put in
            self.add_action(line, player, what, chips=amount(f[1]), all_in=bool(f[2]))

    def uncalled(self, kind: str, f: Fields, line: int) -> None:
        value, player = f
        self.add_uncalled(line, str(player), amount(value))

    # -- showdown, award, summary ----------------------------------------------------
    def show(self, kind: str, f: Fields, line: int) -> None:
        player, shown, description = f
        self.add_show(line, str(player), cards(shown), description)

    def muck(self, kind: str, f: Fields, line: int) -> None:
        player, shown = f
        self.add_muck(line, str(player), cards(shown) if shown else ())

    def noshow(self, kind: str, f: Fields, line: int) -> None:
        self.add_noshow(line, str(f[0]))

    def collect(self, kind: str, f: Fields, line: int) -> None:
        self.add_collect(line, str(f[0]), amount(f[1]))
        self.collected = True

    def total(self, kind: str, f: Fields, line: int) -> None:
        """One "Total pot" line a pot: a line written again is the same pot; the
        hand's pot summary (at the first line) is the pots' sum, with the rake
        the lines state (the hand's, on each)."""
        pot, rake = str(f[0]), f[1]
        if (pot, rake) not in self.pot_lines:
            self.pot_lines.append((pot, rake))
        stated = sum((amount(p) for p, _ in self.pot_lines), ZERO)
        taken = amount(rake) if rake else None
        if self.total_at is None:
            self.total_at = len(self.events)
            self.add_total(line, stated, taken)
            return
        first = self.events[self.total_at]
        assert isinstance(first, PotSummary)
        self.events[self.total_at] = dataclasses.replace(first, total=stated, rake=taken if rake else first.rake)

    def seat_summary(self, kind: str, f: Fields, line: int) -> None:
        seat, player, outcome = f
        assert seat and player and outcome
        shown, value = summary_outcome(outcome)
        if value and not self.collected:
            self.add_collect(line, player, value)  # the summary is the only record of the win
        self.add_seat_summary(line, int(seat), player, outcome, shown, value)

    HANDLERS = {
        "STUD_HEADER": "stud_header", "OTHER_HEADER": "other_header", "TABLE": "table", "SEAT": "seat", "ANTE": "ante",
        **dict.fromkeys(STREET_TERMINALS, "street_terminal"), "DEAL": "deal",
        **dict.fromkeys(ACTION_TERMINALS, "action"), "RAISE_CHIPS": "action", "UNCALLED": "uncalled",
        "SHOWDOWN": "showdown_marker", "SHOW": "show", "SHOW_BARE": "show", "MUCK": "muck", "NOSHOW": "noshow", "COLLECT": "collect",
        "SUMMARY": "skip", "TOTAL": "total", "SEAT_SUMMARY": "seat_summary",
    }
    NOT_PLAYERS = frozenset({"SEAT"})


FORMAT = LineFormat(
    name="betonline",
    grammar_name="betonline",
    builder=BetOnlineBuilder,
    header=HEADER_START,
    detector=_DETECT,
    kinds=KINDS,
    title="BetOnline",
)

__all__ = ["FORMAT", "SKINS", "BetOnlineBuilder"]
