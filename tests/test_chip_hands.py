"""A hand's amounts are of one kind (i34r18): every chip hand of the corpus (a tournament or
play-money hand) reads to events whose amounts are all ints where its chips are written as whole
numbers (all Decimals where written with a point: Merge's "$1000.00", Winamax's "0.5"), and every
cash hand's (a currency named) all Decimals. A hand of both kinds mixes: each operation
on an int and a Decimal converts the int (exact, but i34e13 measured +16 k to +37 k a hand), and
the readers' Ledger counted from a Decimal zero, so a chip hand came out part Decimals."""

from __future__ import annotations

import dataclasses
from decimal import Decimal
from typing import Any, Iterator

import pytest

from studbook.events import ActionKind, Hand, Street, TournamentFinish, money_fields
from studbook.parse import read_file
from studbook.sites.ledger import Ledger
from samples import CORPUS

_SKIP = (".gt", ".hands", ".hp", ".json", ".md", ".tsv")
FILES = sorted(p for p in CORPUS.rglob("*") if p.is_file() and p.suffix not in _SKIP and "summaries" not in p.parts)


def _amounts(obj: Any) -> Iterator[tuple[str, Any]]:
    """Every amount of an event, a seat or a header (fields typed Money), with its place."""
    if isinstance(obj, (tuple, list)):
        for item in obj:
            yield from _amounts(item)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, (type, TournamentFinish)):  # a prize is money
        for field in dataclasses.fields(obj):
            value = getattr(obj, field.name)
            if field.name in money_fields(type(obj)):
                for amount in value if isinstance(value, tuple) else (value,):  # (a PotSummary's pots)
                    if amount is not None:
                        yield f"{type(obj).__name__}.{field.name}", amount
            elif isinstance(value, (tuple, list)) or dataclasses.is_dataclass(value):
                yield from _amounts(value)


def _kinds(hand: Hand) -> set[tuple[str, type]]:
    return {(where, type(value)) for where, value in _amounts((hand.header.stakes, hand.seats, hand.events))}


def _hands() -> Iterator[Hand]:
    for path in FILES:
        yield from read_file(path).hands


def _chips(hand: Hand) -> bool:
    header = hand.header
    return header.currency is None and (header.tournament is not None or header.play_money)


def test_the_corpus_s_whole_chip_hands_are_ints(corpus: Any) -> None:
    sites = {hand.site for hand in _hands() if _chips(hand) and {kind for _w, kind in _kinds(hand)} == {int}}
    assert {"bovada", "ipoker", "partypoker", "fulltilt", "pokerstars"} <= sites


# Winamax's cash amounts are written "5€", and its grammar's EURO terminal keeps the figure apart
# from the sign, so a whole number of euros reads as chips (an int) beside "1749.22€" (i34r18's
# "What is left": the figure read with its sign)
_EUROS_AS_CHIPS = pytest.mark.xfail(strict=True, reason="Winamax reads a whole euro amount without its sign")
_CASES = [pytest.param(p, marks=_EUROS_AS_CHIPS) if p.parent.name == "Winamax" and "-EUR-" in p.name else p
          for p in FILES] or [pytest.param(None, marks=pytest.mark.skip(  # (no corpus: say so, as the fixture does)
              reason=f"real hand-history corpus not found at {CORPUS}"))]


@pytest.mark.parametrize("path", _CASES, ids=lambda p: str(p.relative_to(CORPUS)) if p else "no-corpus")
def test_a_hand_s_amounts_are_of_one_kind(path: Any) -> None:
    for hand in read_file(path).hands:
        kinds = _kinds(hand)
        if _chips(hand):
            assert len({kind for _where, kind in kinds}) == 1, (hand, sorted(kinds, key=str))
        elif hand.header.currency is not None:
            assert {kind for _where, kind in kinds} <= {Decimal}, (hand, sorted(k for k in kinds if k[1] is not Decimal))


def test_the_ledger_counts_from_the_first_ante_s_kind() -> None:
    chips = Ledger({"A": 1500, "B": 1500})
    cash = Ledger({"A": Decimal("15.00"), "B": Decimal("15.00")})
    for ledger, ante, bet in ((chips, 10, 40), (cash, Decimal("0.10"), Decimal("0.40"))):
        for player in ("A", "B"):
            ledger.post_ante(player, ante)
        ledger.start(Street.THIRD)
        ledger.act("A", ActionKind.BET, chips=bet)
        called = ledger.check_or_call("B")
        ledger.start(Street.FOURTH)
        checked = ledger.check_or_call("B")  # nothing owed: a check, the bet to match the hand's zero
        assert type(ledger.zero) is type(ledger.level) is type(ante), (ledger.zero, ledger.level)
        assert type(called[1]) is type(bet) and checked[0] is ActionKind.CHECK, (called, checked)
        assert {type(v) for v in ledger.put_in.values()} == {type(bet)}
        assert {type(amount) for amount, _eligible in ledger.pots()} == {type(bet)}

