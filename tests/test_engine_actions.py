"""The betting actions' path (issue 34, round i34e9): a round's bet sizes kept on it, a legal
bet or raise checked with one call for its sizes, and what an action finds noted without a
tuple made and unpacked; each gives exactly what the rules define."""

from __future__ import annotations

import dis
import random
from collections import Counter
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from studbook.betting import street_bet
from studbook.check import check_hand
from studbook.engine import state as state_module
from studbook.engine.rules import bets
from studbook.engine.state import StudState
from studbook.engine.table import FOURTH, Table
from studbook.events import Action, ActionKind, Stakes, Street
from studbook.parse import parse_paths
from studbook.simulate import simulate_hands

from test_engine_fast import _card, _traced_calls

D = Decimal
ROOT = Path(__file__).resolve().parent.parent


def _reference_units(s: Table) -> tuple[Decimal, ...]:
    """Rule bet.size and bet.open_pair as written before the sizes were kept on the round
    (the open pair as the round answered it: asking it here would answer it early)."""
    r = s.round
    if s.street is FOURTH and s.variant_rules.open_pair_double and r.open_pair:
        return (s.big,) if r.big_bet_made else (s.small, s.big)
    return (street_bet(s.street, s.small, s.big),)


def _edited(hand: Any, rng: random.Random) -> Any:
    """``hand`` with one to three of its actions given another kind or figure."""
    events = list(hand.events)
    actions = [i for i, e in enumerate(events) if isinstance(e, Action)]
    for i in rng.sample(actions, min(len(actions), rng.randint(1, 3))):
        e = events[i]
        if rng.random() < 0.5:
            events[i] = replace(e, kind=rng.choice(list(ActionKind)))
        else:
            events[i] = replace(e, amount=rng.choice([None, D(0), D("0.5"), D(1), D(2), D(4), D(8), D(100)]),
                                to=rng.choice([None, D(2), D(4), D(8)]))
    return replace(hand, events=tuple(events))


def _hands() -> list[Any]:
    """The sample histories, simulated fixed-limit hands of each variant, and both edited."""
    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    for variant, seed in (("stud", 1), ("stud8", 2), ("razz", 3)):
        hands += simulate_hands(variant, 60, 6, seed=seed)  # type: ignore[arg-type]
    rng = random.Random(9)
    return hands + [_edited(h, rng) for h in hands]


def test_a_rounds_bet_sizes_are_asked_once_and_stay_the_rules(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bet sizes in force (rules bet.size, bet.open_pair) are worked out at most once a
    round and kept on it (``Round.units``): after every action of the sample, simulated and
    edited hands they are the rules' (the double bet made included), and the round works
    them out at most once (``_units``, the one accessor, finds none kept; main before
    i34e9: at every bet and raise, twice on 4th street)."""
    handler = state_module._HANDLERS[Action]
    asked: Counter[tuple[int, Street | None]] = Counter()
    kept = Counter[int]()
    units = bets._units

    def counting(s: Table) -> tuple[Decimal, ...]:
        if s.round.units is None:  # (worked out, not read from the round)
            asked[(id(s.round), s.street)] += 1
        return units(s)

    def checking(s: Any, e: Any) -> None:
        handler(s, e)
        r = s.round
        if r.units is not None and s.street is not None:
            assert r.units == _reference_units(s), (e, r.units)
            kept[len(r.units)] += 1

    monkeypatch.setattr(bets, "_units", counting)
    monkeypatch.setitem(state_module._HANDLERS, Action, checking)
    for hand in _hands():
        asked.clear()
        check_hand(hand)
        assert not asked or max(asked.values()) == 1, (hand, asked)
    assert kept[1] > 1000 and kept[2] > 0, kept


def _third_street() -> StudState:
    """A $2/$4 stud table of three, antes in, 3rd street's door cards dealt (ann's 2c brings in)."""
    seats = [(seat, name, D(100)) for seat, name in enumerate(("ann", "bob", "cy"), 1)]
    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), seats)
    state.post_antes()
    state.start_street(Street.THIRD)
    for name, door in zip(state.dealing_order(), ("2c", "Kd", "Qh")):
        state.deal(name, up=[_card(door)])
    return state


def test_the_double_bet_made_is_kept_as_the_rounds_one_size() -> None:
    """4th street with an open pair: the small or the double bet may open; once the double is
    made, later raises are of the double (rule bet.open_pair), kept on the round."""
    state = _third_street()
    while not state.is_betting_over:  # the bring-in, then everyone calls
        options = state.legal_actions()
        assert options is not None
        state.act(options.find(ActionKind.BRING_IN) or options.find(ActionKind.CALL)
                  or options.actions[0])
    state.start_street(Street.FOURTH)
    for name, card in zip(state.dealing_order(), ("2d", "3s", "4h")):  # ann pairs her door card
        state.deal(name, up=[_card(card)])
    options = state.legal_actions()
    assert options is not None
    assert [a.to for a in options.actions if a.kind is ActionKind.BET] == [D(2), D(4)]
    state.act(options.actions[-1])  # the double bet
    assert state.round.units == (D(4),) and state.round.big_bet_made
    options = state.legal_actions()
    assert options is not None
    assert [a.to for a in options.actions if a.kind is ActionKind.RAISE] == [D(8)]
    state.act(options.actions[-1])
    assert not state.violations and state.round.current_bet == D(8) and state.round.bets == 2


def test_an_offered_raise_asks_only_its_sizes() -> None:
    """A fixed-limit raise to a size legal_actions() offers is checked with one call, the
    sizes' (``_raise_targets``, whose only call is the cap's); the round's bet sizes are
    asked once (``_units``, the one accessor, i34e15) and handed to the sizes and the level,
    not asked again (before i34e9: ``_check_aggression``, ``_units`` and ``street_bet``
    twice besides). The raise is applied as before."""
    state = _third_street()
    for kind in (ActionKind.BRING_IN, ActionKind.COMPLETE, ActionKind.RAISE):
        options = state.legal_actions()
        assert options is not None
        state.act(options.find(kind))  # type: ignore[arg-type]
    options = state.legal_actions()
    assert options is not None
    raise_ = options.find(ActionKind.RAISE)
    assert raise_ is not None and raise_.to == D(6)
    calls = _traced_calls(lambda: state.apply(raise_.to_event(options.player)))
    under = {caller: [name for _, c, name in calls if c == caller] for caller in ("_aggress", "_raise_targets",
                                                                                   "_raise_levels")}
    assert under == {"_aggress": ["street_total", "completes", "_units", "_raise_targets", "put", "_raise_levels"],
                     "_raise_targets": ["_capped"], "_raise_levels": []}, calls
    assert not state.violations and state.round.current_bet == D(6) and state.round.bets == 3


def test_an_action_notes_what_it_finds_without_a_tuple_unpacked() -> None:
    """``on_action`` reads what the action finds (the bets, the pot, the bet to match, the
    player's totals) one name at a time: a five-name assignment builds and unpacks a tuple
    for every action, some 500 instructions (main did)."""
    ops = {i.opname for i in dis.get_instructions(bets.on_action)}
    assert "UNPACK_SEQUENCE" not in ops
