"""Hand -> PHH, the Poker Hand History format (pokerkit's standard, ``phh-std``).

One hand is a TOML document (a ``.phh`` file); many are ``[1]``, ``[2]``, ...
tables of one ``.phhs`` file. Players are ``p1``..``pN`` in seat order (stud
has no button: clockwise from the lowest seat), the order the specification
uses for stud. Amounts are the log's own units, exact: a whole amount is a
TOML integer, any other a TOML decimal (``0.25``), which ``tomllib`` reads
exactly with ``parse_float=Decimal`` and pokerkit reads as ``Decimal``.

What the writer relies on (``studbook.sites.phh`` reads it back):

* every live player gets a ``d dh`` on every street it is dealt, with ``??``
  for the cards the log does not show (3rd street: down, down, up);
* a raise, bet or completion is ``cbr`` with the player's street total
  (:func:`studbook.betting.street_total`, the engine's reading of the figures);
* shows and mucks are written after the last deal, as pokerkit plays them
  (``pN sm CARDS`` for a show, ``pN sm`` for a muck);
* ``winnings`` (what each player collected) and ``finishing_stacks`` are
  written when the caller passes a :class:`PhhResult` (the engine's result).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from typing import Iterable, Mapping

from studbook.betting import street_total
from studbook.cards import Card
from studbook.events import (
    Action, ActionKind, Deal, DealCommunity, Event, Hand, Muck, PostAnte, Show, Street, StreetStart, Structure,
    UncalledReturned, Variant,
)
from studbook.money import Money, exact, exponent
from studbook.write import HandOut, HandWriter, NotWritten, register

PHH_VARIANTS: dict[Variant, str] = {Variant.STUD: "F7S", Variant.STUD8: "F7S/8", Variant.RAZZ: "FR"}
UNKNOWN = "??"
_DOWN_UP = {Street.THIRD: (2, 1), Street.FOURTH: (0, 1), Street.FIFTH: (0, 1), Street.SIXTH: (0, 1),
            Street.SEVENTH: (1, 0)}
_RAISES = (ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE)


def phh_number(value: Money) -> str:
    """An exact TOML number: an integer when whole, else a decimal as written."""
    value = exact(value)
    if value == value.to_integral_value():
        return str(int(value))
    return format(value, "f")


def _string(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def _cards(cards: Iterable[Card | None]) -> str:
    return "".join(str(c) if c is not None else UNKNOWN for c in cards)


@dataclass(slots=True)
class _Actions:
    """The ``actions`` list, built event by event."""

    hand: Hand
    index: dict[str, int]
    out: list[str] = field(default_factory=list)
    folded: set[str] = field(default_factory=set)
    pending: dict[str, list[Deal]] = field(default_factory=dict)
    street: Street | None = None
    written: bool = True  # the current street's deals are written
    street_in: dict[str, Money] = field(default_factory=dict)
    top: Money = Decimal(0)
    shows: list[tuple[str, tuple[Card, ...] | None]] = field(default_factory=list)  # None: a muck
    dealt: dict[str, list[Card | None]] = field(default_factory=dict)  # as written, ?? as None

    def p(self, player: str) -> str:
        return f"p{self.index[player] + 1}"

    def start(self, street: Street) -> None:
        if self.street is not None and street == self.street:
            return
        self.flush()
        self.street, self.written, self.pending = street, False, {}
        self.street_in, self.top = {}, Decimal(0)

    def flush(self) -> None:
        """Write the current street's deals, every live player in seat order."""
        if self.written or self.street is None:
            return
        self.written = True
        downs, ups = _DOWN_UP[self.street]
        for player in self.index:
            if player in self.folded:
                continue
            down: list[Card | None] = []
            up: list[Card | None] = []
            for deal in self.pending.get(player, []):
                down += deal.down
                up += deal.up
            down = (down + [None] * downs)[:downs]
            up = (up + [None] * ups)[:ups]
            self.dealt.setdefault(player, []).extend(down + up)
            self.out.append(f"d dh {self.p(player)} {_cards(down + up)}")

    def event(self, e: Event) -> None:
        if isinstance(e, StreetStart):
            self.start(e.street)
        elif isinstance(e, Deal):
            if e.player in self.index:
                self.start(e.street)
                self.pending.setdefault(e.player, []).append(e)
        elif isinstance(e, DealCommunity):
            self.start(Street.SEVENTH)
            self.written = True  # no hole card on a community 7th street
            self.out.append(f"d db {e.card}")
        elif isinstance(e, Action) and e.player in self.index:
            if self.street is None:
                self.start(Street.THIRD)
            self.flush()
            self.out.append(f"{self.p(e.player)} {self.action(e)}")
        elif isinstance(e, Show) and e.player in self.index and e.player not in self.folded:
            self.shows.append((e.player, e.cards))
        elif isinstance(e, Muck) and e.player in self.index and e.player not in self.folded:
            self.shows.append((e.player, None))

    def action(self, e: Action) -> str:
        if e.kind is ActionKind.FOLD:
            self.folded.add(e.player)
            return "f"
        total = street_total(e.kind, e.amount, e.to, self.street_in.get(e.player, Decimal(0)), self.top)
        self.street_in[e.player] = total
        self.top = max(self.top, total)
        if e.kind is ActionKind.BRING_IN:
            return "pb"
        if e.kind in _RAISES:
            return f"cbr {phh_number(total)}"
        return "cc"  # check or call

    def finish(self) -> list[str]:
        self.flush()
        live = [p for p in self.index if p not in self.folded]
        if len(live) < 2:
            return self.out
        return self.out + [f"{self.p(player)} sm {_cards(self.shown(player, cards))}".rstrip()
                           if cards is not None else f"{self.p(player)} sm" for player, cards in self.shows]

    def shown(self, player: str, cards: tuple[Card, ...]) -> list[Card | None]:
        """The player's whole hand in dealing order: the cards dealt, the unknown ones
        filled with the shown cards not already known (a log may show only the hole cards)."""
        hand = list(self.dealt.get(player, []))
        known = set(hand)
        extra = iter([c for c in cards if c not in known])
        return [c if c is not None else next(extra, None) for c in hand] or list(cards)


def phh_players(hand: Hand) -> tuple[str, ...]:
    """The PHH players ``p1``..``pN``: seated players dealt in, in seat order, counting a
    player marked sitting out who still posts or acts (a log may ante for them)."""
    active = {e.player for e in hand.events if isinstance(e, (PostAnte, Action, Deal))}
    return tuple(s.player for s in sorted(hand.seats, key=lambda s: s.seat)
                 if not s.out_of_hand and (not s.sitting_out or s.player in active))


def phh_actions(hand: Hand) -> list[str]:
    """The PHH ``actions`` of ``hand``."""
    builder = _Actions(hand, {name: i for i, name in enumerate(phh_players(hand))})
    for event in hand.events:
        builder.event(event)
    return builder.finish()


def _bring_in(hand: Hand) -> Money:
    stakes = hand.header.stakes
    if stakes.bring_in is not None:
        return stakes.bring_in
    for e in hand.events:  # the log's bring-in (all-in for less: the log shows no other figure)
        if isinstance(e, Action) and e.kind is ActionKind.BRING_IN and e.amount:
            return e.amount
    # the bring-in player completed, so the log never shows the figure PHH requires: half the
    # small bet, in the small bet's units (0.25 -> 0.12), never played
    unit = Decimal(1).scaleb(exponent(stakes.small_bet))
    half = (exact(stakes.small_bet) / 2).quantize(unit, rounding=ROUND_DOWN)
    return half if 0 < half < stakes.small_bet else exact(stakes.small_bet) / 2


@dataclass(frozen=True, slots=True)
class PhhResult:
    """What the engine found a hand's players collected and won (net), for ``winnings``
    and ``finishing_stacks`` (the stack at the start plus the net)."""

    collected: Mapping[str, Money]
    net: Mapping[str, Money]


def phh_fields(hand: Hand, result: PhhResult | None = None) -> list[tuple[str, str]]:
    """``(key, TOML value)`` pairs of ``hand``'s PHH document, in writing order;
    ValueError for a hand PHH cannot hold (pot- or no-limit stud)."""
    header = hand.header
    if header.structure is not Structure.FIXED:
        raise ValueError(f"{header.structure.value}-limit stud: PHH has fixed-limit stud variants only")
    players = phh_players(hand)
    seats = {s.player: s for s in hand.seats}
    antes = {p: Decimal(0) for p in players}
    for e in hand.events:  # an ante returned before the deal (the others all-in for less) is no ante
        if isinstance(e, (StreetStart, Deal, Action)):
            break
        if isinstance(e, PostAnte) and e.player in antes:
            antes[e.player] += e.amount
        elif isinstance(e, UncalledReturned) and e.player in antes:
            antes[e.player] -= e.amount
    numbers = lambda values: "[" + ", ".join(phh_number(v) for v in values) + "]"  # noqa: E731
    out = [
        ("variant", _string(PHH_VARIANTS[header.variant])),
        ("ante_trimming_status", "true"),
        ("antes", numbers(antes.values())),
        ("bring_in", phh_number(_bring_in(hand))),
        ("small_bet", phh_number(header.stakes.small_bet)),
        ("big_bet", phh_number(header.stakes.big_bet)),
        ("starting_stacks", numbers(seats[p].stack for p in players)),
        ("actions", "[\n" + "".join(f"  {_string(a)},\n" for a in phh_actions(hand)) + "]"),
        ("players", "[" + ", ".join(_string(p) for p in players) + "]"),
        ("seats", "[" + ", ".join(str(seats[p].seat) for p in players) + "]"),
    ]
    if header.max_seats is not None:
        out.append(("seat_count", str(header.max_seats)))
    if header.table:
        out.append(("table", _string(header.table)))
    if header.currency:
        out.append(("currency", _string(header.currency)))
    when = header.started_utc
    if when is not None:
        out += [("time", when.strftime("%H:%M:%S")), ("time_zone", _string("UTC")),
                ("day", str(when.day)), ("month", str(when.month)), ("year", str(when.year))]
    out.append(("hand", _string(header.hand_id)))
    if result is not None:
        zero = Decimal(0)
        out.append(("finishing_stacks", numbers(seats[p].stack + result.net.get(p, zero) for p in players)))
        out.append(("winnings", numbers(result.collected.get(p, zero) for p in players)))
    out += [("_studbook_site", _string(header.site)), ("_studbook_file", _string(hand.file)),
            ("_studbook_line", str(hand.line))]
    return out


def write_phh(hand: Hand, result: PhhResult | None = None) -> str:
    """``hand`` as one PHH document (a ``.phh`` file's text)."""
    return "".join(f"{key} = {value}\n" for key, value in phh_fields(hand, result))


def phhs_table(number: int, document: str) -> str:
    """The ``number``-th hand (from 1) of a ``.phhs`` text: ``[number]``, its document,
    after a blank line unless it is the first."""
    return f"{'' if number == 1 else chr(10)}[{number}]\n{document}"


def write_phhs(hands: Iterable[tuple[Hand, PhhResult | None]]) -> str:
    """Many hands as one ``.phhs`` text: tables ``[1]``, ``[2]``, ... separated by a blank line."""
    return "".join(phhs_table(i, write_phh(hand, won)) for i, (hand, won) in enumerate(hands, 1))


__all__ = ["PHH_VARIANTS", "PhhResult", "phh_actions", "phh_players", "phh_fields", "phh_number", "write_phh", "write_phhs"]


def _render(hand: HandOut) -> str:
    """``--format phh``: the hand with the checker's winnings and finishing stacks."""
    assert hand.hand is not None  # wants_hand
    try:
        return write_phh(hand.hand, PhhResult(hand.collected, hand.net))
    except ValueError as error:
        raise NotWritten(f"{hand.hand.file}:{hand.hand.line}: hand {hand.hand_id}: not written as PHH: {error}") from None


WRITER = register(HandWriter("phh", "PHH", _render, phhs_table, lambda text: ".phh"))
"""``--format phh``: one ``.phhs`` text (tables ``[1]``, ``[2]``, ...), or with ``--split`` one
``.phh`` file a hand. Pot- and no-limit stud hands cannot be written (PHH has fixed-limit stud only)."""
