"""Property tests of the engine on simulated hands (hypothesis).

* every simulated hand checks clean, for all variants and 2 to 8 players;
* chips are conserved: the nets plus the rake sum to zero, and the checker's
  per-player nets are the simulator's;
* changing one action into one that ``legal_actions()`` did not offer at that
  point is always flagged, with a rule id that fits the change;
* ``parse(write(hand))`` gives the hand back (file and line numbers aside: the
  simulator numbers lines as the writer writes them, so those agree too).

Hands where the bring-in player is all-in for less than the bring-in check
clean too: the others must still call the full bring-in (rule
``bringin.allin``), and ``check_hand``, which is not told the table's bring-in
(PokerStars headers do not state it), takes it from the first caller. The
mutation test leaves those hands out: there a changed call amount is the
bring-in the checker infers.

Mutations not counted as "not offered": folding when a check is possible
(docs/rules.md has no rule against it; sites allow it) and relabelling a bet as a
raise with the same chips (the log's verb, not a different action).
"""

from __future__ import annotations

import dataclasses
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from budget import examples

from studbook.check import check_hand
from studbook.engine.profiles import get_profile
from studbook.engine.state import LegalActions, StudState
from studbook.events import Action, ActionKind, Hand, Street, Variant
from studbook.parse import parse_text
from studbook.simulate import SimulatedHand, simulate
from studbook.write.pokerstars import write_hand

K = ActionKind
VARIANT_NAMES = ("stud", "stud8", "razz")
VARIANTS = st.sampled_from(list(VARIANT_NAMES))
PLAYERS = st.integers(min_value=2, max_value=8)
SEEDS = st.integers(min_value=0, max_value=2**32)
SETTINGS = settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])

SENSIBLE = {
    "order.turn", "order.third", "order.first", "order.streets", "bringin.player", "bringin.allin",
    "bringin.amount", "bringin.complete", "bet.size", "bet.open_pair", "bet.cap", "bet.allin",
    "bet.check", "chips.stack",
}


def _hands(variant: str, players: int, seed: int, tournament: bool, count: int = 3) -> list[SimulatedHand]:
    return list(simulate(variant, count, players, seed, tournament))


@SETTINGS
@given(VARIANTS, PLAYERS, SEEDS, st.booleans())
def test_simulated_hands_check_clean(variant: str, players: int, seed: int, tournament: bool) -> None:
    for sim in _hands(variant, players, seed, tournament):
        checked = check_hand(sim.hand)
        assert not checked.violations, (sim.hand.hand_id, checked.violations)


@SETTINGS
@given(VARIANTS, PLAYERS, SEEDS, st.booleans())
def test_chips_are_conserved(variant: str, players: int, seed: int, tournament: bool) -> None:
    for sim in _hands(variant, players, seed, tournament):
        assert sum(sim.net.values(), Decimal(0)) + sim.rake == 0
        checked = check_hand(sim.hand)
        assert checked.rake == sim.rake
        assert checked.net == sim.net
        starts = {s.player: s.stack for s in sim.hand.seats}
        assert all(sim.stacks_after[n] == starts[n] + sim.net[n] >= 0 for n in sim.net)


@SETTINGS
@given(VARIANTS, PLAYERS, SEEDS, st.booleans())
def test_parse_write_round_trip(variant: str, players: int, seed: int, tournament: bool) -> None:
    for sim in _hands(variant, players, seed, tournament):
        (parsed,) = parse_text(write_hand(sim.hand))
        assert isinstance(parsed, Hand), parsed
        assert _strip(parsed) == _strip(sim.hand)
        assert [e.line for e in parsed.events] == [e.line for e in sim.hand.events]


def _strip(hand: Hand) -> Hand:
    return dataclasses.replace(
        hand, file="", line=0, end_line=0,
        seats=tuple(dataclasses.replace(s, file="", line=0) for s in hand.seats),
        events=tuple(dataclasses.replace(e, file="", line=0) for e in hand.events),
    )


# ---------------------------------------------------------------------------- mutations


def _replay(hand: Hand, upto: int) -> StudState:
    header = hand.header
    chip = Decimal("0.01") if header.currency else None
    state = StudState(header.variant, header.stakes, hand.seats, get_profile(header.site), header.structure, chip=chip)
    state.apply_all(hand.events[:upto])
    return state


def _unit(state: StudState) -> Decimal:
    if state.street in (Street.THIRD, Street.FOURTH):
        return state.small
    return state.big


def _to(action: Action, street_in: Decimal) -> Decimal | None:
    if action.kind is K.BET:
        return street_in + (action.amount or Decimal(0))
    if action.kind in (K.RAISE, K.COMPLETE):
        return action.to
    return None


def _offered(options: LegalActions, action: Action, state: StudState) -> bool:
    """Whether ``action`` puts in the chips of an offered option (bet, raise or complete alike)."""
    p = state.player(action.player)
    if p is None or action.player != options.player:
        return False
    aggressive = (K.BET, K.RAISE, K.COMPLETE)
    for option in options.actions:
        if option.kind in aggressive and action.kind in aggressive:
            if option.to == _to(action, p.street_in):
                return True
        elif option.kind is action.kind and option.amount == action.amount:
            return True
    return False


def _alternatives(state: StudState, options: LegalActions, original: Action) -> list[Action]:
    """Actions not offered at this point that break a rule (see the module docstring)."""
    p = state.player(options.player)
    assert p is not None
    unit = _unit(state)
    current = state.current_bet
    base = dict(file=original.file, line=original.line)
    out: list[Action] = []
    kinds = options.kinds()
    if K.CHECK not in kinds:
        out.append(Action(**base, player=p.name, kind=K.CHECK))
    if K.CALL in kinds and p.stack > options.to_call + unit:
        out.append(Action(**base, player=p.name, kind=K.CALL, amount=options.to_call + unit))
        half = options.to_call / 2
        if half > 0 and (half / state.chip) == int(half / state.chip):
            out.append(Action(**base, player=p.name, kind=K.CALL, amount=half))
    if K.CALL not in kinds and K.BRING_IN not in kinds:
        out.append(Action(**base, player=p.name, kind=K.CALL, amount=unit))
    if p.stack > 4 * unit:
        # aggression of a size no option offers: half a unit more, or three units more
        for to in (current + unit / 2, current + 3 * unit):
            if state.chip and (to / state.chip) != int(to / state.chip):
                continue
            kind = K.RAISE if current > 0 else K.BET
            action = Action(**base, player=p.name, kind=kind, amount=(to - current) if current else to - p.street_in,
                            to=to if kind is K.RAISE else None)
            if not _offered(options, action, state):
                out.append(action)
        if not any(a.kind in (K.BET, K.RAISE, K.COMPLETE) for a in options.actions) and current > 0:
            out.append(Action(**base, player=p.name, kind=K.RAISE, amount=unit, to=current + unit))
    if K.BRING_IN not in kinds:
        out.append(Action(**base, player=p.name, kind=K.BRING_IN, amount=min(state.bring_in or unit / 2, p.stack)))
    elif K.FOLD not in kinds:
        out.append(Action(**base, player=p.name, kind=K.FOLD))
    if state.street is not Street.THIRD and p.stack > unit:
        out.append(Action(**base, player=p.name, kind=K.COMPLETE, amount=unit, to=unit))
    # the same action by someone else: out of turn, or a folded player acting
    for other in state.order:
        if other.name != p.name and other.in_hand and (other.folded or not other.all_in):
            out.append(dataclasses.replace(original, player=other.name, all_in=False))
            break
    return [a for a in out if not _offered(options, a, state)]


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(VARIANTS, PLAYERS, SEEDS, st.booleans(), st.data())
def test_actions_not_offered_are_flagged(variant: str, players: int, seed: int, tournament: bool,
                                         data: st.DataObject) -> None:
    sims = [s for s in _hands(variant, players, seed, tournament, 2) if "partial_bring_in" not in s.features]
    if not sims:
        return
    sim = data.draw(st.sampled_from(sims))
    hand = sim.hand
    indices = [i for i, e in enumerate(hand.events) if isinstance(e, Action)]
    index = data.draw(st.sampled_from(indices))
    state = _replay(hand, index)
    options = state.legal_actions()
    original = hand.events[index]
    assert isinstance(original, Action)
    assert options is not None and options.player == original.player
    assert _offered(options, original, state), "the simulator took an option the engine did not offer"
    alternatives = _alternatives(state, options, original)
    assert alternatives
    mutation = data.draw(st.sampled_from(alternatives))
    events = list(hand.events)
    events[index] = mutation
    checked = check_hand(dataclasses.replace(hand, events=tuple(events)))
    at_line = [v for v in checked.violations if v.line == original.line]
    assert at_line, (mutation, options, checked.violations)
    assert any(v.rule in SENSIBLE for v in at_line), at_line


def test_mutation_examples_cover_every_kind() -> None:
    """A fixed sample: the generator offers mutations of every kind somewhere."""
    seen: set[ActionKind] = set()
    for sim in simulate(Variant.STUD, 20, 6, 11):
        for index, event in enumerate(sim.hand.events):
            if isinstance(event, Action):
                state = _replay(sim.hand, index)
                options = state.legal_actions()
                assert options is not None
                seen.update(a.kind for a in _alternatives(state, options, event))
    assert seen == set(ActionKind)


@pytest.mark.parametrize("variant", ["stud", "stud8", "razz"])
def test_eight_players_reach_the_community_card(variant: str) -> None:
    sims = list(simulate(variant, 400, 8, 3))
    community = [s for s in sims if "community" in s.features]
    assert community, "no 8-player hand reached 7th street with a community card"
    for sim in community:
        assert not check_hand(sim.hand).violations


def test_partial_bring_in_hands_check_clean() -> None:
    """A fixed sample with bring-in players all-in for less (rule bringin.allin), checked
    without the table's bring-in: the others' full calls are not flagged."""
    sims = [s for v in VARIANT_NAMES for seed in (0, 1, 2) for s in simulate(v, 150, 5, seed, True)
            if "partial_bring_in" in s.features]
    assert len(sims) >= 3
    for sim in sims:
        assert not check_hand(sim.hand).violations, sim.hand.hand_id


# ---------------------------------------------------------------------------- accepted means offered


def _candidates(state: StudState, options: LegalActions, original: Action) -> list[Action]:
    """Bets, raises and calls of many sizes for the player to act (none over their stack)."""
    p = state.player(options.player)
    assert p is not None
    chip = state.chip or Decimal("0.01")
    unit = _unit(state)
    current = state.current_bet
    most = p.street_in + p.stack
    base = dict(file=original.file, line=original.line, player=p.name)
    tos = {current + k * unit / 2 for k in range(1, 7)} | {state.bet_level + unit, state.bet_level + state.big}
    tos |= {current + chip, most, most - chip} | {a.to for a in options.actions}
    out: list[Action] = []
    for to in sorted(t for t in tos if current < t <= most and (t / chip) == int(t / chip)):
        all_in = to == most
        if current == 0:
            out.append(Action(**base, kind=K.BET, amount=to - p.street_in, all_in=all_in))
        else:
            out.append(Action(**base, kind=K.RAISE, amount=to - current, to=to, all_in=all_in))
    owed = current - p.street_in
    for amount in {owed, owed - chip, owed + chip, p.stack}:
        if 0 < amount <= p.stack:
            out.append(Action(**base, kind=K.CALL, amount=amount, all_in=amount == p.stack))
    return out


def _accepted(hand: Hand, index: int, action: Action) -> bool:
    state = _replay(hand, index)
    before = len(state.violations)
    state.apply(action)
    return len(state.violations) == before


@settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(VARIANTS, PLAYERS, SEEDS, st.booleans(), st.data())
def test_every_action_the_checker_accepts_was_offered(variant: str, players: int, seed: int, tournament: bool,
                                                      data: st.DataObject) -> None:
    """legal_actions() is the one definition of legality: at a point of a simulated hand,
    a bet, raise or call of any size is accepted exactly when it was offered."""
    sims = [s for s in _hands(variant, players, seed, tournament, 2) if "partial_bring_in" not in s.features]
    if not sims:
        return
    hand = data.draw(st.sampled_from(sims)).hand
    indices = [i for i, e in enumerate(hand.events) if isinstance(e, Action) and e.kind is not K.BRING_IN]
    if not indices:
        return
    index = data.draw(st.sampled_from(indices))
    state = _replay(hand, index)
    options = state.legal_actions()
    original = hand.events[index]
    assert isinstance(original, Action) and options is not None
    for action in _candidates(state, options, original):
        offered = _offered(options, action, state)
        assert _accepted(hand, index, action) == offered, (action, options)
