"""Rule book section "Bet sizes (fixed limit)": bet.*, bringin.complete, and a fold, check or call where a bring-in is due.

BetRules: what a player may put in: legal_actions() (the one definition) and the check of every action against it.
Each check reports with ``self.flag(RULE, line, message)`` at the line that is wrong.
"""

from __future__ import annotations

from decimal import Decimal

from studbook.betting import AGGRESSIVE, completes, street_total
from studbook.events import Action, BettingCapped, OpenPairNotice
from studbook.engine.rules import (
    BET_ALLIN, BET_CAP, BET_CHECK, BET_OPEN_PAIR, BET_SIZE, BRINGIN_ALLIN, BRINGIN_COMPLETE, BRINGIN_PLAYER,
)
from studbook.engine.rules.bringin import BringInRules
from studbook.engine.table import (
    _BRING_IN, _CALL, _CHECK, _COMPLETE, _default_bring_in, _fmt, _FOLD, _FOURTH, _K, LegalAction,
    PlayerState, _RAZZ, _THIRD, ZERO,
)


class BetRules(BringInRules):
    __slots__ = ()

    def _units(self) -> tuple[Decimal, ...]:
        street = self.street
        if street is _THIRD:
            return (self.small,)
        if street is _FOURTH:
            if self.variant is not _RAZZ and self._has_open_pair():
                return (self.big,) if self.big_bet_made else (self.small, self.big)
            return (self.small,)
        return (self.big,)

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

    def _options(self, p: PlayerState) -> list[LegalAction]:
        stack = p.stack
        to_call = max(self.current_bet - p.street_in, ZERO)
        out: list[LegalAction] = []
        unopened = self.street is _THIRD and not self._opened
        if unopened and self._bring_in_player is not None:
            bring_in = self.bring_in if self.bring_in is not None else _default_bring_in(self.small)
            if self._bring_in_optional:
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
            self.flag(BRINGIN_PLAYER, e.line, f"{p.name} must bring in or complete, not fold")
            self._opened = True
        p.folded = True

    def _check(self, p: PlayerState, e: Action) -> None:
        if self.street is _THIRD and not self._opened and self._bring_in_player is not None:
            if self._bring_in_optional:
                self.flag(BRINGIN_ALLIN, e.line, f"{p.name} must bring in, complete or fold, not check")
            else:
                self.flag(BET_CHECK, e.line, f"{p.name} checks but must bring in")
            return
        owed = self.current_bet - p.street_in
        if owed > ZERO:
            self.flag(BET_CHECK, e.line, f"{p.name} checks facing {_fmt(owed)} to call")

    def _call(self, p: PlayerState, e: Action) -> None:
        owed = self.current_bet - p.street_in
        amount = e.amount
        if amount is None:
            amount = min(owed, p.stack)
        if amount != owed or owed <= ZERO:
            self._check_call(p, e, owed, amount)
        self._put(p, amount, e.line, e.all_in)

    def _check_call(self, p: PlayerState, e: Action, owed: Decimal, amount: Decimal) -> None:
        """A call of other than exactly what is owed (or of nothing)."""
        if owed <= ZERO:
            if self.street is _THIRD and not self._opened and self._bring_in_player is not None:
                self.flag(BRINGIN_PLAYER, e.line, f"{p.name} calls before anyone brought in")
            else:
                self.flag(BET_CHECK, e.line, f"{p.name} calls {_fmt(amount)} with nothing to call")
        elif amount > owed and self._short_bring_in_unknown():
            # a bring-in all-in for less at a table whose bring-in we do not know yet:
            # the first caller shows the normal amount (rule bringin.allin)
            self.bring_in = self.current_bet = self.bet_level = p.street_in + amount
        elif amount > owed:
            self.flag(BET_SIZE, e.line, f"{p.name} calls {_fmt(amount)}, but only {_fmt(owed)} is owed")
        elif amount < owed and amount < p.stack:
            self.flag(BET_ALLIN, e.line,
                      f"{p.name} calls {_fmt(amount)} of {_fmt(owed)} without being all-in "
                      f"({_fmt(p.stack - amount)} behind)")

    def _aggress(self, p: PlayerState, e: Action) -> None:
        kind = e.kind
        self.aggressions += 1
        before = p.street_in
        to = street_total(kind, e.amount, e.to, before, self.current_bet)
        current = self.current_bet
        chips = to - before
        all_in = chips >= p.stack
        if to <= current:
            self.flag(BET_SIZE, e.line,
                      f"{p.name} {kind.value}s to {_fmt(to)}, which does not raise the {_fmt(current)} to call")
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
            self.flag(BRINGIN_COMPLETE, e.line,
                      f"{p.name} completes, but only a player facing just the bring-in may complete")
            return
        offered = self._raise_targets(p)
        if to in offered or (all_in and offered and to < max(offered)):
            return
        if third_open:
            self.flag(BRINGIN_COMPLETE, e.line,
                      f"the completion is to exactly the small bet {_fmt(self.small)}, not {_fmt(to)} ({p.name})")
            return
        self._not_offered(p, e, to, all_in, offered)

    def _not_offered(self, p: PlayerState, e: Action, to: Decimal, all_in: bool, offered: tuple[Decimal, ...]) -> None:
        """Which rule a bet or raise the legal actions did not offer breaks."""
        current = self.current_bet
        if current > ZERO and self._capped():
            self.flag(BET_CAP, e.line,
                      f"{p.name} raises after {self.bets} bets; the cap is {self.profile.cap_bets}")
            return
        if current > ZERO and p.acted and p.acted_level == self.bet_level and p.street_in < current:
            self.flag(BET_ALLIN, e.line,
                      f"{p.name} raises, but the all-in raise to {_fmt(current)} was less than half a bet "
                      f"and does not reopen the betting")
            return
        what = "bet" if current == ZERO else "raise"
        if not offered:
            self.flag(BET_SIZE, e.line, f"{p.name} {what}s to {_fmt(to)}, but nobody left could call it: "
                                        f"only call or fold")
            return
        if self.street is _FOURTH:
            big_to = (current + self.big) if current else self.big
            if to == big_to or to == self.bet_level + self.big:
                if self.variant is _RAZZ:
                    self.flag(BET_OPEN_PAIR, e.line,
                              f"{p.name} makes a double {what} on 4th street; razz has no open-pair double bet")
                    return
                if not self._has_open_pair():
                    self.flag(BET_OPEN_PAIR, e.line,
                              f"{p.name} makes a double {what} on 4th street without an open pair")
                    return
            if self.big_bet_made and to == current + self.small:
                self.flag(BET_OPEN_PAIR, e.line,
                          f"after a double bet on 4th street every raise is {_fmt(self.big)}; {p.name} raises {_fmt(self.small)}")
                return
        sizes = ' or '.join(_fmt(a) for a in offered)
        if not all_in and to < min(offered) and to > current:
            self.flag(BET_SIZE, e.line,
                      f"{p.name} {what}s to {_fmt(to)}; a {what} here is to {sizes} (less only when all-in)")
            return
        self.flag(BET_SIZE, e.line, f"{p.name} {what}s to {_fmt(to)}; a {what} here is to {sizes}")

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
            unit = self.small if self.street is _THIRD or self.street is _FOURTH else self.big
        if not self.fixed or increment * 2 >= unit:
            self.bets += 1
            self.bet_level = to
        self.current_bet = to
        self._aggressor = p

    def _on_capped(self, e: BettingCapped) -> None:
        if self.fixed and self.bets < self.profile.cap_bets:
            self.flag(BET_CAP, e.line,
                      f"the log says betting is capped after {self.bets} bets; the cap is {self.profile.cap_bets}")

    def _on_open_pair_notice(self, e: OpenPairNotice) -> None:
        if self.variant is _RAZZ:
            self.flag(BET_OPEN_PAIR, e.line, "an open-pair double bet announced in razz")
        elif self.street is not _FOURTH:
            self.flag(BET_OPEN_PAIR, e.line, "an open-pair double bet announced outside 4th street")
        elif not self._has_open_pair():
            self.flag(BET_OPEN_PAIR, e.line, "an open-pair double bet announced with no open pair on 4th street")

