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

A hand of another site is first put in PokerStars' shape (:func:`as_pokerstars`):
PokerStars' own game name, its date format (ET), no button line (stud has none),
the deal lines PokerStars writes (``Dealt to X [8h 9c Jd]`` on 3rd, ``Dealt to X
[8h 9c Jd] [Jc]`` later, by seat, no line for a card nobody saw), the uncalled bet
before the showdown, the total and the rake as the engine settles them, shows (cards
in dealt order) and collections after the last street, one summary line per player
dealt in; the site's own notes and table chatter are left out (PokerStars
would not have written them). What the reader gets back is the same actions,
cards and nets (``tests/test_writer.py``). A hand that cannot be put in that
shape raises :class:`NotWritable` with the reason in one line.
"""

from __future__ import annotations

import dataclasses
import re
from decimal import Decimal
from typing import Iterable
from zoneinfo import ZoneInfo

from studbook.cards import Card, format_cards
from studbook.events import (
    Action, ActionKind, BettingCapped, Chatter, ChatterKind, Collect, Deal, DealCommunity,
    Event, Hand, HandHeader, Muck, NoLowHand, NoShow, Note, OpenPairNotice, PostAnte, PotSummary,
    Seat, SeatSummary, Show, ShowdownStart, Street, StreetStart, Structure, Tournament, UncalledReturned, Variant,
)
from studbook.money import Money, format_amount

_SYMBOLS = {"USD": "$", "EUR": "€", "GBP": "£"}
_STREET_LINES = {
    3: "*** 3rd STREET ***", 4: "*** 4th STREET ***", 5: "*** 5th STREET ***",
    6: "*** 6th STREET ***", 7: "*** RIVER ***",
}
_VERBS = {
    ActionKind.BRING_IN: "brings in for", ActionKind.BET: "bets", ActionKind.CALL: "calls",
}
_ET = ZoneInfo("America/New_York")
ZERO = Decimal(0)
SITE = "pokerstars"  # hands read from PokerStars text are written back as they were read


class NotWritable(ValueError):
    """A hand that cannot be written as PokerStars text; the message says why, in one line."""


class _Writer:
    def __init__(self, hand: Hand) -> None:
        self.hand = hand
        header = hand.header
        chips = header.tournament is not None and header.tournament.level is not None
        self.symbol = "" if chips or header.currency is None else _SYMBOLS.get(header.currency, "")
        self.split_pots = _split_pots(hand.events)
        self.community = next((e for e in hand.events if isinstance(e, DealCommunity)), None)

    def money(self, value: Money | None) -> str:
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
        if isinstance(event, Note):
            return event.text  # a PokerStars line its reader kept as a note: read as one again
        raise NotWritable(f"cannot write {type(event).__name__} as PokerStars text")

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


# ---------------------------------------------------------------------------
# A hand of another site, put in PokerStars' shape

_GAMES = {Variant.STUD: "7 Card Stud", Variant.STUD8: "7 Card Stud Hi/Lo", Variant.RAZZ: "Razz"}
_LIMITS = {Structure.FIXED: "Limit", Structure.POT: "Pot Limit", Structure.NO: "No Limit"}
_PLAY = (PostAnte, StreetStart, DealCommunity, Deal, Action, BettingCapped, OpenPairNotice, UncalledReturned)
_ENDING = (Show, Muck, NoShow, Collect, NoLowHand)
_LEVEL = re.compile(r"[IVXLCDM]+|[0-9]+")
_BUY_IN = re.compile(r"[$€£]?[0-9][0-9.,]*(?:\+[$€£]?[0-9][0-9.,]*)+")
_FOLDED_ON = {3: "3rd Street", 4: "4th Street", 5: "5th Street", 6: "6th Street", 7: "River"}


def as_pokerstars(hand: Hand) -> Hand:
    """``hand`` as PokerStars would have logged it: its header in PokerStars' words,
    its events in PokerStars' order and deal lines, every player dealt in summarised.
    A PokerStars hand is returned as it is. Raises :class:`NotWritable`."""
    if hand.site == SITE:
        return hand
    header = _header_of(hand)
    events = _events_of(dataclasses.replace(hand, events=_money_as_logged(hand)))
    return dataclasses.replace(hand, header=header, events=events)


def _money_as_logged(hand: Hand) -> tuple[Event, ...]:
    """The events with the money moves PokerStars writes and the site may not: the uncalled
    bet returned on its own line, collections of exactly what each player took (a site
    whose collection holds the uncalled bet, or that logs none). The engine's figures
    (its profile of the site) say what they are, so the nets read back are the site's."""
    from studbook.check import check_hand  # the writer comes after the engine

    check = check_hand(hand)
    put_in: dict[str, Decimal] = {}
    for event in hand.events:
        if isinstance(event, PostAnte):
            put_in[event.player] = put_in.get(event.player, ZERO) + event.amount
        elif isinstance(event, UncalledReturned):
            put_in[event.player] = put_in.get(event.player, ZERO) - event.amount
    for facts in check.actions:
        put_in[facts.action.player] = put_in.get(facts.action.player, ZERO) + facts.put_in
    logged: dict[str, Decimal] = {}
    for event in hand.events:
        if isinstance(event, Collect):
            logged[event.player] = logged.get(event.player, ZERO) + event.amount
    events = list(hand.events)
    last_play = max((i for i, e in enumerate(events) if isinstance(e, _PLAY)), default=len(events) - 1)
    extra: list[Event] = []
    for result in check.players:
        name = result.player
        returned = put_in.get(name, ZERO) - result.contributed
        if returned > ZERO:
            extra.append(UncalledReturned(file=hand.file, line=hand.end_line, player=name, amount=returned))
        short = result.collected - logged.get(name, ZERO)
        if short:
            events = _collect_more(events, hand, name, short)
    events[last_play + 1:last_play + 1] = extra
    total = sum((p.contributed for p in check.players), ZERO)
    collected = sum((p.collected for p in check.players), ZERO)
    # PokerStars' total: every chip put in less bets returned; its rake: what nobody collected
    summary = PotSummary(file=hand.file, line=hand.end_line, total=total, rake=total - collected)
    return tuple(e for e in events if not isinstance(e, PotSummary)) + (summary,)


def _collect_more(events: list[Event], hand: Hand, player: str, more: Money) -> list[Event]:
    """``player``'s collections changed by ``more`` (less when negative: from the last one back)."""
    if more > ZERO:
        return events + [Collect(file=hand.file, line=hand.end_line, player=player, amount=more)]
    left = -more
    out = list(events)
    for i in reversed(range(len(out))):
        event = out[i]
        if left and isinstance(event, Collect) and event.player == player:
            take = min(left, event.amount)
            out[i] = dataclasses.replace(event, amount=event.amount - take)
            left -= take
    return [e for e in out if not (isinstance(e, Collect) and not e.amount)]


def _header_of(hand: Hand) -> HandHeader:
    h = hand.header
    digits = "".join(re.findall(r"[0-9]+", h.hand_id))
    if not digits:
        raise NotWritable(f"hand id {h.hand_id!r} has no digits: PokerStars numbers its hands")
    tournament = h.tournament
    if tournament is not None:
        number = "".join(re.findall(r"[0-9]+", tournament.id))
        level = tournament.level if tournament.level and _LEVEL.fullmatch(tournament.level) else None
        buy_in = tournament.buy_in if tournament.buy_in and _BUY_IN.fullmatch(tournament.buy_in) else None
        tournament = Tournament(number, buy_in, level) if number else None
    game = f"{_GAMES[h.variant]} {_LIMITS[h.structure]}"
    return dataclasses.replace(
        h, site=SITE, hand_id=digits, game=game, tournament=tournament, mix=None, table=h.table or "?",
        button=None, started="",
    )


def _events_of(hand: Hand) -> tuple[Event, ...]:
    """The play in the log's order, then the showdown and the collections, then the summary."""
    play: list[Event] = []
    ending: list[Event] = []
    showdown: list[Event] = []
    total: PotSummary | None = None
    early: list[Event] = []  # an uncalled ante returned before the deal: PokerStars has no place for it there
    for event in hand.events:
        if isinstance(event, UncalledReturned) and not any(isinstance(e, StreetStart) for e in play):
            early.append(event)
        elif isinstance(event, _PLAY):
            play.append(event)
        elif isinstance(event, _ENDING):
            ending.append(event)
        elif isinstance(event, ShowdownStart):
            showdown = [event]
        elif isinstance(event, PotSummary) and total is None:
            total = event
    if not showdown and len({e.player for e in ending if isinstance(e, (Show, Muck))}) > 1:
        showdown = [ShowdownStart(file=hand.file, line=hand.end_line)]  # hands compared: PokerStars says so
    dealt = _deals_as_written(play, {seat.player: seat.seat for seat in hand.seats})
    events = dealt + early + showdown + [_in_dealt_order(e, dealt) for e in ending]
    if total is not None:
        events.append(total)
    return tuple(events + _seat_summaries(hand, events))


def _deals_as_written(play: list[Event], seats: dict[str, int]) -> list[Event]:
    """Each ``Deal`` with what PokerStars repeats of the player's earlier cards, a street's deals
    in seat order (PokerStars' order); a deal that shows no card is left out, as PokerStars
    writes no line for it."""
    seen: dict[str, list[Card]] = {}
    out: list[Event] = []
    for event in play:
        if not isinstance(event, Deal):
            out.append(event)
            continue
        before = tuple(seen.get(event.player, ()))
        new = event.down + event.up
        if not new:
            continue
        if event.street is not Street.THIRD and not before:
            raise NotWritable(f"line {event.line}: {event.player}'s {event.street.label} street card comes "
                              "without the earlier ones PokerStars repeats")
        if event.street is not Street.THIRD and event.street is not Street.SEVENTH and event.down:
            raise NotWritable(f"line {event.line}: a down card on {event.street.label} street")
        seen.setdefault(event.player, []).extend(new)
        at = len(out)
        while at and seats.get(_dealt_to(out[at - 1]), -1) > seats.get(event.player, 0):
            at -= 1  # a site that deals from the button: PokerStars lists the deals by seat
        out.insert(at, dataclasses.replace(event, before=() if event.street is Street.THIRD else before))
    return out


def _dealt_to(event: Event) -> str:
    return event.player if isinstance(event, Deal) else ""


def _in_dealt_order(event: Event, dealt: list[Event]) -> Event:
    """A show or muck with its cards as PokerStars writes them: the two down cards, the up cards
    as dealt, the river (a site that sorts them otherwise reads as other cards than dealt)."""
    if not isinstance(event, (Show, Muck)) or not event.cards:
        return event
    downs: list[Card] = []
    ups: list[Card] = []
    for deal in dealt:
        if isinstance(deal, Deal) and deal.player == event.player:
            downs.extend(deal.down)
            ups.extend(deal.up)
    shown_ups = [c for c in ups if c in event.cards]
    rest = [c for c in event.cards if c not in shown_ups]
    if all(c in downs for c in rest):
        rest.sort(key=downs.index)
    return dataclasses.replace(event, cards=tuple(rest[:2] + shown_ups + rest[2:]))


def _seat_summaries(hand: Hand, events: list[Event]) -> list[Event]:
    """One summary line per player dealt in, from the cards shown and the chips collected."""
    shown: dict[str, tuple[Card, ...]] = {}
    showed: set[str] = set()
    won: dict[str, Decimal] = {}
    folded: dict[str, Street] = {}
    street = Street.THIRD
    for event in events:
        if isinstance(event, StreetStart):
            street = event.street
        elif isinstance(event, Action) and event.kind is ActionKind.FOLD:
            folded[event.player] = street
        elif isinstance(event, (Show, Muck)) and event.cards:
            shown[event.player] = event.cards
            if isinstance(event, Show):
                showed.add(event.player)
        elif isinstance(event, Collect):
            won[event.player] = won.get(event.player, Decimal(0)) + event.amount
    out: list[Event] = []
    for seat in hand.seats:
        if seat.sitting_out or seat.out_of_hand:
            continue
        name = seat.player
        outcome = ""  # made by the writer from the cards and the winnings
        if name in folded and name not in won:
            outcome = f"folded on the {_FOLDED_ON[int(folded[name])]}"
        elif name in showed and name not in won:
            outcome = f"showed [{format_cards(shown[name])}] and lost"
        out.append(SeatSummary(file=hand.file, line=hand.end_line, seat=seat.seat, player=name, outcome=outcome,
                               cards=shown.get(name, ()), won=won.get(name)))
    return out


def write_hand(hand: Hand) -> str:
    """The hand as PokerStars text, ending with a newline (a hand of another site put in
    PokerStars' shape first: :func:`as_pokerstars`). Raises :class:`NotWritable`."""
    return "\n".join(_Writer(as_pokerstars(hand)).lines()) + "\n"


def write_hands(hands: Iterable[Hand]) -> str:
    """Several hands as one PokerStars file (hands separated by blank lines)."""
    return "\n\n".join(write_hand(hand) for hand in hands) + "\n"


__all__ = ["NotWritable", "as_pokerstars", "write_hand", "write_hands"]
