"""Betting arithmetic shared by the readers, the engine and the frames.

A stage below ``sites/`` and ``engine/``: it knows events' figures, nothing of
any site. Two things are decided here and nowhere else:

* **what counts as a completion**: the first bet of 3rd street, the one that
  faces at most the bring-in (:func:`completes`). Sites write it as a bet, a
  raise ("raises $0.02 to $0.04") or a completion; studbook calls it
  ``complete`` everywhere (:func:`named`);
* **a player's street total after an action**, from what a site wrote (chips
  put in, the new total or a raise's increment: :func:`written_total`) and
  from the figure an
  :class:`~studbook.events.Action` carries (:func:`street_total`): chips put in
  for a bring-in, bet or call; the increment over the bet to call for a raise;
  the total for a completion; ``to``, where given, for a raise or completion.

The engine applies them to a hand's actions and publishes each action's facts
(:class:`studbook.engine.result.ActionFacts`: chips put in, chips to call, pot
and bets before it), which the frames' ``actions`` rows read.
Amounts are ``Decimal`` or ``int`` (minor units).
"""

from __future__ import annotations

from decimal import Decimal
from typing import TypeVar

from studbook.events import ActionKind, Street

N = TypeVar("N", int, Decimal)

_THIRD = Street.THIRD
_RAISE, _COMPLETE, _BET = ActionKind.RAISE, ActionKind.COMPLETE, ActionKind.BET
AGGRESSIVE = frozenset({ActionKind.BET, ActionKind.RAISE, ActionKind.COMPLETE})
"""The kinds that make a bet: a bring-in is not one (rule ``bet.cap``)."""


def completes(street: Street | None, opened: bool) -> bool:
    """A bet or raise on ``street`` is a completion: 3rd street, not yet ``opened``
    by a bet (it faces the bring-in at most; rule ``bringin.complete``)."""
    return street is _THIRD and not opened


def named(kind: ActionKind, street: Street | None, opened: bool) -> ActionKind:
    """``kind`` as studbook names it: a bet or raise that completes is ``complete``."""
    if (kind is _RAISE or kind is _BET) and completes(street, opened):
        return _COMPLETE
    return kind


def street_total(kind: ActionKind, amount: N | None, to: N | None, before: N, level: N) -> N:
    """The player's street total after an action of ``kind`` carrying ``amount`` and
    ``to`` (events.py's figures), from ``before`` (their total so far) and ``level``
    (the bet to call). Check and fold leave it at ``before``."""
    if kind is _RAISE:
        if to is not None:
            return to
        return level + amount if amount is not None else level
    if kind is _COMPLETE:
        if to is not None:
            return to
        return amount if amount is not None else before
    if amount is not None:
        return before + amount
    return to if to is not None else before


def written_total(before: Decimal, level: Decimal, *, chips: Decimal | None = None, to: Decimal | None = None,
                  by: Decimal | None = None) -> Decimal:
    """A player's street total from what a site wrote: the new total ``to``, a raise's
    increment ``by`` over the bet to call (``level``), or the ``chips`` put in."""
    if to is not None:
        return to
    if by is not None:
        return level + by
    return before + (chips if chips is not None else Decimal(0))


__all__ = ["AGGRESSIVE", "completes", "named", "street_total", "written_total"]
