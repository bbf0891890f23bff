"""A hand's money operations answered with less Decimal arithmetic where the answer is known
(issue 34, round i34e21), each held to the arithmetic it stands for: a player's net where
nothing was collected, the showing order by a comparison, and the seats' order where the log
lists them in order."""

from __future__ import annotations

from dataclasses import replace
from decimal import Decimal

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from studbook.engine import table
from studbook.engine.rules import showdown
from studbook.engine.settle import finish
from studbook.engine.state import StudState
from studbook.events import Collect, PostAnte, Stakes

D = Decimal
NAMES = ("ann", "bob", "cy")
# exponents below, at and above zero, a zero of another exponent and a negative zero
AMOUNTS = [D("0.5"), D("0.50"), D(1), D("1E+1"), D("0.00"), D("-0"), D(3), D("-0.25")]
CHIPS = [0, 1, 2, 5, 40, -3]


@settings(max_examples=examples(300), deadline=None)
@given(st.booleans(), st.data())
def test_a_players_net_is_what_they_collected_less_their_total_exactly(chips: bool, data: st.DataObject) -> None:
    """A player who collected nothing has the hand's zero itself as ``collected``, and the net
    is worked out as the total's negation (cheaper than the subtraction): the same figure,
    value, exponent, sign and type, since a total is a sum from the hand's zero. Fails with a
    negation where the total's exponent could be above the zero's, or where the zero's
    sign or type differs."""
    amounts = st.sampled_from(CHIPS if chips else AMOUNTS)
    stakes = Stakes(2, 4, None, 1) if chips else Stakes(D(2), D(4), None, D(1))
    state = StudState.new("stud", stakes, [(1, "ann", D(100)), (2, "bob", D(100)), (3, "cy", D(100))])
    posts = data.draw(st.lists(st.tuples(st.sampled_from(NAMES), amounts), max_size=8))
    for line, (name, amount) in enumerate(posts, 1):
        state.apply(PostAnte(file="", line=line, player=name, amount=amount))
    collects = data.draw(st.lists(st.tuples(st.sampled_from(NAMES), amounts), max_size=2))
    for line, (name, amount) in enumerate(collects, 20):
        state.apply(Collect(file="", line=line, player=name, amount=amount))
    _, results, _, _ = finish(state, 30)
    for r in results:
        want = r.collected - r.contributed
        assert (str(r.net), type(r.net)) == (str(want), type(want)), r
        if isinstance(want, Decimal):
            assert r.net.as_tuple() == want.as_tuple(), r


class _CountingKey:
    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, p: table.PlayerState) -> int:
        self.calls += 1
        return p.seat


def test_seats_listed_in_order_are_not_sorted_and_others_are_by_seat_as_listed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A log lists its seats in order, told in the seating loop (no sort's key called a player,
    fails on 84c313e: one a player); out of order they are sorted by seat, equal seats kept as
    listed (a stable sort)."""
    key = _CountingKey()
    monkeypatch.setattr(table, "_SEAT", key)
    stakes = Stakes(D(2), D(4), None, D(1))
    state = StudState.new("stud", stakes, [(1, "ann", D(9)), (3, "bob", D(9)), (3, "cy", D(9)), (7, "dee", D(9))])
    assert [p.name for p in state.players] == ["ann", "bob", "cy", "dee"] and key.calls == 0
    state = StudState.new("stud", stakes, [(5, "ann", D(9)), (3, "bob", D(9)), (8, "cy", D(9)), (3, "dee", D(9))])
    assert [p.name for p in state.players] == ["bob", "dee", "ann", "cy"] and key.calls == 4


def _reference_show_key(s: StudState, first: table.PlayerState, q: table.PlayerState) -> tuple[object, int]:
    """84c313e's key of the showing order: the negated total (side pots first) and the place."""
    clockwise = (q.pos - first.pos) % len(s.order)
    return (-q.total if s.profile.shows_side_pots_first else s.zero, clockwise)


@settings(max_examples=examples(200), deadline=None)
@given(st.lists(st.sampled_from([D("0.5"), D("0.50"), D(1), D(3), D("1E+1"), D(0)]), min_size=2, max_size=8),
       st.booleans(), st.data())
def test_the_showing_order_compares_as_the_negated_totals_and_places_did(
        totals: list[Decimal], side_pots_first: bool, data: st.DataObject) -> None:
    """``_shows_after`` (a comparison, where a key of a negated total and a place made two
    negations and a tuple comparison a hand shown) orders every two players as 84c313e's key,
    from any first player, both ways of the profile; and ``showdown_order`` sorts as the key did."""
    seats = [(i + 1, f"p{i}", D(100)) for i in range(len(totals))]
    state = StudState.new("stud", Stakes(D(2), D(4), None, D(1)), seats)
    state.profile = replace(state.profile, shows_side_pots_first=side_pots_first)
    for p, total in zip(state.order, totals):
        p.total = total
    first = data.draw(st.sampled_from(state.order))
    for p in state.order:
        for q in state.order:
            want = _reference_show_key(state, first, p) > _reference_show_key(state, first, q)
            assert showdown._shows_after(state, first, p, q) is want, (p, q)
    state.final_aggressor = first
    rest = sorted((p for p in state.order if p is not first), key=lambda q: _reference_show_key(state, first, q))
    assert state.showdown_order() == [first.name] + [p.name for p in rest]
