"""Winning Poker Network (Americas Cardroom, Yatahay): stud hand histories.

Two text formats share ``grammars/winning.lark``, told apart by the first line:

* the older client ("Game started at: ..."): street labels are one street off
  (the 3rd-street deal has no label; "*** Third street ***" introduces 4th
  street ... "*** Sixth street ***" the river), so the labels map to streets
  through :data:`OLD_STREETS`; each card dealt has its own line, merged here
  into one :class:`~studbook.events.Deal` per player and street; "raises (X)"
  gives the street total X, calls and bets the chips put in; there is no
  collect line: the summary's "Collects: X" become the collections, and its
  "Pot: X. Rake Y. JP fee Z" states the pot after rake and jackpot fee;
* the newer client ("Hand #N - 7Stud(Fixed Limit) - ..."): PokerStars-like,
  except that "Total pot" and the winners' "won $X" are stated after rake.

The newer format writes dollars (``$0.04/$0.08``): ``currency`` is "USD"; the
older one writes no currency (``1/2 (PRR)``), so its ``currency`` is None, as
for any log that names none. Its hands are cash games' (FPDB's WinningToFpdb.py takes them
as USD, ``money.SITE_CURRENCY``): their amounts are money, Decimals (``lines.cash_amount``),
the whole ones too ("1" beside "0.15": a whole dollar, not chips), so that a hand's amounts
are of one kind.
"""

from __future__ import annotations

import re
from decimal import Decimal

from studbook.cards import Card
from studbook.events import ActionKind, ChatterKind, Street, Tournament
from studbook.money import Money, currency_in, currency_of
from studbook.read.split import NEXT_LINES
from studbook.sites.base import HandText
from studbook.read.grammar import LineGrammar
from studbook.sites.lines import (
    ACTION_TERMINALS, COMMON_KINDS, ZERO, Fields, LineBuilder, LineFormat, SkipHand, to_utc,
    amount, cards, cash_amount, skip_reason, WRITTEN_AMOUNT,
)

HAND_START = re.compile(r"^(?:Game started at: |(?:Game )?Hand #(\d+) - )", re.M)
# The hand id of a rejected hand: the older client writes it on the line after the header
_HAND_ID = re.compile(r"^(?:Game ID: |(?:Game )?Hand #)(\d+)", re.M)
# Detection: a line "Game started at: ..." then "Game ID: N ", or a line "Hand #N - ...) - ... - YYYY/MM/DD ".
_DETECT = (
    re.compile(rf"^Game started at: [^\n]*{NEXT_LINES}Game ID: \d+ ", re.M),
    re.compile(r"^(?:Game )?Hand #\d+ - [^\n]*\) - [^\n]* ?- \d{4}/\d{2}/\d{2} ", re.M),
)

# The older client labels streets one off: the label names the street before.
OLD_STREETS: dict[str, Street] = {
    "Third": Street.FOURTH, "Fourth": Street.FIFTH, "Fifth": Street.SIXTH, "Sixth": Street.SEVENTH,
}
NEW_STREETS: dict[str, Street] = {
    "3rd": Street.THIRD, "4th": Street.FOURTH, "5th": Street.FIFTH, "6th": Street.SIXTH,
    "7th": Street.SEVENTH,
}
# The newer client's header fields (winning.lark's NEW_STUD): the hand id, the tournament,
# the game, its limit, the tournament's level, small and big bet, the start and its zone.
_NewStud = tuple[str, str | None, str, str, str | None, str, str, str, str | None]
_GAME_NAMES = {"7stud": "Stud", "7stud hilo": "Stud Hi/Lo", "7stud hi-lo": "Stud Hi/Lo"}

KINDS: dict[str, str] = {
    **COMMON_KINDS,
    **{f"OLD_{k}": v for k, v in COMMON_KINDS.items()}, **{f"NEW_{k}": v for k, v in COMMON_KINDS.items()},
    "OLD_STARTED": "'Game started at' line", "OLD_STUD": "'Game ID' line", "OLD_OTHER": "'Game ID' line",
    "OLD_DEAL_HIDDEN": "deal line", "OLD_STREET": "street label", "OLD_POT": "'Pot:' line",
    "OLD_ENDED": "'Game ended at' line", "NEW_STUD": "hand header", "NEW_OTHER": "hand header",
    "NEW_TABLE": "table line", "NEW_STREET": "street label", "NEW_POT_NOTE": "'Main pot' note",
    "NEW_SEAT_WAITING": "seat waiting for the button",
    "NEW_NOSHOW": "does not show", "OLD_CHATTER": "table message", "NEW_CHATTER": "table message",
}

_OLD_ACTIONS = {f"OLD_{name}": kind for name, kind in ACTION_TERMINALS.items()}
_NEW_ACTIONS = {f"NEW_{name}": kind for name, kind in ACTION_TERMINALS.items()}
_WON = re.compile(rf"\bwon ({WRITTEN_AMOUNT})")
# The amount of each part of a "Total pot" line after the pot: "| Rake $0.08", "| JP Fee $0.02"
_PART_AMOUNT = re.compile(rf"({WRITTEN_AMOUNT})")
_SHOWED = re.compile(r"\[([^\]]*)\]")


class WinningBuilder(LineBuilder):
    SITE = "winning"
    LOG_MARKS_ALL_IN = True
    LOG_NAMES_ACTIONS = True

    def __init__(self, file: str, chunk: HandText, text: str, grammar: LineGrammar) -> None:
        super().__init__(file, chunk, text, grammar)
        self.pending: dict[str, tuple[int, list[Card | None]]] = {}
        self.total_after_rake: Money | None = None
        self.collected = False  # a "collected" line in the stream (else the summary's wins are the collections)

    # -- the older client --------------------------------------------------
    def old_started(self, kind: str, f: tuple[str], line: int) -> None:
        self.head["started"] = f[0]

    def old_other(self, kind: str, f: tuple[str, str], line: int) -> None:
        self.head["hand_id"], other = f
        raise SkipHand(other, skip_reason(other))

    def old_stud(self, kind: str, f: tuple[str, str, str, str, str], line: int) -> None:
        hand_id, small, big, table, game = f
        self.head["hand_id"] = hand_id
        self.make_header(hand_id=hand_id, game=game, small=small, big=big, currency=currency_of(small[:1]),
                         table=table.strip(), started=self.head.get("started", ""),
                         started_utc=None, read=cash_amount)  # fmt: skip

    def old_seat(self, kind: str, f: tuple[str, str, str], line: int) -> None:
        seat, player, stack = f
        self.add_seat(line, int(seat), player, cash_amount(stack))

    def old_ante(self, kind: str, f: tuple[str, str], line: int) -> None:
        self.add_ante(line, f[0], cash_amount(f[1]))

    def old_deal(self, kind: str, f: Fields, line: int) -> None:
        if self.street is None:
            self.start_street(line, Street.THIRD)  # the 3rd-street deal has no label
        player = str(f[0])
        card = Card.parse(f[1]) if kind == "OLD_DEAL" and f[1] else None
        first, dealt = self.pending.setdefault(player, (line, []))
        dealt.append(card)

    def flush_deals(self) -> None:
        """One Deal per player and street, from the one-card lines."""
        pending, self.pending = self.pending, {}
        for player, (line, dealt) in pending.items():
            known = tuple(c for c in dealt if c is not None)
            if self.street is Street.THIRD:
                down = tuple(c for c in dealt[:2] if c is not None)
                up = tuple(c for c in dealt[2:] if c is not None)
                self.add_deal(line, player, down=down, up=up)
            elif self.street is Street.SEVENTH:
                self.add_deal(line, player, down=known)
            else:
                self.add_deal(line, player, up=known)

    def old_street(self, kind: str, f: Fields, line: int) -> None:
        self.flush_deals()
        self.start_street(line, OLD_STREETS[str(f[0])])

    def old_action(self, kind: str, f: Fields, line: int) -> None:
        self.flush_deals()
        what = _OLD_ACTIONS[kind]
        player = str(f[0])
        if len(f) == 1:
            self.add_action(line, player, what)
            return
        value, all_in = cash_amount(f[1]), bool(f[2])
        if what is ActionKind.RAISE:
            self.add_action(line, player, what, to=value, all_in=all_in)
        else:
            self.add_action(line, player, what, chips=value, all_in=all_in)

    def old_uncalled(self, kind: str, f: Fields, line: int) -> None:
        self.flush_deals()
        self.add_uncalled(line, str(f[1]), cash_amount(f[0]))

    def old_muck(self, kind: str, f: Fields, line: int) -> None:
        self.flush_deals()
        self.add_muck(line, str(f[0]))

    def old_show(self, kind: str, f: Fields, line: int) -> None:
        self.flush_deals()
        self.add_show(line, str(f[0]), cards(f[1] or ""))

    def old_summary(self, kind: str, f: Fields, line: int) -> None:
        self.flush_deals()

    def old_pot(self, kind: str, f: Fields, line: int) -> None:
        pot, rake, fee = f
        taken = (cash_amount(rake) if rake else ZERO) + (cash_amount(fee) if fee else ZERO)
        # "Pot: 8.15. Rake 0.11. JP fee 0.04": the pot after rake and jackpot fee
        self.add_total(line, cash_amount(pot) + taken, taken)

    def old_seat_summary(self, kind: str, f: Fields, line: int) -> None:
        _mark, player, what, shown, _bets, collects = f
        assert player and what is not None
        got = cash_amount(collects)
        if shown:
            self.add_show(line, player, cards(shown), what.removeprefix("shows").strip(" :.") or None)
        if got > 0:
            self.add_collect(line, player, got)
        seat = next((s.seat for s in self.seats if s.player == player), None)
        if seat is None:
            raise ValueError(f"summary line for {player!r}, who has no seat line")
        self.add_seat_summary(line, seat, player, self.line_text(line).strip(), cards(shown) if shown else (), got if got > 0 else None)  # fmt: skip

    def old_ended(self, kind: str, f: Fields, line: int) -> None:
        pass

    # -- the newer client ------------------------------------------------------
    def new_other(self, kind: str, f: tuple[str, str], line: int) -> None:
        self.head["hand_id"], other = f
        raise SkipHand(other, skip_reason(other))

    def new_stud(self, kind: str, f: _NewStud, line: int) -> None:
        hand_id, tournament, game, structure, level, small, big, when, zone = f
        name = f"{structure} {_GAME_NAMES.get(game.lower(), game)}"
        self.head.update({"hand_id": hand_id, "game": name, "small": small, "big": big,
                          "started": f"{when} {zone or ''}".strip(), "started_utc": to_utc(when, zone),
                          "tournament": Tournament(id=tournament, level=level) if tournament else None})  # fmt: skip

    def new_table(self, kind: str, f: tuple[str, str, str | None, str | None], line: int) -> None:
        table, max_seats, play_money, button = f
        h = self.head
        tournament = h["tournament"]
        self.make_header(hand_id=h["hand_id"], game=h["game"], small=h["small"], big=h["big"],
                         currency=None if tournament or play_money else currency_in(h["small"]),
                         play_money=play_money is not None, tournament=tournament, table=table,
                         max_seats=int(max_seats) if max_seats else None, button=int(button) if button else None,
                         started=h["started"], started_utc=h["started_utc"])  # fmt: skip

    def new_seat_waiting(self, kind: str, f: Fields, line: int) -> None:
        self.add_chatter(line, ChatterKind.OTHER, None)

    def new_seat(self, kind: str, f: tuple[str, str, str, str | None], line: int) -> None:
        seat, player, stack, status = f
        self.add_seat(line, int(seat), str(player), amount(stack), sitting_out=status is not None)

    def new_ante(self, kind: str, f: Fields, line: int) -> None:
        self.add_ante(line, str(f[0]), amount(f[1]), all_in=bool(f[2]))

    def new_street(self, kind: str, f: Fields, line: int) -> None:
        self.start_street(line, NEW_STREETS[str(f[0])])

    def new_pot_note(self, kind: str, f: Fields, line: int) -> None:
        pass

    def new_deal(self, kind: str, f: Fields, line: int) -> None:
        player, first, second = f
        self.add_bracketed_deal(line, str(player), first or "", second)

    def new_action(self, kind: str, f: Fields, line: int) -> None:
        what = _NEW_ACTIONS[kind]
        player = str(f[0])
        if len(f) == 1:
            self.add_action(line, player, what)
        elif what is ActionKind.RAISE:
            # "raises $0.04 to $0.04": the second figure is the street total
            self.add_action(line, player, what, to=amount(f[2]), all_in=bool(f[3]))
        elif what is ActionKind.COMPLETE:
            self.add_action(line, player, what, to=amount(f[1]), all_in=bool(f[2]))
        else:
            self.add_action(line, player, what, chips=amount(f[1]), all_in=bool(f[2]))

    def new_uncalled(self, kind: str, f: Fields, line: int) -> None:
        self.add_uncalled(line, str(f[1]), amount(f[0]))

    def new_showdown(self, kind: str, f: Fields, line: int) -> None:
        self.add_showdown(line)

    def new_show(self, kind: str, f: Fields, line: int) -> None:
        self.add_show(line, str(f[0]), cards(f[1] or ""), f[2])

    def new_muck(self, kind: str, f: Fields, line: int) -> None:
        self.add_muck(line, str(f[0]))

    def new_noshow(self, kind: str, f: Fields, line: int) -> None:
        self.add_noshow(line, str(f[0]))

    def new_collect(self, kind: str, f: Fields, line: int) -> None:
        self.add_collect(line, str(f[0]), amount(f[1]))
        self.collected = True

    def new_summary(self, kind: str, f: Fields, line: int) -> None:
        pass

    def new_total(self, kind: str, f: Fields, line: int) -> None:
        total = amount(f[0])
        # "Total pot $0.36 | Rake $0.01" states the pot after rake, and after every other
        # part's amount: "| JP Fee $0.02" is the jackpot's share, taken as the rake is;
        # a version that prints no part states no rake (the profile's unstated rake)
        parts = (_PART_AMOUNT.search(part) for part in (f[1] or "").split("|")[1:])
        taken = [amount(found.group(1)) for found in parts if found is not None]
        rake = sum(taken, ZERO) if taken else None
        self.add_total(line, total + (rake or ZERO), rake)

    def new_seat_summary(self, kind: str, f: Fields, line: int) -> None:
        seat, player, outcome = f
        assert seat and player and outcome
        won = _WON.search(outcome)
        shown = _SHOWED.search(outcome)
        value = amount(won.group(1)) if won else None
        if value is not None and not self.collected:
            self.add_collect(line, player, value)  # the summary is the only record of the win
        self.add_seat_summary(line, int(seat), player, outcome, cards(shown.group(1)) if shown else (), value)

    def chatter_line(self, kind: str, f: Fields, line: int) -> None:
        self.add_chatter(line, ChatterKind.OTHER, f[0])

    HANDLERS = {
        "OLD_STARTED": "old_started", "OLD_STUD": "old_stud", "OLD_OTHER": "old_other", "OLD_SEAT": "old_seat",
        "OLD_ANTE": "old_ante", "OLD_DEAL": "old_deal", "OLD_DEAL_HIDDEN": "old_deal",
        "OLD_STREET": "old_street", **dict.fromkeys(_OLD_ACTIONS, "old_action"),
        "OLD_UNCALLED": "old_uncalled", "OLD_MUCK": "old_muck", "OLD_SHOW": "old_show",
        "OLD_SUMMARY": "old_summary", "OLD_POT": "old_pot", "OLD_SEAT_SUMMARY": "old_seat_summary",
        "OLD_ENDED": "old_ended", "OLD_CHATTER": "chatter_line",
        "NEW_STUD": "new_stud", "NEW_OTHER": "new_other", "NEW_TABLE": "new_table", "NEW_SEAT": "new_seat",
        "NEW_SEAT_WAITING": "new_seat_waiting",
        "NEW_ANTE": "new_ante", "NEW_STREET": "new_street", "NEW_POT_NOTE": "new_pot_note",
        "NEW_DEAL": "new_deal", **dict.fromkeys(_NEW_ACTIONS, "new_action"), "NEW_UNCALLED": "new_uncalled",
        "NEW_SHOWDOWN": "new_showdown", "NEW_SHOW": "new_show", "NEW_MUCK": "new_muck",
        "NEW_NOSHOW": "new_noshow", "NEW_COLLECT": "new_collect", "NEW_SUMMARY": "new_summary",
        "NEW_TOTAL": "new_total", "NEW_SEAT_SUMMARY": "new_seat_summary", "NEW_CHATTER": "chatter_line",
    }
    NOT_PLAYERS = frozenset({"OLD_SEAT", "NEW_SEAT"})


FORMAT = LineFormat(
    name="winning",
    grammar_name="winning",
    builder=WinningBuilder,
    header=HAND_START,
    kinds=KINDS,
    detector=_DETECT,
    hand_id_pattern=_HAND_ID,
)

__all__ = ["FORMAT", "OLD_STREETS", "WinningBuilder"]
