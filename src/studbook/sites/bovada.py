"""Bovada (Bodog, Ignition): 7 Card Stud and Stud Hi/Lo hand histories.

The grammar (``grammars/bovada.lark``) has one terminal per line kind; the
builder turns the line tokens into events. Bovada writes no names, so a
player is called after the seat, ``Seat+4``. Tournament logs have no street
markers and a header without stakes (``Level 1 (0/0)``): the builder starts
a street when cards are dealt after betting (or to a player already dealt on
the street) and reads the stakes from the betting (bring-in, completion,
the first bets). Amounts are normalised to :mod:`studbook.events` by the
readers' ledger (:mod:`studbook.sites.ledger`): Bovada tournaments write a raise as
its new total ("Raises 30"), cash games as "Raises $7.50 to $10" (chips put
in, then the total).
"""

from __future__ import annotations

import re
from dataclasses import replace
from decimal import Decimal
from typing import Any

from studbook.events import (
    ActionKind, ChatterKind, Collect, Half, HandHeader, Stakes, Street, Structure,
    Tournament, Variant,
)
from studbook.money import Money, currency_in, half
from studbook.sites.lines import (
    Fields, Head, LineBuilder, LineFormat, SkipHand, amount, cards, dedupe, WRITTEN_AMOUNT,
)

# Sites of the Bovada batch name no hand id in a fixed place of a rejected hand's first line.
FIRST_NUMBER = re.compile(r"[0-9][0-9-]{3,}")

_BOVADA_START = re.compile(r"^(?:Bovada|Ignition|Bodog(?:\.com|\.eu| UK| Canada|88)?) Hand #C?([0-9]+)", re.M)
# Detection: search for the header's literal text, then check that it starts a line
# (a lookbehind): ``^`` would be tried at every offset of other sites' files, ten times slower.
_NAMES = ("Bovada", "Ignition", "Bodog", "Bodog.com", "Bodog.eu", "Bodog UK", "Bodog Canada", "Bodog88")  # as in _BOVADA_START
_DETECT = re.compile(" Hand #(?:" + "|".join(f"(?<=^{re.escape(name)} Hand #)" for name in _NAMES) + ")C?[0-9]", re.M)
_STREET_MARK = {"3RD STREET": Street.THIRD, "4TH STREET": Street.FOURTH, "5TH STREET": Street.FIFTH,
                "6TH STREET": Street.SIXTH, "RIVER": Street.SEVENTH}  # fmt: skip
# Table messages by their words after "Seat " or "Table ", in any case ("Sit out", "Seat sit out")
_BOVADA_CHATTER = {"enter user": ChatterKind.JOIN, "leave user": ChatterKind.LEAVE, "stand": ChatterKind.LEAVE,
                   "sit out": ChatterKind.SIT_OUT, "sit down": ChatterKind.JOIN,
                   "re-join": ChatterKind.RETURN}  # fmt: skip
# Summary outcomes: "HI $73.50  with Straight [7 cards-best five]", "  with One pair [...] LO $73.50 [...]",
# "2465  with Full House [...]", "97 [Does not show]", " [Mucked] [7 cards ]", " lose with ...".
_SUMMARY_CARDS = re.compile(r"\[((?:(?:10|[2-9TJQKA])[cdhs] ?){3,7})(?:-|\s*\])")
_SUMMARY_HI = re.compile(rf"^\s*(?:HI )?({WRITTEN_AMOUNT}) ")
_SUMMARY_LO = re.compile(rf" LO ({WRITTEN_AMOUNT}) ")


# Bovada's game codes (the header's GAME, "ZonePoker" suffix aside): the variant each names.
_CODE_VARIANTS = {"7CARD": Variant.STUD, "7CARD HiLo": Variant.STUD8, "7CARD_HL": Variant.STUD8,
                  "7CARD Hi/Lo": Variant.STUD8}  # fmt: skip


def _bovada_player(seat: str | None) -> str:
    return f"Seat+{seat}"


# The header line's fields (bovada.lark): the hand id, the tournament's game and id, the
# table, the game, the limit, the level and its small and big bet, the start.
_StudHeader = tuple[str, str | None, str | None, str, str | None, str, str | None, str | None, str | None, str]


class _Head(Head, total=False):
    limit: str  # as written: "Fixed Limit", ...
    hero: str  # the seat marked "[ME]"
    stack: str  # the first seat's stack as written: its sign is the currency


class BovadaBuilder(LineBuilder):
    SITE = "bovada"
    IMPLIED_SHOWDOWN = True
    HANDLERS = {
        "STUD_HEADER": "stud_header", "OTHER_HEADER": "other_header", "SEAT": "seat", "SEAT_NUMBERED": "seat", "ANTE": "ante",
        "HOLE_CARDS": "hole_cards", "STREET": "street_mark", "DEAL": "deal", "BRING_IN": "bring_in",
        "BET": "bet", "CALL": "call", "RAISE": "raise_", "ALL_IN": "all_in", "CHECK": "check",
        "FOLD": "fold", "UNCALLED": "uncalled", "SHOW": "show", "MUCK": "muck", "NOSHOW": "noshow",
        "COLLECT": "collect", "SUMMARY": "skip", "TOTAL": "total", "SEAT_SUMMARY": "seat_summary",
        "CHATTER": "chatter", "TABLE_NOTICE": "table_notice",
    }  # fmt: skip
    head: _Head

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.dealt: set[str] = set()
        self.betting = False
        self.marked = False  # the current street began with a marker line
        self.seat_names: dict[int, str] = {}

    # -- header ------------------------------------------------------------
    def stud_header(self, kind: str, f: _StudHeader, line: int) -> None:
        hand_id, game_t, tourney, table, game_c, limit, level, small, big, when = f
        head = self.head
        head.update({"hand_id": hand_id, "game": str(game_t or game_c),  # (neither: no variant, rejected)
                     "tournament_id": tourney, "table": table, "limit": limit, "level": level,
                     "started": when})  # fmt: skip
        if small is not None and big is not None:  # (the grammar's level stakes: both or neither)
            head["small"], head["big"] = small, big

    def other_header(self, kind: str, f: tuple[str, str], line: int) -> None:
        hand_id, game = f
        self.head["hand_id"] = hand_id
        raise SkipHand(game or "unknown game")

    def final_header(self) -> HandHeader:
        h = self.head
        game, limit = h["game"], h["limit"]
        small_w, big_w = h.get("small"), h.get("big")
        tournament = h["tournament_id"]
        if small_w is not None and big_w is not None and amount(small_w) > 0:
            small, big = amount(small_w), amount(big_w)
        else:
            small, big = self.stakes_from_betting()
        currency = None if tournament else currency_in(h.get("stack", ""))  # "$1,250 in chips": USD
        return HandHeader(
            site=self.SITE, hand_id=h["hand_id"],
            variant=_CODE_VARIANTS[game.removesuffix("ZonePoker")],
            structure={"Fixed Limit": Structure.FIXED, "Pot Limit": Structure.POT}.get(limit, Structure.NO),
            game=f"{game} {limit}", stakes=Stakes(small, big), currency=currency,
            tournament=Tournament(id=tournament, level=h["level"]) if tournament else None,
            table=h["table"], started=h["started"],
            started_utc=None,  # Bovada writes no time zone
            hero=h.get("hero"), hero_mark="[ME]" if "hero" in h else "",
        )  # fmt: skip

    # -- seats and antes -----------------------------------------------------
    def seat(self, kind: str, f: tuple[str, str | None, str], line: int) -> None:
        seat, me, stack = f
        player = _bovada_player(seat)
        if me:  # "Seat+2 [ME]": the log's own player
            self.head["hero"] = player
        self.seat_names[int(seat)] = player
        self.head.setdefault("stack", stack)
        self.add_seat(line, int(seat), player, amount(stack))

    def ante(self, kind: str, f: Fields, line: int) -> None:
        seat, _me, chips = f
        self.add_ante(line, _bovada_player(seat), amount(chips))

    # -- streets and cards -----------------------------------------------------
    def hole_cards(self, kind: str, f: Fields, line: int) -> None:
        self._mark(line, Street.THIRD)

    def street_mark(self, kind: str, f: Fields, line: int) -> None:
        self._mark(line, _STREET_MARK[str(f[0])])

    def _mark(self, line: int, street: Street) -> None:
        self.start_street(line, street)
        self.dealt.clear()
        self.betting = False
        self.marked = True

    def deal(self, kind: str, f: Fields, line: int) -> None:
        seat, _me, shown = f
        player = _bovada_player(seat)
        if self.street is None or self.betting or player in self.dealt:
            self.next_street(line)
            self.dealt.clear()
            self.betting = False
        self.dealt.add(player)
        self.add_new_cards(line, player, cards(shown))

    # -- betting ---------------------------------------------------------------
    def _act(self, f: Fields, line: int, kind: ActionKind, *, chips: Money | None = None,
             to: Money | None = None, all_in: bool = False) -> None:
        self.betting = True
        self.add_action(line, _bovada_player(f[0]), kind, chips=chips, to=to, all_in=all_in)

    def bring_in(self, kind: str, f: Fields, line: int) -> None:
        self._act(f, line, ActionKind.BRING_IN, chips=amount(f[2]))

    def bet(self, kind: str, f: Fields, line: int) -> None:
        _seat, _me, verb, chips = f
        self._act(f, line, ActionKind.BET, chips=amount(chips))
        if verb == "Double bets":
            units = self.ledger.units  # a double bet (4th street, an open pair) is two small bets
            if Street.FOURTH in units:
                units[Street.FOURTH] = half(units[Street.FOURTH])

    def call(self, kind: str, f: Fields, line: int) -> None:
        self._act(f, line, ActionKind.CALL, chips=amount(f[2]))

    def raise_(self, kind: str, f: Fields, line: int) -> None:
        _seat, _me, first, total = f
        # "Raises 30" (tournaments) is the new total; "Raises $7.50 to $10" gives it after "to"
        self._act(f, line, ActionKind.RAISE, to=amount(total or first))

    def all_in(self, kind: str, f: Fields, line: int) -> None:
        _seat, _me, raised, chips = f
        value = amount(chips)
        if raised:  # "All-in(raise) 1054": the new street total
            self._act(f, line, ActionKind.RAISE, to=value, all_in=True)
        else:  # "All-in 245": chips put in, calling, betting or raising all-in (the ledger tells which)
            self._act(f, line, ActionKind.RAISE, chips=value, all_in=True)

    def check(self, kind: str, f: Fields, line: int) -> None:
        self._act(f, line, ActionKind.CHECK)

    def fold(self, kind: str, f: Fields, line: int) -> None:
        self._act(f, line, ActionKind.FOLD)

    def uncalled(self, kind: str, f: Fields, line: int) -> None:
        self.add_uncalled(line, _bovada_player(f[0]), amount(f[2]))

    # -- showdown and award ------------------------------------------------------
    def show(self, kind: str, f: Fields, line: int) -> None:
        seat, _me, shown, description = f
        # hi/lo shows list the best high five then the best low five: each card once
        self.add_show(line, _bovada_player(seat), dedupe(cards(shown)), description)

    def muck(self, kind: str, f: Fields, line: int) -> None:
        seat, _me, shown, _description = f
        self.add_muck(line, _bovada_player(seat), dedupe(cards(shown)))

    def noshow(self, kind: str, f: Fields, line: int) -> None:
        self.add_noshow(line, _bovada_player(f[0]))

    def collect(self, kind: str, f: Fields, line: int) -> None:
        seat, _me, side, chips = f
        self.add_collect(line, _bovada_player(seat), amount(chips), 1 if side else 0)

    # -- summary ---------------------------------------------------------------

    def total(self, kind: str, f: Fields, line: int) -> None:
        total, rake = f
        self.add_total(line, amount(total), amount(rake) if rake else None)

    def seat_summary(self, kind: str, f: tuple[str, str], line: int) -> None:
        seat, outcome = f
        player = self.seat_names.get(int(seat), _bovada_player(seat))
        text = str(outcome)
        shown = _SUMMARY_CARDS.search(text)
        won: Money | None = None
        hi = _SUMMARY_HI.match(text)
        lo = _SUMMARY_LO.search(text)
        if hi or lo:
            won = amount(hi.group(1)) if hi else None  # (no zero added: a Decimal one would make chips Decimals)
            if lo:
                won = amount(lo.group(1)) if won is None else won + amount(lo.group(1))
        if hi and lo or (lo and not hi) or text.lstrip().startswith("HI "):
            self._halves(player, amount(hi.group(1)) if hi else None, amount(lo.group(1)) if lo else None)
        self.add_seat_summary(line, int(seat), player, text.strip(),
                              cards(shown.group(1).strip()) if shown else (), won)  # fmt: skip

    def _halves(self, player: str, hi: Money | None, lo: Money | None) -> None:
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
    def chatter(self, kind: str, f: Fields, line: int) -> None:
        seat, _me, what = f
        self.add_chatter(line, _chatter_kind(str(what)), _bovada_player(seat))

    def table_notice(self, kind: str, f: Fields, line: int) -> None:
        self.add_chatter(line, _chatter_kind(str(f[0])))


def _chatter_kind(what: str) -> ChatterKind:
    words = what.lower()
    return _BOVADA_CHATTER.get(words.removeprefix("seat ").removeprefix("table "), ChatterKind.OTHER)


def _bovada_truncated(text: str) -> str | None:
    if "*** HOLE CARDS ***" not in text and "*** 3RD STREET ***" not in text:
        return "truncated hand: it starts after 3rd street (no antes, no cards dealt)"
    return None


BOVADA_KINDS = {
    "STUD_HEADER": "hand header", "OTHER_HEADER": "hand header", "SEAT": "seat line", "SEAT_NUMBERED": "seat line", "ANTE": "ante",
    "HOLE_CARDS": "*** HOLE CARDS ***", "STREET": "street marker", "DEAL": "card dealt",
    "BRING_IN": "bring-in", "BET": "bet", "CALL": "call", "RAISE": "raise", "ALL_IN": "all-in",
    "CHECK": "check", "FOLD": "fold", "UNCALLED": "uncalled bet returned", "SHOW": "showdown",
    "MUCK": "mucks", "NOSHOW": "does not show", "COLLECT": "hand result", "SUMMARY": "*** SUMMARY ***",
    "TOTAL": "'Total Pot' line", "SEAT_SUMMARY": "summary seat line", "TABLE_NOTICE": "table message", "CHATTER": "table message",
    "$END": "end of hand",
}  # fmt: skip

FORMAT = LineFormat(
    name="bovada", grammar_name="bovada", builder=BovadaBuilder, header=_BOVADA_START, detector=_DETECT,
    kinds=BOVADA_KINDS, truncated_hint=_bovada_truncated, hand_id_pattern=FIRST_NUMBER,
)
