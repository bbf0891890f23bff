"""The engine's fast paths give exactly what the general code gives."""

from __future__ import annotations

import random
import sys
from dataclasses import replace
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest
from budget import examples
from hypothesis import given, settings
from hypothesis import strategies as st

from studbook.betting import _layers
from studbook.check import check_hand
from studbook.parse import parse_paths
from studbook.engine.pots import Pot, build_pots
from studbook.engine.result import (
    HandCheck, Party, PlayerResult, PotAward, Violation, new_player_result, new_pot_award, new_violation,
)
from studbook.engine.rules import order
from studbook.engine.state import PlayerState, StudState
from studbook.engine.table import smallest_chip
from studbook.events import Stakes, Street

D = Decimal
ROOT = Path(__file__).resolve().parent.parent
ZERO = D(0)


def _reference_pots(contributions: list[tuple[str, Decimal, bool]]) -> list[Pot]:
    """build_pots without its one-pot fast path: the general code, layer by layer."""
    return [Pot(i, a, e) for i, (a, e) in enumerate(_layers(contributions))]


def test_build_pots_matches_the_layered_reference_exactly() -> None:
    rng = random.Random(7)
    amounts = [D("0"), D("0.10"), D("0.1"), D("1.00"), D("2.5"), D("3"), D("0.35"), D("10")]
    for _ in range(3000):
        n = rng.randint(2, 8)
        rows = [(f"p{i}", rng.choice(amounts), rng.random() < 0.6) for i in range(n)]
        if rng.random() < 0.5:  # the common case: every live player put in the same
            level = rng.choice(amounts[1:])
            rows = [(name, level if live else min(t, level), live) for name, t, live in rows]
        got, want = build_pots(rows), _reference_pots(rows)
        assert repr(got) == repr(want), rows  # repr: the Decimal exponents too


def test_positional_makers_build_equal_objects() -> None:
    v = new_violation("bet.size", 3, "too big", Street.FIFTH, Party.PLAYER, "ann", 2, (D(8), D(16)), D(9))
    w = Violation("bet.size", 3, "too big", street=Street.FIFTH, party=Party.PLAYER, player="ann", seat=2,
                  expected=(D(8), D(16)), actual=D(9))
    assert v == w and hash(v) == hash(w)
    fields = dict(player="ann", seat=2, stack=D("1.50"), contributed=D("0.20"), collected=ZERO, net=D("-0.20"),
                  last_street=Street.FOURTH, folded=True, all_in=False, showed=False, won_at_showdown=False,
                  up_cards=(), down_cards=())
    r = new_player_result(*fields.values())
    assert r == PlayerResult(**fields) and repr(r) == repr(PlayerResult(**fields))  # type: ignore[arg-type]
    a = new_pot_award(0, D(3), ("ann",), (("ann", D(3)),), ())
    assert a == PotAward(pot=0, amount=D(3), eligible=("ann",), high=(("ann", D(3)),))
    assert type(r) is PlayerResult and type(a) is PotAward and HandCheck.__slots__


def test_chip_of_equal_amounts_written_differently() -> None:
    stakes = Stakes(D(2), D(4), D("0.5"), D(1))
    assert smallest_chip(stakes, [(1, "a", D("1.50"))]) == D("0.1")
    assert smallest_chip(stakes, [(1, "a", D("1.5"))]) == D("0.1")
    assert smallest_chip(stakes, [(1, "a", D("1.25")), (2, "b", D("100"))]) == D("0.01")
    assert str(smallest_chip(Stakes(D(2), D(4)), [(1, "a", D("100"))])) == "1"


def test_a_tables_chip_calls_no_python_function_for_amounts_seen() -> None:
    """The smallest chip reads each amount's places from the memo itself: a table whose
    stakes and stacks were seen before (every hand of a table after its first) calls no
    Python function (main called the memo's function once an amount: most of its cost)."""
    stakes = Stakes(D(2), D(4), D("0.5"), D(1))
    seats = [(1, "a", D("1.25")), (2, "b", D("100")), (3, "c", D("7.5"))]
    assert smallest_chip(stakes, seats) == D("0.01")
    calls: list[str] = []
    sys.setprofile(lambda frame, event, arg: calls.append(frame.f_code.co_name) if event == "call" else None)
    try:
        chip = smallest_chip(stakes, seats)
    finally:
        sys.setprofile(None)
    assert chip == D("0.01") and calls == ["smallest_chip"], calls


def _reference_next(order: list[PlayerState], p: PlayerState, current: Decimal) -> tuple[PlayerState | None, bool]:
    """StudState._advance before its fast path and early stop: (next to act, hand won),
    from one pass over the players after ``p`` clockwise, ``p`` last."""
    rotation = order[p.pos + 1:] + order[:p.pos + 1]
    live = able = 0
    owes = unacted = None
    for q in rotation:
        if q.in_hand and not q.folded:
            live += 1
            if not q.all_in:
                able += 1
                if owes is None and q.street_in < current:
                    owes = q
                if unacted is None and not q.acted and q is not p:
                    unacted = q
    if live <= 1:
        return None, True
    if able < 2 or unacted is None:
        return owes, False
    if owes is None:
        return unacted, False
    n = len(order)
    return (owes if (owes.pos - p.pos) % n < (unacted.pos - p.pos) % n else unacted), False


LEVELS = [ZERO, D("0.5"), D(1), D(2)]


def random_table(rng: random.Random) -> tuple[StudState, Decimal]:
    """Two to eight players of a street at random (dealt in or not, folded, all-in, acted,
    owing or not): the state and its bet to match."""
    n = rng.randint(2, 8)
    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)),
                          [(i + 1, f"p{i}", D(100)) for i in range(n)])
    state.current_bet = current = rng.choice(LEVELS[1:])
    for q in state.order:
        q.in_hand = rng.random() < 0.9
        q.folded = rng.random() < 0.3
        q.live = q.in_hand and not q.folded  # (as the state keeps it)
        q.all_in = rng.random() < 0.15
        q.acted = rng.random() < 0.5
        q.street_in = min(rng.choice(LEVELS), current)
    state.live_left = sum(q.live for q in state.order)  # (as the table keeps it)
    return state, current


def test_next_to_act_matches_the_one_pass_reference() -> None:
    rng = random.Random(11)
    for _ in range(4000):
        state, current = random_table(rng)
        p = rng.choice(state.order)
        want = _reference_next(state.order, p, current)
        order.advance(state, p)
        assert (state.round.to_act, state.hand_over) == want


def test_positional_makers_objects_stay_frozen_and_pickle() -> None:
    import pickle
    from dataclasses import FrozenInstanceError

    v = new_violation("bet.size", 3, "too big", None, Party.SITE, None, None, None, None)
    with pytest.raises(FrozenInstanceError):
        v.line = 4  # type: ignore[misc]
    assert pickle.loads(pickle.dumps(v)) == v and type(pickle.loads(pickle.dumps(v))) is Violation


def test_every_event_type_has_a_handler_so_none_raises_in_apply_all() -> None:
    """Every event type of studbook.events is a key of the engine's dispatch, those it
    does not read (chatter, notes, seats) with a handler that does nothing: a real
    log's chatter costs a call, not a KeyError raised and caught, and changes nothing."""
    import studbook.events as events
    from studbook.engine import state as state_module

    kinds = {k for k in vars(events).values() if isinstance(k, type) and issubclass(k, events.Event)}
    assert kinds <= set(state_module._HANDLERS)
    hand = next(h for f in parse_paths([ROOT / "histories"]) for h in f.hands)
    chatty = replace(hand, events=tuple(x for e in hand.events for x in (
        e, events.Chatter(file=hand.file, line=e.line, kind=events.ChatterKind.SAID, text="gl"))))
    quiet, loud = check_hand(hand), check_hand(chatty)
    assert (loud.violations, loud.players, loud.pots, loud.action_log) == (
        quiet.violations, quiet.players, quiet.pots, quiet.action_log)


def test_the_chip_is_worked_out_only_when_a_pot_is_split(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hand whose chip is not given works it out from its stakes and stacks when
    settlement first splits a pot, not at the start of every hand; and from the seats
    as given then, whatever the caller does with its list later."""
    from studbook.engine import table

    seats = [(1, "ann", D("1.25")), (2, "bob", D(100))]
    stakes = Stakes(D(2), D(4), D("0.5"), D(1))
    asked: list[object] = []
    real = table.smallest_chip

    def counted(*args: Any) -> Decimal:
        asked.append(args)
        return real(*args)

    monkeypatch.setattr(table, "smallest_chip", counted)
    state = StudState.new("stud", stakes, seats)
    seats.append((3, "cy", D("0.001")))
    assert asked == []
    assert state.chip == D("0.01") and len(asked) == 1
    assert state.chip == D("0.01") and len(asked) == 1  # worked out once
    assert StudState.new("stud", stakes, seats, chip=D(1)).chip == D(1) and len(asked) == 1



class _CountedWalks(list):  # type: ignore[type-arg]
    """A hand's collections that count how often they are walked."""

    walks = 0

    def __iter__(self):  # type: ignore[no-untyped-def]
        self.walks += 1
        return super().__iter__()


def _settled(hand: Any) -> tuple[StudState, _CountedWalks]:
    from studbook.check import start_state

    state = start_state(hand)
    state.apply_all(hand.events)
    state.collects = walked = _CountedWalks(state.collects)
    return state, walked


def test_settlement_walks_the_collections_once() -> None:
    """finish() gathers what its money checks ask of the collections (the total, each
    pot's sums by player, each pot's first line and halves) in one pass over them, and
    checks and reports as before: the sample hands, split pots and side pots among them."""
    from studbook.engine.settle import finish

    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    collected = [h for h in hands if sum(type(e).__name__ == "Collect" for e in h.events) >= 2]
    assert len(hands) > 100 and collected  # (split pots and side pots: two collections or more)
    for hand in hands:
        state, walked = _settled(hand)
        pots, players, rake, _ = finish(state, hand.end_line)
        clean = check_hand(hand)
        assert (tuple(pots), tuple(players), rake) == (clean.pots, clean.players, clean.rake)
        if not state.violations and state.profile.logs_uncalled:
            assert walked.walks <= 1, hand.hand_id


def test_a_collection_from_a_pot_the_hand_does_not_have_is_one_violation_at_its_line() -> None:
    """pot.side: a collection that names side pot 3 of a hand with one side pot is
    reported at its own line, once, and the pots are still published."""
    from studbook.events import Collect

    hand = next(h for f in parse_paths([ROOT / "histories"]) for h in f.hands
                if (c := check_hand(h)).status == "ok" and len(c.pots) == 2)
    last = [e for e in hand.events if isinstance(e, Collect)][-1]
    wrong = replace(hand, events=tuple(replace(e, pot=3) if e is last else e for e in hand.events))
    checked = check_hand(wrong)
    side = [v for v in checked.violations if v.rule == "pot.side"]
    assert [(v.line, v.actual) for v in side] == [(last.line, 3)]
    assert "but there is only 1 side pot" in side[0].message
    assert [p.amount for p in checked.pots] == [p.amount for p in check_hand(hand).pots]


def _traced_calls(run: Any) -> list[tuple[str, str, str]]:
    """The Python functions ``run()`` calls, as (module file, caller's name, name), in order."""
    import sys

    calls: list[tuple[str, str, str]] = []

    def profile(frame: Any, what: str, arg: Any) -> None:
        if what == "call":
            caller = frame.f_back.f_code.co_name if frame.f_back is not None else ""
            calls.append((Path(frame.f_code.co_filename).name, caller, frame.f_code.co_name))

    sys.setprofile(profile)
    try:
        run()
    finally:
        sys.setprofile(None)
    return calls


def _calls_in(run: Any) -> list[tuple[str, str]]:
    """The Python functions ``run()`` calls, as (module file, name), in order."""
    return [(module, name) for module, _, name in _traced_calls(run)]


def test_a_clean_hands_settlement_asks_each_question_once() -> None:
    """finish() on a hand with nothing wrong: the uncalled bet is worked out once, by the
    rule's own function (``showdown.unmatched``, no wrapper: main 85b491b asked it through
    ``unmatched_bet``, a call more every hand), the checks whose facts rule them out are not
    called (the uncalled bet's return or check when nothing is unmatched; a pot's name,
    made only for a message), and the gathered collections make no object call; the
    pots, results and rake are check_hand's (main before: 3 calls for the uncalled
    bet, the two uncalled checks and pot_name on every hand)."""
    from studbook.engine.settle import finish

    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    clean = 0
    for hand in hands:
        checked = check_hand(hand)
        if checked.violations:
            continue
        state, _ = _settled(hand)
        out: list[Any] = []
        calls = _calls_in(lambda: out.append(finish(state, hand.end_line)))
        pots, players, rake, _ = out[0]
        assert (tuple(pots), tuple(players), rake) == (checked.pots, checked.players, checked.rake)
        names = [name for _, name in calls]
        assert [c for c in calls if c[0] == "showdown.py"] == [("showdown.py", "unmatched")], hand.hand_id
        top, unmatched = state.unmatched_bet()
        if top is None or unmatched <= 0:
            assert "_check_unreturned" not in names and "_return_unlogged" not in names, hand.hand_id
        assert "pot_name" not in names and "__init__" not in names, (hand.hand_id, names)
        clean += 1
    assert clean > 100


# the comprehensions left on purpose: side pots (betting._layers, the reference the pots are
# built against, and more than one pot), split pots and several collectors (settle._ordered),
# a shown hand that leaves cards out (deal.check_shown), and the rarer openings and sizes
_RARE_COMPREHENSIONS = {
    ("betting.py", "_layers"), ("pots.py", "build_pots"), ("settle.py", "finish"), ("settle.py", "_ordered"),
    ("deal.py", "check_shown"), ("order.py", "_opening_later"), ("bets.py", "_raise_targets"),
}


def test_a_clean_hands_common_path_makes_no_comprehension() -> None:
    """Python 3.11 makes a function object and a frame for each comprehension and generator
    expression, the cost of a call or more: the engine's path through an ordinary hand (the
    deals, the hero's cards shown again, the openings, the open pair, settlement's pots and
    expected winners) is written with loops. Over the clean sample hands, most make none and
    the rest only on the side-pot and split-pot paths (main before: every hand, 19 a hand)."""
    import sys

    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    for hand in hands:
        check_hand(hand)  # (the board keys' memo warm, as in a long run)
    made: list[tuple[str, str]] = []
    without = clean = 0

    def profile(frame: Any, what: str, arg: Any) -> None:
        code = frame.f_code
        if what == "call" and code.co_name.startswith("<") and "studbook" in code.co_filename:
            made.append((Path(code.co_filename).name, frame.f_back.f_code.co_name))

    for hand in hands:
        if check_hand(hand).violations:
            continue
        before = len(made)
        sys.setprofile(profile)
        try:
            check_hand(hand)
        finally:
            sys.setprofile(None)
        clean += 1
        without += len(made) == before
    assert clean > 1000 and set(made) <= _RARE_COMPREHENSIONS, set(made) - _RARE_COMPREHENSIONS
    assert without >= 0.8 * clean, (without, clean)


def test_a_new_street_leaves_acted_level_which_is_read_only_while_acted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A new street sets each player's street total and ``acted`` again, not ``acted_level``
    (the bet level when they last acted), which the rules read only while ``acted`` holds:
    the sample hands check the same as with it reset at every street (main: reset)."""
    from studbook.engine import state as state_module
    from studbook.events import StreetStart

    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    plain = [check_hand(h) for h in hands]
    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), [(1, "ann", D(100)), (2, "bob", D(100))])
    state.post_antes()
    state.start_street(Street.THIRD)
    for name, door in zip(state.dealing_order(), ("2c", "Kd")):
        state.deal(name, up=[_card(door)])
    while not state.is_betting_over:
        options = state.legal_actions()
        assert options is not None
        state.act(options.actions[-1] if options.player == "bob" and state.round.bets < 1 else options.actions[0])
    levels = {p.name: p.acted_level for p in state.players}
    state.start_street(Street.FOURTH)
    kept = sum(p.acted_level == levels[p.name] and p.acted_level > 0 and not p.acted for p in state.players)
    assert kept >= 1, levels

    handler = state_module._HANDLERS[StreetStart]

    def resetting(s: Any, e: Any) -> None:
        handler(s, e)
        for p in s.order:
            p.acted_level = D(0)

    monkeypatch.setitem(state_module._HANDLERS, StreetStart, resetting)
    again = [check_hand(h) for h in hands]
    for a, b in zip(plain, again):
        assert (a.violations, a.players, a.pots, a.actions) == (b.violations, b.players, b.pots, b.actions)


def _card(text: str) -> Any:
    from studbook.cards import Card

    return Card.parse(text)


def test_a_fixed_limit_raise_asks_whether_it_completes_once() -> None:
    """A bet or raise checked against the sizes legal_actions() offers asks
    :func:`studbook.betting.completes` once: ``_aggress`` hands its answer to the sizes
    (main: twice, once more in ``_raise_targets``); the raise is still the one offered."""
    from studbook.events import ActionKind

    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)),
                          [(1, "ann", D(100)), (2, "bob", D(100)), (3, "cy", D(100))])
    state.post_antes()
    state.start_street(Street.THIRD)
    for name, door in zip(state.dealing_order(), ("2c", "Kd", "Qh")):
        state.deal(name, up=[_card(door)])
    for kind in (ActionKind.BRING_IN, ActionKind.COMPLETE):
        options = state.legal_actions()
        assert options is not None
        state.act(options.find(kind))  # type: ignore[arg-type]
    options = state.legal_actions()
    assert options is not None and options.find(ActionKind.RAISE) is not None
    event = options.find(ActionKind.RAISE).to_event(options.player)  # type: ignore[union-attr]
    calls = _calls_in(lambda: state.apply(event))
    assert [name for _, name in calls].count("completes") == 1, calls
    assert not state.violations and state.round.current_bet == D(4)


def _callees_of(callers: set[str], run: Any) -> list[tuple[str, str]]:
    """The Python functions that functions named in ``callers`` call while ``run()`` runs,
    as (caller, callee)."""
    return [(caller, name) for _, caller, name in _traced_calls(run) if caller in callers]


def test_an_ordinary_deal_is_one_python_call() -> None:
    """A deal that breaks no rule (3rd street's too) is applied in ``on_deal``'s frame: it
    calls no Python function but the hero's ``cards()`` (a later street repeating the hero's
    cards); the deals that break a rule still go to ``_deal_checked``, and the sample hands
    check the same (main: a second call, ``_deal_third``, for every 3rd-street deal)."""
    from studbook.check import start_state
    from studbook.events import Deal

    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    deals = fast = 0
    for hand in hands:
        checked = check_hand(hand)
        if checked.violations:
            continue
        state = start_state(hand)
        calls = _callees_of({"on_deal"}, lambda: state.apply_all(hand.events))
        assert {callee for _, callee in calls} <= {"cards", "_deal_checked", "set_order"}, (hand.hand_id, calls)
        assert state.violations == list(checked.violations)
        n = sum(isinstance(e, Deal) for e in hand.events)
        deals += n
        fast += n - sum(callee == "_deal_checked" for _, callee in calls)
    assert deals > 5000 and fast > 0.9 * deals, (fast, deals)


def test_a_shown_hand_fills_its_unknown_down_cards_walking_the_down_slots() -> None:
    """``_learn`` fills each unknown down card from the card shown in its place (down 0-1,
    the up cards, then later down cards), walking the player's two or three down slots, not
    the seven known places again (main: ``known`` walked twice); the sample hands check
    the same."""
    from studbook.engine.rules import deal

    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)),
                          [(1, "ann", D(100)), (2, "bob", D(100))])
    p = state.player("bob")
    assert p is not None
    p.down = [None, _card("Kd"), None]
    p.up = [_card(c) for c in ("2c", "3c", "4c", "5c")]
    shown = tuple(_card(c) for c in ("Ah", "Kd", "2c", "3c", "4c", "5c", "9s"))
    known = _CountedWalks(p.cards())
    deal._learn(state, p, shown, 1, known)
    assert p.down == [_card("Ah"), _card("Kd"), _card("9s")]
    assert p.cards() == list(shown) and known.walks == 1
    for hand in [h for f in parse_paths([ROOT / "histories"]) for h in f.hands][:300]:
        state, _ = _settled(hand)
        assert state.violations == list(check_hand(hand).violations)


def test_the_cards_owners_are_kept_by_the_cards_text_without_an_id_call() -> None:
    """``card_owners`` is keyed by a card's text, read from its slot: no ``id()`` call in the
    deal and showdown rules while a hand's events are applied (main: some 36 a simulated
    hand, one a card looked up, each a builtin call with its audit hook and a new int); each
    key is the text of the card its owner holds, known or shown; the sample hands check the same."""
    from studbook.cards import DECK
    from studbook.check import start_state

    assert len({card.text for card in DECK}) == len(DECK)  # the key is as unique as the card
    rules = {"deal.py", "showdown.py"}
    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands][:400]
    looked_up = 0
    for hand in hands:
        state = start_state(hand)
        ids: list[str] = []

        def profile(frame: Any, what: str, arg: Any) -> None:
            if what == "c_call" and arg is id and Path(frame.f_code.co_filename).name in rules:
                ids.append(frame.f_code.co_name)

        sys.setprofile(profile)
        try:
            state.apply_all(hand.events)
        finally:
            sys.setprofile(None)
        assert ids == [], (hand.hand_id, ids)
        texts = {card.text: card for card in DECK}
        for text, owner in state.card_owners.items():
            card = texts[text]
            looked_up += 1
            if owner == "community":
                assert state.community is card, (hand.hand_id, text)
            else:
                p = state.player(owner)
                assert p is not None and (card in p.cards() or card in p.shown), (hand.hand_id, text, owner)
        assert state.violations == list(check_hand(hand).violations[:len(state.violations)])
    assert looked_up > 2000


def test_a_contested_pots_winners_are_asked_of_the_variant_once_without_wrappers() -> None:
    """A contested pot's shares: ``_halves`` asks ``pot_winners`` (the one place the pot's
    winners are decided: i34e15 merged the copy ``_halves`` had of it, one call a contested
    pot, within the engine count's noise) and ``_split_pot`` adds each part's shares (before
    i34e7: through ``_share`` too); the awards and results are check_hand's."""
    from studbook.engine.settle import finish

    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    contested = 0
    for hand in hands:
        checked = check_hand(hand)
        if checked.violations or not checked.went_to_showdown:
            continue
        state, _ = _settled(hand)
        out: list[Any] = []
        calls = _callees_of({"_split_pot", "_halves"}, lambda: out.append(finish(state, hand.end_line)))
        pots, players, rake, _ = out[0]
        assert (tuple(pots), tuple(players), rake) == (checked.pots, checked.players, checked.rake)
        callees = {callee for _, callee in calls}
        assert "showdown_winners" not in {callee for caller, callee in calls if caller == "_halves"}, calls
        assert "_share" not in callees, calls
        contested += ("_halves", "pot_winners") in calls
    assert contested > 100


def test_settlement_reads_the_pot_layers_and_makes_no_pot() -> None:
    """finish() works on the side-pot rule's layers (``betting.pot_layers``: amount and
    eligible, the index their place) and makes no ``Pot`` (main 85b491b: one a pot, read
    once and dropped); each award is the pot ``build_pots`` makes of the same contributions,
    and every sample hand, clean or not, checks as ``check_hand`` does."""

    from studbook.engine import settle
    from studbook.engine.pots import Pot

    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    side = 0
    for hand in hands:
        checked = check_hand(hand)
        state, (pots, players, rake, _), made = _finished_counting_makes(hand)
        assert Pot not in made, hand.hand_id
        assert (tuple(pots), tuple(players), rake) == (checked.pots, checked.players, checked.rake)
        assert set(state.violations) == set(checked.violations), hand.hand_id  # (check_hand drops repeats)
        reference = build_pots(settle._contributions(state))
        assert [(a.pot, a.amount, a.eligible) for a in pots] == [(p.index, p.amount, p.eligible) for p in reference]
        side += len(pots) > 1
    assert side > 20


def test_a_pot_one_player_collected_whole_is_awarded_without_lists() -> None:
    """A pot one player collected, no halves named (most pots), is awarded in one step:
    its winner's line is the collection itself (main 85b491b: two lists made and filled a
    pot, then copied to tuples); the awards are check_hand's, split pots and several
    collectors among them."""
    import sys

    from studbook.engine.settle import finish

    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    single = several = 0
    for hand in hands:
        checked = check_hand(hand)
        state, _ = _settled(hand)
        appended: list[int] = []

        def profile(frame: Any, what: str, arg: Any) -> None:
            if what == "c_call" and frame.f_code.co_name == "_award" and arg.__name__ == "append":
                where = frame.f_locals
                appended.append(where["index"] if "index" in where else where["pot"].index)

        sys.setprofile(profile)
        try:
            pots, _, _, _ = finish(state, hand.end_line)
        finally:
            sys.setprofile(None)
        assert tuple(pots) == checked.pots
        halves = {c.pot for c in state.collects if c.half is not None}
        for award in pots:
            if len(award.high) == 1 and not award.low and award.pot not in halves:
                assert award.pot not in appended, hand.hand_id
                single += 1
            elif len(award.high) + len(award.low) > 1:
                several += 1
    assert single > 1000 and several > 50, (single, several)


def _finished_counting_makes(hand: Any) -> tuple[StudState, Any, list[type]]:
    """``hand`` settled (``finish``), with the class of each positional maker's call under it."""
    from studbook.engine import settle

    made: list[type] = []

    def profile(frame: Any, what: str, arg: Any) -> None:
        if what == "call" and frame.f_code.co_name == "make" and "_cls" in frame.f_globals:
            made.append(frame.f_globals["_cls"])

    state, _ = _settled(hand)
    sys.setprofile(profile)
    try:
        finished = settle.finish(state, hand.end_line)
    finally:
        sys.setprofile(None)
    return state, finished, made


def _reference_results(state: StudState, showdown: bool) -> list[PlayerResult]:
    """Each player's result by the maker, a call a player (main d5baca5's ``_results``)."""
    return [new_player_result(p.name, p.seat, p.start, p.total, p.collected, p.collected - p.total, p.last_street,
                              p.folded, p.all_in, p.showed, showdown and not p.folded and p.collected > state.zero,
                              tuple(p.up), tuple(filter(None, p.down)))
            for p in state.players if p.in_hand]


def test_a_hands_results_tell_known_down_cards_as_the_filter_does() -> None:
    """finish() tells a player without a known down card by ``any()`` before it filters
    (most players': a filter and a tuple saved): every sample hand's results are those of the
    filter alone (main d5baca5's ``_results``), field for field, Decimal exponents (repr) and
    known down cards too (fails on a player whose known cards are dropped)."""
    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands]
    known_down = 0
    for hand in hands:
        state, (_, players, _, showdown), _ = _finished_counting_makes(hand)
        want = _reference_results(state, showdown)
        assert players == want and repr(players) == repr(want), hand.hand_id
        assert all(type(p) is PlayerResult for p in players)
        known_down += sum(bool(p.down_cards) for p in players)
    assert known_down > 100, known_down


def _general_even_share(amount: Any, count: int, unit: Any) -> tuple[Any, Any]:
    """``pots._even_share`` without its one-winner path (main d5baca5's)."""
    from decimal import ROUND_FLOOR

    from studbook.money import exact

    base = (exact(amount) / count / unit).to_integral_value(rounding=ROUND_FLOOR) * unit
    return base, amount - base * count


# amounts of several exponents (1E+1, 10, 10.0, 0.10, 0.125), zeros of other exponents, and ints
AMOUNTS = st.one_of(st.builds(lambda units, places: D(units).scaleb(-places), st.integers(-500, 10**9), st.integers(-2, 4)),
                    st.integers(-500, 10**9))
UNITS = st.sampled_from([D("0.01"), D("0.1"), D("1"), D("0.25"), D("1E+1"), D(5), 1])


@settings(max_examples=examples(300), deadline=None)
@given(AMOUNTS, st.integers(1, 3), UNITS)
def test_one_winners_even_share_is_the_general_splits_to_the_exponent(amount: Any, count: int, unit: Any) -> None:
    """A pot's one winner takes the even share without dividing or multiplying by one
    (``pots._even_share``: ``x / 1`` and ``x * 1`` are ``x``, value and exponent): the base
    and the odd chips as the general formula gives them, repr for repr (fails with a share
    that drops the ``/ unit`` rounding, or rounds the amount to the chip's exponent)."""
    from studbook.engine.pots import _even_share

    got, want = _even_share(amount, count, unit), _general_even_share(amount, count, unit)
    assert repr(got) == repr(want), (amount, count, unit)


def test_a_hands_rules_read_no_enum_member_through_its_class_and_call_no_id(monkeypatch: pytest.MonkeyPatch) -> None:
    """While a hand is checked the engine names the enum members it reads by module names
    (``Structure.FIXED``, ``Reported.TURN``/``COMMUNITY``, ``Half.LOW``: on CPython 3.11 an enum
    class's attribute goes through EnumType's ``__getattr__`` hook, some 1 k instructions) and
    looks the bring-in order up by a door card's text, not ``id(card)`` (a builtin call with its
    audit hook and a new int, every live player's door card on 3rd street); the sample hands
    (stud, stud8 and razz; 7th streets among them) check the same. Fails on 2bff79b."""
    import enum

    from studbook.check import start_state
    from studbook.engine.settle import finish

    engine = str(ROOT / "src" / "studbook" / "engine")
    hands = [h for f in parse_paths([ROOT / "histories"]) for h in f.hands][:400]
    plain = type.__getattribute__
    looked_up: list[str] = []
    ids: list[str] = []

    def spy(cls: type, name: str) -> object:
        value = plain(cls, name)
        code = sys._getframe(1).f_code
        if isinstance(value, enum.Enum) and code.co_filename.startswith(engine):
            looked_up.append(f"{cls.__name__}.{name} in {code.co_name}")
        return value

    def profile(frame: Any, what: str, arg: Any) -> None:
        if what == "c_call" and arg is id and frame.f_code.co_filename.startswith(engine):
            ids.append(frame.f_code.co_name)

    seventh = 0
    for hand in hands:
        monkeypatch.setattr(enum.EnumType, "__getattribute__", spy, raising=False)
        sys.setprofile(profile)
        try:
            state = start_state(hand)
            state.apply_all(hand.events)
            pots, _, _, _ = finish(state, hand.end_line)
        finally:
            sys.setprofile(None)
            monkeypatch.undo()
        assert (looked_up, ids) == ([], []), (hand.hand_id, looked_up, ids)
        checked = check_hand(hand)
        assert tuple(pots) == checked.pots and state.violations == list(checked.violations[:len(state.violations)])
        seventh += state.street is Street.SEVENTH
    assert seventh > 50


def test_the_bring_in_places_order_the_deck_as_bring_in_key() -> None:
    """Each variant's ``bring_in_keys``, by a card's text, is its place in the deck ordered by
    :func:`~studbook.evaluate.bring_in_key` (the smallest brings in: rule bringin.player)."""
    from studbook.cards import DECK
    from studbook.engine.variants import VARIANT_RULES
    from studbook.evaluate import bring_in_key

    for variant, rules in VARIANT_RULES.items():
        assert len(rules.bring_in_keys) == len(DECK)
        by_place = sorted(DECK, key=lambda card: rules.bring_in_keys[card.text])
        assert by_place == sorted(DECK, key=lambda card: bring_in_key(card, variant.value)), variant
        assert sorted(rules.bring_in_keys.values()) == list(range(len(DECK)))


_TOTALS = [ZERO, D("0.00"), D("0.10"), D("0.1"), D("0.35"), D(1), D("1.00"), D("5.35")]


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_TOTALS), st.booleans(), st.booleans(), st.sampled_from(_TOTALS[:4])),
                min_size=2, max_size=8))
def test_settlements_unmatched_bet_is_the_rules_own(players: list[tuple[Decimal, bool, bool, Decimal]]) -> None:
    """finish() finds the top two totals in its contributions' list (``unmatched``'s), not
    in a second list of the same players: the answer is ``unmatched``'s, the same player and
    the same Decimals (exponents too: totals equal but written differently among them), and
    where someone sat out with chips in (their total is not among the contributions) too."""
    from studbook.engine.rules.showdown import unmatched
    from studbook.engine.settle import _contributions

    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)),
                          [(i + 1, f"p{i}", D(100)) for i in range(len(players))])
    for p, (total, in_hand, folded, ante) in zip(state.players, players):
        p.total, p.in_hand, p.folded, p.ante = total, in_hand, folded, ante
        p.live = in_hand and not folded
    want = unmatched(state)
    got = unmatched(state, _contributions(state))
    assert got[0] is want[0]
    assert [str(x) for x in got[1:]] == [str(x) for x in want[1:]]
