"""Rule book section "Bet sizes (fixed limit)": bet.*, bringin.complete, and a fold, check or call where a bring-in is due.

The checks: what a player may put in: legal_actions() (the one definition) and the check of every action against it.
Each is a function of the hand's state ``s`` (:class:`~studbook.engine.table.Table`): it asks the state
questions and reports through its one reporter, ``s.report(MESSAGE, line, **fields)``
(engine/messages.py), at the line that is wrong.
"""

from __future__ import annotations

from decimal import Decimal

from studbook.betting import AGGRESSIVE, call_chips, completes, owed, street_bet, street_total
from studbook.events import Action, ActionKind, BettingCapped, OpenPairNotice
from studbook.money import Money, exact
from studbook.engine.messages import (
    BET_ALLIN_NOT_REOPENED, BET_ALLIN_SHORT_CALL, BET_CAP_NOTICE, BET_CAP_RAISE, BET_CHECK_CALLS_NOTHING,
    BET_CHECK_FACING, BET_CHECK_MUST_BRING_IN, BET_OPEN_PAIR_NO_PAIR, BET_OPEN_PAIR_NOTICE_NO_PAIR,
    BET_OPEN_PAIR_NOTICE_NO_DOUBLE, BET_OPEN_PAIR_NOTICE_STREET, BET_OPEN_PAIR_NO_DOUBLE, BET_OPEN_PAIR_SMALL_AFTER_DOUBLE,
    BET_SIZE_CALLS_MORE, BET_SIZE_NO_RAISE, BET_SIZE_SHORT, BET_SIZE_UNCALLABLE, BET_SIZE_WRONG, BRINGIN_ALLIN_CHECKS,
    BRINGIN_COMPLETE_NOT_FACING, BRINGIN_COMPLETE_SIZE, BRINGIN_PLAYER_CALLS_FIRST, BRINGIN_PLAYER_FOLDS,
)
from studbook.engine.table import (
    Table, BRING_IN, CALL, CHECK, COMPLETE, FOLD, FOURTH, LegalAction, PlayerState, THIRD,
)
from studbook.engine.rules.order import advance, misplaced_action, start_turn
from studbook.engine.rules.bringin import post_bring_in, short_bring_in_unknown

__all__ = [
    "legal_options", "on_action", "on_capped", "on_open_pair_notice"
]
"""This section's public surface: what the other sections and ``StudState`` may call."""


def _units(s: Table) -> tuple[Money, ...]:
    """The bet sizes in force on this street: its :func:`~studbook.betting.street_bet`, or on
    4th street with an open pair the small and the double bet, the double alone once it is
    made (rule bet.open_pair). The one accessor: worked out once a round and kept on it
    (``Round.units``); the double bet made sets it again (:func:`_raise_levels`). A bet or
    raise asks it once (``_aggress``) and hands it to its sizes and its level."""
    r = s.round
    units = r.units
    if units is None:
        if s.street is FOURTH and s.variant_rules.open_pair_double and _has_open_pair(s):
            units = (s.big,) if r.big_bet_made else (s.small, s.big)
        else:
            units = (street_bet(s.street, s.small, s.big),)
        r.units = units
    return units


def _has_open_pair(s: Table) -> bool:
    """4th street: a live board shows an open pair, or the log hides a live board
    (rule bet.open_pair is not judged on boards the engine cannot see)."""
    r = s.round
    if r.open_pair is None:
        r.open_pair = False
        for p in s.order:
            if p.live and (len(p.up) < 2 or p.up[0].rank == p.up[1].rank):
                r.open_pair = True
                break
    return r.open_pair


def _capped(s: Table) -> bool:
    if s.round.bets < s.profile.cap_bets:
        return False
    if s.profile.uncapped_heads_up and s.live_left == 2:
        return False
    return True


def _default_bring_in(small: Money) -> Money:
    """The bring-in offered when neither the stakes nor an earlier post set it: half the small bet."""
    return exact(small) / 2


def legal_options(s: Table, p: PlayerState, bring_in_player: PlayerState | None, optional: bool) -> list[LegalAction]:
    """What ``p``, to act, may do (``bring_in_player`` and ``optional``: the round's opening,
    :func:`~studbook.engine.rules.order.round_opening`'s): the one definition of the legal actions,
    which the checks of every action follow. A query. Reports nothing."""
    stack = p.stack
    to_call = owed(s.round.current_bet, p.street_in, s.zero)
    out: list[LegalAction] = []
    unopened = s.street is THIRD and not s.opened
    if unopened and bring_in_player is not None:
        bring_in = s.bring_in if s.bring_in is not None else _default_bring_in(s.small)
        if optional:
            out.append(LegalAction(FOLD))
        chips = min(bring_in, stack)
        out.append(LegalAction(BRING_IN, chips, p.street_in + chips, chips, chips == stack))
        if stack > bring_in:
            to = p.street_in + min(s.small, stack)
            out.append(LegalAction(COMPLETE, to - p.street_in, to, to, stack <= s.small))
        return out
    if to_call > s.zero:
        out.append(LegalAction(FOLD))
        chips = min(to_call, stack)
        out.append(LegalAction(CALL, chips, p.street_in + chips, chips, chips == stack))
    else:
        out.append(LegalAction(CHECK))
    if s.fixed and completes(s.street, s.round.bets > 0):
        kind = COMPLETE
    else:  # (pot- and no-limit hands offer a raise of the bring-in as a raise)
        kind = ActionKind.BET if s.round.current_bet == s.zero else ActionKind.RAISE
    most = p.street_in + stack
    for size in _raise_targets(s, p):
        to = min(size, most)
        amount = to if kind is COMPLETE else to - p.street_in if kind is ActionKind.BET else to - s.round.current_bet
        out.append(LegalAction(kind, to - p.street_in, to, amount, to == most))
    return out


def _raise_targets(s: Table, p: PlayerState, third_open: bool | None = None,
                   units: tuple[Money, ...] | None = None) -> tuple[Money, ...]:
    """The street totals ``p`` may bet, raise or complete to: the one definition of
    legal sizes, which legal_actions() offers and the checker accepts (rules
    bet.size, bet.open_pair, bet.cap, bet.allin, bringin.complete). Fixed limit:
    each legal size; pot- and no-limit: the smallest; () when ``p`` may only call,
    check or fold. A player may also go all-in for less (legal_actions() offers
    the size capped at their stack). ``third_open``: whether a bet now completes
    (:func:`~studbook.betting.completes`), and ``units`` the sizes in force (:func:`_units`),
    where the caller knows them already."""
    r = s.round
    stack = p.stack
    current = r.current_bet
    # (what p owes; at a street's first bet the bet and p's street total are both the
    # hand's zero, one object, so the difference is not worked out)
    if stack <= (s.zero if current is p.street_in else current - p.street_in):
        return ()  # p can only call
    for q in s.clockwise_after[p.pos]:  # (a loop, not any(... q.can_act): this runs for every bet)
        if q.live and not q.all_in:
            break
    else:
        return ()  # everyone else is all-in: a raise could not be called
    if third_open is None:
        third_open = completes(s.street, r.bets > 0)
    if not third_open and p.acted and p.acted_level == r.bet_level and p.street_in < current:
        return ()  # rule bet.allin: a short all-in raise does not reopen the betting
    if not s.fixed:
        step = max(current - r.bet_level, s.small) if current else s.small
        if s.street is THIRD and not s.opened:
            step = s.small
        return (current + step,)
    if _capped(s):
        return ()
    if third_open:  # (the most p can reach, a sum, made only here: this runs for every bet)
        return (s.small,) if min(s.small, p.street_in + stack) > current else ()
    if units is None:
        units = _units(s)
    if not current:  # (nothing bet yet; a Decimal's truth is cheaper than == ZERO)
        return units
    level = r.bet_level if current > r.bet_level else current
    if len(units) == 1:  # (no generator: this runs for every bet and raise)
        return (level + units[0],)
    return tuple([level + unit for unit in units])


def on_action(s: Table, e: Action) -> None:
    """Apply and check one action (``StudState.apply``'s handler for :class:`~studbook.events.Action`):
    whose turn it is, then the bring-in, fold, check, call, bet, raise or completion, then who acts next.
    May report: bet.allin, bet.cap, bet.check, bet.open_pair, bet.size, bringin.allin, bringin.amount,
    bringin.complete, bringin.player, cards.community, chips.stack, deal.ante, deal.pattern, order.first,
    order.streets, order.third, order.turn."""
    r = s.round
    p = s.by_name.get(e.player)
    street = s.street
    if p is None or street is None:
        misplaced_action(s, p, e)
        _misplaced_facts(s, e)
        return
    # (7th street's unprinted cards are given by start_turn: while they are due nobody is
    # to act, since the street's start sets to_act to None and only a started round, after
    # them, sets it again; so "not the player to act" alone sends a turn there)
    if p is not r.to_act:
        start_turn(s, p, e)
    # what the action finds (noted on the result, which turns it into ActionFacts); one
    # statement each: a five-name assignment builds and unpacks a tuple (some 500 instructions)
    bets = r.aggressions
    pot = s.pot
    level = r.current_bet
    street_in = p.street_in
    before = p.total
    if r.first is None:  # the round's first action (a round is one street: noted once)
        r.first = p
        s.last_action_street = street
    kind = e.kind
    # The kinds' rules (bet.check, bet.size's calls, bringin.player's fold) are written in
    # their branches, each once, not in functions of their own: a Python call costs some 550
    # to 770 instructions, and a simulated hand has some 18 calls, folds and checks (9.6k
    # a hand, measured; bets, raises and completions, fewer and longer, keep theirs: _aggress)
    if kind is CALL:
        due = owed(level, street_in, s.zero)
        amount = e.amount
        if amount is None:
            amount = call_chips(level, street_in, p.stack, s.zero)
        if amount != due or not due:  # (owed() is never negative: its truth is the cheaper test)
            _check_call(s, p, e, due, amount)
        s.put(p, amount, e.line, e.all_in)
    elif kind is FOLD:
        if street is THIRD and not s.opened and p is s.bring_in_player and not s.bring_in_optional:
            s.report(BRINGIN_PLAYER_FOLDS, e.line, player=p.name)
            s.opened = True
        # (live, and the table's count of live players, written here and by Table.deal_in:
        # a Table method for the fold cost a call a fold, 4.3k instructions a simulated hand)
        p.folded = True
        if p.live:
            p.live = False
            s.live_left -= 1
    elif kind is CHECK:
        if street is THIRD and not s.opened and s.bring_in_player is not None:
            s.report(BRINGIN_ALLIN_CHECKS if s.bring_in_optional else BET_CHECK_MUST_BRING_IN, e.line,
                     player=p.name)
        elif level is not street_in and level > street_in:  # (a round's checks: both the hand's zero)
            s.report(BET_CHECK_FACING, e.line, player=p.name, owed=owed(level, street_in, s.zero))
    elif kind is BRING_IN:
        post_bring_in(s, p, e)
    else:
        _aggress(s, p, e)
    p.acted = True
    p.acted_level = r.bet_level
    p.last_street = street
    s.action_log.append((e, street, bets, pot, level, street_in, before, p.total))
    advance(s, p)


def _misplaced_facts(s: Table, e: Action) -> None:
    """The note of an action the engine could not apply: it put nothing in."""
    s.action_log.append((e, s.street, s.round.aggressions, s.pot, s.zero, s.zero, s.zero, s.zero))
    if e.kind in AGGRESSIVE:
        s.round.aggressions += 1


def _check_call(s: Table, p: PlayerState, e: Action, due: Money, amount: Money) -> None:
    """A call of other than exactly what is due (or of nothing)."""
    if due <= s.zero:
        if s.street is THIRD and not s.opened and s.bring_in_player is not None:
            s.report(BRINGIN_PLAYER_CALLS_FIRST, e.line, player=p.name)
        else:
            s.report(BET_CHECK_CALLS_NOTHING, e.line, player=p.name, amount=amount)
    elif amount > due and short_bring_in_unknown(s):
        # a bring-in all-in for less at a table whose bring-in we do not know yet:
        # the first caller shows the normal amount (rule bringin.allin)
        s.bring_in = s.round.current_bet = s.round.bet_level = p.street_in + amount
    elif amount > due:
        s.report(BET_SIZE_CALLS_MORE, e.line, player=p.name, amount=amount, owed=due)
    elif amount < due and amount < p.stack:
        s.report(BET_ALLIN_SHORT_CALL, e.line, player=p.name, amount=amount, owed=due, behind=p.stack - amount)


def _aggress(s: Table, p: PlayerState, e: Action) -> None:
    r = s.round
    kind = e.kind
    r.aggressions += 1
    before = p.street_in
    current = r.current_bet
    to = street_total(kind, e.amount, e.to, before, current)
    chips = to - before
    if to <= current:
        s.report(BET_SIZE_NO_RAISE, e.line, player=p.name, kind=kind.value, to=to, current=current)
        s.put(p, chips, e.line, e.all_in)
        return
    third_open = completes(s.street, r.bets > 0)
    # (a completion's sizes are the small bet's; else the sizes in force, asked once here
    # for the offered sizes and the new level)
    units = None if third_open else _units(s)
    offered_size = False  # a size legal_actions() offers (then _raise_levels knows it is a full raise)
    if s.fixed:
        # (the common case, a size legal_actions() offers, costs the sizes' one call)
        if kind is COMPLETE and not third_open:
            s.report(BRINGIN_COMPLETE_NOT_FACING, e.line, player=p.name)
        else:
            offered = _raise_targets(s, p, third_open, units)  # (completes() asked once an action)
            if to in offered:
                offered_size = True
            else:  # (whether it is all-in is asked only here)
                all_in = chips >= p.stack
                if not (all_in and offered and to < max(offered)):
                    _not_offered(s, p, e, to, all_in, offered, third_open)
    s.opened = True
    if r.first_bettor is None:
        r.first_bettor = p
    s.put(p, chips, e.line, e.all_in)
    _raise_levels(s, p, to, units, offered_size)


def _not_offered(s: Table, p: PlayerState, e: Action, to: Money, all_in: bool, offered: tuple[Money, ...],
                 third_open: bool) -> None:
    """A fixed-limit bet, raise or completion is legal when legal_actions() offers its size
    (:func:`_raise_targets`), or it is an all-in for less than the size offered; this one
    is neither (``_aggress`` asks): which rule it breaks, with what was legal."""
    if third_open:
        s.report(BRINGIN_COMPLETE_SIZE, e.line, small=s.small, to=to, player=p.name)
        return
    r = s.round
    current = r.current_bet
    if current > s.zero and _capped(s):
        s.report(BET_CAP_RAISE, e.line, player=p.name, bets=r.bets, cap=s.profile.cap_bets)
        return
    if current > s.zero and p.acted and p.acted_level == r.bet_level and p.street_in < current:
        s.report(BET_ALLIN_NOT_REOPENED, e.line, player=p.name, current=current)
        return
    what = "bet" if current == s.zero else "raise"
    if not offered:
        s.report(BET_SIZE_UNCALLABLE, e.line, player=p.name, what=what, to=to)
        return
    if s.street is FOURTH:
        big_to = (current + s.big) if current else s.big
        if to == big_to or to == r.bet_level + s.big:
            if not s.variant_rules.open_pair_double:
                s.report(BET_OPEN_PAIR_NO_DOUBLE, e.line, player=p.name, what=what)
                return
            if not _has_open_pair(s):
                s.report(BET_OPEN_PAIR_NO_PAIR, e.line, player=p.name, what=what)
                return
        if r.big_bet_made and to == current + s.small:
            s.report(BET_OPEN_PAIR_SMALL_AFTER_DOUBLE, e.line, big=s.big, player=p.name, small=s.small)
            return
    if not all_in and to < min(offered) and to > current:
        s.report(BET_SIZE_SHORT, e.line, player=p.name, what=what, to=to, sizes=offered)
        return
    s.report(BET_SIZE_WRONG, e.line, player=p.name, what=what, to=to, sizes=offered)


def _raise_levels(s: Table, p: PlayerState, to: Money, units: tuple[Money, ...] | None,
                  offered_size: bool = False) -> None:
    """The round's levels after a bet, raise or completion to ``to`` (``units``: the sizes
    in force, :func:`_units`; None for a completion; ``offered_size``: ``to`` is a size
    :func:`_raise_targets` offers, asked by ``_aggress``)."""
    r = s.round
    if units is None:  # a completion
        if to >= s.small or not s.fixed:
            r.bets += 1
            r.bet_level = to
        r.current_bet = max(r.current_bet, to)
        r.aggressor = p
        return
    if offered_size and len(units) == 1:
        # a size offered where one size is in force is the last full level (bet_level, which
        # is never above current_bet) raised by it, so a full raise: its increment need not
        # be worked out (a subtraction and a comparison of amounts, for most bets and raises)
        full = True
    else:
        increment = to - r.bet_level
        if len(units) > 1 and increment >= s.big:
            r.big_bet_made = True  # rule bet.open_pair: later raises are big bets
            r.units = units = (s.big,)
        # (a full raise, the common case, is at least half of one without the product)
        full = not s.fixed or increment >= units[0] or increment * 2 >= units[0]
    if full:
        r.bets += 1
        r.bet_level = to
    r.current_bet = to
    r.aggressor = p


def on_capped(s: Table, e: BettingCapped) -> None:
    """The log says the betting is capped (:class:`~studbook.events.BettingCapped`): is it?
    May report: bet.cap."""
    if s.fixed and s.round.bets < s.profile.cap_bets:
        s.report(BET_CAP_NOTICE, e.line, bets=s.round.bets, cap=s.profile.cap_bets)


def on_open_pair_notice(s: Table, e: OpenPairNotice) -> None:
    """The log announces the open pair's double bet (:class:`~studbook.events.OpenPairNotice`):
    is there one? May report: bet.open_pair."""
    if not s.variant_rules.open_pair_double:
        s.report(BET_OPEN_PAIR_NOTICE_NO_DOUBLE, e.line)
    elif s.street is not FOURTH:
        s.report(BET_OPEN_PAIR_NOTICE_STREET, e.line)
    elif not _has_open_pair(s):
        s.report(BET_OPEN_PAIR_NOTICE_NO_PAIR, e.line)

