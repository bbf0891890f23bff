"""A player's cards (issue 34, round i34e24): where ``check_shown`` knows the shown cards
distinct and as many as dealt, ``_learn`` tells "nothing new" by an unknown place alone, not
by the known cards' texts, and must learn what the texts' test learns; ``PlayerState.cards()``
and 3rd street's down cards made without slices, in the dealing order."""

from __future__ import annotations

import copy
from decimal import Decimal
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from budget import examples
from studbook.cards import Card
from studbook.check import start_state
from studbook.engine.rules import deal
from studbook.engine.state import StudState
from studbook.events import Deal, Stakes, Street, StreetStart

from test_engine_actions import _hands

D = Decimal
DECK = [Card.parse(r + s) for r in "23456789TJQKA" for s in "cdhs"]


def _learned(s: StudState, name: str) -> tuple[Any, ...]:
    p = s.by_name[name]
    return list(p.down), list(p.up), p.up_ranks, dict(s.card_owners)


def _both_ways(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """``_learn`` checked at every call told the cards are distinct: it leaves the player and
    the cards' owners as the call without the hint does (run both ways from copies). Returns
    a one-item list counting those calls."""
    original = deal._learn
    told = [0]

    def both(s: StudState, p: Any, cards: Any, line: int, known: Any = None, distinct: bool = False) -> None:
        if distinct:
            told[0] += 1
            plain = copy.deepcopy(s)
            original(plain, plain.by_name[p.name], cards, line, None if known is None else list(known), False)
            original(s, p, cards, line, known, True)
            assert _learned(s, p.name) == _learned(plain, p.name), (cards, known)
        else:
            original(s, p, cards, line, known, distinct)

    monkeypatch.setattr(deal, "_learn", both)
    return told


def test_a_shown_hands_learning_is_the_texts_test_in_every_hand(monkeypatch: pytest.MonkeyPatch) -> None:
    """The sample, simulated and edited hands: every show, muck and summary of distinct cards
    learns what the known cards' texts would have. Fails if the hint were taken where a shown
    card is new but the place test says nothing is (or the other way)."""
    told = _both_ways(monkeypatch)
    for hand in _hands():
        state = start_state(hand)
        state.apply_all(hand.events)
    assert told[0] > 100, told


@settings(max_examples=examples(500), deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=14, max_size=14, unique=True),
       st.lists(st.booleans(), min_size=7, max_size=7), st.integers(0, 4), st.booleans(),
       st.randoms(use_true_random=False))
def test_distinct_cards_as_many_as_dealt_learn_as_the_texts_test(deck: list[Card], unknown: list[bool], n_up: int,
                                                                 third_down: bool, rng: Any) -> None:
    """Any dealt cards (some down cards unknown, none or some up cards), shown as distinct
    cards as many as dealt, in place, shuffled, or new: the hint learns what the texts' test
    does. Fails with "nothing new" told by the texts alone (a known card in another place)."""
    s = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), [(1, "ann", D(100)), (2, "bob", D(100))])
    p = s.by_name["ann"]
    dealt = deck[:7]
    down_count = 3 if third_down else 2
    p.down = [None if unknown[i] else dealt[i] for i in range(down_count)]
    p.up = dealt[down_count:down_count + n_up]
    for c in p.down + p.up:
        if c is not None:
            s.card_owners[c.text] = "ann"
    known = p.cards()
    shown = list(dealt[:len(known)]) if rng.random() < 0.5 else rng.sample(deck, len(known))
    if rng.random() < 0.3:
        rng.shuffle(shown)
    plain = copy.deepcopy(s)
    deal._learn(plain, plain.by_name["ann"], shown, 1, plain.by_name["ann"].cards(), False)
    deal._learn(s, p, shown, 1, known, True)
    assert _learned(s, "ann") == _learned(plain, "ann")


@settings(max_examples=examples(500), deadline=None)
@given(st.lists(st.sampled_from(DECK), min_size=7, max_size=7, unique=True),
       st.lists(st.booleans(), min_size=3, max_size=3), st.lists(st.integers(0, 9), min_size=7, max_size=7),
       st.booleans())
def test_check_shown_tells_distinct_only_of_distinct_cards(dealt: list[Card], unknown: list[bool],
                                                           picks: list[int], in_place: bool) -> None:
    """``check_shown`` of any cards (the known ones in their places and any at the unknown
    places, a known card again among them; or any cards) tells ``_learn`` the cards are
    distinct only where they are: the player and the owners it leaves are the texts' test's.
    Fails with the hint given for cards shown twice (all of them known, an unknown place left:
    the hint would fill it)."""
    with pytest.MonkeyPatch.context() as patched:
        _both_ways(patched)
        s = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), [(1, "ann", D(100)), (2, "bob", D(100))])
        p = s.by_name["ann"]
        p.down = [None if unknown[0] else dealt[0], None if unknown[1] else dealt[1], None if unknown[2] else dealt[6]]
        p.up = dealt[2:6]
        for c in p.down + p.up:
            if c is not None:
                s.card_owners[c.text] = "ann"
        pool = dealt + [c for c in DECK if c not in dealt][:3]
        known = p.cards()
        shown = tuple(k if in_place and k is not None else pool[i] for k, i in zip(known, picks))
        deal.check_shown(s, p, shown, 1)


@settings(max_examples=examples(300), deadline=None)
@given(st.lists(st.one_of(st.none(), st.sampled_from(DECK)), max_size=4), st.lists(st.sampled_from(DECK), max_size=5))
def test_a_players_cards_are_the_down_cards_around_the_up_cards(down: list[Card | None], up: list[Card]) -> None:
    """``PlayerState.cards()`` (the first two down cards by index, not a slice: issue 34,
    round i34e24) is the dealing order: two down cards, the up cards, the later down cards.
    Fails with the first two swapped or a later down card before the up cards."""
    s = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), [(1, "ann", D(100)), (2, "bob", D(100))])
    p = s.by_name["ann"]
    p.down, p.up = list(down), list(up)
    assert p.cards() == down[:2] + up + down[2:]


@pytest.mark.parametrize("hole", [(), ("Ah", "Kd")])
def test_a_third_street_deal_puts_its_down_cards_before_those_known_already(hole: tuple[str, ...]) -> None:
    """3rd street's fast path (the down cards as a new list, not a slice's assignment: issue
    34, round i34e24) puts the deal's two down cards, or two unknown ones, before any down
    card known already (a broken log's, learned before the deal). Fails with them after."""
    s = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)), [(1, "ann", D(100)), (2, "bob", D(100))])
    p = s.by_name["ann"]
    early = Card.parse("2c")
    p.down = [early]
    s.apply(StreetStart(file="", line=1, street=Street.THIRD))
    down = tuple(Card.parse(t) for t in hole)
    s.apply(Deal(file="", line=2, player="ann", street=Street.THIRD, up=(Card.parse("9s"),), down=down))
    assert p.down == [*(down or (None, None)), early] and not s.violations
