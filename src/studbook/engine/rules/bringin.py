"""Rule book section "Bring-in (3rd street)": bringin.amount, bringin.player and bringin.allin for the bring-in itself.

BringInRules: the bring-in posted: its amount, who posts it, a bring-in all-in for less.
Each check reports with ``self.flag(RULE, line, message)`` at the line that is wrong.
"""

from __future__ import annotations

from studbook.events import Action
from studbook.engine.rules import BRINGIN_AMOUNT, BRINGIN_PLAYER
from studbook.engine.rules.order import OrderRules
from studbook.engine.table import _fmt, PlayerState, Reported, _THIRD, ZERO


class BringInRules(OrderRules):
    __slots__ = ()

    def _bring_in_source(self) -> str:
        """Where the expected bring-in came from, for rule bringin.amount's message."""
        if self.bring_in_hand is not None:
            return f" as in hand {self.bring_in_hand} at this table and stakes"
        return " at this table"

    def _bring_in(self, p: PlayerState, e: Action) -> None:
        amount = e.amount if e.amount is not None else (e.to or ZERO)
        if self.street is not _THIRD or self._opened:
            if not self.reported(Reported.TURN):
                self.flag(BRINGIN_PLAYER, e.line, f"{p.name} brings in after the betting was opened")
        self.bring_in_posted = (amount, e.line, amount >= p.stack)
        expected = self.bring_in
        all_in_short = amount >= p.stack and (expected is None or amount < expected)
        if self.fixed and not all_in_short:
            if not ZERO < amount < self.small:
                self.flag(BRINGIN_AMOUNT, e.line,
                          f"bring-in {_fmt(amount)} must be more than zero and less than the small bet {_fmt(self.small)}")
            elif expected is not None and amount != expected:
                self.flag(BRINGIN_AMOUNT, e.line,
                          f"bring-in should be {_fmt(expected)}{self._bring_in_source()}, not {_fmt(amount)}")
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

