"""The state machine's public API: legal_actions, turn order, streets, and random legal play."""

from __future__ import annotations

import inspect
import random
from decimal import Decimal

import pytest

from studbook.cards import DECK, parse_cards
from studbook.check import check_hand
from studbook.engine import DEFAULT, POKERSTARS, RuleProfile, StudState, expected_collections
from studbook.engine.table import Reported, Table, TableOptions
from studbook.events import (
    Action, ActionKind, Collect, Event, Hand, HandHeader, PotSummary, Seat, Show, ShowdownStart, Stakes, Street,
    Structure, UncalledReturned, Variant,
)

from test_engine_build import HandBuilder, cards, first, heads_up_stud

D = Decimal
K = ActionKind


def _state(variant: str = "stud", stacks: tuple[str, ...] = ("100", "100", "100"), bring_in: str = "1") -> StudState:
    seats = [(i + 1, "ABCDEFGH"[i], D(s)) for i, s in enumerate(stacks)]
    return StudState.new(variant, Stakes(D(2), D(4), D("0.5"), D(bring_in)), seats)


def test_new_state_before_the_deal() -> None:
    s = _state()
    assert s.street is None
    assert s.next_street is Street.THIRD
    assert s.to_act is None
    assert s.legal_actions() is None


def test_bring_in_options_then_completion_and_raises() -> None:
    s = _state()
    s.post_antes()
    s.start_street(Street.THIRD)
    s.deal("A", up=cards("Kh"), down=cards("2c 3c"))
    s.deal("B", up=cards("4d"))
    s.deal("C", up=cards("4c"))  # 4c < 4d: C brings in
    options = s.legal_actions()
    assert options is not None and options.player == "C"
    assert [(a.kind, a.chips, a.to) for a in options.actions] == [(K.BRING_IN, D(1), D(1)), (K.COMPLETE, D(2), D(2))]
    s.act(options.find(K.BRING_IN))  # type: ignore[arg-type]
    options = s.legal_actions()
    assert options is not None and options.player == "A"
    assert options.to_call == D(1)
    assert [(a.kind, a.to) for a in options.actions] == [(K.FOLD, D(0)), (K.CALL, D(1)), (K.COMPLETE, D(2))]
    s.act(options.find(K.COMPLETE))  # type: ignore[arg-type]
    assert s.bets == 1
    options = s.legal_actions()
    assert options is not None and options.player == "B"
    raise_ = options.find(K.RAISE)
    assert raise_ is not None and (raise_.to, raise_.amount, raise_.chips) == (D(4), D(2), D(4))
    s.act(raise_)
    s.act(s.legal_actions().find(K.RAISE))  # type: ignore[union-attr,arg-type]  C: 6
    s.act(s.legal_actions().find(K.RAISE))  # type: ignore[union-attr,arg-type]  A: 8, the cap
    assert s.bets == 4
    options = s.legal_actions()
    assert options is not None and options.player == "B"
    assert options.kinds() == (K.FOLD, K.CALL)  # capped: no raise
    assert s.violations == []


def test_check_and_bet_on_fourth_with_open_pair() -> None:
    s = _state(stacks=("100", "100"))
    s.post_antes()
    s.start_street(Street.THIRD)
    s.deal("A", up=cards("Kh"))
    s.deal("B", up=cards("3c"))
    s.act(s.legal_actions().find(K.BRING_IN))  # type: ignore[union-attr,arg-type]
    s.act(s.legal_actions().find(K.CALL))  # type: ignore[union-attr,arg-type]
    assert s.is_betting_over
    s.start_street(Street.FOURTH)
    s.deal("A", up=cards("Kd"))
    s.deal("B", up=cards("4c"))
    options = s.legal_actions()
    assert options is not None and options.player == "A"  # open kings
    assert [(a.kind, a.to) for a in options.actions] == [(K.CHECK, D(0)), (K.BET, D(2)), (K.BET, D(4))]
    s.act(options.actions[2])  # the double bet
    options = s.legal_actions()
    assert options is not None
    assert [(a.kind, a.to) for a in options.actions] == [(K.FOLD, D(0)), (K.CALL, D(4)), (K.RAISE, D(8))]
    assert s.violations == []


def test_all_in_for_less_options() -> None:
    s = _state(stacks=("100", "3.5"))
    s.post_antes()
    s.start_street(Street.THIRD)
    s.deal("A", up=cards("Kh"))
    s.deal("B", up=cards("3c"))
    s.act(s.legal_actions().find(K.BRING_IN))  # type: ignore[union-attr,arg-type]
    s.act(s.legal_actions().find(K.COMPLETE))  # type: ignore[union-attr,arg-type]
    options = s.legal_actions()
    assert options is not None and options.player == "B"
    raise_ = options.find(K.RAISE)
    assert raise_ is not None and raise_.all_in and raise_.to == D(3)  # 1 + 2 behind
    s.act(raise_)
    options = s.legal_actions()
    assert options is not None and options.player == "A"
    assert options.kinds() == (K.FOLD, K.CALL)  # B is all-in: nobody left to raise
    s.act(options.find(K.CALL))  # type: ignore[arg-type]
    assert s.is_betting_over
    s.start_street(Street.FOURTH)
    assert s.to_act is None  # at most one player can bet: no betting round
    assert s.violations == []


def test_dealing_order_and_community_need() -> None:
    s = _state(stacks=("100",) * 8)
    s.post_antes()
    s.start_street(Street.THIRD)
    assert s.dealing_order() == list("ABCDEFGH")
    for i, name in enumerate("ABCDEFGH"):
        s.deal(name, up=(DECK[i],), down=(DECK[51 - 2 * i], DECK[50 - 2 * i]))
    s.act(s.legal_actions().find(K.BRING_IN))  # type: ignore[union-attr,arg-type]
    while not s.is_betting_over:
        s.act(s.legal_actions().find(K.CALL))  # type: ignore[union-attr,arg-type]
    nxt = 8
    for street in (Street.FOURTH, Street.FIFTH, Street.SIXTH):
        s.start_street(street)
        for name in s.dealing_order():
            s.deal(name, up=(DECK[nxt],))
            nxt += 1
        while not s.is_betting_over:
            s.act(s.legal_actions().find(K.CHECK))  # type: ignore[union-attr,arg-type]
    s.start_street(Street.SEVENTH)
    assert s.needs_community_card()
    assert s.violations == []


def _deal(s: StudState, deck: list, rng: random.Random) -> None:
    street = s.street
    for name in s.dealing_order():
        if street is Street.THIRD:
            s.deal(name, down=(deck.pop(), deck.pop()), up=(deck.pop(),))
        elif street is Street.SEVENTH:
            s.deal(name, down=(deck.pop(),))
        else:
            s.deal(name, up=(deck.pop(),))


def simulate(rng: random.Random, variant: str, players: int, profile: RuleProfile | None = None,
             state_class: type[StudState] = StudState) -> Hand:
    """A random legal hand driven only by the public API (of a ``state_class``);
    returns it as a Hand (hands shown in the order the profile's showdown_order() gives)."""
    stacks = [D(rng.choice(["3", "8", "20", "60", "100"])) for _ in range(players)]
    seats = [Seat(file="sim", line=i + 2, seat=i + 1, player=f"P{i + 1}", stack=stacks[i]) for i in range(players)]
    stakes = Stakes(D(2), D(4), D("0.5"), D(1))
    events = []

    class Recording(state_class):  # type: ignore[valid-type,misc]
        __slots__ = ()

        def apply(self, event: Event) -> None:  # record every event the simulator feeds
            events.append(event)
            super().apply(event)

    s = Recording.new(variant, stakes, seats, profile)
    deck = list(DECK)
    rng.shuffle(deck)
    s.post_antes()
    while s.next_street is not None:
        s.start_street(s.next_street)
        if s.street is Street.SEVENTH and s.needs_community_card():
            from studbook.events import DealCommunity
            s.apply(DealCommunity(file="", line=0, card=deck.pop()))
        else:
            _deal(s, deck, rng)
        while not s.is_betting_over:
            options = s.legal_actions()
            assert options is not None
            weights = [1 if a.kind is K.FOLD else 3 for a in options.actions]
            s.act(rng.choices(options.actions, weights)[0])
        if s.hand_over:
            break
    returned = s.uncalled()
    if returned:
        s.apply(UncalledReturned(file="", line=0, player=returned[0], amount=returned[1]))
    if not s.hand_over:
        s.apply(ShowdownStart(file="", line=0))
        for name in s.showdown_order():
            p = s.player(name)
            s.apply(Show(file="", line=0, player=name, cards=tuple(c for c in p.cards() if c is not None)))
    collected = expected_collections(s)
    for name, amount, pot in collected:
        s.apply(Collect(file="", line=0, player=name, amount=amount, pot=pot))
    total = sum((p.total for p in s.players), D(0))
    s.apply(PotSummary(file="", line=0, total=total, rake=D(0)))
    numbered = [type(e)(**{**{f: getattr(e, f) for f in e.__dataclass_fields__}, "line": i + 20})  # type: ignore[misc]
                for i, e in enumerate(events)]
    header = HandHeader(site="sim", hand_id="1", variant=Variant(variant), structure=Structure.FIXED,
                        game=variant, stakes=stakes, currency=None)
    return Hand(file="sim", line=1, end_line=len(events) + 21, header=header, seats=tuple(seats),
                events=tuple(numbered))


@pytest.mark.parametrize("variant", ["stud", "stud8", "razz"])
@pytest.mark.parametrize("profile", [DEFAULT, POKERSTARS], ids=["default", "pokerstars"])
def test_random_legal_hands_have_no_violations_and_conserve_chips(variant: str, profile: RuleProfile) -> None:
    rng = random.Random(f"studbook-{variant}")
    for _ in range(150):
        hand = simulate(rng, variant, rng.randint(2, 8), profile)
        check = check_hand(hand, profile)
        assert check.violations == (), (check.violations, [e for e in hand.events])
        assert sum(check.net.values(), D(0)) + check.rake == 0


def test_a_violation_is_recorded_and_the_hand_goes_on() -> None:
    h = heads_up_stud()
    line = h.act("A", "bring_in", "1")  # B has the low card
    h.act("B", "call", "1")
    h.street(4)
    h.deal("A", up="Kd")
    h.deal("B", up="4c")
    h.act("A", "check")
    h.act("B", "check")
    check = h.check()
    assert first(check) == ("bringin.player", line)
    assert check.violations[0].message == "bring-in should be B (3c, lowest up card), not A (Kh)"


def test_never_raises_on_garbage() -> None:
    h = HandBuilder()
    h.act("Z", "raise", "5", "9")
    h.deal("Q", up="Ah")
    h.street(5)
    h.act("A", "call", "100")
    h.uncalled("B", "3")
    h.collect("C", "50", pot=3)
    h.summary("1", "0", pots=("1", "2"))
    check = h.check()
    assert check.violations


def _third_street(first_to_act: str) -> StudState:
    """A, B and C dealt in; A's 2c brings in; ``first_to_act`` completes, then 4th street."""
    state = _state()
    state.post_antes()
    state.start_street(Street.THIRD)
    for name, door in (("A", "2c"), ("B", "Kd"), ("C", "Qh")):
        state.deal(name, down=parse_cards("3s 4s" if name == "A" else "5s 6s" if name == "B" else "7s 8s"),
                   up=parse_cards(door))
    state.apply(Action(file="", line=5, player=first_to_act, kind=K.COMPLETE, amount=D(2), to=D(2)))
    state.start_street(Street.FOURTH, line=9)
    return state


def test_a_fault_reported_holds_back_its_knock_on_message_for_the_round() -> None:
    """Twin in turn: A completes and the others never act, so the round is flagged
    unfinished at the 4th-street line. Twin out of turn: C completes first; that is the
    one violation, and the unfinished round it leaves is not flagged a second time."""
    in_turn = _third_street("A")
    assert [(v.rule, v.line) for v in in_turn.violations] == [("order.streets", 9)]
    out_of_turn = _third_street("C")
    assert [(v.rule, v.line) for v in out_of_turn.violations] == [("bringin.player", 5)]
    assert Reported.TURN not in out_of_turn.reported  # a new street: its own order faults


def test_the_table_options_are_the_tables_keyword_parameters() -> None:
    """``StudState.new(..., **options)`` is typed by ``TableOptions``: its keys are
    exactly the keyword-only parameters of ``Table``, so neither can drift from the other."""
    parameters = inspect.signature(Table.__init__).parameters.values()
    assert list(TableOptions.__annotations__) == [p.name for p in parameters if p.kind is p.KEYWORD_ONLY]
    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), [(1, "A", D(100)), (2, "B", D(100))],
                          **TableOptions(chip=D("0.25"), bring_in_hand="#7"))
    assert state.chip == D("0.25") and state.bring_in_hand == "#7"
