"""Rule book section "Bring-in (3rd street)": bringin.amount, bringin.player and bringin.allin for the bring-in itself.

The checks: the bring-in posted: its amount, who posts it, a bring-in all-in for less.
Each is a function of the hand's state ``s`` (:class:`~studbook.engine.table.Table`): it asks the state
questions and reports through its one reporter, ``s.report(MESSAGE, line, **fields)``
(engine/messages.py), at the line that is wrong.
"""

from __future__ import annotations

from decimal import Decimal

from studbook.money import Money
from studbook.events import Action
from studbook.engine.messages import (
    BRINGIN_AMOUNT_AS_IN_HAND, BRINGIN_AMOUNT_AT_TABLE, BRINGIN_AMOUNT_RANGE, BRINGIN_PLAYER_AFTER_OPENING,
)
from studbook.engine.table import Table, PlayerState, TURN_REPORTED, THIRD

__all__ = [
    "post_bring_in", "short_bring_in_unknown"
]
"""This section's public surface: what the other sections and ``StudState`` may call."""


def _report_bring_in_amount(s: Table, line: int, expected: Money, amount: Money) -> None:
    """Rule bringin.amount: the message names where the expected bring-in came from."""
    if s.bring_in_hand is not None:
        s.report(BRINGIN_AMOUNT_AS_IN_HAND, line, expected=expected, hand=s.bring_in_hand, amount=amount)
    else:
        s.report(BRINGIN_AMOUNT_AT_TABLE, line, expected=expected, amount=amount)


def post_bring_in(s: Table, p: PlayerState, e: Action) -> None:
    """``p`` posts the bring-in (``e``, a ``BRING_IN`` action): its chips go in, and the round's
    level is set. May report: bringin.amount, bringin.player, chips.stack."""
    r = s.round
    amount = e.amount if e.amount is not None else (e.to or s.zero)
    if s.street is not THIRD or s.opened:
        if TURN_REPORTED not in s.reported:
            s.report(BRINGIN_PLAYER_AFTER_OPENING, e.line, player=p.name)
    all_in = amount >= p.stack  # (asked once: the post and the short all-in both read it)
    s.bring_in_posted = (amount, e.line, all_in)
    expected = s.bring_in
    all_in_short = all_in and (expected is None or amount < expected)
    if s.fixed and not all_in_short:
        if not s.zero < amount < s.small:
            s.report(BRINGIN_AMOUNT_RANGE, e.line, amount=amount, small=s.small)
        elif expected is not None and amount != expected:
            _report_bring_in_amount(s, e.line, expected, amount)
    if s.bring_in is None and not all_in_short:
        s.bring_in = amount
    s.opened = True
    s.put(p, amount, e.line, e.all_in)
    level = p.street_in if not all_in_short or expected is None else max(expected, p.street_in)
    if level > r.current_bet:
        r.current_bet = level
        r.bet_level = level


def short_bring_in_unknown(s: Table) -> bool:
    """3rd street, unopened, the bring-in player all-in for less and the stakes silent on the
    bring-in: its full amount is unknown (rule bringin.allin). A query. Reports nothing."""
    b = s.bring_in_player
    return (s.street is THIRD and s.round.bets == 0 and s.bring_in is None
            and b is not None and b.all_in and s.round.current_bet == b.street_in)

