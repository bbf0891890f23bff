"""Rule book section "Chips, pots, showdown (during the hand)": pot.uncalled, showdown.order, and the money lines settle.py judges (pot.side, pot.total, showdown.award).

ShowdownRules: the uncalled bet returned, who shows in which order, what the log says was collected.
Each check reports with ``self.report(MESSAGE, line, **fields)`` (engine/messages.py) at the line that is wrong.
"""

from __future__ import annotations

from decimal import Decimal

from studbook.betting import top_two, uncalled_part
from studbook.events import Collect, Muck, NoLowHand, PotSummary, Show, ShowdownStart, UncalledReturned
from studbook.engine.messages import (
    CARDS_CONSISTENT_NO_SEAT, ORDER_STREETS_SHOWDOWN_EARLY, POT_UNCALLED_NO_SEAT, POT_UNCALLED_NONE,
    POT_UNCALLED_WRONG, SHOWDOWN_AWARD_NO_SEAT, SHOWDOWN_ORDER_CLOCKWISE, SHOWDOWN_ORDER_FIRST_BETTOR,
    SHOWDOWN_ORDER_LAST_AGGRESSOR, SHOWDOWN_ORDER_NO_BET, SHOWDOWN_ORDER_NO_BET_FIRST_TO_ACT, SHOWDOWN_ORDER_RUN_OUT,
    SHOWDOWN_ORDER_SIDE_POTS,
)
from studbook.engine.rules.bets import BetRules
from studbook.engine.table import able_count, PlayerState, _SEVENTH, ZERO


class ShowdownRules(BetRules):
    __slots__ = ()

    def _on_uncalled(self, e: UncalledReturned) -> None:
        p = self._by_name.get(e.player)
        if p is None:
            self.report(POT_UNCALLED_NO_SEAT, e.line, player=e.player)
            return
        top, expected, unmatched = self._unmatched()
        if top is p and e.amount == unmatched > ZERO:
            pass  # the whole unmatched part, an unmatched ante included, comes back exactly
        elif top is None or expected <= ZERO:
            self.report(POT_UNCALLED_NONE, e.line, amount=e.amount, player=p.name)
        elif top is not p or e.amount != expected:
            self.report(POT_UNCALLED_WRONG, e.line, expected=expected, top=top.name, amount=e.amount, player=p.name)
        p.stack += e.amount
        p.total -= e.amount
        self.pot -= e.amount
        p.street_in = max(p.street_in - e.amount, ZERO)
        p.returned += e.amount
        self._returned_line = e.line
        if p.stack > ZERO and p.all_in and not p.folded:
            p.all_in = False

    def _uncalled(self) -> tuple[PlayerState | None, Decimal]:
        """The player whose bet nobody matched, and the unmatched part (street bets only)."""
        top, street_part, _ = self._unmatched()
        return top, street_part

    def _unmatched(self) -> tuple[PlayerState | None, Decimal, Decimal]:
        """The top contributor, the unmatched part of their street bets, and the whole
        unmatched part (an ante nobody could match included: rule pot.uncalled)."""
        top, first, second = top_two((p, p.total) for p in self.order)
        if top is None:
            return None, ZERO, ZERO
        return top, uncalled_part(first, second, top.ante), first - second

    def uncalled(self) -> tuple[str, Decimal] | None:
        """The uncalled bet to return now, as (player, amount), or None."""
        top, amount = self._uncalled()
        if top is None or amount <= ZERO or not (self.hand_over or self._betting_done()):
            return None
        return top.name, amount

    def unmatched_bet(self) -> tuple[PlayerState | None, Decimal]:
        """The player whose bet nobody matched and by how much (None, 0 when none),
        whether or not the betting is over."""
        return self._uncalled()

    def _on_showdown(self, e: ShowdownStart) -> None:
        self._close_round(e.line, "the showdown")
        self._showdown = True
        self.showdown_line = e.line
        live = [p for p in self.order if p.in_hand and not p.folded]
        if self.street is not _SEVENTH and not self.hand_over:
            able = able_count(live)
            if able >= 2:
                self.report(ORDER_STREETS_SHOWDOWN_EARLY, e.line, street=self.street or "no", able=able)

    def showdown_order(self) -> list[str]:
        """Live players in the order they show: the last aggressor of the final round
        first (else the first in dealing order), then clockwise (with the profile's
        shows_side_pots_first, pot by pot from the last side pot)."""
        live = [p for p in self.order if p.in_hand and not p.folded]
        if not live:
            return []
        first = self._final_aggressor if self._final_aggressor in live else live[0]
        rest = sorted((p for p in live if p is not first), key=lambda q: self._show_key(first, q))
        return [first.name] + [p.name for p in rest]

    def _check_show_order(self, p: PlayerState, line: int) -> None:
        if not self._showdown or not self.profile.logs_show_order:
            return
        first = self._shown_first
        if first is not None:
            self._check_show_next(first, p, line)
            return
        self._shown_first = self._shown_last = p
        live = [q for q in self.order if q.in_hand and not q.folded]
        if len(live) < 2 or not p.live:
            return
        street = self._last_action_street
        if self.profile.show_order_all_in == "deal_order" and self._ran_out(live):
            self._show_base = live[0]
            if p is not live[0]:
                self.report(SHOWDOWN_ORDER_RUN_OUT, line, first=live[0].name, player=p.name)
            return
        first_bettor = self.profile.show_order_bet == "first_bettor"
        aggressor = self._final_first_bettor if first_bettor else self._final_aggressor
        if aggressor is not None and aggressor.live:
            self._show_base = aggressor
            if p is not aggressor:
                self.report(SHOWDOWN_ORDER_FIRST_BETTOR if first_bettor else SHOWDOWN_ORDER_LAST_AGGRESSOR, line,
                            first=aggressor.name, street=street or "", player=p.name)
            return
        mode = self.profile.show_order_no_bet
        if mode == "deal_order":
            self._show_base = live[0]
        if mode == "deal_order" and p is not live[0]:
            self.report(SHOWDOWN_ORDER_NO_BET, line, first=live[0].name, player=p.name)
        elif mode == "first_to_act":
            expected = self._final_first
            if expected is not None and expected.live:
                self._show_base = expected
            if expected is not None and expected.live and p is not expected:
                self.report(SHOWDOWN_ORDER_NO_BET_FIRST_TO_ACT, line, first=expected.name, player=p.name)

    def _check_show_next(self, first: PlayerState, p: PlayerState, line: int) -> None:
        """After the first hand shown, the others show or muck clockwise from it (from
        whoever should have shown first, where known, so that one hand out of turn is
        one violation); with the profile's shows_side_pots_first, pot by pot from the
        last side pot."""
        last = self._shown_last
        base = self._show_base or first
        if last is None or p is last or p is base or not p.live:
            return  # (the one who should have shown first, showing later: flagged already)
        self._shown_last = p  # judged against the latest: one hand out of turn is one violation
        if last is first or self._show_key(base, p) > self._show_key(base, last):
            return
        if self.profile.shows_side_pots_first and p.total > last.total:
            self.report(SHOWDOWN_ORDER_SIDE_POTS, line, player=p.name, last=last.name)
        else:
            self.report(SHOWDOWN_ORDER_CLOCKWISE, line, base=base.name, player=p.name, last=last.name)

    def _show_key(self, first: PlayerState, q: PlayerState) -> tuple[Decimal, int]:
        """Where ``q`` comes in the showing order after ``first``."""
        clockwise = (q.pos - first.pos) % len(self.order)
        return (-q.total if self.profile.shows_side_pots_first else ZERO, clockwise)

    def _ran_out(self, live: list[PlayerState]) -> bool:
        """Cards were dealt with no betting: at most one live player could bet, and the
        last betting action came before 7th street."""
        street = self._last_action_street
        return (able_count(live) < 2
                and (street is None or street is not _SEVENTH))

    def _on_show(self, e: Show) -> None:
        p = self._by_name.get(e.player)
        if p is None:
            self.report(CARDS_CONSISTENT_NO_SEAT, e.line, player=e.player)
            return
        self._check_show_order(p, e.line)
        self._check_shown(p, e.cards, e.line)
        p.showed = True
        if len(e.cards) >= len(p.shown):
            p.shown = e.cards

    def _on_muck(self, e: Muck) -> None:
        p = self._by_name.get(e.player)
        if p is None:
            return
        self._check_show_order(p, e.line)
        p.mucked = True
        if e.cards:
            self._check_shown(p, e.cards, e.line)

    def _on_collect(self, e: Collect) -> None:
        p = self._by_name.get(e.player)
        if p is None:
            self.report(SHOWDOWN_AWARD_NO_SEAT, e.line, player=e.player)
            return
        p.collected += e.amount
        self.collects.append(e)

    def _on_summary(self, e: PotSummary) -> None:
        if self.summary is None:
            self.summary = e

    def _on_no_low(self, e: NoLowHand) -> None:
        self.no_low_noted = True

