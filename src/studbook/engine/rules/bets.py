"""Rule book section "Bet sizes (fixed limit)": bet.*, bringin.complete, and a fold, check or call where a bring-in is due.

BetRules: what a player may put in: legal_actions() (the one definition) and the check of every action against it.
Each check reports with ``self.report(MESSAGE, line, **fields)`` (engine/messages.py) at the line that is wrong.
"""

from __future__ import annotations

from decimal import Decimal

from studbook.betting import AGGRESSIVE, call_chips, completes, owed, street_bet, street_total
from studbook.events import Action, BettingCapped, OpenPairNotice
from studbook.engine.messages import (
    BET_ALLIN_NOT_REOPENED, BET_ALLIN_SHORT_CALL, BET_CAP_NOTICE, BET_CAP_RAISE, BET_CHECK_CALLS_NOTHING,
    BET_CHECK_FACING, BET_CHECK_MUST_BRING_IN, BET_OPEN_PAIR_NO_PAIR, BET_OPEN_PAIR_NOTICE_NO_PAIR,
    BET_OPEN_PAIR_NOTICE_NO_DOUBLE, BET_OPEN_PAIR_NOTICE_STREET, BET_OPEN_PAIR_NO_DOUBLE, BET_OPEN_PAIR_SMALL_AFTER_DOUBLE,
    BET_SIZE_CALLS_MORE, BET_SIZE_NO_RAISE, BET_SIZE_SHORT, BET_SIZE_UNCALLABLE, BET_SIZE_WRONG, BRINGIN_ALLIN_CHECKS,
    BRINGIN_COMPLETE_NOT_FACING, BRINGIN_COMPLETE_SIZE, BRINGIN_PLAYER_CALLS_FIRST, BRINGIN_PLAYER_FOLDS,
)
from studbook.engine.rules.bringin import BringInRules
from studbook.engine.table import (
    _BRING_IN, _CALL, _CHECK, _COMPLETE, _default_bring_in, _FOLD, _FOURTH, _K, LegalAction,
    PlayerState, _THIRD, ZERO,
)


class BetRules(BringInRules):
    __slots__ = ()

    def _units(self) -> tuple[Decimal, ...]:
        """The bet sizes of this street: its :func:`~studbook.betting.street_bet`, or on
        4th street with an open pair the small and the double bet (rule bet.open_pair)."""
        if self.street is _FOURTH and self.variant_rules.open_pair_double and self._has_open_pair():
            return (self.big,) if self.big_bet_made else (self.small, self.big)
        return (street_bet(self.street, self.small, self.big),)

    def _has_open_pair(self) -> bool:
        """4th street: a live board shows an open pair, or the log hides a live board
        (rule bet.open_pair is not judged on boards the engine cannot see)."""
        if self._open_pair is None:
            self._open_pair = any(
                len(p.up) < 2 or p.up[0].rank == p.up[1].rank for p in self.order if p.in_hand and not p.folded)
        return self._open_pair

    def _capped(self) -> bool:
        if self.bets < self.profile.cap_bets:
            return False
        if self.profile.uncapped_heads_up and self._live_count() == 2:
            return False
        return True

    def _options(self, p: PlayerState, bring_in_player: PlayerState | None, optional: bool) -> list[LegalAction]:
        """What ``p``, to act, may do (``bring_in_player`` and ``optional``: the round's opening)."""
        stack = p.stack
        to_call = owed(self.current_bet, p.street_in)
        out: list[LegalAction] = []
        unopened = self.street is _THIRD and not self._opened
        if unopened and bring_in_player is not None:
            bring_in = self.bring_in if self.bring_in is not None else _default_bring_in(self.small)
            if optional:
                out.append(LegalAction(_K.FOLD))
            chips = min(bring_in, stack)
            out.append(LegalAction(_K.BRING_IN, chips, p.street_in + chips, chips, chips == stack))
            if stack > bring_in:
                to = p.street_in + min(self.small, stack)
                out.append(LegalAction(_K.COMPLETE, to - p.street_in, to, to, stack <= self.small))
            return out
        if to_call > ZERO:
            out.append(LegalAction(_K.FOLD))
            chips = min(to_call, stack)
            out.append(LegalAction(_K.CALL, chips, p.street_in + chips, chips, chips == stack))
        else:
            out.append(LegalAction(_K.CHECK))
        if self.fixed and completes(self.street, self.bets > 0):
            kind = _K.COMPLETE
        else:  # (pot- and no-limit hands offer a raise of the bring-in as a raise)
            kind = _K.BET if self.current_bet == ZERO else _K.RAISE
        most = p.street_in + stack
        for size in self._raise_targets(p):
            to = min(size, most)
            amount = to if kind is _K.COMPLETE else to - p.street_in if kind is _K.BET else to - self.current_bet
            out.append(LegalAction(kind, to - p.street_in, to, amount, to == most))
        return out

    def _raise_targets(self, p: PlayerState) -> tuple[Decimal, ...]:
        """The street totals ``p`` may bet, raise or complete to: the one definition of
        legal sizes, which legal_actions() offers and the checker accepts (rules
        bet.size, bet.open_pair, bet.cap, bet.allin, bringin.complete). Fixed limit:
        each legal size; pot- and no-limit: the smallest; () when ``p`` may only call,
        check or fold. A player may also go all-in for less (legal_actions() offers
        the size capped at their stack)."""
        stack = p.stack
        current = self.current_bet
        if stack <= current - p.street_in:
            return ()
        if not any(q is not p and q.can_act for q in self.order):
            return ()  # everyone else is all-in: a raise could not be called
        third_open = completes(self.street, self.bets > 0)
        if not third_open and p.acted and p.acted_level == self.bet_level and p.street_in < current:
            return ()  # rule bet.allin: a short all-in raise does not reopen the betting
        most = p.street_in + stack
        if not self.fixed:
            step = max(current - self.bet_level, self.small) if current else self.small
            if self.street is _THIRD and not self._opened:
                step = self.small
            return (current + step,)
        if self._capped():
            return ()
        if third_open:
            return (self.small,) if min(self.small, most) > current else ()
        if current == ZERO:
            return self._units()
        level = self.bet_level if current > self.bet_level else current
        return tuple(level + unit for unit in self._units())

    def _on_action(self, e: Action) -> None:
        p = self._by_name.get(e.player)
        street = self.street
        if p is None or street is None:
            self._misplaced_action(p, e)
            self._misplaced_facts(e)
            return
        if p is not self._to_act or self._river_due:
            self._start_turn(p, e)
        # what the action finds (noted on the result, which turns it into ActionFacts)
        bets, pot, level, street_in, before = self.aggressions, self.pot, self.current_bet, p.street_in, p.total
        if self._round_first is None:
            self._round_first = p
        self._last_action_street = street
        kind = e.kind
        if kind is _CHECK:
            self._check(p, e)
        elif kind is _CALL:
            self._call(p, e)
        elif kind is _FOLD:
            self._fold(p, e)
        elif kind is _BRING_IN:
            self._bring_in(p, e)
        else:
            self._aggress(p, e)
        p.acted = True
        p.acted_level = self.bet_level
        p.last_street = street
        self.action_log.append((e, street, bets, pot, level, street_in, before, p.total))
        self._advance(p)

    def _misplaced_facts(self, e: Action) -> None:
        """The note of an action the engine could not apply: it put nothing in."""
        self.action_log.append((e, self.street, self.aggressions, self.pot, ZERO, ZERO, ZERO, ZERO))
        if e.kind in AGGRESSIVE:
            self.aggressions += 1

    def _fold(self, p: PlayerState, e: Action) -> None:
        if self.street is _THIRD and not self._opened and p is self._bring_in_player and not self._bring_in_optional:
            self.report(BRINGIN_PLAYER_FOLDS, e.line, player=p.name)
            self._opened = True
        p.folded = True

    def _check(self, p: PlayerState, e: Action) -> None:
        if self.street is _THIRD and not self._opened and self._bring_in_player is not None:
            if self._bring_in_optional:
                self.report(BRINGIN_ALLIN_CHECKS, e.line, player=p.name)
            else:
                self.report(BET_CHECK_MUST_BRING_IN, e.line, player=p.name)
            return
        due = owed(self.current_bet, p.street_in)
        if due > ZERO:
            self.report(BET_CHECK_FACING, e.line, player=p.name, owed=due)

    def _call(self, p: PlayerState, e: Action) -> None:
        due = owed(self.current_bet, p.street_in)
        amount = e.amount
        if amount is None:
            amount = call_chips(self.current_bet, p.street_in, p.stack)
        if amount != due or due <= ZERO:
            self._check_call(p, e, due, amount)
        self._put(p, amount, e.line, e.all_in)

    def _check_call(self, p: PlayerState, e: Action, due: Decimal, amount: Decimal) -> None:
        """A call of other than exactly what is due (or of nothing)."""
        if due <= ZERO:
            if self.street is _THIRD and not self._opened and self._bring_in_player is not None:
                self.report(BRINGIN_PLAYER_CALLS_FIRST, e.line, player=p.name)
            else:
                self.report(BET_CHECK_CALLS_NOTHING, e.line, player=p.name, amount=amount)
        elif amount > due and self._short_bring_in_unknown():
            # a bring-in all-in for less at a table whose bring-in we do not know yet:
            # the first caller shows the normal amount (rule bringin.allin)
            self.bring_in = self.current_bet = self.bet_level = p.street_in + amount
        elif amount > due:
            self.report(BET_SIZE_CALLS_MORE, e.line, player=p.name, amount=amount, owed=due)
        elif amount < due and amount < p.stack:
            self.report(BET_ALLIN_SHORT_CALL, e.line, player=p.name, amount=amount, owed=due, behind=p.stack - amount)

    def _aggress(self, p: PlayerState, e: Action) -> None:
        kind = e.kind
        self.aggressions += 1
        before = p.street_in
        to = street_total(kind, e.amount, e.to, before, self.current_bet)
        current = self.current_bet
        chips = to - before
        all_in = chips >= p.stack
        if to <= current:
            self.report(BET_SIZE_NO_RAISE, e.line, player=p.name, kind=kind.value, to=to, current=current)
            self._put(p, chips, e.line, e.all_in)
            return
        third_open = completes(self.street, self.bets > 0)
        if self.fixed:
            self._check_aggression(p, e, to, all_in, third_open)
        self._opened = True
        if self._round_first_bettor is None:
            self._round_first_bettor = p
        self._put(p, chips, e.line, e.all_in)
        self._raise_levels(p, to, third_open)

    def _check_aggression(self, p: PlayerState, e: Action, to: Decimal, all_in: bool, third_open: bool) -> None:
        """A bet, raise or completion is legal when legal_actions() offers its size
        (:meth:`_raise_targets`), or it is an all-in for less than the size offered;
        otherwise the violation names the rule it breaks and what was legal."""
        if e.kind is _COMPLETE and not third_open:
            self.report(BRINGIN_COMPLETE_NOT_FACING, e.line, player=p.name)
            return
        offered = self._raise_targets(p)
        if to in offered or (all_in and offered and to < max(offered)):
            return
        if third_open:
            self.report(BRINGIN_COMPLETE_SIZE, e.line, small=self.small, to=to, player=p.name)
            return
        self._not_offered(p, e, to, all_in, offered)

    def _not_offered(self, p: PlayerState, e: Action, to: Decimal, all_in: bool, offered: tuple[Decimal, ...]) -> None:
        """Which rule a bet or raise the legal actions did not offer breaks."""
        current = self.current_bet
        if current > ZERO and self._capped():
            self.report(BET_CAP_RAISE, e.line, player=p.name, bets=self.bets, cap=self.profile.cap_bets)
            return
        if current > ZERO and p.acted and p.acted_level == self.bet_level and p.street_in < current:
            self.report(BET_ALLIN_NOT_REOPENED, e.line, player=p.name, current=current)
            return
        what = "bet" if current == ZERO else "raise"
        if not offered:
            self.report(BET_SIZE_UNCALLABLE, e.line, player=p.name, what=what, to=to)
            return
        if self.street is _FOURTH:
            big_to = (current + self.big) if current else self.big
            if to == big_to or to == self.bet_level + self.big:
                if not self.variant_rules.open_pair_double:
                    self.report(BET_OPEN_PAIR_NO_DOUBLE, e.line, player=p.name, what=what)
                    return
                if not self._has_open_pair():
                    self.report(BET_OPEN_PAIR_NO_PAIR, e.line, player=p.name, what=what)
                    return
            if self.big_bet_made and to == current + self.small:
                self.report(BET_OPEN_PAIR_SMALL_AFTER_DOUBLE, e.line, big=self.big, player=p.name, small=self.small)
                return
        if not all_in and to < min(offered) and to > current:
            self.report(BET_SIZE_SHORT, e.line, player=p.name, what=what, to=to, sizes=offered)
            return
        self.report(BET_SIZE_WRONG, e.line, player=p.name, what=what, to=to, sizes=offered)

    def _raise_levels(self, p: PlayerState, to: Decimal, third_open: bool) -> None:
        level = self.bet_level
        if third_open:
            if to >= self.small or not self.fixed:
                self.bets += 1
                self.bet_level = to
            self.current_bet = max(self.current_bet, to)
            self._aggressor = p
            return
        increment = to - level
        if self.street is _FOURTH and len(self._units()) > 1 or self.big_bet_made:
            if increment >= self.big:
                self.big_bet_made = True  # rule bet.open_pair: later raises are big bets
            unit = self.big if self.big_bet_made else self.small
        else:
            unit = street_bet(self.street, self.small, self.big)
        if not self.fixed or increment * 2 >= unit:
            self.bets += 1
            self.bet_level = to
        self.current_bet = to
        self._aggressor = p

    def _on_capped(self, e: BettingCapped) -> None:
        if self.fixed and self.bets < self.profile.cap_bets:
            self.report(BET_CAP_NOTICE, e.line, bets=self.bets, cap=self.profile.cap_bets)

    def _on_open_pair_notice(self, e: OpenPairNotice) -> None:
        if not self.variant_rules.open_pair_double:
            self.report(BET_OPEN_PAIR_NOTICE_NO_DOUBLE, e.line)
        elif self.street is not _FOURTH:
            self.report(BET_OPEN_PAIR_NOTICE_STREET, e.line)
        elif not self._has_open_pair():
            self.report(BET_OPEN_PAIR_NOTICE_NO_PAIR, e.line)

