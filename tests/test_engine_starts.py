"""A hand's start and each street's start (issue 34, round i34e6): what they ask, and that
they give what the general definitions give."""

from __future__ import annotations

import sys
from collections import Counter
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples

from studbook import check as check_module
from studbook.check import TableMemory, check_hand, start_state
from studbook.engine.rules import order
from studbook.engine.state import StudState
from studbook.engine.profiles import RuleProfile
from studbook.engine.table import BOARD_KEYS, PlayerState, Table, board_key
from studbook.events import Hand, Seat, Stakes, Street
from studbook.parse import parse_paths
from studbook.simulate import simulate_hands

ROOT = Path(__file__).resolve().parent.parent


def _hands() -> list[Hand]:
    """The sample histories and simulated hands of every variant, short stacks among them
    (all-in boards on later streets)."""
    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    for n, variant in enumerate(("stud", "stud8", "razz")):
        hands += simulate_hands(variant, 120, 2 + 3 * n, seed=700 + n, tournament=True)
    return hands


def _best(s: Table, players: list[PlayerState]) -> PlayerState:
    """The best board showing, players in dealing order (the first of equals)."""
    low = s.variant_rules.low_board_first
    keyed = [(board_key(p.up if s.community is None else [*p.up, s.community], low), i, p)
             for i, p in enumerate(players)]
    return min(keyed, key=lambda t: t[:2])[2]


def _reference_later_opening(s: Table) -> order.Opening:
    """A later street's opening as rule order.first states it, a list at each step (the
    engine's is one walk over the players)."""
    live = [p for p in s.order if p.in_hand and not p.folded]
    able = [p for p in live if not p.all_in]
    keep = s.bring_in_player, s.bring_in_optional
    if len(live) < 2 or len(able) < 2:
        return (None, s.round.first_ok, *keep)
    expected_up = 4 if s.street == 7 else (s.street or 3) - 2
    if any(len(p.up) < expected_up for p in live):
        return (able[0], tuple(able), *keep)
    best = _best(s, live)
    if not best.all_in:
        return (best, (best,), *keep)
    nxt = order._next_from(s, best.pos)
    best_able = _best(s, able)
    mode = s.profile.first_skip_all_in
    if mode == "next_clockwise":
        first_ok: tuple[PlayerState, ...] = (nxt,) if nxt else ()
    elif mode == "best_active":
        first_ok = (best_able,)
    else:
        first_ok = tuple(dict.fromkeys(q for q in (nxt, best_able) if q is not None))
    return ((first_ok[0] if first_ok else None), first_ok, *keep)


def test_a_later_streets_opening_is_the_reference_s_in_one_walk(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every later street's opening (sample and simulated hands, every site profile's
    way past an all-in best board) is what the reference gives, and, the board keys
    known, it makes no Python call: the live players, the able ones and the best boards
    come from one walk (main: a list of the live players, then ``_best_board`` over it,
    and over the able ones again when the best board is all-in)."""
    hands = _hands()
    for hand in hands:
        check_hand(hand)  # (the board keys' memo warm, as in a long run)
    opening = order._opening_later
    seen: Counter[str] = Counter()
    calls: list[str] = []

    def profile(frame: Any, what: str, arg: Any) -> None:
        if what == "call" and frame.f_back is not None and frame.f_back.f_code is opening.__code__:
            calls.append(frame.f_code.co_name)

    def checked(s: Table) -> order.Opening:
        before = len(calls)
        sys.setprofile(profile)
        try:
            got = opening(s)
        finally:
            sys.setprofile(None)
        assert got == _reference_later_opening(s)
        live = [p for p in s.order if p.in_hand and not p.folded]
        if got[0] is None:
            seen["no betting"] += 1
        elif got[1] == (got[0],) and got[0] is _best(s, live):  # the best board opens
            seen["best board"] += 1
            if all(_memo_has(s, p) for p in live):
                assert calls[before:] == [], calls[before:]
        else:  # past an all-in best board, or boards unknown
            seen["other"] += 1
        return got

    monkeypatch.setattr(order, "_opening_later", checked)
    for hand in hands:
        check_hand(hand)
    assert seen["best board"] > 500 and seen["other"] > 5, seen


def _memo_has(s: Table, p: PlayerState) -> bool:
    return s.community is None and len(p.up) <= 15 and p.up_ranks in BOARD_KEYS[s.variant_rules.low_board_first]


def test_the_opening_past_an_all_in_best_board_follows_each_profile() -> None:
    """The rarer branch of the one walk: the best board all-in, so the next player or the
    best board among those who can act opens, as the profile says; the same as the reference."""
    from dataclasses import replace

    from studbook.cards import Card
    from studbook.engine.profiles import DEFAULT
    from studbook.events import ActionKind, Stakes, Street

    D = Decimal
    openers = set()
    for mode in ("next_clockwise", "best_active", "either"):
        profile = replace(DEFAULT, first_skip_all_in=mode)
        state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)),
                              [(1, "ann", D(100)), (2, "bob", D(1)), (3, "cy", D(100)), (4, "dee", D(100))],
                              profile)
        state.post_antes()
        state.start_street(Street.THIRD)
        hole = iter([Card.parse(c) for c in "2c 3c 4c 5c 6c 7c 8c 9c".split()])
        for name, door in zip(state.dealing_order(), ("Qd", "Kd", "3h", "9s")):
            state.deal(name, up=[Card.parse(door)], down=[next(hole), next(hole)])
        while not state.is_betting_over:
            options = state.legal_actions()
            assert options is not None
            state.act(options.find(ActionKind.CALL) or options.actions[0])
        state.start_street(Street.FOURTH)
        for name, card in zip(state.dealing_order(), ("Ts", "Kh", "4d", "8s")):
            state.deal(name, up=[Card.parse(card)])
        bob = state.by_name["bob"]
        got = order.round_opening(state)
        assert bob.all_in and got == _reference_later_opening(state), mode
        assert got[0] is not None and got[0] is not bob
        openers.add(got[1])
    assert len(openers) >= 2  # the profiles differ here


def test_the_start_gives_the_table_only_the_options_the_hand_has(monkeypatch: pytest.MonkeyPatch) -> None:
    """``start_state`` passes a keyword option only when the hand has it (a button, a cash
    game's cent, a bring-in remembered from the table): keywords cost the class call a
    dict, some 2,000 instructions for four (main: all four, None or not). The state is
    the same as with the four given."""
    given: list[dict[str, Any]] = []

    class Recording(StudState):
        __slots__ = ()

        def __init__(self, *args: Any, **options: Any) -> None:
            given.append(options)
            super().__init__(*args, **options)

    monkeypatch.setattr(check_module, "StudState", Recording)
    memory = TableMemory()
    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    for hand in hands:
        known = memory.bring_in_for(hand)
        state = start_state(hand, None, memory)
        options = given[-1]
        assert None not in options.values(), options
        header = hand.header
        full = StudState(header.variant, header.stakes, hand.seats, state.profile, header.structure,
                         button=header.button, chip=check_module._chip(hand),
                         bring_in=known[0] if known else None, bring_in_hand=known[1] if known else None)
        assert [(p.name, p.pos, p.in_hand) for p in state.order] == [(p.name, p.pos, p.in_hand) for p in full.order]
        assert (state.chip, state.bring_in, state.bring_in_hand) == (full.chip, full.bring_in, full.bring_in_hand)
        state.apply_all(hand.events)
        if state.bring_in_posted is not None and header.stakes.bring_in is None and not state.bring_in_posted[2]:
            memory.remember(hand, state.ante_posted, state.bring_in_posted[0])
    assert len(given) == len(hands)
    sizes = Counter(map(len, given))
    assert sizes[0] > 0 and sizes[4] == 0, sizes  # (the samples: no button, so never four)
    assert any("bring_in_hand" in options for options in given)


def test_a_streets_missing_deals_are_asked_at_most_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rule deal.pattern's missing-deal check is asked at most once a street (the round's
    start, or its close when nobody acted): on 7th street, whose card is down, the answer
    holds as it does once asked on the other streets (main: asked again at the showdown)."""
    hands = _hands()  # (the simulator asks too: made before counting)
    asked: Counter[tuple[int, Any]] = Counter()
    check = order.check_missing_deals
    current = [0]

    def counting(s: Table, line: int) -> None:
        asked[current[0], s.street] += 1
        check(s, line)

    monkeypatch.setattr(order, "check_missing_deals", counting)
    sevenths = 0
    for n, hand in enumerate(hands):
        current[0] = n
        result = check_hand(hand)
        sevenths += any(street == 7 for (i, street) in asked if i == n)
        assert max((v for (i, _), v in asked.items() if i == n), default=0) <= 1, (hand, result.violations)
    assert sevenths > 50


@settings(max_examples=examples(200))
@given(seats=st.lists(st.integers(1, 12), max_size=11), button=st.none() | st.integers(0, 12))
def test_each_positions_view_is_the_others_clockwise_from_the_next(seats: list[int], button: int | None) -> None:
    """clockwise_after (made by one shared getter a player count, i34e23) is, at every dealing
    position, the other players from the next clockwise: catches a view off by one, one
    view too few or a bare view where a tuple of them is due (a table of one)."""
    state = StudState.new("stud", Stakes(2, 4, 1), [(seat, f"p{i}", 100) for i, seat in enumerate(seats)],
                          RuleProfile(deal_start="after_button"), button=button)
    order = state.order
    assert sorted(order, key=lambda p: p.seat) == state.players
    assert [p.pos for p in order] == list(range(len(order)))
    for pos in range(len(order)):
        assert list(state.clockwise_after[pos]) == order[pos + 1:] + order[:pos]
    for start in range(len(order)):  # the dealing order set again (profile deal_start="first_dealt")
        state.set_order(start)
        assert [p.pos for p in state.order] == list(range(len(order)))
        for pos in range(len(order)):
            assert list(state.clockwise_after[pos]) == state.order[pos + 1:] + state.order[:pos]


_SEATING = st.lists(
    st.tuples(st.integers(1, 10), st.sampled_from(["ann", "bob", "cy", "dee", "eve"]), st.integers(0, 500),
              st.booleans(), st.booleans(), st.booleans()),
    max_size=9)


@settings(max_examples=examples(200))
@given(seating=_SEATING)
def test_the_seats_states_are_made_as_listed_first_name_standing_sorted_by_seat(
        seating: list[tuple[int, str, int, bool, bool, bool]]) -> None:
    """``Table._seat_players`` makes every seat's state in its own loop (i34e25: no call a
    seat): the first seat of a name stands, the players sorted by seat (stably), a Seat event
    sitting out or out of the hand not dealt in, every slot of the state set (pos by
    set_order). Catches a slot left unset (its read raises), a later seat of a name replacing
    the first, an unstable or missing sort and a wrong live count."""
    seats: list[tuple[int, str, int] | Seat] = [
        Seat(file="", line=0, seat=number, player=name, stack=stack, sitting_out=out, out_of_hand=gone)
        if as_event else (number, name, stack)
        for number, name, stack, as_event, out, gone in seating]
    state = StudState.new("stud", Stakes(2, 4, 1), seats)
    first: dict[str, tuple[int, int, bool]] = {}
    for number, name, stack, as_event, out, gone in seating:
        first.setdefault(name, (number, stack, not (as_event and (out or gone))))
    expected = sorted(first.items(), key=lambda item: item[1][0])  # (stable: as listed among equal seats)
    assert [(p.name, p.seat, p.stack, p.in_hand) for p in state.players] == [
        (name, number, stack, in_hand) for name, (number, stack, in_hand) in expected]
    assert state.by_name == {p.name: p for p in state.players}
    assert state.live_left == sum(p.in_hand for p in state.players)
    for p in state.players:
        values = {slot: getattr(p, slot) for slot in PlayerState.__slots__}  # (an unset slot raises)
        assert values["start"] == values["stack"] and values["live"] is values["in_hand"]
        assert all(values[slot] == 0 for slot in ("ante", "total", "street_in", "returned", "collected",
                                                  "acted_level", "up_ranks", "dealt", "deal_line"))
        assert values["up"] == [] and values["down"] == [] and values["up"] is not values["down"]
        assert values["shown"] == () and values["last_street"] is Street.THIRD
        assert not any(values[slot] for slot in ("folded", "all_in", "acted", "showed", "mucked"))
    assert len({id(p.up) for p in state.players} | {id(p.down) for p in state.players}) == 2 * len(state.players)
