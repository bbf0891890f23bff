"""A bet's shortcuts (issue 34, round i34e24): ``_raise_levels`` takes a size legal_actions()
offers for a full raise without working out its increment, which rests on the last full level
(``bet_level``) never being above the bet to call (``current_bet``), the base of the sizes
``_raise_targets`` offers; ``_raise_targets`` takes a player whose street total is the bet, one
object, to owe nothing."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from studbook.check import start_state
from studbook.engine.rules import bets
from studbook.engine.state import StudState
from studbook.engine.table import Round
from studbook.events import Event

from test_engine_actions import _hands
from test_engine_live import EVENTS, _seated

D = Decimal
_LEVELS = ("bets", "bet_level", "current_bet", "big_bet_made", "units", "aggressor")


def _levels(r: Round) -> tuple[Any, ...]:
    return tuple(getattr(r, name) for name in _LEVELS)


def _as_worked_out(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """``_raise_levels`` checked at every call told the size is offered: the round it leaves is
    the one the increment's tests leave (the call run both ways from the same round). Returns
    a one-item list counting those calls."""
    original = bets._raise_levels
    told = [0]

    def both_ways(s: StudState, p: Any, to: Any, units: Any, offered_size: bool = False) -> None:
        if offered_size:
            told[0] += 1
            before = _levels(s.round)
            original(s, p, to, units, False)
            worked_out = _levels(s.round)
            for name, value in zip(_LEVELS, before):
                setattr(s.round, name, value)
            original(s, p, to, units, True)
            assert _levels(s.round) == worked_out, (to, units, before)
        else:
            original(s, p, to, units, offered_size)

    monkeypatch.setattr(bets, "_raise_levels", both_ways)
    return told


def _level_facts(state: StudState) -> None:
    # the last full level is never above the bet to call (every writer: the bring-in, a
    # short bring-in's first caller, a completion, a bet or raise, a street's reset)
    assert state.round.bet_level <= state.round.current_bet


def test_an_offered_sizes_levels_are_the_worked_out_ones_in_every_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample, simulated and edited hands: after every event the last full level is at
    most the bet to call, and every bet or raise of an offered size leaves the round's levels
    as the increment's tests would. Fails if the shortcut were taken for a size whose increment
    over the last full level is not the size in force (an offered size based on another
    level), or with the level written above the bet."""
    told = _as_worked_out(monkeypatch)
    for hand in _hands():
        state = start_state(hand)
        for e in hand.events:
            state.apply(e)
            _level_facts(state)
    assert told[0] > 500, told


@settings(max_examples=examples(300), deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(st.lists(EVENTS, max_size=24))
def test_an_offered_sizes_levels_are_the_worked_out_ones_in_any_order(monkeypatch: pytest.MonkeyPatch,
                                                                     events: list[Event]) -> None:
    """The same where antes, streets, deals and actions of every kind come in any order."""
    with monkeypatch.context() as patched:
        _as_worked_out(patched)
        state = _seated()
        for e in events:
            state.apply(e)
            _level_facts(state)


@settings(max_examples=examples(500), deadline=None)
@given(st.sampled_from([D(0), D("0.00"), D(1), D(2), D("2.5")]), st.sampled_from([D(-1), D(0), D(1), D(3), D(50)]),
       st.booleans())
def test_a_street_total_that_is_the_bet_owes_nothing_in_the_offered_sizes(level: Any, stack: Any,
                                                                         acted: bool) -> None:
    """``_raise_targets`` takes a player whose street total is the bet to call, one object
    (a street's first bet: both the hand's zero), to owe nothing without the difference: its
    sizes are those of the same figures as objects of their own. Fails if the shortcut left
    out the stack's test (a player with no chips, or fewer than nothing, offered a raise)."""
    def sizes(same: bool) -> tuple[Any, ...]:
        state = _seated()
        p, other = state.by_name["ann"], state.by_name["cy"]
        for q in (p, other):
            q.in_hand = q.live = True
        state.live_left = 2
        r = state.round
        r.current_bet = r.bet_level = level
        p.street_in = level if same else D(str(level))
        p.stack = stack
        p.acted, p.acted_level = acted, level
        return bets._raise_targets(state, p, False, (D(1),))

    assert sizes(True) == sizes(False)
