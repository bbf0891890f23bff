"""The one betting arithmetic (``studbook.betting``): street totals and what a completion is.

A bet or raise that faces only the bring-in is ``complete`` in every frame and
stat, whatever the site calls it (PokerStars writes ``raises $0.02 to $0.04``).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from budget import examples

from studbook.betting import completes, named, street_total, written_total
from studbook.cards import parse_cards
from studbook.check import start_state
from studbook.engine.result import ActionFacts
from studbook.engine.state import StudState
from studbook.events import Action, ActionKind, Stakes, Street, UncalledReturned
from studbook.frames import load
from studbook.simulate import simulate

from test_rules import RAZZ

D = Decimal
K = ActionKind
SETTINGS = settings(max_examples=examples(30), deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.mark.parametrize("kind, amount, to, before, level, want", [
    (K.BRING_IN, D(1), None, D(0), D(0), D(1)),
    (K.CALL, D(3), None, D(1), D(4), D(4)),
    (K.BET, D(4), None, D(0), D(0), D(4)),
    (K.RAISE, D(4), None, D(4), D(8), D(12)),  # the increment over the bet to call
    (K.RAISE, D(4), D(12), D(4), D(8), D(12)),
    (K.COMPLETE, D(4), None, D(1), D(1), D(4)),  # the only figure is the total
    (K.COMPLETE, None, D(4), D(1), D(1), D(4)),
    (K.CALL, 300, None, 100, 400, 400),  # minor units work the same
])
def test_street_total_follows_the_events_figures(
    kind: ActionKind, amount: Decimal | None, to: Decimal | None, before: Decimal, level: Decimal, want: Decimal,
) -> None:
    assert street_total(kind, amount, to, before, level) == want


def test_written_total_reads_to_then_by_then_chips() -> None:
    assert written_total(D(2), D(4), to=D(8), by=D(1), chips=D(1)) == D(8)
    assert written_total(D(2), D(4), by=D(4)) == D(8)
    assert written_total(D(2), D(4), chips=D(2)) == D(4)
    assert written_total(D(2), D(4)) == D(2)


def test_only_the_first_bet_of_third_street_completes() -> None:
    assert completes(Street.THIRD, False)
    assert not completes(Street.THIRD, True)
    assert not any(completes(street, False) for street in Street if street is not Street.THIRD)
    assert named(K.RAISE, Street.THIRD, False) is K.COMPLETE
    assert named(K.BET, Street.THIRD, False) is K.COMPLETE
    assert named(K.RAISE, Street.THIRD, True) is K.RAISE
    assert named(K.BET, Street.FOURTH, False) is K.BET
    assert named(K.CALL, Street.THIRD, False) is K.CALL


def _facts(facts: ActionFacts) -> tuple[ActionKind, Decimal, Decimal, int, Decimal]:
    return facts.kind, facts.put_in, facts.to_call, facts.bets_before, facts.pot_before


def _two_players(bring_in: str = "5", stacks: tuple[str, str] = ("100", "100")) -> StudState:
    state = StudState.new("stud", Stakes(small_bet=D(10), big_bet=D(20), ante=D(10), bring_in=D(bring_in)),
                          [(1, "A", D(stacks[0])), (2, "B", D(stacks[1]))])
    state.post_antes()
    state.start_street(Street.THIRD)
    state.deal("A", up=parse_cards("2c"))  # the lowest door card brings in
    state.deal("B", up=parse_cards("Kd"))
    return state


def _act(state: StudState, player: str, kind: ActionKind, amount: str | None, to: str | None = None) -> None:
    state.apply(Action(file="", line=0, player=player, kind=kind, amount=None if amount is None else D(amount),
                       to=None if to is None else D(to)))


def test_the_engine_publishes_each_actions_facts() -> None:
    state = _two_players()
    _act(state, "A", K.BRING_IN, "5")
    _act(state, "B", K.RAISE, "5", "10")  # PokerStars' "raises 5 to 10": a completion
    _act(state, "A", K.RAISE, "10", "20")
    _act(state, "B", K.FOLD, None)
    assert [_facts(f) for f in state.action_facts()] == [
        (K.BRING_IN, D(5), D(0), 0, D(20)),
        (K.COMPLETE, D(10), D(5), 0, D(25)),
        (K.RAISE, D(15), D(5), 1, D(35)),
        (K.FOLD, D(0), D(10), 2, D(50)),
    ]
    assert [f.street for f in state.action_facts()] == [Street.THIRD] * 4
    assert state.uncalled() == ("A", D(10))
    state.apply(UncalledReturned(file="", line=0, player="A", amount=D(10)))
    assert state.pot == D(40)
    assert not state.violations


def test_after_an_all_in_bring_in_for_less_the_next_player_faces_the_full_bring_in() -> None:
    state = _two_players(stacks=("13", "100"))  # A has 3 behind the ante
    _act(state, "A", K.BRING_IN, "3")
    _act(state, "B", K.CALL, "5")
    brought, called = state.action_facts()
    assert _facts(brought) == (K.BRING_IN, D(3), D(0), 0, D(20))
    assert _facts(called) == (K.CALL, D(5), D(5), 0, D(23))  # what B put in is what B had to call


def test_a_short_all_in_raise_is_a_bet_made_though_it_reopens_nothing() -> None:
    state = StudState.new("stud", Stakes(small_bet=D(10), big_bet=D(20), ante=D(0), bring_in=D(5)),
                          [(1, "A", D(100)), (2, "B", D(100)), (3, "C", D(12))])
    state.start_street(Street.THIRD)
    for name, card in (("A", "2c"), ("B", "Kd"), ("C", "Qh")):
        state.deal(name, up=parse_cards(card))
    _act(state, "A", K.BRING_IN, "5")
    _act(state, "B", K.COMPLETE, None, "10")
    _act(state, "C", K.RAISE, "2", "12")  # all-in for 2 more: less than half a bet
    _act(state, "A", K.CALL, "7")
    assert [f.bets_before for f in state.action_facts()] == [0, 0, 1, 2]
    assert state.bets == 1  # for the cap only the completion counts
    assert [f.kind for f in state.action_facts()] == [K.BRING_IN, K.COMPLETE, K.RAISE, K.CALL]
    assert not state.violations


@SETTINGS
@given(st.sampled_from(["stud", "stud8", "razz"]), st.integers(2, 8), st.integers(0, 2**32), st.booleans())
def test_the_facts_are_what_legal_actions_offered(variant: str, players: int, seed: int, tournament: bool) -> None:
    """On simulated hands each action's published facts agree with what
    legal_actions() offered it: chips to call, and chips the option puts in."""
    for sim in simulate(variant, 3, players, seed, tournament):
        hand = sim.hand
        state = start_state(hand)
        for event in hand.events:
            options = state.legal_actions() if isinstance(event, Action) else None
            state.apply(event)
            if options is None:
                continue
            assert isinstance(event, Action)
            facts = state.action_facts()[-1]
            option = next(o for o in options.actions if o.kind is event.kind and o.amount == event.amount)
            assert facts.action is event
            assert (facts.to_call, facts.put_in) == (options.to_call, option.chips)
            assert facts.pot_before + facts.put_in == state.pot
        assert len(state.action_facts()) == sum(isinstance(e, Action) for e in hand.events)


def test_every_sites_completions_are_complete_in_the_actions_frame(corpus: Path) -> None:
    actions = load(corpus).actions
    third = actions[actions["street"] == 3]
    opening = third[third["kind"].isin(["bet", "raise", "complete"]) & (third["bets_before"] == 0)]
    assert set(opening["kind"]) == {"complete"}
    assert (actions.loc[actions["kind"] == "complete", "bets_before"] == 0).all()
    assert (actions.loc[actions["kind"] == "complete", "street"] == 3).all()
    assert len(set(opening["site"])) >= 8, sorted(set(opening["site"]))
    # PokerStars writes its completions as raises: "PC [Mittel]: raises 35 to 50" after a 15 bring-in
    text = (corpus / "PokerStars" / RAZZ).read_text(encoding="utf-8-sig").splitlines()
    assert text[28] == "PC [Mittel]: raises 35 to 50"
    hand_id = text[0].split("#")[1].split(":")[0]
    row = actions[(actions["site"] == "pokerstars") & (actions["hand_id"] == hand_id) & (actions["line"] == 29)]
    assert list(row[["kind", "amount", "to", "put_in", "bets_before"]].itertuples(index=False, name=None)) == [
        ("complete", 3500, 5000, 5000, 0)]
