"""Each player's ``live`` (dealt in and not folded) kept as state where either part changes
(issue 34, round i34e12): the order of action's walks read one flag a player, not two, and
the flag is always what it stands for. Since i34e15 its two writers (``Table.deal_in``, the
fold in ``rules/bets.py``) keep the count of live players (``Table.live_left``) with it; a
street's missing deals are walked only when the deal's fast path dealt fewer."""

from __future__ import annotations

import dis
import random
from dataclasses import replace
from decimal import Decimal
from typing import Any, Callable

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from budget import examples
from studbook.cards import Card
from studbook.check import check_hand, start_state
from studbook.engine.messages import DEAL_PATTERN_NO_CARD
from studbook.engine.profiles import DEFAULT
from studbook.engine.rules import bets, deal, order, showdown
from studbook.engine.state import StudState
from studbook.engine import table
from studbook.engine.table import PlayerState, Round, SEVENTH, Table
from studbook.events import Action, ActionKind, Deal, Event, PostAnte, Seat, Stakes, Street, StreetStart

from test_engine_actions import _hands

D = Decimal
NAMES = ("ann", "bob", "cy", "dee", "nobody")


def _consistent(state: StudState) -> None:
    for p in state.players:
        assert p.live is (p.in_hand and not p.folded), (p.name, p.in_hand, p.folded, p.live)
    assert state.live_left == sum(p.live for p in state.players), state.live_left
    if state.street is None:  # (deal.begin_hand counts the dealt in as live_left: nobody folded yet)
        assert state.live_left == sum(p.in_hand for p in state.players)


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


def _seated(every_up_card: bool = False) -> StudState:
    # (dee sits out: dealt in only by an ante, a deal or an action of theirs; every_up_card:
    # a site that logs every up card, where rule deal.pattern asks for each street's deals)
    seats = [Seat(file="", line=1, seat=1, player="ann", stack=D(100)),
             Seat(file="", line=2, seat=2, player="bob", stack=D(3)),
             Seat(file="", line=3, seat=4, player="cy", stack=D(50)),
             Seat(file="", line=4, seat=6, player="dee", stack=D(40), sitting_out=True)]
    profile = replace(DEFAULT, logs_every_up_card=True) if every_up_card else None
    return StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), seats, profile)


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
    Table.dealing_order, PlayerState.can_act.fget,  # type: ignore[attr-defined]
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


def test_live_is_written_where_it_changes_with_the_count() -> None:
    """``PlayerState.live`` is written at the player's start and where it changes: a deal-in
    (``Table.deal_in``) and a fold (``bets.on_action``'s fold: a Table method for it cost a
    call a fold, 4.3k instructions a simulated hand), each with ``live_left``; nowhere else."""
    import inspect

    from studbook.engine import settle, snapshot, state as state_module

    for module in (deal, order, showdown, settle, snapshot, state_module):
        assert ".live = " not in inspect.getsource(module), module.__name__
    assert inspect.getsource(bets).count(".live = ") == 1
    assert inspect.getsource(bets.on_action).count("live_left -= 1") == 1
    assert inspect.getsource(Table.deal_in).count("live_left += 1") == 1


def _walking_missing_deals(s: Table, line: int) -> None:
    """Rule deal.pattern's missing deals as written before the deal count: every street, a
    walk of the players."""
    street = s.street
    r = s.round
    if r.deals_verified or street is None:
        return
    if s.profile.logs_every_up_card and street is not SEVENTH:
        bit = 1 << street
        for p in s.order:
            if not p.dealt & bit and p.live:
                p.dealt |= bit
                s.report(DEAL_PATTERN_NO_CARD, line, player=p.name, street=street)
    r.deals_verified = True


class _UncountedRound(Round):
    """A round whose deal count never reaches a table's live players: whoever reads it
    (check_missing_deals, and the round's start, which asks the count itself) walks."""

    __slots__ = ()

    @property  # type: ignore[override]
    def deals(self) -> int:
        return -1000

    @deals.setter
    def deals(self, value: int) -> None:
        pass


def _walking(m: pytest.MonkeyPatch) -> None:
    """The missing deals walked at every street: the walk itself, and no count to trust."""
    m.setattr(order, "check_missing_deals", _walking_missing_deals)
    m.setattr(deal, "check_missing_deals", _walking_missing_deals)
    m.setattr(table, "Round", _UncountedRound)


def _checked_both_ways(hand: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Any, Any]:
    ours = check_hand(hand)
    with monkeypatch.context() as m:
        _walking(m)
        walked = check_hand(hand)
    assert isinstance(start_state(hand).round, Round) and not isinstance(start_state(hand).round, _UncountedRound)
    return ours, walked


def _dropped_deal_or_moved_fold(hand: Any, rng: random.Random) -> Any:
    """``hand`` with a deal dropped, or a fold moved earlier (before the street's deals)."""
    events = list(hand.events)
    deals = [i for i, e in enumerate(events) if isinstance(e, Deal)]
    folds = [i for i, e in enumerate(events) if isinstance(e, Action) and e.kind is ActionKind.FOLD]
    if folds and rng.random() < 0.5:
        i = rng.choice(folds)
        events.insert(rng.randrange(0, i + 1), events.pop(i))
    elif deals:
        del events[rng.choice(deals)]
    return replace(hand, events=tuple(events))


def test_a_streets_missing_deals_are_the_walks_with_the_deal_count(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample, simulated and edited hands, and each again with a deal dropped or a fold
    moved before the deals: the same violations, results and pots as the missing deals
    walked at every street; most streets are answered without the walk."""
    from test_engine_actions import _hands

    walks = 0
    original = deal.check_missing_deals

    def counting(s: Table, line: int) -> None:
        nonlocal walks
        if not s.round.deals_verified and s.street is not None:
            walks += s.round.deals < s.live_left or s.round.first is not None
        original(s, line)

    rng = random.Random(15)
    hands = _hands()
    edited = [_dropped_deal_or_moved_fold(h, rng) for h in hands]
    reported = 0
    for hand in hands + edited:
        ours, walked = _checked_both_ways(hand, monkeypatch)
        assert (ours.violations, ours.players, ours.pots) == (walked.violations, walked.players, walked.pots), hand
        reported += any(v.message.endswith("street card") for v in ours.violations)
    with monkeypatch.context() as m:
        m.setattr(order, "check_missing_deals", counting)
        for hand in hands:
            check_hand(hand)
    streets = sum(isinstance(e, StreetStart) for hand in hands for e in hand.events)
    assert reported > 50, reported
    assert streets > 1000 and walks < streets / 4, (walks, streets)


CARDS = [Card.parse(text) for text in ("2c", "3d", "4h", "5s", "6c", "7d", "8h", "9s", "Tc", "Jd", "Qh", "Ks")]
DEALS_AND_FOLDS: st.SearchStrategy[Event] = st.one_of(
    EVENTS,
    st.builds(Deal, file=st.just(""), line=st.integers(1, 9), player=st.sampled_from(NAMES),
              street=st.sampled_from(list(Street)), up=st.tuples(st.sampled_from(CARDS))),
    st.builds(Action, file=st.just(""), line=st.integers(1, 9), player=st.sampled_from(NAMES),
              kind=st.just(ActionKind.FOLD)),
)


@settings(max_examples=examples(300), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(DEALS_AND_FOLDS, max_size=30))
def test_missing_deals_with_the_count_are_the_walks_in_any_order(events: list[Event]) -> None:
    """Antes, streets, one-card deals, folds and other actions in any order (deals of a
    street the deal's fast path counts, then folds, deal-ins, deals twice): the violations
    and every player's dealt streets are those of the walk at every street."""
    ours = _seated(True)
    for e in events:
        ours.apply(e)
        _consistent(ours)
    ours.end_betting(99)
    with pytest.MonkeyPatch.context() as m:
        _walking(m)
        walked = _seated(True)
        for e in events:
            walked.apply(e)
        walked.end_betting(99)
    assert [v.message for v in ours.violations] == [v.message for v in walked.violations]
    assert [p.dealt for p in ours.players] == [p.dealt for p in walked.players]


def test_a_player_dealt_in_after_a_fold_is_missing_the_streets_deal() -> None:
    """3rd street: ann, bob and cy dealt (the count is the live players'), the round opens,
    ann folds, then dee (sitting out) acts and is dealt in: dee has no 3rd-street card, as
    the walk finds; the count of deals, ann's among them, would not (deal_in resets it)."""
    state = _seated(True)
    state.apply(StreetStart(file="", line=1, street=Street.THIRD))
    for line, (name, card) in enumerate((("ann", "2c"), ("bob", "3d"), ("cy", "4h")), 2):
        state.apply(Deal(file="", line=line, player=name, street=Street.THIRD, up=(Card.parse(card),)))
    assert state.round.deals == 3 == state.live_left
    first = order.round_opening(state)[0]
    assert first is not None
    state.apply(Action(file="", line=5, player=first.name, kind=ActionKind.BRING_IN, amount=D("0.5")))
    folder = next(p for p in state.order if p.live and p is not first)
    state.apply(Action(file="", line=6, player=folder.name, kind=ActionKind.FOLD))
    state.apply(Action(file="", line=7, player="dee", kind=ActionKind.CALL, amount=D("0.5")))
    assert state.by_name["dee"].live and state.live_left == 3
    state.end_betting(9)
    missing = [v.message for v in state.violations if v.message.endswith("street card")]
    assert missing == ["dee received no 3rd-street card"], [v.message for v in state.violations]


def test_players_counted_after_a_late_deal_in_who_fold_do_not_hide_a_missing_deal() -> None:
    """3rd street: ann, bob and cy dealt; the round opens; dee, eve and fay (sitting out) act
    and are dealt in, eve's and fay's cards dealt after; ann, bob, cy and eve fold: dee (live,
    never dealt) is missing the street's card, as the walk finds, though the deals counted
    since the last deal-in (eve, fay) are as many as the live players (dee, fay)."""
    names = ("ann", "bob", "cy", "dee", "eve", "fay")
    seats = [Seat(file="", line=i, seat=i, player=n, stack=D(50), sitting_out=i > 3) for i, n in enumerate(names, 1)]
    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), seats, replace(DEFAULT, logs_every_up_card=True))
    state.apply(StreetStart(file="", line=1, street=Street.THIRD))
    for line, (name, card) in enumerate((("ann", "2c"), ("bob", "3d"), ("cy", "4h")), 2):
        state.apply(Deal(file="", line=line, player=name, street=Street.THIRD, up=(Card.parse(card),)))
    first = order.round_opening(state)[0]
    assert first is not None
    state.apply(Action(file="", line=5, player=first.name, kind=ActionKind.BRING_IN, amount=D("0.5")))
    for line, name in enumerate(("dee", "eve", "fay"), 6):
        state.apply(Action(file="", line=line, player=name, kind=ActionKind.CALL, amount=D("0.5")))
    for line, (name, card) in enumerate((("eve", "5s"), ("fay", "6c")), 9):
        state.apply(Deal(file="", line=line, player=name, street=Street.THIRD, up=(Card.parse(card),)))
    for line, name in enumerate(("ann", "bob", "cy", "eve"), 11):
        state.apply(Action(file="", line=line, player=name, kind=ActionKind.FOLD))
    assert [p.name for p in state.order if p.live] == ["dee", "fay"] and not state.hand_over
    state.end_betting(20)
    missing = [v.message for v in state.violations if v.message.endswith("street card")]
    assert missing == ["dee received no 3rd-street card"], [v.message for v in state.violations]


def test_a_fold_before_the_deals_are_asked_leaves_the_walk_to_find_the_missing_deal() -> None:
    """Events without a line (line 0: a round's first action does not ask for the deals then,
    the round's end does): ann and bob dealt, cy not; ann folds before the ask: cy is missing
    the street's card, as the walk finds, though the deals counted (ann, bob) are as many as
    the live players (bob, cy)."""
    seats = [(i, n, D(50)) for i, n in enumerate(("ann", "bob", "cy"), 1)]
    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), seats, replace(DEFAULT, logs_every_up_card=True))
    state.apply(StreetStart(file="", line=0, street=Street.THIRD))
    for name, card in (("ann", "2c"), ("bob", "3d")):
        state.apply(Deal(file="", line=0, player=name, street=Street.THIRD, up=(Card.parse(card),)))
    state.apply(Action(file="", line=0, player="ann", kind=ActionKind.FOLD))
    assert state.round.deals == 2 == state.live_left and not state.round.deals_verified
    state.end_betting(0)
    missing = [v.message for v in state.violations if v.message.endswith("street card")]
    assert missing == ["cy received no 3rd-street card"], [v.message for v in state.violations]
