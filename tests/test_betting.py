"""The one betting arithmetic (``studbook.betting``): street totals and what a completion is.

A bet or raise that faces only the bring-in is ``complete`` in every frame and
stat, whatever the site calls it (PokerStars writes ``raises $0.02 to $0.04``).
"""

from __future__ import annotations

from decimal import Decimal
from pathlib import Path

import pytest

from studbook.betting import StreetLedger, completes, named, street_total, written_total
from studbook.events import ActionKind, Street
from studbook.frames import load

from test_rules import RAZZ

D = Decimal
K = ActionKind


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


def test_the_ledger_gives_each_actions_facts() -> None:
    ledger: StreetLedger[int] = StreetLedger(0)
    ledger.ante(10)
    ledger.ante(10)
    bring = ledger.act("A", K.BRING_IN, 5, None)
    done = ledger.act("B", K.RAISE, 5, 10)  # PokerStars' "raises 5 to 10"
    again = ledger.act("A", K.RAISE, 10, 20)
    assert (bring.kind, bring.put_in, bring.to_call, bring.bets_before, bring.pot_before) == (K.BRING_IN, 5, 0, 0, 20)
    assert (done.kind, done.put_in, done.to_call, done.bets_before, done.pot_before) == (K.COMPLETE, 10, 5, 0, 25)
    assert (again.kind, again.put_in, again.to_call, again.bets_before, again.pot_before) == (K.RAISE, 15, 5, 1, 35)
    ledger.returned("A", 10)
    assert ledger.pot == 40


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
