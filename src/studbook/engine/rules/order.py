"""Rule book section "Order of action": order.*, bringin.player and bringin.allin (who brings in).

The checks: whose turn it is: the bring-in, the first to act on later streets, clockwise after, the streets in order.
Each is a function of the hand's state ``s`` (:class:`~studbook.engine.table.Table`): it asks the state
questions and reports through its one reporter, ``s.report(MESSAGE, line, **fields)``
(engine/messages.py), at the line that is wrong.
"""

from __future__ import annotations

from decimal import Decimal

from studbook.money import Money
from studbook.events import Action, Street, StreetStart
from studbook.engine.messages import (
    BRINGIN_ALLIN_LEFT_ACTS_FIRST, BRINGIN_PLAYER_WRONG, BRINGIN_PLAYER_WRONG_NO_DOOR, DEAL_ANTE_NOT_POSTED,
    ORDER_FIRST_BOARD, ORDER_STREETS_ACTS_BEFORE_THIRD, ORDER_STREETS_AFTER_WON, ORDER_STREETS_ENDS_EARLY,
    ORDER_STREETS_NEXT, ORDER_STREETS_NO_BETTING, ORDER_STREETS_ONE_CAN_BET, ORDER_STREETS_START,
    ORDER_STREETS_UNFINISHED, ORDER_THIRD_OUT_OF_TURN, ORDER_TURN_ALL_IN, ORDER_TURN_FOLDED, ORDER_TURN_NO_SEAT,
    ORDER_TURN_NOT_DEALT_IN, ORDER_TURN_OUT_OF_TURN, ORDER_TURN_ROUND_COMPLETE,
)
from studbook.engine.table import (
    Table, able_count, board_key, BOARD_KEY_FIGURES, BOARD_KEYS, PlayerState, TURN_REPORTED, SEVENTH, THIRD,
)


Opening = tuple[PlayerState | None, tuple[PlayerState, ...], PlayerState | None, bool]
"""Who opens a betting round: (the player to act, the acceptable first actors,
the bring-in player, whether the bring-in is optional: rule bringin.allin)."""
from studbook.engine.rules.deal import begin_hand, check_missing_deals, implicit_river

__all__ = [
    "Opening", "advance", "betting_done", "close_round", "end_betting", "misplaced_action", "on_street",
    "player_to_act", "round_opening", "start_turn"
]
"""This section's public surface: what the other sections and ``StudState`` may call."""


def on_street(s: Table, e: StreetStart) -> None:
    """A new street starts (:class:`~studbook.events.StreetStart`): the last round is closed and
    the next one begins. May report: cards.community, deal.ante, deal.pattern, deal.players,
    order.streets."""
    new = e.street
    if s.hand_over:
        s.report(ORDER_STREETS_AFTER_WON, e.line, street=new)
    if s.street is None:
        begin_hand(s, e.line)
        if new is not THIRD:
            s.report(ORDER_STREETS_START, e.line, street=new)
        # (the street figures are still the players' start's: before the first street
        # nothing sets them, an ante's chips and an uncalled return leave street_in at 0
        # and an action without a street is not applied; so no walk resets them)
    else:
        close_round(s, e.line, new)
        if new != s.street + 1:
            expected = Street(s.street + 1).label if s.street < SEVENTH else "the showdown"
            s.report(ORDER_STREETS_NEXT, e.line, street=s.street, expected=expected, new=new)
        zero = s.zero
        for p in s.order:  # (acted_level is read only while acted: not set again)
            p.street_in = zero
            p.acted = False
    s.street = new
    s.implicit_river_due = new is SEVENTH and not s.implicit_river_done
    if new is SEVENTH:
        s.deck_at_river = 52 - s.cards_dealt()
    s.round.reset()  # a new round: the ledger starts again
    if s.reported:  # (mostly empty: no method call then)
        s.reported.discard(TURN_REPORTED)  # a new round: its own order faults


def close_round(s: Table, line: int, until: Street | str) -> None:
    """Checks when a betting round ends: at ``until``, a new street, the showdown or the end
    (the river's unprinted cards, missing deals, an unfinished round), and the last round's
    facts kept. May report: cards.community, deal.ante, deal.pattern, order.streets."""
    r = s.round
    if s.street is None or s.hand_over:
        return
    if s.implicit_river_due:
        implicit_river(s, line)
    if not r.deals_verified:
        check_missing_deals(s, line)
    if not r.started:
        _ensure_round(s)
    p = r.to_act
    if p is not None and TURN_REPORTED not in s.reported:
        if r.first is None:
            s.report(ORDER_STREETS_NO_BETTING, line, street=s.street, until=until, player=p.name)
        else:
            s.report(ORDER_STREETS_UNFINISHED, line, street=s.street, until=until, player=p.name)
    if r.first is not None:
        s.last_action_street = s.street
        s.final_aggressor = r.aggressor
        s.final_first = r.first
        s.final_first_bettor = r.first_bettor


def _ensure_round(s: Table, line: int = 0) -> None:
    """Start the street's betting round (once): missing deals and antes are
    reported, and the first to act is the :meth:`round_opening`'s."""
    r = s.round
    if r.started or s.street is None or s.hand_over:
        return
    r.started = True
    if line:
        # (the round's first action, before it is applied: no action of the round yet, so
        # the deal count alone says whether the deals are all there, rule deal.pattern's
        # check_missing_deals; asked here, not called, when it says so: every street asks)
        if r.deals < s.live_left:
            check_missing_deals(s, line)
        else:
            r.deals_verified = True
    if s.street is THIRD and (s.ante or s.ante_posted):
        for p in s.order:
            if p.live and not p.ante and p.start > s.zero:
                s.report(DEAL_ANTE_NOT_POSTED, p.deal_line, player=p.name)
    # (round_opening, without its call: this runs for every street)
    opening = _opening_third(s) if s.street is THIRD else _opening_later(s)
    r.to_act, r.first_ok, s.bring_in_player, s.bring_in_optional = opening


def round_opening(s: Table) -> Opening:
    """Who opens this street's betting: a query, the state unchanged (rules
    order.third, order.first, bringin.player, bringin.allin are checked against it).
    Reports nothing."""
    if s.street is THIRD:
        return _opening_third(s)
    return _opening_later(s)


def _opening_third(s: Table) -> Opening:
    keys = s.variant_rules.bring_in_keys
    able = 0
    low: PlayerState | None = None  # the door card that brings in (the smallest key)
    low_key = 52  # (after every card's place)
    doorless = False  # a live player shows no door card
    for p in s.order:  # (one walk, no list: every hand's 3rd street)
        if not p.live:
            continue
        if not p.all_in:
            able += 1
        if p.up:
            key = keys[p.up[0].text]
            if key < low_key:
                low, low_key = p, key
        else:
            doorless = True
    if able < 2:
        # rule order.streets: everyone else is all-in from the ante; no bring-in, no betting
        return None, s.round.first_ok, s.bring_in_player, s.bring_in_optional
    if doorless or low is None:
        # door cards unknown: accept whoever the log has bring in
        first_ok = tuple(p for p in s.order if p.can_act)
        return (first_ok[0] if first_ok else None), first_ok, None, s.bring_in_optional
    if not low.all_in:  # (low is dealt in and live: it can act unless all-in)
        return low, (low,), low, s.bring_in_optional
    # rule bringin.allin: all-in from the ante; the player to their left acts first
    nxt = _next_from(s, low.pos)
    return nxt, ((nxt,) if nxt is not None else ()), low, True


_NO_KEYS: dict[int, int] = {}
"""The memo _opening_later reads where a community card is out (up_ranks is not the board): empty."""
_AFTER_EVERY_KEY = 1 << 5 * BOARD_KEY_FIGURES
"""A board key sorting after every board's (a packed key has six figures of 5 bits):
_opening_later's start, so its walk tests no None a player."""


def _opening_later(s: Table) -> Opening:
    # one walk (every later street): who is live and able, whether a board is short, and
    # the best board showing (rule order.first; dealing order, so ties go to the first)
    low = s.variant_rules.low_board_first
    community = s.community
    # the board keys' memo, read in the walk where up_ranks is the board's key (no
    # community card; up_ranks is exact up to 15 cards): else an empty one, and board_key asked
    known = BOARD_KEYS[low] if community is None else _NO_KEYS
    expected_up = 4 if s.street is SEVENTH else (s.street or 3) - 2
    able = 0
    short = False  # a live board with fewer up cards than the street deals
    best: PlayerState | None = None
    best_key = _AFTER_EVERY_KEY  # (no None test a player: the first board is below it)
    for p in s.order:
        if not p.live:
            continue
        if not p.all_in:
            able += 1
        if short:
            continue
        n = len(p.up)
        if n < expected_up:
            short = True  # (boards unknown: no key asked from here on)
            continue
        key = known.get(p.up_ranks) if n <= 15 else None
        if key is None:
            key = board_key(p.up if community is None else [*p.up, community], low)
        if key < best_key:
            best, best_key = p, key
    bring_in_player, optional = s.bring_in_player, s.bring_in_optional  # (3rd street's, unchanged)
    if able < 2:  # (able players are live ones: two able, two live)
        return None, s.round.first_ok, bring_in_player, optional  # at most one player can bet: no betting round
    if short or best is None:
        # boards unknown: any able player may start
        first_ok = tuple([p for p in s.order if p.live and not p.all_in])
        return first_ok[0], first_ok, bring_in_player, optional
    if not best.all_in:  # (best is live: it can act unless all-in)
        return best, (best,), bring_in_player, optional
    nxt = _next_from(s, best.pos)
    mode = s.profile.first_skip_all_in
    if mode == "next_clockwise":
        first_ok = (nxt,) if nxt else ()
    elif mode == "best_active":
        able_best = _best_able(s)
        first_ok = (able_best,) if able_best is not None else ()
    else:
        first_ok = tuple(dict.fromkeys(q for q in (nxt, _best_able(s)) if q is not None))
    return (first_ok[0] if first_ok else None), first_ok, bring_in_player, optional


def _best_able(s: Table) -> PlayerState | None:
    """The best board showing among the players who can act (dealing order, so ties go to
    the first): who opens past an all-in best board, by some profiles (the rarer path,
    asked only then)."""
    low = s.variant_rules.low_board_first
    community = s.community
    best: PlayerState | None = None
    best_key: int | None = None
    for p in s.order:  # (a loop: no comprehension on an engine path, rare or not)
        if p.live and not p.all_in:
            key = board_key(p.up if community is None else [*p.up, community], low)
            if best_key is None or key < best_key:
                best, best_key = p, key
    return best


def player_to_act(s: Table) -> PlayerState | None:
    """The player due to act now, None when nobody is: a query (a round not yet
    started is not started by asking). Reports nothing."""
    if s.round.started or s.street is None or s.hand_over:
        return s.round.to_act
    return round_opening(s)[0]


def _next_from(s: Table, pos: int, able: int = -1) -> PlayerState | None:
    """The next player after position ``pos`` who still has to act this round."""
    order = s.order
    n = len(order)
    current = s.round.current_bet
    if able < 0:
        able = 0
        for q in order:
            if q.live and not q.all_in:
                able += 1
    for k in range(1, n + 1):
        q = order[(pos + k) % n]
        if not q.live or q.all_in:
            continue
        if q.street_in < current:
            return q
        if not q.acted and able >= 2:
            return q
    return None


def misplaced_action(s: Table, p: PlayerState | None, e: Action) -> None:
    """An action from no seat, or before 3rd street. May report: order.streets, order.turn."""
    if p is None:
        s.report(ORDER_TURN_NO_SEAT, e.line, player=e.player)
    else:
        s.report(ORDER_STREETS_ACTS_BEFORE_THIRD, e.line, player=p.name)


def start_turn(s: Table, p: PlayerState, e: Action) -> None:
    """An action by someone other than the known player to act, or the first of a round
    (the player to act is only known once the round has started): starts the round and
    checks the turn. May report: bringin.allin, bringin.player, cards.community, deal.ante,
    deal.pattern, order.first, order.streets, order.third, order.turn."""
    if s.implicit_river_due:
        implicit_river(s, e.line)
    if not s.round.started:
        _ensure_round(s, e.line)
    if s.round.to_act is not p:
        _check_turn(s, p, e)


def _check_turn(s: Table, p: PlayerState, e: Action) -> None:
    expected = s.round.to_act
    first = s.round.first is None
    if p.folded:
        s.report(ORDER_TURN_FOLDED, e.line, player=p.name)
        s.reported.add(TURN_REPORTED)
        return
    if not p.in_hand:
        s.report(ORDER_TURN_NOT_DEALT_IN, e.line, player=p.name)
        s.deal_in(p)
        s.reported.add(TURN_REPORTED)
        return
    if p.all_in:
        s.report(ORDER_TURN_ALL_IN, e.line, player=p.name)
        s.reported.add(TURN_REPORTED)
        return
    if expected is p:
        return
    if first and p in s.round.first_ok:
        return
    s.reported.add(TURN_REPORTED)
    street = s.street
    if expected is None:
        able = sum(1 for q in s.order if q.can_act)
        if first and able < 2:
            s.report(ORDER_STREETS_ONE_CAN_BET, e.line, player=p.name, street=street)
        else:
            s.report(ORDER_TURN_ROUND_COMPLETE, e.line, player=p.name, street=street)
        return
    if first and street is THIRD:
        if s.bring_in_optional:
            low = s.bring_in_player
            s.report(BRINGIN_ALLIN_LEFT_ACTS_FIRST, e.line,
                        all_in=low.name if low else "?", expected=expected.name, player=p.name)
        else:
            _report_bring_in_player(s, e.line, expected, p)
        return
    if first:
        s.report(ORDER_FIRST_BOARD, e.line, expected=expected.name, expected_board=s.board(expected),
                    street=street, player=p.name, board=s.board(p),
                    which=s.variant_rules.first_board)
        return
    s.report(ORDER_THIRD_OUT_OF_TURN if street is THIRD else ORDER_TURN_OUT_OF_TURN, e.line,
                expected=expected.name, player=p.name)


def _report_bring_in_player(s: Table, line: int, expected: PlayerState, p: PlayerState) -> None:
    """Rule bringin.player: ``p`` brings in (or acts first) where ``expected`` should."""
    which = s.variant_rules.bring_in_by
    if p.up:
        s.report(BRINGIN_PLAYER_WRONG, line, expected=expected.name, door=expected.up[0], which=which,
                    player=p.name, theirs=p.up[0])
    else:
        s.report(BRINGIN_PLAYER_WRONG_NO_DOOR, line, expected=expected.name, door=expected.up[0], which=which,
                    player=p.name)


def advance(s: Table, p: PlayerState) -> None:
    """After ``p`` acted: is the hand won, and who acts next?

    Next is the first player after ``p`` (clockwise) who can act and owes chips or
    has not acted this round; ``p`` again only when they still owe and nobody else
    does; with fewer than two able players, only someone who owes acts. Reports nothing.
    """
    r = s.round
    current = r.current_bet
    if not p.live or p.all_in or p.street_in < current:
        _advance_scan(s, p, current)
        return
    # p can still act and owes nothing (a check, call or raise): the first such player
    # after them who owes or has not acted is next (with p, two can act); else nobody,
    # or the hand is won where p is the one live player (live_left: the table's count)
    for q in s.clockwise_after[p.pos]:
        # (not acted first: a flag, where owing is a Decimal comparison on a cash table)
        if q.live and not q.all_in and (not q.acted or q.street_in < current):
            r.to_act = q
            return
    if s.live_left > 1:
        r.to_act = None
    else:
        _win_by_folds(s)


def _advance_scan(s: Table, p: PlayerState, current: Money) -> None:
    """advance in general (``p`` folded, all-in or still owing); the scan stops as
    soon as later players cannot change the answer."""
    r = s.round
    if s.live_left <= 1:  # (the table's count of live players, p among them if live)
        _win_by_folds(s)
        return
    able = 0  # live players who can act, p among them
    p_owes = False
    if p.live and not p.all_in:
        able = 1
        p_owes = p.street_in < current
    found: PlayerState | None = None  # the first who has not acted, where nobody before them owes
    for q in s.clockwise_after[p.pos]:
        if not q.live or q.all_in:
            continue
        able += 1
        if q.street_in < current:
            # the first who owes: next, or the one before them who has not acted (two able
            # players then); what comes after changes nothing (a fold's common case)
            r.to_act = q if found is None else found
            return
        if found is None:
            if not q.acted:
                found = q
                if able >= 2 and not p_owes:
                    break
        elif not p_owes:
            break  # (two able players are two live ones)
    if p_owes:
        r.to_act = p  # nobody else owes
    elif able < 2:
        r.to_act = None  # one player can act and owes nothing
    else:
        r.to_act = found


def _win_by_folds(s: Table) -> None:
    """One live player is left: the hand is won."""
    r = s.round
    s.hand_over = True
    r.to_act = None
    s.last_action_street = s.street
    s.final_aggressor = r.aggressor
    s.final_first = r.first
    s.final_first_bettor = r.first_bettor


def end_betting(s: Table, end_line: int) -> None:
    """The hand's log ended (rule order.streets: no betting round is skipped while
    two or more players can still bet), once the last round is closed. May report:
    cards.community, deal.ante, deal.pattern, order.streets."""
    if s.street is None or s.hand_over or s.at_showdown:
        return
    street = s.street
    close_round(s, end_line, "the end of the hand")
    live = s.live_players
    if street is not SEVENTH and len(live) >= 2 and able_count(live) >= 2 and TURN_REPORTED not in s.reported:
        s.report(ORDER_STREETS_ENDS_EARLY, end_line, street=street, live=len(live))


def betting_done(s: Table) -> bool:
    """Nobody is due to act on this street (the round is over, or the hand). A query.
    Reports nothing."""
    return player_to_act(s) is None

