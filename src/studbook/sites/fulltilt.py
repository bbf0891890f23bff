"""Full Tilt Poker: Stud Hi, Stud H/L and Razz hand histories.

Same design as :mod:`studbook.sites.pokerstars`: the grammar
(``grammars/fulltilt.lark``) has one terminal per line kind and rules that fix
the order of sections; :class:`~studbook.sites.lines.LineBuilder` runs it and
calls the handlers below with each line's regex groups. The readers' ledger
(:mod:`studbook.sites.ledger`) turns the figures into events.py terms.

Full Tilt quirks handled here:

* raises are written "raises to $X" only: ``to`` is X and ``amount`` the
  increment over the bet faced, from the ledger;
* a seat "is sitting out" (on its seat line or in a notice before the deal)
  is out of the hand only when it posts no ante: sit & go players sitting
  out are still dealt in and ante;
* the 10-Game and other mixed rotations: hands of other games, 5-card stud
  included, come back :class:`~studbook.events.Skipped` with the game named;
* tournament summaries ("Full Tilt Poker Tournament Summary") are recognised
  and described, not parsed as hands.
"""

from __future__ import annotations

import re
from datetime import datetime
from decimal import Decimal

from studbook.events import ActionKind, ChatterKind, Half, Tournament
from studbook.money import Money, currency_of
from studbook.sites.lines import (
    ACTION_TERMINALS, CHATTER_TERMINALS, COMMON_KINDS, STREET_TERMINALS, Fields, LineBuilder,
    LineFormat, PlayerOnly, SkipHand, amount, cards, skip_reason, summary_outcome, to_utc, WRITTEN_AMOUNT,
)

HEADER_START = re.compile(r"^Full ?Tilt ?Poker(?:\.fr)? Game #(\d+)", re.M)
# Detection: search for the header's literal text, then check that it starts a line
# (a lookbehind): ``^`` would be tried at every offset of other sites' files, ten times slower.
_NAMES = ("Full Tilt Poker", "FullTiltPoker", "Full Tilt Poker.fr")  # as in HEADER_START
_DETECT = re.compile(" Game #(?:" + "|".join(f"(?<=^{re.escape(name)} Game #)" for name in _NAMES) + r")\d", re.M)
_SUMMARY_FILE = re.compile(r"^Full Tilt Poker Tournament Summary ", re.M)
_BUY_IN = re.compile(r"^((?:[$€£][0-9][0-9.,]*)(?: ?\+ ?[$€£][0-9][0-9.,]*)*|Freeroll)", re.I)

KINDS: dict[str, str] = {
    **COMMON_KINDS,
    "STUD_HEADER": "hand header", "OTHER_HEADER": "hand header",
    "STUD_HEADER_GAME_FIRST": "hand header", "OTHER_HEADER_GAME_FIRST": "hand header",
    "THIRD": "*** 3RD STREET ***", "FOURTH": "*** 4TH STREET ***", "FIFTH": "*** 5TH STREET ***",
    "SIXTH": "*** 6TH STREET ***", "RIVER": "*** 7TH STREET ***", "LOW_NOTE": "'is low with' note",
    "SHOWDOWN": "*** SHOW DOWN ***", "SUMMARY": "*** SUMMARY ***",
}
_STREET_OF = STREET_TERMINALS
_SIDE_POT = re.compile(rf"Side pot(?: #?[0-9]+)? ({WRITTEN_AMOUNT})\.")


def _numeric(day: str, clock: str) -> str:
    """``2010/06/11 12:22:17`` from the header's day and time, also from the short-lived
    version's "Friday, June 11, 2010" and a time without seconds ("12:22")."""
    if not day[0].isdigit():
        day = datetime.strptime(day, "%A, %B %d, %Y").strftime("%Y/%m/%d")
    return f"{day} {clock}" + (":00" if clock.count(":") == 1 else "")


class FullTiltBuilder(LineBuilder):
    SITE = "fulltilt"
    LOG_MARKS_ALL_IN = True
    LOG_NAMES_ACTIONS = True

    def header_line(self, kind: str, f: Fields, line: int) -> None:
        (hand_id, tname, tid, table, max_seats, _qualifiers, small, big, ante, game,
         clock, zone, day, et_clock, et_zone, et_day) = f  # fmt: skip
        assert hand_id and table and small and big and game and clock and day
        self.head["hand_id"] = hand_id
        if kind == "OTHER_HEADER":
            raise SkipHand(game, skip_reason(game))
        started = f"{clock} {zone} - {day}" + (f" [{et_clock} {et_zone} - {et_day}]" if et_clock else "")
        utc = to_utc(_numeric(day, clock), zone)
        if et_clock:
            utc = to_utc(f"{et_day} {et_clock}", et_zone) or utc
        tournament = None
        currency = None
        if tid is not None:
            buy_in = _BUY_IN.match(tname or "")
            tournament = Tournament(id=tid, buy_in=buy_in.group(1) if buy_in else None)
        else:
            currency = currency_of(small[0])
        self.make_header(
            hand_id=hand_id, game=game, small=small, big=big, ante=ante, tournament=tournament,
            currency=currency, play_money=tournament is None and currency is None, table=table,
            max_seats=int(max_seats) if max_seats else None, started=started, started_utc=utc,
        )

    def header_game_first(self, kind: str, f: Fields, line: int) -> None:
        """The version that writes the game before the stakes: the same fields, in the other order."""
        place, (game, small, big, ante), rest = f[:6], f[6:10], f[10:]
        self.header_line(kind.removesuffix("_GAME_FIRST"), (*place, small, big, ante, game, *rest), line)

    def seat(self, kind: str, f: Fields, line: int) -> None:
        seat, player, stack, status = f
        assert seat and player and stack
        self.add_seat(line, int(seat), player, amount(stack), sitting_out=status is not None)

    def ante(self, kind: str, f: Fields, line: int) -> None:
        player, value, all_in = f
        assert player and value
        self.add_ante(line, player, amount(value), all_in=bool(all_in))

    def deal_line(self, kind: str, f: Fields, line: int) -> None:
        player, first, second = f
        assert player and first
        self.add_bracketed_deal(line, player, first, second)

    def low_note(self, kind: str, f: Fields, line: int) -> None:
        self.add_chatter(line, ChatterKind.OTHER, f[0])

    def action(self, kind: str, f: Fields, line: int) -> None:
        player = f[0]
        assert player
        what = ACTION_TERMINALS[kind]
        if len(f) == 1:
            self.add_action(line, player, what)
            return
        value, all_in = amount(f[1]), bool(f[2])
        if what in (ActionKind.RAISE, ActionKind.COMPLETE):
            self.add_action(line, player, what, to=value, all_in=all_in)
        else:
            self.add_action(line, player, what, chips=value, all_in=all_in)

    def uncalled_line(self, kind: str, f: tuple[str, str], line: int) -> None:
        value, player = f
        self.add_uncalled(line, player, amount(value))

    def sit_out(self, kind: str, f: Fields, line: int) -> None:
        if self.street is None and f[0]:
            self.sitting_out.add(f[0])
        self.add_chatter(line, ChatterKind.SIT_OUT, f[0])

    def show_line(self, kind: str, f: tuple[str, str, str | None], line: int) -> None:
        player, shown, description = f
        self.add_show(line, player, cards(shown or ""), description)

    def muck_line(self, kind: str, f: PlayerOnly, line: int) -> None:
        self.add_muck(line, f[0])

    def collect_line(self, kind: str, f: tuple[str, str | None, str, str, str | None], line: int) -> None:
        player, half, pot, value, _description = f
        assert pot is not None
        number = 0
        if pot.startswith("side"):
            digits = re.sub(r"\D", "", pot)
            number = int(digits) if digits else 1
        self.add_collect(line, player, amount(value), number, Half(half) if half else None)

    def total(self, kind: str, f: Fields, line: int) -> None:
        total, main, sides, rake = f
        pots: tuple[Money, ...] = ()
        if main is not None:
            pots = (amount(main), *(amount(side) for side in _SIDE_POT.findall(sides or "")))
            # Full Tilt states the pots before rake (they add up to the total) and
            # takes the rake from the main pot, as its collections show; events
            # state them after rake, as PokerStars does.
            if sum(pots) == amount(total):
                pots = (pots[0] - amount(rake), *pots[1:])
        self.add_total(line, amount(total), amount(rake), pots)

    def seat_summary_line(self, kind: str, f: Fields, line: int) -> None:
        seat, player, outcome = f
        assert seat and player and outcome
        self.add_seat_summary(line, int(seat), player, outcome, *summary_outcome(outcome))

    def said(self, kind: str, f: Fields, line: int) -> None:
        player, message = f
        self.add_chatter(line, ChatterKind.SAID, player, message or "")

    def other_chatter(self, kind: str, f: Fields, line: int) -> None:
        self.add_chatter(line, CHATTER_TERMINALS[kind], f[0])

    HANDLERS = {
        "STUD_HEADER": "header_line", "OTHER_HEADER": "header_line", "SEAT": "seat", "ANTE": "ante",
        "STUD_HEADER_GAME_FIRST": "header_game_first", "OTHER_HEADER_GAME_FIRST": "header_game_first",
        **dict.fromkeys(_STREET_OF, "street_terminal"), "DEAL": "deal_line", "LOW_NOTE": "low_note",
        **dict.fromkeys(ACTION_TERMINALS, "action"), "UNCALLED": "uncalled_line",
        "SHOWDOWN": "showdown_marker", "SHOW": "show_line", "MUCK": "muck_line", "COLLECT": "collect_line",
        "NO_LOW": "no_low_marker", "SUMMARY": "skip", "TOTAL": "total", "SEAT_SUMMARY": "seat_summary_line",
        "SAID": "said", "SIT_OUT": "sit_out", "TIMEOUT": "other_chatter", "CHATTER_OTHER": "other_chatter",
    }
    NOT_PLAYERS = frozenset({"SEAT"})


FORMAT = LineFormat(
    name="fulltilt",
    grammar_name="fulltilt",
    builder=FullTiltBuilder,
    header=HEADER_START,
    detector=_DETECT,
    kinds=KINDS,
    summary=_SUMMARY_FILE,
    summary_note="a Full Tilt tournament summary, not a hand history",
)

__all__ = ["FORMAT", "FullTiltBuilder", "KINDS"]
