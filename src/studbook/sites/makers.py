"""Positional makers of the records every site reader builds (see
:mod:`studbook.records`): each takes every field of its class, in field
order, defaults included, at about half the cost of the keyword constructor."""

from __future__ import annotations

from studbook.events import (
    Action, BettingCapped, Chatter, Collect, Deal, DealCommunity, Hand, HandHeader, Muck, NoLowHand, NoShow,
    Note, OpenPairNotice, PostAnte, PotSummary, SeatSummary, Seat, Show, ShowdownStart, Skipped, Stakes, StreetStart,
    Tournament, UncalledReturned,
)
from studbook.records import maker

make_hand = maker(Hand)  # file, line, end_line, header, seats, events
make_skipped = maker(Skipped)
make_header = maker(HandHeader)
make_stakes = maker(Stakes)  # small_bet, big_bet, ante, bring_in
make_tournament = maker(Tournament)
make_seat = maker(Seat)  # file, line, seat, player, stack, sitting_out, out_of_hand
make_ante = maker(PostAnte)  # file, line, player, amount, all_in
make_street = maker(StreetStart)  # file, line, street
make_deal = maker(Deal)  # file, line, player, street, down, up, before
make_deal_community = maker(DealCommunity)
make_action = maker(Action)  # file, line, player, kind, amount, to, all_in
make_capped = maker(BettingCapped)
make_open_pair = maker(OpenPairNotice)
make_uncalled = maker(UncalledReturned)
make_showdown = maker(ShowdownStart)
make_show = maker(Show)  # file, line, player, cards, description
make_muck = maker(Muck)
make_no_show = maker(NoShow)
make_collect = maker(Collect)  # file, line, player, amount, pot, half
make_no_low = maker(NoLowHand)
make_pot_summary = maker(PotSummary)
make_seat_summary = maker(SeatSummary)
make_chatter = maker(Chatter)
make_note = maker(Note)  # file, line, text

__all__ = [
    "make_action", "make_ante", "make_capped", "make_chatter", "make_collect", "make_deal", "make_deal_community",
    "make_hand", "make_header", "make_muck", "make_no_low", "make_no_show", "make_note", "make_open_pair", "make_pot_summary",
    "make_seat", "make_seat_summary", "make_show", "make_showdown", "make_skipped", "make_stakes", "make_street",
    "make_tournament", "make_uncalled",
]
