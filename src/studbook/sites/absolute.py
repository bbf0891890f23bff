"""Absolute Poker: Seven Card Stud, Seven Card Hi/Lo and Razz hand histories.

Absolute's deal lines repeat every card a player holds on each street
("PLAYER1 - Pocket [H H Js 10d]", "H" a hidden card), including for players
who folded earlier; the builder keeps only the cards new on the street and
drops the line when nothing is new. Figures are the chips put in ("Calls
$0.01", "Bets $0.04"); "Raises $X to $Y" gives the street total as Y.
"""

from __future__ import annotations

import re
from datetime import datetime

from studbook.betting import kind_for, written_total
from studbook.cards import Card
from studbook.events import ActionKind, ChatterKind, Street, Tournament
from studbook.money import currency_in
from studbook.read.split import NEXT_LINES
from studbook.sites.lines import (
    ACTION_TERMINALS, COMMON_KINDS, STREET_TERMINALS, Fields, LineBuilder, LineFormat, SkipHand, amount, to_utc,
    cards, skip_reason, WRITTEN_AMOUNT,
)

HAND_START = re.compile(r"^Stage #C?(\d+): ", re.M)  # "Stage #C1571362962": other clients' ids
# Detection: search for the header's literal text, then check that it starts a line
# (a lookbehind): ``^`` would be tried at every offset of other sites' files, ten times slower.
_DETECT = re.compile(rf"Stage #(?<=^Stage #)C?\d+: [^\n]+ - \d{{4}}-\d{{2}}-\d{{2}} [0-9:]+[^\n]*{NEXT_LINES}Seat \d+ - ", re.M)
KINDS: dict[str, str] = {
    **COMMON_KINDS, "STUD_HEADER": "hand header", "OTHER_HEADER": "hand header",
    "THIRD": "*** 3rd STREET ***", "FOURTH": "*** 4TH STREET ***", "FIFTH": "*** 5TH STREET ***",
    "SIXTH": "*** 6TH STREET ***", "RIVER": "*** RIVER ***", "POCKET": "'Pocket' deal line",
    "ALL_IN_ACTION": "all-in", "CHATTER": "table message",
}
_STREET_OF = STREET_TERMINALS
_WON = re.compile(rf"\( ?({WRITTEN_AMOUNT})\)")  # "( €0.19)": the euro tables' sign has a space before it


# The header line's fields (absolute.lark): the hand id, the tournament, the game, the
# table's kind, small and big bet, the ante, the start and its zone.
_StudHeader = tuple[str, str | None, str, str | None, str, str, str | None, str, str | None]


class AbsoluteBuilder(LineBuilder):
    SITE = "absolute"
    LOG_MARKS_ALL_IN = True
    LOG_NAMES_ACTIONS = True

    def other_header(self, kind: str, f: tuple[str, str], line: int) -> None:
        self.head["hand_id"] = f[0]
        other = f[1].strip()
        raise SkipHand(other, skip_reason(other))

    def stud_header(self, kind: str, f: _StudHeader, line: int) -> None:
        hand_id, tournament, game, _kind, small, big, ante, when, zone = f
        self.head["hand_id"] = hand_id
        stamp = datetime.strptime(when, "%Y-%m-%d %H:%M:%S").strftime("%Y/%m/%d %H:%M:%S")
        currency = currency_in(small)  # "$0.02" or "€0.02"; a play table's or tournament's figures name none
        self.make_header(hand_id=hand_id, game=game, small=small, big=big, ante=ante, currency=currency,
                         play_money=currency is None and tournament is None,  # a tournament's chips are no play money
                         tournament=Tournament(id=tournament) if tournament else None,
                         started=when + (f" ({zone})" if zone else ""), started_utc=to_utc(stamp, zone))  # fmt: skip

    def seat(self, kind: str, f: tuple[str, str, str], line: int) -> None:
        self.add_seat(line, int(f[0]), str(f[1]), amount(f[2]))

    def ante(self, kind: str, f: Fields, line: int) -> None:
        self.add_ante(line, str(f[0]), amount(f[1]))

    def pocket(self, kind: str, f: Fields, line: int) -> None:
        player = str(f[0])
        held = [None if c == "H" else Card.parse(c) for c in str(f[1]).split()]
        seen = len(self.known.get(player, ()))
        new = held[seen:]
        if not new:
            return  # a folded player's cards, repeated
        before = tuple(c for c in held[:seen] if c is not None) if seen and all(held[:seen]) else ()
        if self.street is Street.THIRD:
            down = tuple(c for c in new[:2] if c is not None)
            up = tuple(c for c in new[2:] if c is not None)
            self.add_deal(line, player, down=down, up=up)
        elif self.street is Street.SEVENTH:
            self.add_deal(line, player, down=tuple(c for c in new if c is not None), before=before)
        else:
            self.add_deal(line, player, up=tuple(c for c in new if c is not None), before=before)

    def action(self, kind: str, f: Fields, line: int) -> None:
        what = ACTION_TERMINALS[kind]
        player = str(f[0])
        if len(f) == 1:
            self.add_action(line, player, what)
        elif what is ActionKind.RAISE:
            to = f[2]
            if to is not None:
                self.add_action(line, player, what, to=amount(to))
            else:  # "Raises $X": the raise increment
                self.add_action(line, player, what, by=amount(f[1]))
        else:
            self.add_action(line, player, what, chips=amount(f[1]))

    def all_in(self, kind: str, f: Fields, line: int) -> None:
        player, put, to = str(f[0]), amount(f[1]), f[2]
        ledger = self.ledger
        before = ledger.street_in.get(player, ledger.zero)
        total = written_total(before, ledger.level, chips=put, to=amount(to) if to else None)
        kind = kind_for(total, ledger.level, False)  # the ledger tells a completion
        if kind is ActionKind.RAISE:
            self.add_action(line, player, kind, to=total, all_in=True)
        else:
            self.add_action(line, player, kind, chips=total - before, all_in=True)

    def uncalled_line(self, kind: str, f: Fields, line: int) -> None:
        self.add_uncalled(line, str(f[1]), amount(f[0]))

    def show_line(self, kind: str, f: Fields, line: int) -> None:
        self.add_show(line, str(f[0]), cards(f[1] or ""), f[2])

    def muck_line(self, kind: str, f: Fields, line: int) -> None:
        self.add_muck(line, str(f[0]))

    def collect_line(self, kind: str, f: Fields, line: int) -> None:
        player, value, pot = f
        digits = re.sub(r"\D", "", pot or "")
        number = (int(digits) if digits else 1) if (pot or "").startswith("side") else 0
        self.add_collect(line, str(player), amount(value), number)

    def total(self, kind: str, f: Fields, line: int) -> None:
        self.add_total(line, amount(f[0]), amount(f[1]) if f[1] else amount("0"))

    def seat_summary_line(self, kind: str, f: Fields, line: int) -> None:
        seat, player, outcome = f
        assert seat and player and outcome
        shown = re.search(r"\[((?:10|[2-9TJQKA])[cdhs](?: (?:10|[2-9TJQKA])[cdhs])*)", outcome)
        won = _WON.search(outcome) if outcome.startswith("won") else None
        self.add_seat_summary(line, int(seat), player, outcome.strip(), cards(shown.group(1)) if shown else (), amount(won.group(1)) if won else None)  # fmt: skip

    def chatter_line(self, kind: str, f: Fields, line: int) -> None:
        self.add_chatter(line, ChatterKind.OTHER, f[0])

    HANDLERS = {
        "STUD_HEADER": "stud_header", "OTHER_HEADER": "other_header", "SEAT": "seat", "ANTE": "ante",
        **dict.fromkeys(_STREET_OF, "street_terminal"), "POCKET": "pocket",
        **dict.fromkeys(ACTION_TERMINALS, "action"), "ALL_IN_ACTION": "all_in", "UNCALLED": "uncalled_line",
        "SHOWDOWN": "showdown_marker", "SHOW": "show_line", "MUCK": "muck_line", "COLLECT": "collect_line",
        "SUMMARY": "skip", "TOTAL": "total", "SEAT_SUMMARY": "seat_summary_line", "CHATTER": "chatter_line",
    }


FORMAT = LineFormat(
    name="absolute",
    grammar_name="absolute",
    builder=AbsoluteBuilder,
    header=HAND_START,
    kinds=KINDS,
    detector=_DETECT,
)

__all__ = ["AbsoluteBuilder", "FORMAT"]
