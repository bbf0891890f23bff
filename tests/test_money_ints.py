"""Chips as ints (money.Money): an amount written as a whole number of chips is read as an int,
and a hand of ints runs on int arithmetic with an int zero (Table.zero). An int stands exactly
for the Decimal of exponent 0, so whatever mix of ints and Decimals a hand holds, the engine
gives the same results, nets and violations, written the same, as with Decimals alone."""

from __future__ import annotations

import dataclasses
import json
from decimal import Decimal
from typing import Any

from hypothesis import HealthCheck, given, settings, strategies as st

from studbook.check import check_hand
from studbook.engine.messages import violation_record
from studbook.engine.result import HandCheck, fact_fields
from studbook.events import Action, Hand, money_fields
from studbook.money import ZERO, ZEROS, exact, format_amount, money_text, parse_amount
from studbook.rows import rows_from_checks
from studbook.simulate import simulate_hands
from studbook.write.jsonl import hand_record


def test_whole_chips_are_ints_and_other_amounts_decimals() -> None:
    assert parse_amount("1500") == 1500 and type(parse_amount("1500")) is int
    assert type(parse_amount("0")) is int and type(parse_amount("007")) is int
    # whole chips with their thousands grouped, or a comma the grammar took in: ints too (i34r18)
    for text, value in (("1,500", 1500), ("12,345,678", 12345678), ("6,", 6)):
        assert parse_amount(text) == value and type(parse_amount(text)) is int, text
    # a currency, a point or a scale: the Decimal as before (a cash hand never mixes)
    for text, value in (("$1", "1"), ("0.50", "0.50"), ("$0.10", "0.10"), ("1.5K", "1500"), ("$1,250", "1250"),
                        ("1,250 USD", "1250"), ("1,250.50", "1250.50"), ("5 USD", "5"), ("2M", "2000000")):
        amount = parse_amount(text)
        assert type(amount) is Decimal and str(amount) == value, text


def test_the_zero_and_the_edges_follow_the_amount() -> None:
    assert ZEROS[int] == 0 and type(ZEROS[int]) is int
    assert ZEROS[Decimal("0.50").__class__] is ZERO and str(ZERO) == "0"
    assert exact(25) / 2 == Decimal("12.5") and type(exact(25) / 2) is Decimal  # never a float
    assert format_amount(1500) == format_amount(Decimal(1500)) == "1500"
    assert format_amount(-7, "$") == "$-7" == format_amount(Decimal(-7), "$")
    assert money_text(35020, "tournament", None) == money_text(Decimal(35020), "tournament", None)


# ----------------------------------------------------------------------------- the property


def _whole(value: Any) -> bool:
    return type(value) is Decimal and value.as_tuple().exponent == 0


def _as_ints(obj: Any, pick: Any) -> Any:
    """``obj`` (an event, the header's stakes, a seat) with its whole Decimal amounts made
    ints where ``pick()`` says so."""
    changes: dict[str, Any] = {}
    amounts = money_fields(type(obj))
    for f in dataclasses.fields(obj):
        value = getattr(obj, f.name)
        if f.name in amounts and _whole(value) and pick():
            changes[f.name] = int(value)
        elif f.name in amounts and isinstance(value, tuple):
            changes[f.name] = tuple(int(v) if _whole(v) and pick() else v for v in value)
        elif f.name == "stakes":
            changes[f.name] = _as_ints(value, pick)
    return dataclasses.replace(obj, **changes) if changes else obj


def _with_ints(hand: Hand, pick: Any) -> Hand:
    header = _as_ints(hand.header, pick)
    return dataclasses.replace(hand, header=header, seats=tuple(_as_ints(s, pick) for s in hand.seats),
                               events=tuple(_as_ints(e, pick) for e in hand.events))


def _nudged(hand: Hand, index: int, by: int) -> Hand:
    """``hand`` with its ``index``-th action carrying an amount put ``by`` chips off (a fault)."""
    actions = [i for i, e in enumerate(hand.events) if isinstance(e, Action) and e.amount]
    if not actions or not by:
        return hand
    i = actions[index % len(actions)]
    e = hand.events[i]
    assert isinstance(e, Action) and e.amount is not None
    events = list(hand.events)
    events[i] = dataclasses.replace(e, amount=e.amount + by)
    return dataclasses.replace(hand, events=tuple(events))


def _no_float(value: Any) -> None:
    assert not isinstance(value, float), value


def _written(check: HandCheck) -> Any:
    """Everything the check found, as text: a float, a "-0" or another exponent shows here."""
    for p in check.players:
        for value in (p.contributed, p.collected, p.net):
            _no_float(value)
    facts = [tuple(str(x) for x in f[3:]) for f in fact_fields(check.action_log)]
    for f in fact_fields(check.action_log):
        for value in f[3:]:
            _no_float(value)
    return (check.status, [json.dumps(violation_record(v), sort_keys=True) for v in check.violations],
            [v.message for v in check.violations],
            {k: str(v) for k, v in check.net.items()},
            [(p.player, str(p.stack), str(p.contributed), str(p.collected), str(p.net)) for p in check.players],
            [(a.pot, str(a.amount), a.eligible, [(n, str(x)) for n, x in a.high], [(n, str(x)) for n, x in a.low])
             for a in check.pots],
            str(check.rake), facts)


_HANDS = {(variant, tournament): list(simulate_hands(variant, 12, players, seed=7 + players, tournament=tournament))
          for variant, tournament, players in (("stud", True, 5), ("stud8", True, 6), ("razz", True, 3),
                                               ("stud8", False, 7), ("stud", False, 8))}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(_HANDS)), st.integers(0, 11), st.integers(0, 40), st.integers(-2, 2), st.data())
def test_ints_and_decimals_give_the_same_check(table: Any, number: int, action: int, by: int,
                                               data: st.DataObject) -> None:
    hand = _nudged(_HANDS[table][number], action, by)
    mode = data.draw(st.sampled_from(("all", "some")))
    pick = (lambda: True) if mode == "all" else (lambda: data.draw(st.booleans()))
    ints = _with_ints(hand, pick)
    checked, as_decimals = check_hand(ints), check_hand(hand)
    assert _written(checked) == _written(as_decimals)
    assert hand_record(ints) == hand_record(hand)  # (the export writes an int amount as the Decimal's text)
    # the rows find a chip hand's figures by their value (rows._BY_VALUE), a cash hand's by their
    # text: the same rows (the store's content), whatever mix of ints and Decimals the hand holds
    assert rows_from_checks([checked]) == rows_from_checks([as_decimals])


def test_a_tournament_hand_of_ints_runs_on_ints() -> None:
    hand = _with_ints(_HANDS[("stud", True)][0], lambda: True)
    assert type(hand.header.stakes.small_bet) is int
    check = check_hand(hand)
    assert check.status == "ok"
    assert all(type(p.contributed) is int and type(p.collected) is int for p in check.players)
    assert type(check.pots[0].amount) is int


def test_a_chip_hands_figures_are_not_written_out_for_their_minor_units(monkeypatch: Any) -> None:
    # an int's minor units by the int itself (its hash is the int): str and the text memo are
    # for a cash hand's new Decimals (rows._figure_keys)
    from studbook import rows
    from studbook.read.memo import Memo

    class Refused(Memo[str, int]):
        def __getitem__(self, text: str) -> int:
            raise AssertionError(f"{text} written out")

    hand = _with_ints(_HANDS[("stud", True)][0], lambda: True)
    check = check_hand(hand)
    before = rows.rows_from_checks([check])
    monkeypatch.setattr(rows, "_BY_TEXT", (str, Refused(str)))
    seen = rows._scan(hand)
    pots, won = rows._pot_rows(check, ("s", "1"), rows._figure_keys(check.hand), None)
    players = rows._player_rows(hand.site, hand.hand_id, "stud", 8, 8, check, seen, won, rows._figure_keys(hand), None)
    actions = rows._action_rows(check, hand.site, hand.hand_id, rows._figure_keys(hand), None)
    assert len(actions) == len(check.action_log) and len(players) == len(check.players) and pots
    assert rows._action_rows(check, hand.site, hand.hand_id, rows._figure_keys(hand), None) == before["actions"]
