"""Everleaf: 7 Card Stud, Stud Hi/Lo and Razz hand histories.

Everleaf writes amounts as "[$ 0.01 USD]", every bracketed figure being the
chips the action puts in ("raises [$ 0.20 USD]" from a player with nothing
in is a raise to $0.20); the completion is written as its total ("completes
to $0.05."). Logs show no cards until the showdown, have no showdown marker
and no summary; "does not show cards" is the uncontested winner's line, or a
loser's at a showdown (a muck). Files are CRLF with the odd bare LF, which
the decoder normalises.

The grammar reads the figure apart from its sign and unit ("$ 0.01 USD" gives
"0.01"): a hand is a cash game's unless its unit is tournament "Chips", and a
cash game's figures read as money (``lines.cash_amount``, a Decimal: "$ 2" as
"$2" reads), never a whole one as chips beside "$ 0.54".
"""

from __future__ import annotations

import re
from typing import Any, Callable

from studbook.events import ActionKind, ChatterKind, Event, HandHeader, Stakes, Street
from studbook.money import Money
from studbook.sites.bovada import FIRST_NUMBER
from studbook.sites.lines import (
    Fields, Head, LineBuilder, LineFormat, SkipHand, amount, cards, cash_amount, game_variant, not_shown_as_mucks,
    pot_number, skip_reason, stud_structure,
)

HAND_START = re.compile(r"^Everleaf Gaming Game #([0-9]+)", re.M)
# Detection: search for the header's literal text, then check that it starts a line
# (a lookbehind): ``^`` would be tried at every offset of other sites' files, ten times slower.
_DETECT = re.compile(r"Everleaf Gaming Game #(?<=^Everleaf Gaming Game #)[0-9]", re.M)
_STREETS = {"4th street": Street.FOURTH, "5th street": Street.FIFTH, "6th street": Street.SIXTH,
            "river": Street.SEVENTH}  # fmt: skip
_CHATTER = {" has joined the table": ChatterKind.JOIN, " has left the table": ChatterKind.LEAVE,
            " is sitting out": ChatterKind.SIT_OUT, " has returned": ChatterKind.RETURN,
            " is disconnected": ChatterKind.DISCONNECT, " is connected": ChatterKind.RECONNECT}  # fmt: skip
# The unit written after amounts, as a currency: "EURO" is the euro; tournament "Chips" are no money
_CURRENCY: dict[str, str | None] = {"EURO": "EUR", "Chips": None}
_CHIPS = "Chips"


def _cards(written: str):
    return cards(written.replace(",", ""))


class _Head(Head, total=False):
    code: str | None  # the unit written after the stakes' amounts, else the first seat's


class EverleafBuilder(LineBuilder):
    SITE = "everleaf"
    IMPLIED_SHOWDOWN = True
    STREETS = _STREETS
    HANDLERS = {
        "GAME_NO": "hand_number", "HISTORY": "skip", "STUD_GAME": "stud_game", "OTHER_GAME": "other_game",
        "TABLE": "table", "PLAYERS": "skip", "SEAT": "seat", "ANTE": "player_ante", "DEALING": "third_street",
        "STREET": "street_named", "DEAL": "deal", "BRING_IN": "player_bring_in", "COMPLETE": "complete",
        "BET": "player_bet", "CALL": "player_call", "RAISE": "player_raise_by_chips", "ALL_IN": "player_all_in", "CHECK": "player_check",
        "FOLD": "player_fold", "SHOW": "show", "NOSHOW": "noshow", "COLLECT": "collect", "CHATTER": "chatter",
    }  # fmt: skip
    NOT_PLAYERS = frozenset({"SEAT", "TABLE"})
    head: _Head
    # How the hand's figures read (LineBuilder.read): money unless the hand's unit is tournament chips
    read: Callable[[Any], Money] = cash_amount


    # -- header ------------------------------------------------------------

    def stud_game(self, kind: str, f: tuple[str, str | None, str, str | None, str, str, str], line: int) -> None:
        small, code, big, _code, game, day, clock = f
        self.head.update({"small": small, "big": big, "code": code, "game": game, "started": f"{day} - {clock}"})
        self._unit_is(code)

    def _unit_is(self, code: str | None) -> None:
        """The hand's unit, where first written: tournament chips read as chips (ints where whole).
        (Set on the builder itself: an instance's attribute reads faster than the class's.)"""
        self.read = amount if code == _CHIPS else cash_amount

    def other_game(self, kind: str, f: Fields, line: int) -> None:
        game = str(f[0]).split(" - ")[0]
        raise SkipHand(game, skip_reason(game))

    def table(self, kind: str, f: tuple[str], line: int) -> None:
        self.head["table"] = f[0]

    def final_header(self) -> HandHeader:
        h = self.head
        game, code = h["game"], h["code"]
        return HandHeader(
            site=self.SITE, hand_id=h["hand_id"],
            variant=game_variant(game), structure=stud_structure(game), game=game,
            stakes=Stakes(self.read(h["small"]), self.read(h["big"])),
            currency=_CURRENCY.get(code, code) if code else "USD", table=h["table"],
            started=h["started"], started_utc=None,  # Everleaf writes no time zone
        )  # fmt: skip

    # -- seats, antes, cards -------------------------------------------------
    def seat(self, kind: str, f: tuple[str, str, str, str | None], line: int) -> None:
        seat, player, stack, code = f
        if code and not self.head.get("code"):
            self.head["code"] = code
            self._unit_is(code)
        self.add_seat(line, int(seat), str(player), self.read(stack))


    def deal(self, kind: str, f: Fields, line: int) -> None:
        player, shown = f
        self.add_new_cards(line, str(player), _cards(str(shown)))

    # -- betting ---------------------------------------------------------------

    def complete(self, kind: str, f: Fields, line: int) -> None:
        self.add_action(line, str(f[0]), ActionKind.COMPLETE, to=self.read(f[1]))


    # -- showdown and award ------------------------------------------------------
    def show(self, kind: str, f: Fields, line: int) -> None:
        player, shown, description = f
        self.add_show(line, str(player), _cards(str(shown)), description or None)

    def noshow(self, kind: str, f: Fields, line: int) -> None:
        self.add_noshow(line, str(f[0]))

    def collect(self, kind: str, f: Fields, line: int) -> None:
        player, chips, _code, pot, _rest = f
        self.add_collect(line, str(player), self.read(chips), pot_number(pot))

    def chatter(self, kind: str, f: Fields, line: int) -> None:
        player, what = f
        self.add_chatter(line, _CHATTER.get(str(what), ChatterKind.OTHER), player)

    def finish(self) -> list[Event]:
        return not_shown_as_mucks(self.events, self.ledger.live())


KINDS = {
    "GAME_NO": "hand header", "HISTORY": "hand history line", "STUD_GAME": "game and stakes",
    "OTHER_GAME": "game", "TABLE": "table line", "PLAYERS": "number of players", "SEAT": "seat line",
    "ANTE": "ante", "DEALING": "** Dealing down cards **", "STREET": "street marker",
    "DEAL": "'Dealt to' line", "BRING_IN": "bring-in", "COMPLETE": "completion", "BET": "bet",
    "CALL": "call", "RAISE": "raise", "ALL_IN": "all-in", "CHECK": "check", "FOLD": "fold",
    "SHOW": "shows", "NOSHOW": "does not show", "COLLECT": "wins", "$END": "end of hand",
}  # fmt: skip

FORMAT = LineFormat(
    name="everleaf", grammar_name="everleaf", builder=EverleafBuilder, header=HAND_START, detector=_DETECT, kinds=KINDS, hand_id_pattern=FIRST_NUMBER,
)

__all__ = ["FORMAT"]
