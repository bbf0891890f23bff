"""Rule book section "Order of action": order.*, bringin.player and bringin.allin (who brings in).

OrderRules: whose turn it is: the bring-in, the first to act on later streets, clockwise after, the streets in order.
Each check reports with ``self.report(MESSAGE, line, **fields)`` (engine/messages.py) at the line that is wrong.
"""

from __future__ import annotations

from decimal import Decimal

from studbook.events import Action, Street, StreetStart
from studbook.engine.messages import (
    BRINGIN_ALLIN_LEFT_ACTS_FIRST, BRINGIN_PLAYER_WRONG, BRINGIN_PLAYER_WRONG_NO_DOOR, DEAL_ANTE_NOT_POSTED,
    ORDER_FIRST_BOARD, ORDER_STREETS_ACTS_BEFORE_THIRD, ORDER_STREETS_AFTER_WON, ORDER_STREETS_ENDS_EARLY,
    ORDER_STREETS_NEXT, ORDER_STREETS_NO_BETTING, ORDER_STREETS_ONE_CAN_BET, ORDER_STREETS_START,
    ORDER_STREETS_UNFINISHED, ORDER_THIRD_OUT_OF_TURN, ORDER_TURN_ALL_IN, ORDER_TURN_FOLDED, ORDER_TURN_NO_SEAT,
    ORDER_TURN_NOT_DEALT_IN, ORDER_TURN_OUT_OF_TURN, ORDER_TURN_ROUND_COMPLETE,
)
from studbook.engine.rules.deal import DealRules
from studbook.engine.table import (
    able_count, _board_key, _BOARD_KEYS, PlayerState, Reported, _SEVENTH, _THIRD, ZERO,
)


Opening = tuple[PlayerState | None, tuple[PlayerState, ...], PlayerState | None, bool]
"""Who opens a betting round: (the player to act, the acceptable first actors,
the bring-in player, whether the bring-in is optional: rule bringin.allin)."""


class OrderRules(DealRules):
    __slots__ = ()

    def _on_street(self, e: StreetStart) -> None:
        new = e.street
        if self.hand_over:
            self.report(ORDER_STREETS_AFTER_WON, e.line, street=new)
        if self.street is None:
            self._begin_hand(e.line)
            if new is not _THIRD:
                self.report(ORDER_STREETS_START, e.line, street=new)
        else:
            self._close_round(e.line, new)
            if new != self.street + 1:
                expected = Street(self.street + 1).label if self.street < _SEVENTH else "the showdown"
                self.report(ORDER_STREETS_NEXT, e.line, street=self.street, expected=expected, new=new)
        self.street = new
        self._river_due = new is _SEVENTH and not self._river_done
        if new is _SEVENTH:
            self._deck_at_river = 52 - self._cards_dealt()
        for p in self.order:
            p.street_in = ZERO
            p.acted = False
            p.acted_level = ZERO
        self.current_bet = ZERO
        self.bet_level = ZERO
        self.bets = 0
        self.aggressions = 0
        self.big_bet_made = False
        self._open_pair = None
        self._to_act = None
        self._round_started = False
        self._reported.discard(Reported.TURN)  # a new round: its own order faults
        self._aggressor = None
        self._round_first = None
        self._round_first_bettor = None
        self._last_deal_pos = -1
        self._deals_verified = False

    def _close_round(self, line: int, until: Street | str) -> None:
        """Checks when a betting round ends: at ``until``, a new street, the showdown or the end."""
        if self.street is None or self.hand_over:
            return
        if self._river_due:
            self._implicit_river(line)
        self._check_missing_deals(line)
        self._ensure_round()
        p = self._to_act
        if p is not None and not self.reported(Reported.TURN):
            if self._round_first is None:
                self.report(ORDER_STREETS_NO_BETTING, line, street=self.street, until=until, player=p.name)
            else:
                self.report(ORDER_STREETS_UNFINISHED, line, street=self.street, until=until, player=p.name)
        if self._round_first is not None:
            self._last_action_street = self.street
            self._final_aggressor = self._aggressor
            self._final_first = self._round_first
            self._final_first_bettor = self._round_first_bettor

    def _ensure_round(self, line: int = 0) -> None:
        """Start the street's betting round (once): missing deals and antes are
        reported, and the first to act is the :meth:`_opening`'s."""
        if self._round_started or self.street is None or self.hand_over:
            return
        self._round_started = True
        if line:
            self._check_missing_deals(line)
        if self.street is _THIRD and (self.ante or self.ante_posted):
            for p in self.order:
                if p.in_hand and not p.folded and not p.ante and p.start > ZERO:
                    self.report(DEAL_ANTE_NOT_POSTED, p.deal_line, player=p.name)
        self._to_act, self._first_ok, self._bring_in_player, self._bring_in_optional = self._opening()

    def _opening(self) -> Opening:
        """Who opens this street's betting: a query, the state unchanged (rules
        order.third, order.first, bringin.player, bringin.allin)."""
        if self.street is _THIRD:
            return self._opening_third()
        return self._opening_later()

    def _opening_third(self) -> Opening:
        dealt = [p for p in self.order if p.in_hand and not p.folded]
        keys = self.variant_rules.bring_in_keys
        able = 0
        low: PlayerState | None = None  # the door card that brings in (the smallest key)
        low_key = (99, 99)
        doors = 0
        for p in dealt:
            if not p.all_in:
                able += 1
            if p.up:
                doors += 1
                key = keys[id(p.up[0])]
                if key < low_key:
                    low, low_key = p, key
        if able < 2:
            # rule order.streets: everyone else is all-in from the ante; no bring-in, no betting
            return None, self._first_ok, self._bring_in_player, self._bring_in_optional
        if doors < len(dealt) or low is None:
            # door cards unknown: accept whoever the log has bring in
            first_ok = tuple(p for p in dealt if p.can_act)
            return (first_ok[0] if first_ok else None), first_ok, None, self._bring_in_optional
        if low.can_act:
            return low, (low,), low, self._bring_in_optional
        # rule bringin.allin: all-in from the ante; the player to their left acts first
        nxt = self._next_from(low.pos)
        return nxt, ((nxt,) if nxt is not None else ()), low, True

    def _opening_later(self) -> Opening:
        live: list[PlayerState] = []
        able = 0
        short = False  # a live board with fewer up cards than the street deals
        expected_up = 4 if self.street is _SEVENTH else (self.street or 3) - 2
        for p in self.order:
            if p.folded or not p.in_hand:
                continue
            live.append(p)
            if not p.all_in:
                able += 1
            if len(p.up) < expected_up:
                short = True
        unchanged = self._bring_in_player, self._bring_in_optional
        if len(live) < 2 or able < 2:
            return None, self._first_ok, *unchanged  # at most one player can bet: no betting round
        if short:
            first_ok = tuple([p for p in live if not p.all_in])  # boards unknown: any able player may start
            return first_ok[0], first_ok, *unchanged
        best = self._best_board(live)
        if best.can_act:
            return best, (best,), *unchanged
        nxt = self._next_from(best.pos)
        best_able = self._best_board([p for p in live if not p.all_in])
        mode = self.profile.first_skip_all_in
        if mode == "next_clockwise":
            first_ok = (nxt,) if nxt else ()
        elif mode == "best_active":
            first_ok = (best_able,)
        else:
            first_ok = tuple(dict.fromkeys(q for q in (nxt, best_able) if q is not None))
        return (first_ok[0] if first_ok else None), first_ok, *unchanged

    def _player_to_act(self) -> PlayerState | None:
        """The player due to act now, None when nobody is: a query (a round not yet
        started is not started by asking)."""
        if self._round_started or self.street is None or self.hand_over:
            return self._to_act
        return self._opening()[0]

    def _best_board(self, players: list[PlayerState]) -> PlayerState:
        """The best board showing (``players`` in dealing order, so ties go to the first)."""
        low = self.variant_rules.low_board_first
        community = self.community
        known = _BOARD_KEYS[low]
        best = players[0]
        best_key: tuple[int, ...] | None = None
        for q in players:
            key = known.get(q.up_ranks) if community is None and len(q.up) <= 15 else None
            if key is None:
                key = _board_key(q.up if community is None else [*q.up, community], low)
            if best_key is None or key < best_key:
                best, best_key = q, key
        return best

    def _next_from(self, pos: int, able: int = -1) -> PlayerState | None:
        """The next player after position ``pos`` who still has to act this round."""
        order = self.order
        n = len(order)
        current = self.current_bet
        if able < 0:
            able = 0
            for q in order:
                if q.in_hand and not q.folded and not q.all_in:
                    able += 1
        for k in range(1, n + 1):
            q = order[(pos + k) % n]
            if not q.in_hand or q.folded or q.all_in:
                continue
            if q.street_in < current:
                return q
            if not q.acted and able >= 2:
                return q
        return None

    def _misplaced_action(self, p: PlayerState | None, e: Action) -> None:
        if p is None:
            self.report(ORDER_TURN_NO_SEAT, e.line, player=e.player)
        else:
            self.report(ORDER_STREETS_ACTS_BEFORE_THIRD, e.line, player=p.name)

    def _start_turn(self, p: PlayerState, e: Action) -> None:
        """An action by someone other than the known player to act, or the first of a round
        (the player to act is only known once the round has started)."""
        if self._river_due:
            self._implicit_river(e.line)
        if not self._round_started:
            self._ensure_round(e.line)
        if self._to_act is not p:
            self._check_turn(p, e)

    def _check_turn(self, p: PlayerState, e: Action) -> None:
        expected = self._to_act
        first = self._round_first is None
        if p.folded:
            self.report(ORDER_TURN_FOLDED, e.line, player=p.name)
            self._report_fault(Reported.TURN)
            return
        if not p.in_hand:
            self.report(ORDER_TURN_NOT_DEALT_IN, e.line, player=p.name)
            self._deal_in(p)
            self._report_fault(Reported.TURN)
            return
        if p.all_in:
            self.report(ORDER_TURN_ALL_IN, e.line, player=p.name)
            self._report_fault(Reported.TURN)
            return
        if expected is p:
            return
        if first and p in self._first_ok:
            return
        self._report_fault(Reported.TURN)
        street = self.street
        if expected is None:
            able = sum(1 for q in self.order if q.can_act)
            if first and able < 2:
                self.report(ORDER_STREETS_ONE_CAN_BET, e.line, player=p.name, street=street)
            else:
                self.report(ORDER_TURN_ROUND_COMPLETE, e.line, player=p.name, street=street)
            return
        if first and street is _THIRD:
            if self._bring_in_optional:
                low = self._bring_in_player
                self.report(BRINGIN_ALLIN_LEFT_ACTS_FIRST, e.line,
                            all_in=low.name if low else "?", expected=expected.name, player=p.name)
            else:
                self._report_bring_in_player(e.line, expected, p)
            return
        if first:
            self.report(ORDER_FIRST_BOARD, e.line, expected=expected.name, expected_board=self._board(expected),
                        street=street, player=p.name, board=self._board(p),
                        which=self.variant_rules.first_board)
            return
        self.report(ORDER_THIRD_OUT_OF_TURN if street is _THIRD else ORDER_TURN_OUT_OF_TURN, e.line,
                    expected=expected.name, player=p.name)

    def _report_bring_in_player(self, line: int, expected: PlayerState, p: PlayerState) -> None:
        """Rule bringin.player: ``p`` brings in (or acts first) where ``expected`` should."""
        which = self.variant_rules.bring_in_by
        if p.up:
            self.report(BRINGIN_PLAYER_WRONG, line, expected=expected.name, door=expected.up[0], which=which,
                        player=p.name, theirs=p.up[0])
        else:
            self.report(BRINGIN_PLAYER_WRONG_NO_DOOR, line, expected=expected.name, door=expected.up[0], which=which,
                        player=p.name)

    def _advance(self, p: PlayerState) -> None:
        """After ``p`` acted: is the hand won, and who acts next?

        Next is the first player after ``p`` (clockwise) who can act and owes chips or
        has not acted this round; ``p`` again only when they still owe and nobody else
        does; with fewer than two able players, only someone who owes acts.
        """
        current = self.current_bet
        if p.folded or p.all_in or not p.in_hand or p.street_in < current:
            self._advance_scan(p, current)
            return
        # p can still act and owes nothing (a check, call or raise): the first such player
        # after them who owes or has not acted is next (with p, two can act); else nobody
        others_live = False
        for q in self._others[p.pos]:
            if q.folded or not q.in_hand:
                continue
            others_live = True
            if not q.all_in and (q.street_in < current or not q.acted):
                self._to_act = q
                return
        if others_live:
            self._to_act = None
        else:
            self._win_by_folds()

    def _advance_scan(self, p: PlayerState, current: Decimal) -> None:
        """_advance in general (``p`` folded, all-in or still owing); the scan stops as
        soon as later players cannot change the answer."""
        able = stuck = 0  # live players who can act, and who are all-in
        p_owes = False
        if not p.folded and p.in_hand:
            if p.all_in:
                stuck = 1
            else:
                able = 1
                p_owes = p.street_in < current
        found: PlayerState | None = None  # the first who owes or has not acted
        owes: PlayerState | None = None  # the first who owes
        for q in self._others[p.pos]:
            if q.folded or not q.in_hand:
                continue
            if q.all_in:
                stuck += 1
                continue
            able += 1
            if q.street_in < current:
                if owes is None:
                    owes = q
                    if found is None:
                        found = q
            elif found is None and not q.acted:
                found = q
            if found is not None and able >= 2 and (owes is not None or not p_owes):
                break  # (two able players are two live ones)
        if able + stuck <= 1:
            self._win_by_folds()
        elif owes is None and p_owes:
            self._to_act = p
        elif able < 2:
            self._to_act = owes
        else:
            self._to_act = found

    def _win_by_folds(self) -> None:
        """One live player is left: the hand is won."""
        self.hand_over = True
        self._to_act = None
        self._last_action_street = self.street
        self._final_aggressor = self._aggressor
        self._final_first = self._round_first
        self._final_first_bettor = self._round_first_bettor

    def end_betting(self, end_line: int) -> None:
        """The hand's log ended (rule order.streets: no betting round is skipped while
        two or more players can still bet)."""
        if self.street is None or self.hand_over or self._showdown:
            return
        street = self.street
        self._close_round(end_line, "the end of the hand")
        live = [p for p in self.order if p.in_hand and not p.folded]
        if street is not _SEVENTH and len(live) >= 2 and able_count(live) >= 2 and not self.reported(Reported.TURN):
            self.report(ORDER_STREETS_ENDS_EARLY, end_line, street=street, live=len(live))

    def _betting_done(self) -> bool:
        return self._player_to_act() is None

