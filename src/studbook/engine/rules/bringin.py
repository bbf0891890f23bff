"""Rule book section "Bring-in (3rd street)": bringin.amount, bringin.player and bringin.allin for the bring-in itself.

BringInRules: the bring-in posted: its amount, who posts it, a bring-in all-in for less.
Each check reports with ``self.report(MESSAGE, line, **fields)`` (engine/messages.py) at the line that is wrong.
"""

from __future__ import annotations

from decimal import Decimal

from studbook.events import Action
from studbook.engine.messages import (
    BRINGIN_AMOUNT_AS_IN_HAND, BRINGIN_AMOUNT_AT_TABLE, BRINGIN_AMOUNT_RANGE, BRINGIN_PLAYER_AFTER_OPENING,
)
from studbook.engine.rules.order import OrderRules
from studbook.engine.table import PlayerState, Reported, _THIRD, ZERO


class BringInRules(OrderRules):
    __slots__ = ()

    def _report_bring_in_amount(self, line: int, expected: Decimal, amount: Decimal) -> None:
        """Rule bringin.amount: the message names where the expected bring-in came from."""
        if self.bring_in_hand is not None:
            self.report(BRINGIN_AMOUNT_AS_IN_HAND, line, expected=expected, hand=self.bring_in_hand, amount=amount)
        else:
            self.report(BRINGIN_AMOUNT_AT_TABLE, line, expected=expected, amount=amount)

    def _bring_in(self, p: PlayerState, e: Action) -> None:
        amount = e.amount if e.amount is not None else (e.to or ZERO)
        if self.street is not _THIRD or self._opened:
            if not self.reported(Reported.TURN):
                self.report(BRINGIN_PLAYER_AFTER_OPENING, e.line, player=p.name)
        self.bring_in_posted = (amount, e.line, amount >= p.stack)
        expected = self.bring_in
        all_in_short = amount >= p.stack and (expected is None or amount < expected)
        if self.fixed and not all_in_short:
            if not ZERO < amount < self.small:
                self.report(BRINGIN_AMOUNT_RANGE, e.line, amount=amount, small=self.small)
            elif expected is not None and amount != expected:
                self._report_bring_in_amount(e.line, expected, amount)
        if self.bring_in is None and not all_in_short:
            self.bring_in = amount
        self._opened = True
        self._put(p, amount, e.line, e.all_in)
        level = p.street_in if not all_in_short or expected is None else max(expected, p.street_in)
        if level > self.current_bet:
            self.current_bet = level
            self.bet_level = level

    def _short_bring_in_unknown(self) -> bool:
        b = self._bring_in_player
        return (self.street is _THIRD and self.bets == 0 and self.bring_in is None
                and b is not None and b.all_in and self.current_bet == b.street_in)

