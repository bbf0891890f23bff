"""Hand -> PokerStars hand-history text.

``write_hand`` needs only the events: a parsed hand or one a simulator made.
``parse(write_hand(hand))`` gives back the same hand, file and line numbers
aside, for every hand the PokerStars reader produces (tested with hypothesis
in ``tests/test_writer.py``). What the writer relies on:

* the header's ``started`` text is written as is; when it is empty, the
  start is ``started_utc`` in ET (or 2000/01/01 when that is missing too),
  so the parsed copy then has a ``started`` the original did not;
* a ``DealCommunity`` is written on the ``*** RIVER ***`` line (PokerStars'
  place for it) and reads back right after ``StreetStart(7)``;
* ``*** SUMMARY ***`` is written before the ``PotSummary``; a hand without
  one gets ``Total pot`` = the sum collected, rake 0;
* a ``SeatSummary`` with an empty ``outcome`` gets one made from its cards
  and winnings;
* on 4th-6th street a ``Deal`` is written ``[before] [up]`` and on 7th
  ``[before] [down]``; on 3rd ``[down up]`` (hero) or ``[up]``.
"""

from __future__ import annotations

from decimal import Decimal
from typing import Iterable
from zoneinfo import ZoneInfo

from studbook.cards import format_cards
from studbook.events import (
    Action, ActionKind, BettingCapped, Chatter, ChatterKind, Collect, Deal, DealCommunity,
    Event, Hand, HandHeader, Muck, NoLowHand, NoShow, OpenPairNotice, PostAnte, PotSummary,
    Seat, SeatSummary, Show, ShowdownStart, StreetStart, UncalledReturned,
)
from studbook.money import format_amount

_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}
_STREET_LINES = {
    3: "*** 3rd STREET ***", 4: "*** 4th STREET ***", 5: "*** 5th STREET ***",
    6: "*** 6th STREET ***", 7: "*** RIVER ***",
}
_VERBS = {
    ActionKind.BRING_IN: "brings in for", ActionKind.BET: "bets", ActionKind.CALL: "calls",
}
_ET = ZoneInfo("America/New_York")


class _Writer:
    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        header = hand.header
        chips = header.tournament is not None and header.tournament.level is not None
        self.symbol = "" if chips or header.currency is None else _SYMBOLS.get(header.currency, "")
        self.split_pots = _split_pots(hand.events)
        self.community = next((e for e in hand.events if isinstance(e, DealCommunity)), None)

    def money(self, value: Decimal | None) -> str:
        return format_amount(value if value is not None else Decimal(0), self.symbol)

    def lines(self) -> list[str]:
        hand = self.hand
        out = [_header_line(hand.header), _table_line(hand.header)]
        out += [self.seat(seat) for seat in hand.seats]
        summary_written = False
        for event in hand.events:
            if isinstance(event, PotSummary) and not summary_written:
                out.append("*** SUMMARY ***")
                summary_written = True
            elif isinstance(event, SeatSummary) and not summary_written:
                out += ["*** SUMMARY ***", self.synthetic_total()]
                summary_written = True
            line = self.event(event)
            if line is not None:
                out.append(line)
            if isinstance(event, PotSummary) and self.community is not None:
                out.append(f"Board [{self.community.card}]")
        if not summary_written:
            out += ["*** SUMMARY ***", self.synthetic_total()]
        return out

    def synthetic_total(self) -> str:
        total = sum((e.amount for e in self.hand.events if isinstance(e, Collect)), Decimal(0))
        return f"Total pot {self.money(total)} | Rake {self.money(Decimal(0))}"

    def seat(self, seat: Seat) -> str:
        text = f"Seat {seat.seat}: {seat.player} ({self.money(seat.stack)} in chips)"
        if seat.sitting_out:
            text += " is sitting out"
        elif seat.out_of_hand:
            text += " out of hand (moved from another table into small blind)"
        return text

    def event(self, event: Event) -> str | None:  # noqa: C901 - one branch per event type
        money = self.money
        if isinstance(event, Action):
            return self.action(event)
        if isinstance(event, Deal):
            return _deal_line(event)
        if isinstance(event, PostAnte):
            return f"{event.player}: posts the ante {money(event.amount)}" + _all_in(event.all_in)
        if isinstance(event, StreetStart):
            line = _STREET_LINES[int(event.street)]
            if int(event.street) == 7 and self.community is not None:
                line += f" [{self.community.card}]"
            return line
        if isinstance(event, DealCommunity):
            return None  # written on the river line
        if isinstance(event, BettingCapped):
            return "Betting is capped"
        if isinstance(event, OpenPairNotice):
            return "Pair on board - a double bet is allowed"
        if isinstance(event, UncalledReturned):
            return f"Uncalled bet ({money(event.amount)}) returned to {event.player}"
        if isinstance(event, ShowdownStart):
            return "*** SHOW DOWN ***"
        if isinstance(event, Show):
            text = f"{event.player}: shows [{format_cards(event.cards)}]"
            return text + (f" ({event.description})" if event.description is not None else "")
        if isinstance(event, Muck):
            return f"{event.player}: mucks " + (f"[{format_cards(event.cards)}]" if event.cards else "hand")
        if isinstance(event, NoShow):
            return f"{event.player}: doesn't show hand"
        if isinstance(event, Collect):
            return f"{event.player} collected {money(event.amount)} from {self.pot_name(event.pot)}"
        if isinstance(event, NoLowHand):
            return "No low hand qualified"
        if isinstance(event, PotSummary):
            return self.total(event)
        if isinstance(event, SeatSummary):
            return f"Seat {event.seat}: {event.player} {event.outcome or self.outcome(event)}"
        if isinstance(event, Chatter):
            if event.kind is ChatterKind.SAID:
                return f'{event.player} said, "{event.text}"'
            return event.text
        raise TypeError(f"cannot write {type(event).__name__} as PokerStars text")

    def action(self, action: Action) -> str:
        money = self.money
        kind = action.kind
        if kind is ActionKind.RAISE:
            text = f"raises {money(action.amount)} to {money(action.to)}"
        elif kind is ActionKind.COMPLETE:
            text = f"completes it to {money(action.to if action.to is not None else action.amount)}"
        elif kind is ActionKind.CHECK:
            text = "checks"
        elif kind is ActionKind.FOLD:
            text = "folds"
        else:
            text = f"{_VERBS[kind]} {money(action.amount)}"
        return f"{action.player}: {text}" + _all_in(action.all_in)

    def pot_name(self, pot: int) -> str:
        if pot == 0:
            return "main pot" if self.split_pots else "pot"
        return f"side pot-{pot}" if self.split_pots > 1 else "side pot"

    def total(self, event: PotSummary) -> str:
        text = f"Total pot {self.money(event.total)}"
        if event.pots:
            text += f" Main pot {self.money(event.pots[0])}."
            sides = event.pots[1:]
            for number, side in enumerate(sides, 1):
                name = f"Side pot-{number}" if len(sides) > 1 else "Side pot"
                text += f" {name} {self.money(side)}."
        return text + f" | Rake {self.money(event.rake if event.rake is not None else Decimal(0))}"

    def outcome(self, event: SeatSummary) -> str:
        if event.cards and event.won is not None:
            return f"showed [{format_cards(event.cards)}] and won ({self.money(event.won)})"
        if event.won is not None:
            return f"collected ({self.money(event.won)})"
        if event.cards:
            return f"mucked [{format_cards(event.cards)}]"
        return "folded"


def _split_pots(events: Iterable[Event]) -> int:
    """How many side pots the hand has (0: one pot)."""
    sides = 0
    for event in events:
        if isinstance(event, Collect):
            sides = max(sides, event.pot)
        elif isinstance(event, PotSummary) and event.pots:
            sides = max(sides, len(event.pots) - 1)
    return sides


def _all_in(flag: bool) -> str:
    return " and is all-in" if flag else ""


def _deal_line(deal: Deal) -> str:
    street = int(deal.street)
    if street == 3:
        if len(deal.down) == 2 and len(deal.up) <= 1 or not deal.down:
            shown = f"[{format_cards(deal.down + deal.up)}]"
        else:
            shown = f"[{format_cards(deal.down)}] [{format_cards(deal.up)}]"
    else:
        new = deal.down if street == 7 else deal.up
        shown = f"[{format_cards(deal.before)}]" + (f" [{format_cards(new)}]" if new else "")
    return f"Dealt to {deal.player} {shown}"


def _header_line(header: HandHeader) -> str:
    tournament = header.tournament
    level = tournament.level if tournament else None
    symbol = _SYMBOLS.get(header.currency or "", "")
    prefix = "PokerStars Home Game Hand #" if tournament and tournament.home_club is not None else "PokerStars Hand #"
    text = f"{prefix}{header.hand_id}:"
    if tournament and tournament.home_club is not None:
        text += f" {{{tournament.home_club}}}"
    if tournament and tournament.id:
        text += f" Tournament #{tournament.id},"
        if tournament.buy_in:
            text += f" {tournament.buy_in}"
        text += " "
    else:
        text += "  " if not (tournament and tournament.home_club is not None) else " "
    small = format_amount(header.stakes.small_bet, "" if level is not None else symbol)
    big = format_amount(header.stakes.big_bet, "" if level is not None else symbol)
    stakes = f"{small}/{big}"
    if level is None and header.currency:
        stakes += f" {header.currency}"
    if level is not None:
        text += f"{header.mix} ({header.game})" if header.mix else header.game
        text += f" - Level {level} ({stakes})"
    elif header.mix:
        text += f"{header.mix} ({header.game}, {stakes})"
    else:
        text += f"{header.game} ({stakes})"
    return f"{text} - {_started(header)}"


def _started(header: HandHeader) -> str:
    if header.started:
        return header.started
    if header.started_utc is not None:
        local = header.started_utc.astimezone(_ET)
        return f"{local.year}/{local.month:02d}/{local.day:02d} {local.hour}:{local.minute:02d}:{local.second:02d} ET"
    return "2000/01/01 0:00:00 ET"


def _table_line(header: HandHeader) -> str:
    text = f"Table '{header.table}'"
    if header.max_seats is not None:
        text += f" {header.max_seats}-max"
    if header.play_money and header.tournament is None and header.currency is not None:
        text += " (Play Money)"
    if header.button is not None:
        text += f" Seat #{header.button} is the button"
    return text


def write_hand(hand: Hand) -> str:
    """The hand as PokerStars text, ending with a newline."""
    return "\n".join(_Writer(hand).lines()) + "\n"


def write_hands(hands: Iterable[Hand]) -> str:
    """Several hands as one PokerStars file (hands separated by blank lines)."""
    return "\n\n".join(write_hand(hand) for hand in hands) + "\n"


__all__ = ["write_hand", "write_hands"]
