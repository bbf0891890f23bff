"""OnGame: 7 Card Stud and Stud Hi/Lo hand histories.

OnGame's "small bring in" is the bring-in; its "big bring in" is the
bring-in player opening for the full small bet, i.e. a completion. A raise
is written "raises $1 to $1.37": the new street total, then the player's
total for the hand (antes excluded), so ``to`` is the first figure. There is
no showdown section: the cards shown are in the summary seat lines, read
here as the showdown (Show events at those lines), and the winners are on
the "Main pot: ... won by" lines.
"""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal
from typing import Any

from studbook.events import (
    ActionKind, ChatterKind, Collect, Event, HandHeader, Show, Stakes, Street,
    Structure, Tournament, Variant,
)
from studbook.sites.bovada import FIRST_NUMBER
from studbook.money import Money, currency_in
from studbook.sites.lines import (
    ZERO, Fields, Head, LineBuilder, LineFormat, SkipHand, amount, cards, local_to_utc, WRITTEN_AMOUNT,
)

HAND_START = re.compile(r"^\*\*\*\*\* History for hand ([A-Z0-9-]+) [*(]", re.M)
# Detection: search for the header's literal text, then check that it starts a line
# (a lookbehind): ``^`` would be tried at every offset of other sites' files, ten times slower.
_DETECT = re.compile(r"\*\*\*\*\* History for hand (?<=^\*\*\*\*\* History for hand )[A-Z0-9-]+ (?:\*\*\*\*\*|\(TOURNAMENT: )", re.M)
_STREETS = {"4th street": Street.FOURTH, "5th street": Street.FIFTH, "6th street": Street.SIXTH,
            "river": Street.SEVENTH}  # fmt: skip
_WINNER = re.compile(rf"(.+?) \(({WRITTEN_AMOUNT}[KM]?)\)(?:, |$)")  # "$1.5K": ongame.lark's OG_WRITTEN
_ZONES = {"CET": "Europe/Paris", "CEST": "Europe/Paris", "GMT": "UTC", "UTC": "UTC",
          "EET": "Europe/Helsinki", "EEST": "Europe/Helsinki", "BST": "Europe/London"}  # fmt: skip
_CHATTER = {" sits out": ChatterKind.SIT_OUT, " is back": ChatterKind.RETURN,
            " has joined the table": ChatterKind.JOIN, " has left the table": ChatterKind.LEAVE,
            " disconnected": ChatterKind.DISCONNECT, " reconnected": ChatterKind.RECONNECT}  # fmt: skip


def _zone(zone: str) -> str | None:
    """"CET" -> region; "GMT+0300" -> "+03:00"."""
    if zone.startswith("GMT") and len(zone) > 3:
        return f"{zone[3]}{zone[4:6]}:{zone[6:8]}"
    return _ZONES.get(zone)


class _Head(Head, total=False):
    limit: str  # as written: "LIMIT", "Pot Limit", ...
    chips: bool  # a play-chip table ("TC", "Chips"): no money


class OnGameBuilder(LineBuilder):
    SITE = "ongame"
    IMPLIED_SHOWDOWN = True
    STREETS = _STREETS
    HANDLERS = {
        "HISTORY": "history", "START_TIME": "start_time", "STUD_TABLE": "stud_table",
        "OTHER_TABLE": "other_table", "USER": "skip", "BUTTON": "button", "PLAYERS": "skip",
        "SEAT": "seat", "ANTE": "player_ante", "POCKET": "third_street", "STREET": "street_named", "DEAL": "deal",
        "BRING_IN": "bring_in", "BET": "player_bet", "CALL": "player_call", "RAISE": "raise_", "CHECK": "player_check",
        "FOLD": "player_fold", "ALL_IN": "player_all_in", "UNCALLED": "uncalled", "SUMMARY": "skip", "POT": "pot",
        "RAKE": "rake", "SEAT_SUMMARY": "seat_summary", "END": "skip", "CHATTER": "chatter",
    }  # fmt: skip
    NOT_PLAYERS = frozenset({"SEAT", "STUD_TABLE", "OTHER_TABLE", "USER"})
    head: _Head

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.pots: list[Money] = []


    # -- header ------------------------------------------------------------
    def history(self, kind: str, f: tuple[str, str | None, str | None, str | None], line: int) -> None:
        hand_id, _name, tournament, buy_in = f
        head = self.head
        head["hand_id"] = hand_id
        head["tournament"] = Tournament(id=tournament, buy_in=buy_in) if tournament else None

    def start_time(self, kind: str, f: tuple[str, str, str, str, str], line: int) -> None:
        month, day, clock, zone, year = f
        local = datetime.strptime(f"{year} {month} {day} {clock}", "%Y %b %d %H:%M:%S")
        head = self.head
        head["started"] = f"{month} {day} {clock} {zone} {year}"
        head["started_utc"] = local_to_utc(local, _zone(zone))

    def stud_table(self, kind: str, f: tuple[str, str, str, str, str, str, str | None, str | None], line: int) -> None:
        table, _table_id, limit, game, small, big, ante, money = f
        self.head.update({"table": table, "limit": limit, "game": game, "small": small, "big": big, "ante": ante,
                          "play_money": money == "Play money", "chips": money in ("TC", "Chips")})  # fmt: skip

    def other_table(self, kind: str, f: Fields, line: int) -> None:
        raise SkipHand(str(f[1]))

    def button(self, kind: str, f: tuple[str], line: int) -> None:
        self.head["button"] = int(f[0])

    def final_header(self) -> HandHeader:
        h = self.head
        game = h["game"]
        limit = h["limit"].upper().replace(" ", "_")  # "Pot Limit" as "POT_LIMIT"
        play = h["play_money"]
        small = h["small"]
        return HandHeader(
            site=self.SITE, hand_id=h["hand_id"],
            variant=Variant.RAZZ if game == "RAZZ" else Variant.STUD8 if game.endswith("HI_LO") else Variant.STUD,
            structure={"LIMIT": Structure.FIXED, "POT_LIMIT": Structure.POT}.get(limit, Structure.NO),
            game=f"{limit} {game}",
            stakes=Stakes(amount(small), amount(h["big"]), ante=amount(h["ante"]) if h["ante"] else None),
            currency=None if play or h["chips"] or h["tournament"] else currency_in(small),
            tournament=h["tournament"],
            play_money=play, table=h["table"], button=h.get("button"),
            started=h["started"], started_utc=h["started_utc"],
        )  # fmt: skip

    # -- seats, antes, cards -------------------------------------------------
    def seat(self, kind: str, f: tuple[str, str, str], line: int) -> None:
        seat, player, stack = f
        self.add_seat(line, int(seat), str(player), amount(str(stack)))


    def deal(self, kind: str, f: Fields, line: int) -> None:
        player, written = f
        parts = str(written).split(", ")
        hidden = parts.count("-")
        self.add_new_cards(line, str(player), cards(" ".join(p for p in parts if p != "-")), hidden_down=hidden)

    # -- betting ---------------------------------------------------------------
    def bring_in(self, kind: str, f: Fields, line: int) -> None:
        player, size, chips = f
        if size == "big":  # the bring-in player opening for the full small bet: a completion
            self.add_action(line, str(player), ActionKind.COMPLETE, to=amount(str(chips)))
        else:
            self.add_action(line, str(player), ActionKind.BRING_IN, chips=amount(str(chips)))


    def raise_(self, kind: str, f: Fields, line: int) -> None:
        player, street_total, _hand_total = f
        self.add_action(line, str(player), ActionKind.RAISE, to=amount(str(street_total)))


    def uncalled(self, kind: str, f: Fields, line: int) -> None:
        chips, player = f
        self.add_uncalled(line, str(player), amount(str(chips)))

    # -- summary -----------------------------------------------------------------
    def pot(self, kind: str, f: Fields, line: int) -> None:
        which, total, winners = f
        number = 0 if which == "Main pot" else int(str(which)[9:] or 1)
        self.pots.append(amount(str(total)))
        for player, won in _WINNER.findall(str(winners)):
            self.add_collect(line, player, amount(won), number)

    def rake(self, kind: str, f: Fields, line: int) -> None:
        pots = tuple(self.pots)
        self.add_total(line, sum(pots, ZERO), amount(str(f[0])), pots if len(pots) > 1 else ())

    def seat_summary(self, kind: str, f: tuple[str, str, str, str, str | None, str | None], line: int) -> None:
        seat, player, _stack, _net, shown, description = f
        name = str(player)
        if shown:
            self.add_show(line, name, cards(shown.replace(",", "")), description)
        outcome = self.line_text(line).split(": ", 1)[1].rstrip()[len(name) + 1 :]
        self.add_seat_summary(line, int(seat), name, outcome,
                              cards(shown.replace(",", "")) if shown else ())  # fmt: skip

    def chatter(self, kind: str, f: Fields, line: int) -> None:
        player, what = f
        self.add_chatter(line, _CHATTER.get(str(what), ChatterKind.OTHER), player)

    def finish(self) -> list[Event]:
        """The shown hands (summary lines) before the pot awards, as a showdown is replayed."""
        events = self.events
        first_collect = next((i for i, e in enumerate(events) if isinstance(e, Collect)), None)
        if first_collect is None:
            return events
        shows = [e for e in events[first_collect:] if isinstance(e, Show) or type(e).__name__ == "ShowdownStart"]
        rest = [e for e in events[first_collect:] if e not in shows]
        return events[:first_collect] + shows + rest


KINDS = {
    "HISTORY": "hand header", "START_TIME": "'Start hand' line", "STUD_TABLE": "table line",
    "OTHER_TABLE": "table line", "USER": "'User' line", "BUTTON": "'Button' line",
    "PLAYERS": "'Players in round' line", "SEAT": "seat line", "ANTE": "ante",
    "POCKET": "'Dealing pocket cards'", "STREET": "street marker", "DEAL": "'Dealing to' line",
    "BRING_IN": "bring-in", "BET": "bet", "CALL": "call", "RAISE": "raise", "CHECK": "check",
    "FOLD": "fold", "ALL_IN": "all-in", "UNCALLED": "returned bet", "SUMMARY": "'Summary:'",
    "POT": "pot line", "RAKE": "'Rake taken' line", "SEAT_SUMMARY": "summary seat line",
    "END": "'End of hand' line", "_SEP": "'---'", "$END": "end of hand",
}  # fmt: skip

FORMAT = LineFormat(
    name="ongame", grammar_name="ongame", builder=OnGameBuilder, header=HAND_START, detector=_DETECT, kinds=KINDS, hand_id_pattern=FIRST_NUMBER,
)

__all__ = ["FORMAT"]
