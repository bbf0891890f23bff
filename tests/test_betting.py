"""The one betting arithmetic (``studbook.betting``): street totals and what a completion is,
what a call costs, the uncalled bet, main and side pots; and the readers' ledger built on it.

A bet or raise that faces only the bring-in is ``complete`` in every frame and
stat, whatever the site calls it (PokerStars writes ``raises $0.02 to $0.04``).
"""

from __future__ import annotations

import itertools
from decimal import Decimal
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from budget import examples

from studbook.betting import (
    AGGRESSIVE, AGGRESSIVE_NAMES, call_chips, completes, figures, fixed_stakes, kind_for, named, owed, pot_layers,
    split_winnings, street_bet, street_total, top_two, uncalled_part, written_total,
)
from studbook.cards import parse_cards
from studbook.check import start_state
from studbook.engine.result import ActionFacts
from studbook.engine.state import StudState
from studbook.events import Action, ActionKind, Stakes, Street, UncalledReturned
from studbook.frames import load
from studbook.simulate import simulate
from studbook.sites.ledger import Ledger

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


@SETTINGS
@given(kind=st.sampled_from(ActionKind), street=st.sampled_from([None, *Street]), bets=st.integers(0, 5))
def test_an_actions_facts_name_its_kind_as_betting_named_does(kind: ActionKind, street: Street | None,
                                                               bets: int) -> None:
    # fact_fields looks the name up in a table of named() by kind, street and opened (i34m13):
    # fails with the table's pair (not opened, opened) swapped, or indexed by the count itself
    from studbook.engine.result import fact_fields

    action = Action(file="f", line=1, player="A", kind=kind, amount=D(1))
    record = (action, street, bets, D(3), D(2), D(1), D(1), D(2))
    (facts,) = fact_fields([record])
    assert facts[2] is named(kind, street, bets > 0)
    assert facts[3:] == (D(1), D(1), bets, D(3))


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


# -- the shared pieces on hand-made cases ------------------------------------------------------------

@pytest.mark.parametrize("total, level, completing, want", [
    (D(4), D(4), False, K.CALL),  # matches the bet
    (D(3), D(4), True, K.CALL),  # all-in for less than the call: still a call, even unopened
    (D(4), D(1), True, K.COMPLETE),  # over the bring-in on unopened 3rd street
    (D(4), D(0), False, K.BET),
    (D(8), D(4), False, K.RAISE),
    (8, 4, False, K.RAISE),  # minor units work the same
])
def test_kind_for_tells_call_completion_bet_and_raise(total: Decimal, level: Decimal, completing: bool,
                                                      want: ActionKind) -> None:
    assert kind_for(total, level, completing) is want


def test_figures_are_what_events_carry() -> None:
    assert figures(K.COMPLETE, D(4), D(1), D(1)) == (D(4), D(4))  # a completion: amount == to
    assert figures(K.RAISE, D(12), D(4), D(8)) == (D(4), D(12))  # "raises 4 to 12"
    assert figures(K.BET, D(4), D(0), D(0)) == (D(4), None)
    assert figures(K.CALL, D(8), D(4), D(8)) == (D(4), None)
    assert figures(K.BRING_IN, D(1), D(0), D(0)) == (D(1), None)


def test_a_call_costs_what_is_owed_or_the_whole_stack() -> None:
    assert owed(D(8), D(4)) == D(4)
    assert owed(D(4), D(8)) == D(0)  # nothing owed, never less
    assert call_chips(D(8), D(4), D(10)) == D(4)
    assert call_chips(D(8), D(4), D(3)) == D(3)  # all-in for less


def test_the_uncalled_bet_is_the_top_total_over_the_second_never_an_ante() -> None:
    assert top_two([("A", D(30)), ("B", D(10)), ("C", D(20))]) == ("A", D(30), D(20))
    assert top_two([("A", D(20)), ("B", D(20))]) == ("A", D(20), D(20))  # a tie: nothing uncalled
    assert top_two([("A", D(5))]) == ("A", D(5), D(0))
    assert top_two([]) == (None, D(0), D(0))
    assert uncalled_part(D(30), D(20), D(1)) == D(10)
    # everyone else folded before matching even the ante: only the bet above the ante comes back
    assert uncalled_part(D(5), D(0), D(1)) == D(4)


def test_side_pots_layer_at_each_live_total() -> None:
    # A all-in for 10, B and C put in 30 each, D folded after 20
    layers = pot_layers([("A", D(10), True), ("B", D(30), True), ("C", D(30), True), ("D", D(20), False)])
    assert layers == [(D(40), ("A", "B", "C")), (D(50), ("B", "C"))]
    # one live total: one pot, a folded player's chips in it
    assert pot_layers([("A", D(10), True), ("B", D(4), False), ("C", D(10), True)]) == [(D(24), ("A", "C"))]
    # nobody live (the log lost them): the chips are one pot nobody can win
    assert pot_layers([("A", D(3), False), ("B", D(2), False)]) == [(D(5), ())]
    assert pot_layers([]) == []


def test_winnings_fill_the_side_pots_first() -> None:
    """A log that states only each player's winnings (iPoker): the side pot is shared by its
    eligible winners, the rest of each one's winnings is the main pot's."""
    pots = [(D(30), frozenset("ABC")), (D(20), frozenset("AB"))]
    assert split_winnings({"A": D(50)}, pots) == [("A", D(30), 0), ("A", D(20), 1)]
    assert split_winnings({"A": D(35), "B": D(15)}, pots) == [
        ("A", D(25), 0), ("B", D(5), 0), ("A", D(10), 1), ("B", D(10), 1)]
    assert split_winnings({"C": D(30)}, pots) == [("C", D(30), 0)]  # C could not win the side pot
    assert split_winnings({"A": D(9), "B": D(0)}, pots[:1]) == [("A", D(9), 0)]


def test_fixed_stakes_from_one_bet() -> None:
    assert fixed_stakes(D(2), None) == (D(2), D(4))
    assert fixed_stakes(None, D(4)) == (D(2), D(4))
    assert fixed_stakes(D(2), D(4)) == (D(2), D(4))
    assert fixed_stakes(None, None) is None


@pytest.mark.parametrize("variant", ["stud", "razz"])
def test_each_streets_bet_is_its_unit_as_legal_actions_offer_it(variant: str) -> None:
    """An opening bet that is not all-in is the street's unit (the small bet on 3rd
    and 4th, the big bet after), as the engine's legal_actions() offers it; on 4th
    street an open pair (stud only) offers the big bet too."""
    seen = set()
    for sim in simulate(variant, 150, 5, 7, tournament=False):
        state = start_state(sim.hand)
        for event in sim.hand.events:
            options = state.legal_actions() if isinstance(event, Action) else None
            state.apply(event)
            if options is None or options.to_call or options.street is Street.THIRD:
                continue
            unit = street_bet(options.street, state.small, state.big)
            bets = {o.chips for o in options.actions if o.kind is K.BET and not o.all_in}
            if bets:
                seen.add(options.street)
                assert unit in bets, (options.street, bets)
                assert bets <= {unit, state.big}
    assert seen == {Street.FOURTH, Street.FIFTH, Street.SIXTH, Street.SEVENTH}
    assert street_bet(Street.THIRD, D(2), D(4)) == street_bet(Street.FOURTH, D(2), D(4)) == D(2)


def test_the_aggressive_kinds_are_those_that_count_toward_the_cap() -> None:
    """Bet, raise and completion make a bet (rule bet.cap): a bring-in, call, check or fold does
    not; the names are what the actions frame's kind column holds."""
    assert AGGRESSIVE == {K.BET, K.RAISE, K.COMPLETE}
    assert sorted(AGGRESSIVE_NAMES) == ["bet", "complete", "raise"]
    state = StudState.new("stud", Stakes(D(2), D(4), D("0.5"), D(1)),
                          [(1, "ann", D(100)), (2, "bob", D(100)), (3, "cat", D(100))])
    state.post_antes()
    state.start_street(Street.THIRD)
    for name, up, down in zip(state.dealing_order(), ("2c", "Kd", "Qh"), ("As Ah", "9s 9h", "5s 5h")):
        state.deal(name, up=parse_cards(up), down=parse_cards(down))
    counted = []
    while (options := state.legal_actions()) is not None:
        option = next((o for o in options.actions if o.kind in AGGRESSIVE), None) if state.bets < 2 else None
        option = option or options.find(K.CALL) or options.actions[0]
        before = state.bets
        state.act(option)
        counted.append((option.kind in AGGRESSIVE, state.bets - before))
    assert counted and all(made == (n == 1) for made, n in counted)
    assert {made for made, _ in counted} == {True, False} and not state.violations


# -- properties ---------------------------------------------------------------------------------------

CENTS = st.integers(0, 10_000).map(lambda cents: D(cents).scaleb(-2))


@SETTINGS
@given(st.sampled_from([K.BRING_IN, K.BET, K.CALL, K.RAISE, K.COMPLETE]), CENTS, CENTS, CENTS)
def test_figures_and_street_total_are_inverse(kind: ActionKind, total: Decimal, before: Decimal,
                                              level: Decimal) -> None:
    """What an action's figures say it reaches is the street total they were made from, and a
    site's three ways of writing it (the new total, a raise's increment, the chips put in) agree."""
    amount, to = figures(kind, total, before, level)
    assert street_total(kind, amount, to, before, level) == total
    if kind is K.RAISE:
        assert street_total(kind, amount, None, before, level) == total  # "raises $X" without "to"
    assert written_total(before, level, to=total) == total
    assert written_total(before, level, by=total - level) == total
    assert written_total(before, level, chips=total - before) == total


@SETTINGS
@given(CENTS, CENTS, CENTS)
def test_a_call_never_puts_in_more_than_owed_or_the_stack(level: Decimal, before: Decimal, stack: Decimal) -> None:
    chips = call_chips(level, before, stack)
    assert chips == min(max(level - before, D(0)), stack)
    assert owed(level, before) >= 0
    if before <= level:  # a player's street total is never above the bet to match
        assert kind_for(before + chips, level, True) is K.CALL


@SETTINGS
@given(st.lists(CENTS, max_size=8), CENTS)
def test_uncalled_is_the_top_put_in_minus_the_second(totals: list[Decimal], ante: Decimal) -> None:
    top, first, second = top_two(enumerate(totals))
    ranked = sorted(totals, reverse=True)
    assert first == (ranked[0] if ranked else 0) and second == (ranked[1] if len(ranked) > 1 else 0)
    assert top == (totals.index(first) if first > 0 else None)  # the first listed among equals
    assert uncalled_part(first, second, ante) == min(first - second, first - ante)


def test_the_uncalled_part_is_the_lesser_difference_exactly() -> None:
    """``uncalled_part`` takes the greater of the second total and the ante from the top (one
    subtraction, issue 34 round i34e21): the lesser of the two differences exactly, its exponent
    and type too where the two tie (the output prints it), over every three of some figures of
    other exponents and kinds. Fails with the greater taken as the last of equals."""
    figures: list[Decimal | int] = [D("0"), D("0.0"), D("0.00"), D("1"), D("1.0"), D("1.50"), D("1.5"), D("2"),
                                    D("2.00"), D("1E+1"), 3, 1, 0]
    for first, second, ante in itertools.product(figures, repeat=3):
        got, want = uncalled_part(first, second, ante), min(first - second, first - ante)
        assert (str(got), type(got)) == (str(want), type(want)), (first, second, ante)


@SETTINGS
@given(st.lists(st.tuples(CENTS, st.booleans()), max_size=8))
def test_pots_add_up_to_the_contributions(rows: list[tuple[Decimal, bool]]) -> None:
    """Every chip is in one pot; each pot's players are live, put in at least the pot's layer,
    and each later pot's players are some of the one before's."""
    contributions = [(n, total, live) for n, (total, live) in enumerate(rows)]
    layers = pot_layers(contributions)
    assert sum((amount for amount, _ in layers), D(0)) == sum((t for t, _ in rows), D(0))
    assert all(amount > 0 for amount, _ in layers)
    live = {n for n, t, alive in contributions if alive and t > 0}
    for (_, earlier), (_, later) in zip(layers, layers[1:]):
        assert set(later) < set(earlier)
    if layers and live:
        assert set(layers[0][1]) == live  # everyone live with chips in can win the main pot
        top = max(rows[n][0] for n in live)
        assert {n for n in live if rows[n][0] == top} <= set(layers[-1][1])
    for _, eligible in layers:
        assert set(eligible) <= live and list(eligible) == sorted(eligible)  # in dealing order


# amounts of several exponents (1E+1, 10, 10.0, 0.10), zeros of other exponents and negatives
# (a broken log's returns): the sums' exponents are what tell a sum made otherwise
SCALED = st.builds(lambda cents, places: D(cents).scaleb(-places), st.integers(-500, 5_000), st.integers(-1, 3))


@SETTINGS
@given(SCALED.filter(lambda level: level > 0), st.lists(st.tuples(st.booleans(), SCALED, st.integers(0, 3)), max_size=8),
       st.booleans())
def test_one_pots_sum_is_the_layers_term_for_term(level: Decimal, rows: list[tuple[bool, Decimal, int]],
                                                  as_ints: bool) -> None:
    """pot_layers' one-pot path (every live player's total the same) sums the contributions in
    one walk: its pot is exactly the layered walk's (``_layers``), the value and the Decimal
    exponent, and so are its players. Fails with a sum that adds a zero or a negative total,
    or starts from other than the hand's zero."""
    from studbook.betting import _layers
    contributions: list[tuple[int, Decimal | int, bool]] = []
    for n, (live, total, places) in enumerate(rows):
        if live:  # the one live total, written with more or fewer places
            written = level.quantize(D(1).scaleb(-places))
            total = written if written == level else level
        contributions.append((n, total, live))
    if as_ints:  # a chip hand's whole amounts
        contributions = [(n, int(t), live) for n, t, live in contributions if t == int(t)]
    zero: Decimal | int = 0 if as_ints else D(0)
    got, want = pot_layers(contributions, zero), _layers(contributions, zero)
    assert got == want
    assert [(str(amount), eligible) for amount, eligible in got] == [(str(amount), eligible) for amount, eligible in want]


@SETTINGS
@given(st.lists(st.tuples(CENTS, st.booleans()), min_size=2, max_size=6), st.data())
def test_split_winnings_gives_each_winner_exactly_what_they_won(rows: list[tuple[Decimal, bool]],
                                                                data: st.DataObject) -> None:
    contributions = [(n, total, live) for n, (total, live) in enumerate(rows)]
    pots = [(amount, frozenset(eligible)) for amount, eligible in pot_layers(contributions)]
    live = [n for n, (_, alive) in enumerate(rows) if alive]
    wins = {n: data.draw(CENTS) for n in live}
    collections = split_winnings(wins, pots)
    for n in live:
        assert sum((a for who, a, _ in collections if who == n), D(0)) == wins[n]
    assert all(amount > 0 and (pot == 0 or who in pots[pot][1]) for who, amount, pot in collections)


# -- the readers' ledger: its two entries agree ------------------------------------------------------

STREETS = [Street.THIRD, Street.FOURTH, Street.FIFTH]


@SETTINGS
@given(st.lists(st.lists(st.tuples(st.integers(0, 2), st.sampled_from([1, 2, 4, 8, 10])), max_size=6),
                min_size=1, max_size=3))
def test_the_text_and_xml_readers_normalise_alike(streets: list[list[tuple[int, int]]]) -> None:
    """A street total written as the text readers' "to", their chips put in, and the XML readers'
    figures (total or chips, with their all-in rule) give the same events: kind, amount and ``to``."""
    names = ["A", "B", "C"]
    by_to, by_chips = Ledger(), Ledger()
    xml_to, xml_chips = (Ledger({n: D(1000) for n in names}, all_in_takes_chips=True) for _ in range(2))
    for ledger in (by_to, by_chips):
        for n in names:
            ledger.seat(n, D(1000))
    for street, actions in zip(STREETS, streets):
        for ledger in (by_to, by_chips, xml_to, xml_chips):
            ledger.start(street)
        opened = False
        for seat, raise_by in actions:
            name = names[seat]
            before, level = by_to.street_in.get(name, D(0)), by_to.level
            total = level + raise_by  # a bet, completion or raise of raise_by
            got = [by_to.act(name, K.RAISE, to=total)[:3], by_chips.act(name, K.BET, chips=total - before)[:3],
                   xml_to.act_as(name, "raise", total, "to")[:3], xml_chips.act_as(name, "bet", total - before, "chips")[:3]]
            assert got[1:] == got[:1] * 3, (street, name, total)
            want = K.COMPLETE if street is Street.THIRD and not opened else K.BET if level == 0 else K.RAISE
            assert got[0] == (want, *figures(want, total, before, level))
            opened = True


def test_street_bet_is_small_on_third_and_fourth_then_big() -> None:
    """The one definition of the fixed-limit bet per street (the engine's bet sizes use it)."""
    assert [street_bet(street, 2, 4) for street in Street] == [2, 2, 4, 4, 4]
    assert street_bet(Street.FIFTH, D("0.5"), D(1)) == D(1)
