"""Rule book section "Chips, pots, showdown (during the hand)": pot.uncalled, showdown.order, and the money lines settle.py judges (pot.side, pot.total, showdown.award).

The checks: the uncalled bet returned, who shows in which order, what the log says was collected.
Each is a function of the hand's state ``s`` (:class:`~studbook.engine.table.Table`): it asks the state
questions and reports through its one reporter, ``s.report(MESSAGE, line, **fields)``
(engine/messages.py), at the line that is wrong.
"""

from __future__ import annotations

from decimal import Decimal
from functools import cmp_to_key

from studbook.money import Money
from studbook.betting import top_two, uncalled_part
from studbook.events import Collect, Muck, NoLowHand, PotSummary, Show, ShowdownStart, UncalledReturned
from studbook.engine.messages import (
    CARDS_CONSISTENT_NO_SEAT, ORDER_STREETS_SHOWDOWN_EARLY, POT_UNCALLED_NO_SEAT, POT_UNCALLED_NONE,
    POT_UNCALLED_WRONG, SHOWDOWN_AWARD_NO_SEAT, SHOWDOWN_ORDER_CLOCKWISE, SHOWDOWN_ORDER_FIRST_BETTOR,
    SHOWDOWN_ORDER_LAST_AGGRESSOR, SHOWDOWN_ORDER_NO_BET, SHOWDOWN_ORDER_NO_BET_FIRST_TO_ACT, SHOWDOWN_ORDER_RUN_OUT,
    SHOWDOWN_ORDER_SIDE_POTS,
)
from studbook.engine.table import Table, able_count, PlayerState, SEVENTH
from studbook.engine.rules.deal import check_shown
from studbook.engine.rules.order import betting_done, close_round

__all__ = [
    "on_collect", "on_muck", "on_no_low", "on_show", "on_showdown", "on_summary", "on_uncalled",
    "showdown_order", "uncalled", "unmatched", "unmatched_bet"
]
"""This section's public surface: what the other sections and ``StudState`` may call."""


def on_uncalled(s: Table, e: UncalledReturned) -> None:
    """An uncalled bet returned (:class:`~studbook.events.UncalledReturned`): to whom, and how
    much. May report: pot.uncalled."""
    p = s.by_name.get(e.player)
    if p is None:
        s.report(POT_UNCALLED_NO_SEAT, e.line, player=e.player)
        return
    top, expected, second = unmatched(s)
    if top is p and e.amount == p.total - second > s.zero:
        pass  # the whole unmatched part, an unmatched ante included, comes back exactly
    elif top is None or expected <= s.zero:
        s.report(POT_UNCALLED_NONE, e.line, amount=e.amount, player=p.name)
    elif top is not p or e.amount != expected:
        s.report(POT_UNCALLED_WRONG, e.line, expected=expected, top=top.name, amount=e.amount, player=p.name)
    p.stack += e.amount
    p.total -= e.amount
    s.pot -= e.amount
    p.street_in = max(p.street_in - e.amount, s.zero)
    p.returned += e.amount
    if p.stack > s.zero and p.all_in and not p.folded:
        p.all_in = False


def unmatched(s: Table, contributions: list[tuple[str, Money, bool]] | None = None,
              ) -> tuple[PlayerState | None, Money, Money]:
    """The top contributor, the unmatched part of their street bets, and the second-highest
    total: the whole unmatched part (an ante nobody could match included: rule pot.uncalled)
    is the top's total less it, worked out where it is read (:func:`on_uncalled`: settlement,
    every hand, does not). Reports nothing.

    ``contributions``: settlement's (name, total, live) of each player dealt in, in dealing
    order, made for the pots; where it lists every seated player (the same totals in the same
    order) the top two are found in it, not in a second list of the same players made for one
    walk."""
    if contributions is not None and len(contributions) == len(s.order):
        name, first, second = top_two(contributions, s.zero)
        top = s.by_name[name] if name is not None else None
    else:
        pairs: list[tuple[PlayerState, Money]] = []
        for p in s.order:  # (a loop: map through an attrgetter looks each total up the generic way)
            pairs.append((p, p.total))
        top, first, second = top_two(pairs, s.zero)
    if top is None:
        return None, s.zero, s.zero
    return top, uncalled_part(first, second, top.ante), second


def uncalled(s: Table) -> tuple[str, Money] | None:
    """The uncalled bet to return now, as (player, amount), or None. Reports nothing."""
    top, amount, _ = unmatched(s)
    if top is None or amount <= s.zero or not (s.hand_over or betting_done(s)):
        return None
    return top.name, amount


def unmatched_bet(s: Table) -> tuple[PlayerState | None, Money]:
    """The player whose bet nobody matched and by how much (None, 0 when none),
    whether or not the betting is over (street bets only: an ante is not a bet). Reports nothing."""
    top, amount, _ = unmatched(s)
    return top, amount


def on_showdown(s: Table, e: ShowdownStart) -> None:
    """The showdown starts (:class:`~studbook.events.ShowdownStart`): the last round is closed,
    and no betting round was skipped. May report: cards.community, deal.ante, deal.pattern,
    order.streets."""
    close_round(s, e.line, "the showdown")
    s.at_showdown = True
    s.showdown_line = e.line
    if s.street is not SEVENTH and not s.hand_over:
        able = able_count(p for p in s.order if p.live)
        if able >= 2:
            s.report(ORDER_STREETS_SHOWDOWN_EARLY, e.line, street=s.street or "no", able=able)


def showdown_order(s: Table) -> list[str]:
    """Live players in the order they show: the last aggressor of the final round
    first (else the first in dealing order), then clockwise (with the profile's
    shows_side_pots_first, pot by pot from the last side pot). A query. Reports nothing."""
    live = s.live_players
    if not live:
        return []
    first = s.final_aggressor if s.final_aggressor in live else live[0]

    def compared(p: PlayerState, q: PlayerState) -> int:
        return 1 if _shows_after(s, first, p, q) else -1 if _shows_after(s, first, q, p) else 0

    rest = sorted((p for p in live if p is not first), key=cmp_to_key(compared))
    return [first.name] + [p.name for p in rest]


def _check_show_order(s: Table, p: PlayerState, line: int) -> None:
    if not s.at_showdown or not s.profile.logs_show_order:
        return
    first = s.shown_first
    if first is not None:
        _check_show_next(s, first, p, line)
        return
    s.shown_first = s.shown_last = p
    if s.live_left < 2 or not p.live:  # (the table's count: no list of the live made for it)
        return
    live = s.live_players
    street = s.last_action_street
    if s.profile.show_order_all_in == "deal_order" and _ran_out(s, live):
        s.should_show_first = live[0]
        if p is not live[0]:
            s.report(SHOWDOWN_ORDER_RUN_OUT, line, first=live[0].name, player=p.name)
        return
    first_bettor = s.profile.show_order_bet == "first_bettor"
    aggressor = s.final_first_bettor if first_bettor else s.final_aggressor
    if aggressor is not None and aggressor.live:
        s.should_show_first = aggressor
        if p is not aggressor:
            s.report(SHOWDOWN_ORDER_FIRST_BETTOR if first_bettor else SHOWDOWN_ORDER_LAST_AGGRESSOR, line,
                        first=aggressor.name, street=street or "", player=p.name)
        return
    mode = s.profile.show_order_no_bet
    if mode == "deal_order":
        s.should_show_first = live[0]
    if mode == "deal_order" and p is not live[0]:
        s.report(SHOWDOWN_ORDER_NO_BET, line, first=live[0].name, player=p.name)
    elif mode == "first_to_act":
        expected = s.final_first
        if expected is not None and expected.live:
            s.should_show_first = expected
        if expected is not None and expected.live and p is not expected:
            s.report(SHOWDOWN_ORDER_NO_BET_FIRST_TO_ACT, line, first=expected.name, player=p.name)


def _check_show_next(s: Table, first: PlayerState, p: PlayerState, line: int) -> None:
    """After the first hand shown, the others show or muck clockwise from it (from
    whoever should have shown first, where known, so that one hand out of turn is
    one violation); with the profile's shows_side_pots_first, pot by pot from the
    last side pot."""
    last = s.shown_last
    base = s.should_show_first or first
    if last is None or p is last or p is base or not p.live:
        return  # (the one who should have shown first, showing later: flagged already)
    s.shown_last = p  # judged against the latest: one hand out of turn is one violation
    if last is first or _shows_after(s, base, p, last):
        return
    if s.profile.shows_side_pots_first and p.total > last.total:
        s.report(SHOWDOWN_ORDER_SIDE_POTS, line, player=p.name, last=last.name)
    else:
        s.report(SHOWDOWN_ORDER_CLOCKWISE, line, base=base.name, player=p.name, last=last.name)


def _shows_after(s: Table, first: PlayerState, p: PlayerState, q: PlayerState) -> bool:
    """Whether ``p`` comes after ``q`` in the showing order after ``first``: clockwise from
    ``first``; with the profile's shows_side_pots_first, pot by pot from the last side pot
    (the larger total first), then clockwise. (A comparison, not a sort key: a key of the
    negated total and the place made two negations and a tuple comparison a hand shown.)"""
    if s.profile.shows_side_pots_first:
        mine, theirs = p.total, q.total
        if mine != theirs:
            return mine < theirs
    seats = len(s.order)
    return (p.pos - first.pos) % seats > (q.pos - first.pos) % seats


def _ran_out(s: Table, live: list[PlayerState]) -> bool:
    """Cards were dealt with no betting: at most one live player could bet, and the
    last betting action came before 7th street."""
    street = s.last_action_street
    return (able_count(live) < 2
            and (street is None or street is not SEVENTH))


def on_show(s: Table, e: Show) -> None:
    """A player shows (:class:`~studbook.events.Show`): in turn, and the cards theirs.
    May report: cards.consistent, cards.count, cards.unique, showdown.order."""
    p = s.by_name.get(e.player)
    if p is None:
        s.report(CARDS_CONSISTENT_NO_SEAT, e.line, player=e.player)
        return
    _check_show_order(s, p, e.line)
    check_shown(s, p, e.cards, e.line)
    p.showed = True
    if len(e.cards) >= len(p.shown):
        p.shown = e.cards


def on_muck(s: Table, e: Muck) -> None:
    """A player mucks (:class:`~studbook.events.Muck`): in turn, and any cards named theirs.
    May report: cards.consistent, cards.count, cards.unique, showdown.order."""
    p = s.by_name.get(e.player)
    if p is None:
        return
    _check_show_order(s, p, e.line)
    p.mucked = True
    if e.cards:
        check_shown(s, p, e.cards, e.line)


def on_collect(s: Table, e: Collect) -> None:
    """A player collects from a pot (:class:`~studbook.events.Collect`), kept for settlement,
    which judges it. May report: showdown.award."""
    p = s.by_name.get(e.player)
    if p is None:
        s.report(SHOWDOWN_AWARD_NO_SEAT, e.line, player=e.player)
        return
    p.collected += e.amount
    s.collects.append(e)


def on_summary(s: Table, e: PotSummary) -> None:
    """The summary's pot line (:class:`~studbook.events.PotSummary`), kept for settlement.
    Reports nothing."""
    if s.summary is None:
        s.summary = e


def on_no_low(s: Table, e: NoLowHand) -> None:
    """The log says no low hand qualified (:class:`~studbook.events.NoLowHand`), kept for
    settlement. Reports nothing."""
    s.no_low_noted = True

