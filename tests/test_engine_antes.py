"""An ante's figures (issue 34, round i34e15): at the player's start the fast path works out
the sum once for the hand total and the ante (both the hand's zero); every ante, on any path
and in any order, leaves each figure exactly the plain sum of the amounts posted (value,
exponent and sign: the output prints them)."""

from __future__ import annotations

from decimal import Decimal

from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from studbook.engine.state import StudState
from studbook.events import PostAnte, Stakes, Street, StreetStart

D = Decimal
NAMES = ("ann", "bob", "cy", "nobody")
# exponents below, at and above zero, a zero of another exponent and a negative zero, an int
AMOUNTS = [D("0.5"), D("0.50"), D(1), D("1E+1"), D("0.00"), D("-0"), D(3), 2]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(NAMES), st.sampled_from(AMOUNTS), st.booleans(), st.booleans()),
                max_size=12),
       st.sampled_from([None, D("0.5"), D("1E+1")]))
def test_an_antes_figures_are_the_plain_sums_of_the_amounts_posted(
        posts: list[tuple[str, Decimal | int, bool, bool]], ante: Decimal | None) -> None:
    state = StudState.new("stud", Stakes(D(2), D(4), ante, D(1)),
                          [(1, "ann", D(100)), (2, "bob", D("2.50")), (4, "cy", D(40))])
    zero = state.zero
    total = {name: zero for name in NAMES}
    antes = dict(total)
    for line, (name, amount, all_in, after_street) in enumerate(posts, 1):
        if after_street and state.street is None:
            state.apply(StreetStart(file="", line=line, street=Street.THIRD))
        state.apply(PostAnte(file="", line=line, player=name, amount=amount, all_in=all_in))  # type: ignore[arg-type]
        total[name] += amount
        antes[name] += amount
    for p in state.players:
        for mine, want in ((p.total, total[p.name]), (p.ante, antes[p.name])):
            assert (str(mine), type(mine)) == (str(want), type(want)), (p.name, mine, want)
            if isinstance(want, Decimal):
                assert mine.as_tuple() == want.as_tuple(), (p.name, mine, want)


def test_players_posting_one_ante_object_share_its_sum() -> None:
    """The readers remember amounts, so a hand's antes are mostly one object: its sum with the
    hand's zero (each player's first hand total and ante) is worked out once and shared
    (issue 34, round i34e21: an addition is some 450 instructions on a cash table). Fails on
    84c313e, one sum a player. Another object of an equal value (another exponent) gets its
    own sum, exactly as written."""
    ante, other = D("0.10"), D("0.1")
    state = StudState.new("stud", Stakes(D(2), D(4), ante, D(1)),
                          [(1, "ann", D(100)), (2, "bob", D(100)), (3, "cy", D(100)), (4, "dee", D(100))])
    for line, (name, amount) in enumerate((("ann", ante), ("bob", ante), ("cy", other), ("dee", ante)), 1):
        state.apply(PostAnte(file="", line=line, player=name, amount=amount))
    ann, bob, cy, dee = state.players
    assert ann.total is ann.ante is bob.total is bob.ante
    assert str(ann.total) == "0.10" and str(cy.total) == "0.1" and str(dee.total) == "0.10"
    assert str(state.pot) == "0.40" and not state.violations


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(NAMES), st.integers(0, len(AMOUNTS) - 1), st.booleans(), st.booleans()),
                max_size=12),
       st.sampled_from([None, D("0.5"), D("1E+1"), D(0)]))
def test_an_ante_taken_as_the_last_one_the_fast_path_took_is_judged_as_compared(
        posts: list[tuple[str, int, bool, bool]], ante: Decimal | None) -> None:
    """The fast path takes an amount that is the object it took last (``Table.ante_start``)
    without comparing it with the ante in force (issue 34, round i34e24: the readers remember
    amounts, so a hand's ante lines share one object). The same posts with every amount a
    new object of its own (no two alike, so every test compares) leave the same violations,
    figures and pot. Fails if the object remembered were one the fast path had not judged
    the ante in force (a wrong ante posted twice would pass the second time)."""
    def run(fresh: bool) -> tuple[object, ...]:
        state = StudState.new("stud", Stakes(D(2), D(4), ante, D(1)),
                              [(1, "ann", D(100)), (2, "bob", D("2.50")), (4, "cy", D(40))])
        for line, (name, k, all_in, after_street) in enumerate(posts, 1):
            amount = AMOUNTS[k]
            if fresh and isinstance(amount, Decimal):
                amount = Decimal(str(amount))  # (a new object: identity tests all fail)
            if after_street and state.street is None:
                state.apply(StreetStart(file="", line=line, street=Street.THIRD))
            state.apply(PostAnte(file="", line=line, player=name, amount=amount, all_in=all_in))  # type: ignore[arg-type]
        return ([(v.rule, v.line, v.message) for v in state.violations], str(state.pot),
                [(str(p.stack), str(p.total), str(p.ante), p.in_hand) for p in state.players])

    assert run(False) == run(True)
