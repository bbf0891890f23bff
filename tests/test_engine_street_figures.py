"""The street figures (each player's ``street_in`` and ``acted``) at a street's start (issue 34,
round i34e10): the first street does not walk the players to reset them, since nothing
before it sets them; every later street does."""

from __future__ import annotations

import sys
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from studbook.check import check_hand
from studbook.engine import state as state_module
from studbook.engine.rules import order
from studbook.engine.state import StudState
from studbook.engine.table import ZERO, Table
from studbook.events import Action, ActionKind, Event, PostAnte, Stakes, Street, StreetStart, UncalledReturned
from studbook.parse import parse_paths
from studbook.simulate import simulate_hands

ROOT = Path(__file__).resolve().parent.parent
D = Decimal
NAMES = ("ann", "bob", "cy", "nobody")


def _state() -> StudState:
    return StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)),
                         [(1, "ann", D(100)), (2, "bob", D(3)), (4, "cy", D("0.5"))])


AMOUNTS = st.sampled_from([D("0.25"), D("0.5"), D(1), D(3), D(50), D(200)])
BEFORE_THIRD: st.SearchStrategy[Event] = st.one_of(
    st.builds(PostAnte, file=st.just(""), line=st.integers(1, 9), player=st.sampled_from(NAMES),
              amount=AMOUNTS, all_in=st.booleans()),
    st.builds(Action, file=st.just(""), line=st.integers(1, 9), player=st.sampled_from(NAMES),
              kind=st.sampled_from(list(ActionKind)), amount=st.one_of(st.none(), AMOUNTS),
              to=st.one_of(st.none(), AMOUNTS), all_in=st.booleans()),
    st.builds(UncalledReturned, file=st.just(""), line=st.integers(1, 9), player=st.sampled_from(NAMES),
              amount=AMOUNTS),
)


@settings(max_examples=examples(200), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(BEFORE_THIRD, max_size=8))
def test_nothing_before_the_first_street_sets_a_street_figure(events: list[Event]) -> None:
    """Antes (right, wrong, twice, all-in, from no seat), actions of every kind and uncalled
    returns before any street: every player's ``street_in`` is still 0 and ``acted`` False,
    which is why the first street needs no walk to reset them."""
    state = _state()
    state.apply_all(events)
    assert state.street is None
    for p in state.players:
        assert p.street_in == ZERO and p.acted is False, (p.name, p.street_in, p.acted)


def test_the_first_street_walks_no_player_and_later_streets_reset_every_one() -> None:
    """The first street start leaves the street figures as they are (main walked every player
    to reset them); each later street sets every player's, folded or not, to 0 and False."""
    state = _state()
    state.post_antes()
    ann = state.by_name["ann"]
    ann.acted = True  # (a mark: nothing in a real log sets it before 3rd street)
    state.start_street(Street.THIRD)
    assert ann.acted is True
    ann.acted = False
    for p in state.players:
        p.street_in, p.acted = D(2), True
    state.players[1].folded, state.players[1].live = True, False
    state.start_street(Street.FOURTH)
    assert [(p.street_in, p.acted) for p in state.players] == [(ZERO, False)] * 3


def _with_first_street_reset(s: Table, e: StreetStart) -> None:
    """The reference: every street's start resets every player's street figures, the first too."""
    if s.street is None:
        for p in s.order:
            p.street_in = ZERO
            p.acted = False
    order.on_street(s, e)


def test_hands_check_the_same_as_with_the_first_streets_reset(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample histories and simulated hands of every variant check the same (violations,
    results, pots, rake and each action's facts) as with the first street's walk put back."""
    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    for n, variant in enumerate(("stud", "stud8", "razz")):
        hands += simulate_hands(variant, 60, 2 + 3 * n, seed=910 + n, tournament=bool(n % 2))
    got = [check_hand(h) for h in hands]
    monkeypatch.setitem(state_module._HANDLERS, StreetStart, _with_first_street_reset)
    want = [check_hand(h) for h in hands]
    for a, b in zip(got, want):
        assert (a.violations, a.players, a.pots, a.rake, a.actions) == (b.violations, b.players, b.pots, b.rake,
                                                                          b.actions)


def test_a_later_streets_opening_asks_each_boards_length_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The later streets' opening walk (rule order.first) takes each live board's length once,
    for the short-board test and the board keys' memo alike (main: twice a board), and reads
    the memo only where there is no community card."""
    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    hands += simulate_hands("stud", 40, 8, seed=920)
    code = order._opening_later.__code__
    boards = lens = 0

    def profile(frame: object, what: str, arg: object) -> None:
        nonlocal lens
        if what == "c_call" and getattr(arg, "__name__", "") == "len" and getattr(frame, "f_code", None) is code:
            lens += 1

    def counted(s: Table) -> order.Opening:
        nonlocal boards
        expected_up = 4 if s.street is Street.SEVENTH else (s.street or 3) - 2
        for p in s.order:  # (the boards the walk keys: live, until one is short)
            if p.in_hand and not p.folded:
                boards += 1
                if len(p.up) < expected_up:
                    break
        sys.setprofile(profile)
        try:
            return opening(s)
        finally:
            sys.setprofile(None)

    opening = order._opening_later
    monkeypatch.setattr(order, "_opening_later", counted)
    for hand in hands:
        check_hand(hand)
    assert boards > 200 and lens == boards, (boards, lens)
