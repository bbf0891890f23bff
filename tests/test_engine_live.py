"""Each player's ``live`` (dealt in and not folded) kept as state where either part changes
(issue 34, round i34e12): the order of action's walks read one flag a player, not two, and
the flag is always what it stands for."""

from __future__ import annotations

import dis
from decimal import Decimal
from typing import Any, Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from studbook.check import start_state
from studbook.engine.rules import bets, deal, order, showdown
from studbook.engine.state import StudState
from studbook.engine.table import PlayerState, Table
from studbook.events import Action, ActionKind, Deal, Event, PostAnte, Seat, Stakes, Street, StreetStart

from test_engine_actions import _hands

D = Decimal
NAMES = ("ann", "bob", "cy", "dee", "nobody")


def _consistent(state: StudState) -> None:
    for p in state.players:
        assert p.live is (p.in_hand and not p.folded), (p.name, p.in_hand, p.folded, p.live)


def test_live_is_dealt_in_and_not_folded_after_every_event() -> None:
    """The sample histories, simulated hands of each variant and both edited at random: after
    every event applied, each player's ``live`` is ``in_hand and not folded``."""
    folds = 0
    for hand in _hands():
        state = start_state(hand)
        _consistent(state)
        for e in hand.events:
            state.apply(e)
            _consistent(state)
        folds += sum(p.folded for p in state.players)
    assert folds > 1000, folds


def _seated() -> StudState:
    # (dee sits out: dealt in only by an ante, a deal or an action of theirs)
    seats = [Seat(file="", line=1, seat=1, player="ann", stack=D(100)),
             Seat(file="", line=2, seat=2, player="bob", stack=D(3)),
             Seat(file="", line=3, seat=4, player="cy", stack=D(50)),
             Seat(file="", line=4, seat=6, player="dee", stack=D(40), sitting_out=True)]
    return StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), seats)


AMOUNTS = st.sampled_from([None, D("0.5"), D(1), D(2), D(4), D(50)])
EVENTS: st.SearchStrategy[Event] = st.one_of(
    st.builds(PostAnte, file=st.just(""), line=st.integers(1, 9), player=st.sampled_from(NAMES),
              amount=st.sampled_from([D("0.5"), D(1), D(3)]), all_in=st.booleans()),
    st.builds(StreetStart, file=st.just(""), line=st.integers(1, 9), street=st.sampled_from(list(Street))),
    st.builds(Deal, file=st.just(""), line=st.integers(1, 9), player=st.sampled_from(NAMES),
              street=st.sampled_from(list(Street))),
    st.builds(Action, file=st.just(""), line=st.integers(1, 9), player=st.sampled_from(NAMES),
              kind=st.sampled_from(list(ActionKind)), amount=AMOUNTS, to=AMOUNTS, all_in=st.booleans()),
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(EVENTS, max_size=24))
def test_live_follows_folds_and_deal_ins_in_any_order(events: list[Event]) -> None:
    """Antes, streets, deals and actions of every kind in any order (a seat sitting out
    dealt in by an ante, a deal or an action; folds twice, out of turn, from no seat):
    ``live`` stays ``in_hand and not folded``."""
    state = _seated()
    assert state.by_name["dee"].live is False
    for e in events:
        state.apply(e)
        _consistent(state)


WALKS: tuple[Callable[..., Any], ...] = (
    order.advance, order._advance_scan, order._opening_later, order._opening_third, order._best_able,
    order._next_from, order._ensure_round, bets._raise_targets, bets._has_open_pair, deal.check_missing_deals,
    Table.live_count, Table.dealing_order, PlayerState.can_act.fget,  # type: ignore[attr-defined]
)


def test_the_walks_over_the_players_read_one_flag_for_live() -> None:
    """The order of action's walks and the others that ask whether a player is live read
    ``live`` (one attribute), not ``in_hand`` and ``folded`` (two; main read both for every
    live player walked past)."""
    read: dict[str, set[str]] = {}
    for fn in WALKS:
        names = set()
        for code in (fn.__code__, *(c for c in fn.__code__.co_consts if hasattr(c, "co_code"))):
            names |= {i.argval for i in dis.get_instructions(code) if i.opname == "LOAD_ATTR"}
        read[fn.__qualname__] = names & {"in_hand", "folded", "live"}
    assert all(names == {"live"} for names in read.values()), read
