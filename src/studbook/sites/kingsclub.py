"""KingsClub: Seven Card Stud, Stud Hi-Lo and Razz hand histories.

What KingsClub's figures mean, worked out from the summary lines of the real
logs (each seat's final stack and net result) and normalised here:

* "posts ante A" and "brings in for B" are chips put in;
* "bets X", "calls X" and "raises to X" give the player's total for the
  street, *excluding* the ante: in the Stud Hi-Lo log Player5 brings in for
  33.16 and "calls 44"; the pot (975.12 won + 5 rake) only adds up if that
  call adds 10.84, and every seat's net agrees. In the Stud log "raises to
  77.16" over a completion to 44 is a street total of 77.16 (Player3's net
  -506.32 = ante 33.16 + 121.16 + four bets of 88), so that raise is 33.16
  short of a full bet, a real short raise the engine judges, not an ante
  folded into the figure;
* "bets X" facing only the bring-in is a completion;
* street labels are one street off when no label precedes the first deal
  (the 3rd-street deal is unlabelled and "*** 3RD STREET ***" introduces 4th
  street); logs that label the first deal "*** 3RD STREET ***" are right;
* "Player0 wins pot (424.80)" after the summary is the collection (after
  rake) and "Rake 5" the rake; KingsClub states no total, so the pot summary
  event carries collections plus rake;
* 2-7 razz hands come back Skipped.

The logs carry no currency; ``currency`` is None. A hand is read as a cash game's (FPDB's
KingsClubToFpdb.py takes the tables as USD, ``money.SITE_CURRENCY``): its amounts are money,
Decimals (``lines.cash_amount``), the whole ones too ("44" beside "33.16": whole dollars, not
chips), so that a hand's amounts are of one kind.
"""

from __future__ import annotations

import re
from datetime import datetime, timezone

from studbook.cards import Card
from studbook.events import ActionKind, ChatterKind, Collect, Event, Street
from studbook.money import Money
from studbook.read.split import NEXT_LINES
from studbook.sites.base import HandText
from studbook.read.grammar import LineGrammar
from studbook.sites.lines import (
    ACTION_TERMINALS, COMMON_KINDS, ZERO, Fields, LineBuilder, LineFormat, SkipHand,
    cards, cash_amount, skip_reason,
)

HAND_START = re.compile(r"^#(\d+): ", re.M)
# Detection: search for the header's literal text, then check that it starts a line
# (a lookbehind): ``^`` would be tried at every offset of other sites' files, ten times slower.
_DETECT = re.compile(
    rf"#(?<=^#)\d+: [^\n]+ - [0-9][0-9,.]*/[0-9][0-9,.]*{NEXT_LINES}[0-9]{{4}}-[0-9]{{2}}-[0-9]{{2}} [0-9:]+{NEXT_LINES}Table (?:ID )?'",
    re.M,
)
LABELS: dict[str, Street] = {
    "3RD": Street.THIRD, "4TH": Street.FOURTH, "5TH": Street.FIFTH, "6TH": Street.SIXTH,
    "7TH": Street.SEVENTH,
}
KINDS: dict[str, str] = {
    **COMMON_KINDS, "STUD_HEADER": "hand header", "OTHER_HEADER": "hand header", "INFO_DATE": "date line",
    "INFO_TABLE": "table line", "STREET": "street label", "RAKE": "'Rake' line", "WINS": "'wins pot' line",
    "CHATTER": "table message", "FINISH": "tournament finish",
}


def _dealt(written: str) -> list[Card | None]:
    """A bracket of dealt cards, None for each hidden one ("X")."""
    return [None if c == "X" else Card.parse(c) for c in written.split()]


def _known(dealt: list[Card | None]) -> tuple[Card, ...]:
    return tuple(card for card in dealt if card is not None)


class KingsClubBuilder(LineBuilder):
    SITE = "kingsclub"
    LOG_MARKS_ALL_IN = True
    LOG_NAMES_ACTIONS = True

    def __init__(self, file: str, chunk: HandText, text: str, grammar: LineGrammar) -> None:
        super().__init__(file, chunk, text, grammar)
        self.shift = 0  # 1 when the labels are one street off
        self.rake: Money = ZERO
        self.summary_line = 0

    def stud_header(self, kind: str, f: tuple[str, str, str, str], line: int) -> None:
        head = self.head
        head["hand_id"], head["game"], head["small"], head["big"] = f

    def other_header(self, kind: str, f: tuple[str, str], line: int) -> None:
        head = self.head
        head["hand_id"], head["game"] = f
        raise SkipHand(f[1], skip_reason(f[1]))

    # The date and table lines come in either order: the header is made at the second.
    def date(self, kind: str, f: tuple[str], line: int) -> None:
        self.head["started"] = f[0]
        self._header_once_read()

    def table(self, kind: str, f: tuple[str], line: int) -> None:
        self.head["table"] = f[0]
        self._header_once_read()

    def _header_once_read(self) -> None:
        h = self.head
        if "started" not in h or "table" not in h:
            return
        started = h["started"]
        self.make_header(hand_id=h["hand_id"], game=h["game"], small=h["small"], big=h["big"], table=h["table"],
                         started=started, started_utc=_utc(started), read=cash_amount)  # fmt: skip

    def seat(self, kind: str, f: tuple[str, str, str], line: int) -> None:
        self.add_seat(line, int(f[0]), str(f[1]), cash_amount(f[2]))

    def ante(self, kind: str, f: Fields, line: int) -> None:
        self.add_ante(line, str(f[0]), cash_amount(f[1]), all_in=bool(f[2]))

    def street_label(self, kind: str, f: Fields, line: int) -> None:
        street = LABELS[str(f[0])]
        self.start_street(line, Street(int(street) + self.shift))

    def deal_line(self, kind: str, f: Fields, line: int) -> None:
        if self.street is None:
            self.shift = 1  # no label before the first deal: labels are one street off
            self.start_street(line, Street.THIRD)
        player, first, second = str(f[0]), _dealt(str(f[1])), _dealt(f[2]) if f[2] else None
        if self.street is Street.THIRD:  # "[a b c]" or "[a b] [c]": all three are new
            dealt = first + (second or [])
            hidden = sum(card is None for card in dealt[:2])  # opponents' down cards, written X
            self.add_new_cards(line, player, _known(dealt), hidden_down=hidden)
        else:  # "[new]", or "[known] [new]"
            self.add_new_cards(line, player, _known(second if second is not None else first),
                               before=_known(first) if second is not None else ())  # fmt: skip

    def action(self, kind: str, f: Fields, line: int) -> None:
        what = ACTION_TERMINALS[kind]
        player = str(f[0])
        if len(f) == 1:
            self.add_action(line, player, what)
        elif what is ActionKind.BRING_IN:
            self.add_action(line, player, what, chips=cash_amount(f[1]), all_in=bool(f[2]))
        else:  # bets, calls and raises: the street total
            self.add_action(line, player, what, to=cash_amount(f[1]), all_in=bool(f[2]))

    def uncalled_line(self, kind: str, f: Fields, line: int) -> None:
        self.add_uncalled(line, str(f[1]), cash_amount(f[0]))

    def show_line(self, kind: str, f: Fields, line: int) -> None:
        self.add_show(line, str(f[0]), cards(f[1] or ""))

    def muck_line(self, kind: str, f: Fields, line: int) -> None:
        self.add_muck(line, str(f[0]))

    def chatter_line(self, kind: str, f: Fields, line: int) -> None:
        self.add_chatter(line, ChatterKind.OTHER, f[0])

    def seat_summary_line(self, kind: str, f: tuple[str, str, str, str], line: int) -> None:
        seat, player, stack, net = f
        self.add_seat_summary(line, int(seat), str(player), f"({stack}) {net}")

    def rake_line(self, kind: str, f: Fields, line: int) -> None:
        self.rake = cash_amount(f[0])
        self.summary_line = line

    def wins(self, kind: str, f: Fields, line: int) -> None:
        player, pot, value = f
        digits = re.sub(r"\D", "", pot or "")
        number = (int(digits) if digits else 1) if (pot or "").startswith("side") else 0
        self.add_collect(line, str(player), cash_amount(value), number)

    def tournament_finish(self, kind: str, f: Fields, line: int) -> None:
        player, place, received, receives = f
        self.add_finish(line, str(player), place, received or receives)

    def finish(self) -> list[Event]:
        collected = sum((e.amount for e in self.events if isinstance(e, Collect)), ZERO)
        self.add_total(self.summary_line or self.events[-1].line, collected + self.rake, self.rake)
        return self.events

    HANDLERS = {
        "STUD_HEADER": "stud_header", "OTHER_HEADER": "other_header", "INFO_DATE": "date", "INFO_TABLE": "table",
        "SEAT": "seat", "ANTE": "ante", "STREET": "street_label", "DEAL": "deal_line",
        **dict.fromkeys(ACTION_TERMINALS, "action"), "UNCALLED": "uncalled_line", "SHOW": "show_line",
        "MUCK": "muck_line", "CHATTER": "chatter_line", "SUMMARY": "skip",
        "SEAT_SUMMARY": "seat_summary_line", "RAKE": "rake_line", "WINS": "wins", "FINISH": "tournament_finish",
    }
    NOT_PLAYERS = frozenset({"SEAT"})


def _utc(started: str) -> datetime | None:
    """KingsClub writes no zone; the times read as UTC (an assumption, documented)."""
    try:
        return datetime.strptime(started, "%Y-%m-%d %H:%M:%S").replace(tzinfo=timezone.utc)
    except ValueError:
        return None


FORMAT = LineFormat(
    name="kingsclub",
    grammar_name="kingsclub",
    builder=KingsClubBuilder,
    header=HAND_START,
    kinds=KINDS,
    detector=_DETECT,
)

__all__ = ["FORMAT", "KingsClubBuilder", "LABELS"]
