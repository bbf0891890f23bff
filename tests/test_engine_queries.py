"""The engine's queries and its variants as data.

``legal_actions()``, ``to_act``, ``is_betting_over`` and ``uncalled()`` are
queries: asking changes nothing a caller can see. The variants are
:class:`~studbook.engine.variants.VariantRules` entries the rules read, never a
branch on the variant's name.
"""

from __future__ import annotations

import dataclasses
import random
import re
from decimal import Decimal
from pathlib import Path

import pytest

from studbook.cards import DECK, parse_cards
from studbook.check import check_hand
from studbook.engine import LegalActions, StudState
from studbook.engine.messages import BET_OPEN_PAIR_NO_DOUBLE
from studbook.engine.settle import pot_winners
from studbook.engine.variants import showdown_winners, VARIANT_RULES
from studbook.events import Action, ActionKind, PostAnte, Stakes, Street, Variant

from test_engine_build import cards
from test_engine_state import simulate

D = Decimal
K = ActionKind
ENGINE = Path(__file__).resolve().parent.parent / "src" / "studbook" / "engine"


def _state(variant: str = "stud", players: int = 3) -> StudState:
    seats = [(i + 1, "ABCDEFGH"[i], D(100)) for i in range(players)]
    return StudState.new(variant, Stakes(D(2), D(4), D("0.5"), D(1)), seats)


def _observed(s: StudState) -> tuple[object, ...]:
    """Everything a caller can read of a state (the violations and each seat included)."""
    seats = tuple((p.name, p.stack, p.total, p.street_in, p.folded, p.all_in, p.acted, tuple(p.up), tuple(p.down))
                  for p in s.players)
    return (s.street, s.current_bet, s.bet_level, s.bets, s.aggressions, s.pot, s.hand_over, s.bring_in,
            list(s.violations), list(s.action_log), seats)


class Asking(StudState):
    """A state that, each time it is asked for the legal actions, asks everything
    twice and checks that the answers agree and the observable state is unchanged."""

    __slots__ = ()

    def legal_actions(self) -> LegalActions | None:
        before = _observed(self)
        first = (super().legal_actions(), self.to_act, self.is_betting_over, self.uncalled(), self.peek_to_act())
        again = (super().legal_actions(), self.to_act, self.is_betting_over, self.uncalled(), self.peek_to_act())
        assert again == first
        assert _observed(self) == before
        return first[0]


@pytest.mark.parametrize("variant", ["stud", "stud8", "razz"])
def test_asking_changes_nothing_in_random_hands(variant: str) -> None:
    """At every step of random legal hands, asking twice gives the same answers and
    leaves the observable state as it was; the hands check clean."""
    rng = random.Random(f"queries-{variant}")
    for _ in range(40):
        hand = simulate(rng, variant, rng.randint(2, 8), state_class=Asking)
        assert check_hand(hand).violations == ()


def test_legal_actions_does_not_start_the_round() -> None:
    """A player dealt in without an ante is reported when betting starts, at the
    next event: not by asking who is to act (old main reported it on the question)."""
    s = _state()
    s.apply(PostAnte(file="", line=1, player="A", amount=D("0.5")))
    s.apply(PostAnte(file="", line=2, player="B", amount=D("0.5")))
    s.start_street(Street.THIRD, line=3)
    s.deal("A", up=cards("Kh"), line=4)
    s.deal("B", up=cards("4d"), line=5)
    s.deal("C", up=cards("3c"), line=6)  # dealt in with no ante posted
    options = s.legal_actions()
    assert options is not None and options.player == "C"
    assert s.to_act == "C" and not s.is_betting_over
    assert s.violations == []
    bring_in = options.find(K.BRING_IN)
    assert bring_in is not None
    s.act(bring_in, line=7)
    assert [(v.rule, v.line) for v in s.violations] == [("deal.ante", 6)]


def test_every_variant_is_described() -> None:
    assert set(VARIANT_RULES) == set(Variant)
    for variant, rules in VARIANT_RULES.items():
        assert rules.variant is variant
        # bring_in_by says which door card brings in: the keys order the deck that way
        by_key = sorted(DECK, key=lambda c: rules.bring_in_keys[c.text])
        first, last = by_key[0], by_key[-1]
        if rules.bring_in_by == "lowest":
            assert (first.rank, last.rank) == (min(c.rank for c in DECK), max(c.rank for c in DECK))
        else:
            assert (first.low_rank, last.low_rank) == (max(c.low_rank for c in DECK), min(c.low_rank for c in DECK))


def test_no_variant_branches_in_the_engine() -> None:
    """Only engine/variants.py names a variant; the rules read its data."""
    pattern = re.compile(r"Variant\.(STUD8|RAZZ|STUD)\b|_RAZZ\b|\"razz\"|'razz'")
    found = [f"{path.relative_to(ENGINE)}:{n}" for path in ENGINE.rglob("*.py") if path.name != "variants.py"
             for n, line in enumerate(path.read_text().splitlines(), 1) if pattern.search(line)]
    assert found == []


def test_the_rules_follow_the_variant_data() -> None:
    """A stud whose description has no open-pair double bet: the 4th-street double bet
    is then a violation, as in razz; the rules read the data, not the variant's name."""
    s = _state("stud", 2)
    s.variant_rules = dataclasses.replace(VARIANT_RULES[Variant.STUD], open_pair_double=False)
    s.post_antes()
    for street, boards in ((Street.THIRD, {"A": "Kh", "B": "3c"}), (Street.FOURTH, {"A": "Kd", "B": "4c"})):
        s.start_street(street)
        for name, up in boards.items():
            s.deal(name, up=cards(up))
        while street is Street.THIRD and (options := s.legal_actions()) is not None:
            s.act(next(a for a in options.actions if a.kind in (K.BRING_IN, K.CALL)))
    options = s.legal_actions()
    assert options is not None and [(a.kind, a.to) for a in options.actions] == [(K.CHECK, D(0)), (K.BET, D(2))]
    s.apply(Action(file="", line=9, player="A", kind=K.BET, amount=D(4)))  # the double bet
    assert [(v.rule, v.line, v.message) for v in s.violations] == [
        ("bet.open_pair", 9, BET_OPEN_PAIR_NO_DOUBLE.text({"player": "A", "what": "bet"}))]


def test_showdown_winners_from_the_evaluators() -> None:
    hands = {"A": parse_cards("Ah 2c 3d 4s 5h Kc Kd"), "B": parse_cards("Qh Qc Qd 9s 9h 2d 7c")}
    order = ["A", "B"]
    assert pot_winners(Variant.STUD, hands, order) == (["B"], [])
    assert pot_winners(Variant.STUD8, hands, order) == (["B"], ["A"])
    assert pot_winners(Variant.RAZZ, hands, order) == (["A"], [])
    no_low = {"A": parse_cards("Ah Kc Qd Js 9h 9c 9d"), "B": parse_cards("Qh Qc Qd 9s 2h 2d 7c")}
    assert pot_winners(Variant.STUD8, no_low, order) == (["B"], [])  # no 8-or-better low: no split
    # a low-only game with the 8 qualifier (a variant as data): nobody qualifies, nobody wins
    eight_low = dataclasses.replace(VARIANT_RULES[Variant.RAZZ], low=VARIANT_RULES[Variant.STUD8].low, low_qualifier=8)
    assert not eight_low.splits
    assert showdown_winners(eight_low, no_low, order) == ([], [])
    assert showdown_winners(VARIANT_RULES[Variant.RAZZ], no_low, order) == (["A"], [])  # A-K-Q-J-9 beats a pair
