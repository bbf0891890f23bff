"""Winamax: 7-Card Stud, Stud Hi/Lo and Razz hand histories (cash games, tournaments).

Amounts carry a trailing euro sign ("5€") or none at play-money tables; the
header gives ante, small and big bet ("(5€/25€/50€)"). The grammar keeps the
figure apart from its sign: a hand whose header writes euros reads every figure
as money (``lines.cash_amount``, a Decimal: "5€" as "€5" reads), never a whole
one as chips beside "1749.22€"; a tournament's chips stay ints. Raises are written
"raises X to Y" as on PokerStars, except that a player who already has chips
in and raises all-in gets the chips added written after "to" (the
"raises -6.10€ to 18.90€" hand): a "to" that does not exceed the bet to match
is read as chips added. Hi/lo halves are on the collect lines ("pot(HI)").
The summary's "Total pot" is net of the rake; it is normalised to the whole pot.
"""

from __future__ import annotations

import re
from datetime import datetime

from studbook.events import (
    ActionKind, ChatterKind, Half, HandHeader, Stakes, Street, Tournament,
)
from studbook.money import currency_in
from studbook.sites.bovada import FIRST_NUMBER
from studbook.sites.lines import (
    Fields, Head, LineBuilder, LineFormat, SkipHand, amount, cards, cash_amount, game_variant,
    local_to_utc, pot_number, skip_reason, stud_structure,
)

HAND_START = re.compile(r"^Winamax Poker - [^\n]*? - HandId: #([0-9-]+)", re.M)
# Detection: search for the header's literal text, then check that it starts a line
# (a lookbehind): ``^`` would be tried at every offset of other sites' files, ten times slower.
_DETECT = re.compile(r"Winamax Poker - (?<=^Winamax Poker - )[^\n]*? - HandId: #[0-9-]", re.M)
_STREETS = {
    "3rd STREET": Street.THIRD, "4th STREET": Street.FOURTH, "5th STREET": Street.FIFTH,
    "6th STREET": Street.SIXTH, "7th STREET": Street.SEVENTH, "THIRD": Street.THIRD,
    "FOURTH": Street.FOURTH, "FIFTH": Street.FIFTH, "SIXTH": Street.SIXTH, "SEVENTH": Street.SEVENTH,
}  # fmt: skip
_CHATTER = {" joins the game": ChatterKind.JOIN, " leaves the game": ChatterKind.LEAVE,
            " sits out": ChatterKind.SIT_OUT, " is back": ChatterKind.RETURN,
            " is disconnected": ChatterKind.DISCONNECT, " is connected": ChatterKind.RECONNECT}  # fmt: skip
_OUTCOME_CARDS = re.compile(r"(?:showed|mucked) \[([^\]]*)\]")
_OUTCOME_WON = re.compile(r"won (€?-?[0-9][0-9,]*(?:\.[0-9]+)?)")  # "won 458€", "won €458"
_TOURNAMENT_ID = re.compile(r"\(([0-9]+)\)#[0-9]+$")  # "Stud Party(412345678)#004"
_ZONES = {"UTC": "UTC", "GMT": "UTC", "CET": "Europe/Paris", "CEST": "Europe/Paris"}


# The header line's fields: the tournament's mark, name, buy-in and level or the
# table's kind, the hand id, the game, ante, small and big bet (each with its euro
# sign), the local time and its zone.
_StudHeader = tuple[str | None, str | None, str | None, str | None, str | None, str, str, str, str | None, str,
                    str | None, str, str | None, str, str]  # fmt: skip
_OtherHeader = tuple[str | None, str | None, str | None, str | None, str | None, str, str]  # ..., hand id, game


class _Head(Head, total=False):
    kind: str | None  # "Tournament", else the cash table's kind
    euro: bool  # the stakes are written in euros
    when: str  # the local time as written
    zone: str


def _hidden(written: str) -> tuple[int, tuple]:
    """How many cards are hidden ("X") and the cards shown."""
    parts = written.split()
    return parts.count("X"), cards(" ".join(p for p in parts if p != "X"))


class WinamaxBuilder(LineBuilder):
    SITE = "winamax"
    IMPLIED_SHOWDOWN = True
    STREETS = _STREETS
    HANDLERS = {
        "STUD_HEADER": "stud_header", "OTHER_HEADER": "other_header", "TABLE": "table",
        "SEAT": "seat", "ANTES_MARK": "skip", "ANTE": "player_ante", "STREET": "street_named",
        "DEAL": "deal", "BRING_IN": "player_bring_in", "BET": "player_bet", "CALL": "player_call", "RAISE": "raise_",
        "CHECK": "player_check", "FOLD": "player_fold", "UNCALLED": "uncalled", "SHOWDOWN": "showdown_mark",
        "SHOW": "show", "MUCK": "muck", "COLLECT": "collect", "SUMMARY": "skip", "TOTAL": "total",
        "SEAT_SUMMARY": "seat_summary", "CHATTER": "chatter",
    }  # fmt: skip
    NOT_PLAYERS = frozenset({"SEAT", "TABLE"})
    head: _Head


    # -- header ------------------------------------------------------------
    def stud_header(self, kind: str, f: _StudHeader, line: int) -> None:
        tourney, _name, buy_in, level, table_kind, hand_id, game, ante, euro, small, _e2, big, _e3, when, zone = f
        in_euros = currency_in(f"{ante}{euro or ''}") == "EUR"
        self.head.update({"kind": tourney or table_kind, "hand_id": hand_id, "game": game, "ante": ante,
                          "small": small, "big": big, "euro": in_euros,
                          "when": when, "zone": zone, "buy_in": buy_in, "level": level})  # fmt: skip
        # a cash game's "5€" is money, as "€5" is (LineBuilder.read, the shared handlers' too;
        # set on the builder itself: an instance's attribute reads faster than the class's)
        self.read = cash_amount if in_euros else amount

    def other_header(self, kind: str, f: _OtherHeader, line: int) -> None:
        hand_id, game = f[-2:]
        self.head["hand_id"] = hand_id
        raise SkipHand(game, skip_reason(game))

    def table(self, kind: str, f: tuple[str, str, str, str | None], line: int) -> None:
        name, max_seats, money, button = f
        self.head.update({"table": name, "max_seats": int(max_seats), "play_money": money == "play money",
                          "button": int(button) if button else None})  # fmt: skip

    def final_header(self) -> HandHeader:
        h = self.head
        game, when, zone, play = h["game"], h["when"], h["zone"], h["play_money"]
        local = datetime.strptime(when, "%Y/%m/%d %H:%M:%S")
        tournament = None
        if h["kind"] == "Tournament":  # chips; the tournament's id is in the table's name
            number = _TOURNAMENT_ID.search(h["table"])
            tournament = Tournament(id=number.group(1) if number else "", buy_in=h["buy_in"], level=h["level"])
        return HandHeader(
            site=self.SITE, hand_id=h["hand_id"],
            variant=game_variant(game), structure=stud_structure(game), game=game,
            stakes=Stakes(self.read(h["small"]), self.read(h["big"]), ante=self.read(h["ante"])),
            currency=None if play or tournament or not h["euro"] else "EUR", play_money=play,  # "5€": the log's euros
            tournament=tournament,
            table=h["table"], max_seats=h["max_seats"],
            button=h["button"] or None,
            started=f"{when} {zone}", started_utc=local_to_utc(local, _ZONES.get(zone)),
        )  # fmt: skip

    # -- seats, antes, cards -------------------------------------------------
    def seat(self, kind: str, f: tuple[str, str, str, str | None], line: int) -> None:
        seat, player, stack, _euro = f
        self.add_seat(line, int(seat), str(player), self.read(stack))


    def deal(self, kind: str, f: Fields, line: int) -> None:
        player, first, second = f
        hidden, shown = _hidden(str(first))
        if second is None:  # 3rd street: "[X X 8h]" or the hero's "[Kd 3s 9h]"
            self.add_new_cards(line, str(player), shown, hidden_down=hidden)
            return
        _, new = _hidden(second)
        self.add_new_cards(line, str(player), new, before=shown if not hidden else ())

    # -- betting ---------------------------------------------------------------


    def raise_(self, kind: str, f: Fields, line: int) -> None:
        player, _by, _e1, to, _e2 = f
        total = self.read(to)
        ledger = self.ledger
        before = ledger.street_in.get(str(player), ledger.zero)
        if total <= ledger.level and before > 0:  # the "negative bet" habit: chips added
            total += before
        self.add_action(line, str(player), ActionKind.RAISE, to=total)


    def uncalled(self, kind: str, f: Fields, line: int) -> None:
        chips, _euro, player = f
        self.add_uncalled(line, str(player), self.read(chips))

    # -- showdown and award ------------------------------------------------------
    def showdown_mark(self, kind: str, f: Fields, line: int) -> None:
        self.open_showdown(line)
        self.at_showdown = True

    def show(self, kind: str, f: Fields, line: int) -> None:
        player, shown, description = f
        self.add_show(line, str(player), cards(str(shown)), description)

    def muck(self, kind: str, f: Fields, line: int) -> None:
        player, shown, _ = f
        self.add_muck(line, str(player), cards(shown) if shown else ())

    def collect(self, kind: str, f: Fields, line: int) -> None:
        player, chips, _euro, pot, half = f
        number = pot_number(pot)
        which = {"HI": Half.HIGH, "LO": Half.LOW}.get(str(half))
        self.add_collect(line, str(player), self.read(chips), number, which)

    def total(self, kind: str, f: Fields, line: int) -> None:
        total, _e1, rake, _e2 = f
        taken = self.read(rake) if rake else self.ledger.zero
        # Winamax's "Total pot" is what the winners share, net of the rake (every corpus hand):
        # events.py's PotSummary.total is the whole pot, rake included
        self.add_total(line, self.read(total) + taken, taken)

    def seat_summary(self, kind: str, f: tuple[str, str, str], line: int) -> None:
        seat, player, outcome = f
        text = str(outcome)
        shown = _OUTCOME_CARDS.search(text)
        won = _OUTCOME_WON.search(text)
        shown_cards = cards(shown.group(1)) if shown else ()
        self.add_seat_summary(line, int(seat), str(player), text, shown_cards,
                              self.read(won.group(1)) if won else None)  # fmt: skip

    def chatter(self, kind: str, f: Fields, line: int) -> None:
        player, what = f
        self.add_chatter(line, _CHATTER.get(str(what), ChatterKind.OTHER), player)


KINDS = {
    "STUD_HEADER": "hand header", "OTHER_HEADER": "hand header", "TABLE": "table line",
    "SEAT": "seat line", "ANTES_MARK": "*** ANTE/BLINDS ***", "ANTE": "ante",
    "STREET": "street marker", "DEAL": "'Dealt to' line", "BRING_IN": "bring-in", "BET": "bet",
    "CALL": "call", "RAISE": "raise", "CHECK": "check", "FOLD": "fold",
    "UNCALLED": "uncalled bet returned", "SHOWDOWN": "*** SHOW DOWN ***", "SHOW": "shows",
    "MUCK": "mucks", "COLLECT": "collected", "SUMMARY": "*** SUMMARY ***",
    "TOTAL": "'Total pot' line", "SEAT_SUMMARY": "summary seat line", "$END": "end of hand",
}  # fmt: skip

FORMAT = LineFormat(
    name="winamax", grammar_name="winamax", builder=WinamaxBuilder, header=HAND_START, detector=_DETECT, kinds=KINDS, hand_id_pattern=FIRST_NUMBER,
)

__all__ = ["FORMAT"]
