"""Positional makers of the records every site reader builds (see
:mod:`studbook.records`): each takes every field of its class, in field
order, defaults included, at about half the cost of the keyword constructor.
Each is typed with its class's fields, in order, so mypy checks every call
(``tests/test_records.py`` holds the types to the dataclasses)."""

from __future__ import annotations

from datetime import datetime
from decimal import Decimal
from typing import Callable

from studbook.money import Money
from studbook.cards import Card
from studbook.events import (
    Action, ActionKind, BettingCapped, Chatter, ChatterKind, Collect, Deal, DealCommunity, Event, Half, Hand,
    HandHeader, Muck, NoLowHand, NoShow, Note, OpenPairNotice, PostAnte, PotSummary, SeatSummary, Seat, Show,
    ShowdownStart, Skipped, Stakes, Street, StreetStart, Structure, Tournament, UncalledReturned, Variant,
)
from studbook.records import maker

make_hand: Callable[[str, int, int, HandHeader, tuple[Seat, ...], tuple[Event, ...]], Hand] = maker(Hand)
make_skipped: Callable[[str, int, str | None, str, str, str | None], Skipped] = maker(Skipped)
make_header: Callable[[str, str, Variant, Structure, str, Stakes, str | None, bool, Tournament | None, str | None, str, int | None, int | None, str, datetime | None], HandHeader] = maker(HandHeader)
make_stakes: Callable[[Money, Money, Money | None, Money | None], Stakes] = maker(Stakes)
make_tournament: Callable[[str, str | None, str | None, str | None], Tournament] = maker(Tournament)
make_seat: Callable[[str, int, int, str, Money, bool, bool], Seat] = maker(Seat)
make_ante: Callable[[str, int, str, Money, bool], PostAnte] = maker(PostAnte)
make_street: Callable[[str, int, Street], StreetStart] = maker(StreetStart)
make_deal: Callable[[str, int, str, Street, tuple[Card, ...], tuple[Card, ...], tuple[Card, ...]], Deal] = maker(Deal)
make_deal_community: Callable[[str, int, Card], DealCommunity] = maker(DealCommunity)
make_action: Callable[[str, int, str, ActionKind, Money | None, Money | None, bool], Action] = maker(Action)
make_capped: Callable[[str, int], BettingCapped] = maker(BettingCapped)
make_open_pair: Callable[[str, int], OpenPairNotice] = maker(OpenPairNotice)
make_uncalled: Callable[[str, int, str, Money], UncalledReturned] = maker(UncalledReturned)
make_showdown: Callable[[str, int], ShowdownStart] = maker(ShowdownStart)
make_show: Callable[[str, int, str, tuple[Card, ...], str | None], Show] = maker(Show)
make_muck: Callable[[str, int, str, tuple[Card, ...]], Muck] = maker(Muck)
make_no_show: Callable[[str, int, str], NoShow] = maker(NoShow)
make_collect: Callable[[str, int, str, Money, int, Half | None], Collect] = maker(Collect)
make_no_low: Callable[[str, int], NoLowHand] = maker(NoLowHand)
make_pot_summary: Callable[[str, int, Money, Money | None, tuple[Money, ...]], PotSummary] = maker(PotSummary)
make_seat_summary: Callable[[str, int, int, str, str, tuple[Card, ...], Money | None], SeatSummary] = maker(SeatSummary)
make_chatter: Callable[[str, int, ChatterKind, str, str | None], Chatter] = maker(Chatter)
make_note: Callable[[str, int, str], Note] = maker(Note)

__all__ = [
    "make_action", "make_ante", "make_capped", "make_chatter", "make_collect", "make_deal", "make_deal_community",
    "make_hand", "make_header", "make_muck", "make_no_low", "make_no_show", "make_note", "make_open_pair", "make_pot_summary",
    "make_seat", "make_seat_summary", "make_show", "make_showdown", "make_skipped", "make_stakes", "make_street",
    "make_tournament", "make_uncalled",
]
