"""The per-action path's shortcuts (issue 34, round i34e18), each held to what it stands for:
the turn's test without 7th street's unprinted cards, the street of the last action noted
once a round, a later street's best board started from a key above every board's, and the
general scan of who acts next stopping at the first player who owes."""

from __future__ import annotations

import random
from decimal import Decimal

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from studbook.cards import Card
from studbook.check import start_state
from studbook.engine.rules import order
from studbook.engine.state import StudState
from studbook.engine.table import board_key
from studbook.events import Action, Event, Stakes, Street

from test_engine_actions import _hands
from test_engine_fast import _reference_next, random_table
from test_engine_live import EVENTS, _seated

D = Decimal


def _turn_facts(state: StudState) -> None:
    # nobody is to act while 7th street's unprinted cards are due (on_action's turn test
    # no longer asks implicit_river_due: "not the player to act" sends the turn to start_turn)
    assert state.round.to_act is None or not state.implicit_river_due


def _applied_street(state: StudState, e: Event) -> Street | None:
    """The street an action is applied on (None: not applied: from no seat, or before 3rd street)."""
    if isinstance(e, Action) and e.player in state.by_name and state.street is not None:
        return state.street
    return None


def test_the_turn_and_the_last_actions_street_after_every_event() -> None:
    """The sample, simulated and edited hands: after every event nobody is to act while 7th
    street's unprinted cards are due, and ``last_action_street`` is the street of the latest
    action applied (noted at a round's first action only). Fails if a round could start
    before the unprinted cards, or if a later action of a round left the street unnoted."""
    due = 0
    for hand in _hands():
        state = start_state(hand)
        last: Street | None = None
        for e in hand.events:
            last = _applied_street(state, e) or last
            due += state.implicit_river_due
            state.apply(e)
            _turn_facts(state)
            assert state.last_action_street is last, (e, state.last_action_street, last)
    assert due > 100, due


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EVENTS, max_size=24))
def test_the_turn_and_the_last_actions_street_in_any_order(events: list[Event]) -> None:
    """The same facts where antes, streets, deals and actions of every kind come in any order."""
    state = _seated()
    last: Street | None = None
    for e in events:
        last = _applied_street(state, e) or last
        state.apply(e)
        _turn_facts(state)
        assert state.last_action_street is last


RANKS = "23456789TJQKA"
DECK = [Card.parse(r + s) for r in RANKS for s in "cdhs"]


@settings(max_examples=examples(500), deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=1, max_size=16, unique=True), st.booleans())
def test_every_boards_key_sorts_before_the_openings_start(up: list[Card], low: bool) -> None:
    """A later street's best board starts from ``_AFTER_EVERY_KEY`` (no None test a player):
    every board's key, high or low, of one to sixteen cards, sorts before it. Fails with a
    start that a board's key could reach (the first board would not become the best)."""
    assert board_key(up, low) < order._AFTER_EVERY_KEY


def test_the_general_scan_matches_the_one_pass_reference_where_the_player_owes() -> None:
    """``_advance_scan`` stops at the first able player who owes (a fold's common case) and
    answers "the hand is won" from the table's count: against the one-pass reference, over
    tables where the player to move folded, is all-in or still owes and others owe or not.
    Fails with a walk that returns a later owing player past one who has not acted, or that
    reads the count without the player's own seat."""
    rng = random.Random(34)
    for _ in range(4000):
        state, current = random_table(rng)
        p = rng.choice(state.order)
        if p.live and not p.all_in and rng.random() < 0.5:
            p.street_in = D(0)  # (still owes: the general scan, not advance's own walk)
        want = _reference_next(state.order, p, current)
        order.advance(state, p)
        assert (state.round.to_act, state.hand_over) == want


AMOUNT = st.decimals(min_value=0, max_value=1000, places=2, allow_nan=False, allow_infinity=False)


@settings(max_examples=examples(300), deadline=None)
@given(AMOUNT, AMOUNT, st.decimals(min_value=-1000, max_value=1000, places=2, allow_nan=False,
                                   allow_infinity=False))
def test_a_raise_counts_as_a_bet_where_it_is_at_least_half_of_one(unit: Decimal, level: Decimal,
                                                                   increment: Decimal) -> None:
    """``_raise_levels`` asks first whether a raise is a full one (a full bet or more is at
    least half of one, bets being never negative) and works out the product only else: the
    round's count and level are those of rule bet.size's half-bet test alone. Fails with
    the first test alone (a raise of half the bet or more, short of a full one, would not
    count)."""
    from studbook.engine.rules import bets

    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), [(1, "ann", D(100)), (2, "bob", D(100))])
    r = state.round
    r.bet_level = r.current_bet = level
    bets._raise_levels(state, state.order[0], level + increment, (unit,))
    full = increment * 2 >= unit
    assert (r.bets, r.bet_level) == ((1, level + increment) if full else (0, level))
