"""OnGame: real hands of the corpus, field by field (no FPDB expected files exist for them)."""

from __future__ import annotations

from datetime import datetime, timezone
from decimal import Decimal as D
from pathlib import Path

import pytest

from studbook.events import Action, ActionKind, Collect, Deal, Hand, PotSummary, Show, ShowdownStart, Variant
from studbook.parse import read_file
from studbook.sites import register
from studbook.sites.ongame import FORMAT
from samples import CORPUS

CORPUS = CORPUS / "OnGame"
BIG = CORPUS / "7-Stud-USD-1.00-2.00-201212.big.bring.txt"
HILO = CORPUS / "7-StudHL-USD-0.25-0.50-201008.All.streets.txt"

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus ../shared/corpus/OnGame not present")


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register(FORMAT)


def _hand(path: Path) -> Hand:
    result = read_file(path)
    assert result.site == "ongame", result.summary()
    assert result.ok and len(result.hands) == 1, result.details()
    return result.hands[0]


def _actions(hand: Hand) -> list[tuple[str, ActionKind, D | None, D | None]]:
    return [(e.player, e.kind, e.amount, e.to) for e in hand.events if isinstance(e, Action)]


def test_big_bring_in_is_a_completion() -> None:
    hand = _hand(BIG)
    header = hand.header
    assert header.hand_id == "R5-292493407-77" and header.currency == "USD"
    assert (header.stakes.small_bet, header.stakes.big_bet, header.stakes.ante) == (D(1), D(2), D("0.10"))
    assert header.started_utc == datetime(2012, 12, 4, 18, 48, 34, tzinfo=timezone.utc)  # CET
    assert [(s.seat, s.player, s.stack) for s in hand.seats] == [(3, "Hero", D("27.20")), (6, "Player0", D("74.40"))]
    assert _actions(hand)[:3] == [
        ("Hero", ActionKind.COMPLETE, D(1), D(1)),  # "big bring in $1"
        ("Player0", ActionKind.RAISE, D(1), D(2)),  # "raises $2 to $2"
        ("Hero", ActionKind.CALL, D(1), None),
    ]
    third = [e for e in hand.events if isinstance(e, Deal)][:2]
    assert [(d.player, len(d.down), [str(c) for c in d.up]) for d in third] == [("Hero", 2, ["2s"]), ("Player0", 0, ["7d"])]
    kinds = [type(e).__name__ for e in hand.events[-6:]]
    assert kinds == ["ShowdownStart", "Show", "Collect", "PotSummary", "SeatSummary", "SeatSummary"]
    show = next(e for e in hand.events if isinstance(e, Show))
    assert show.player == "Player0" and [str(c) for c in show.cards] == ["6d", "4c", "7d", "6s", "8c", "As", "8d"]
    assert next(e for e in hand.events if isinstance(e, Collect)).amount == D("9.70")
    total = next(e for e in hand.events if isinstance(e, PotSummary))
    assert (total.total, total.rake) == (D("10.20"), D("0.50"))


def test_raise_to_is_the_street_total_not_the_hand_total() -> None:
    hand = _hand(HILO)
    assert hand.header.variant is Variant.STUD8
    acts = _actions(hand)
    assert acts[0] == ("Hero", ActionKind.BRING_IN, D("0.12"), None)  # "small bring in"
    assert ("Hero", ActionKind.RAISE, D("0.50"), D(1)) in acts  # "raises $1 to $1.37"
    assert not any(isinstance(e, ShowdownStart) for e in hand.events[:-12])


def test_check_results() -> None:
    check = pytest.importorskip("studbook.check")
    for hand in (_hand(BIG), _hand(HILO)):
        assert check.check_hand(hand).violations == ()


def test_detects_a_hand_header_only_at_a_line_start() -> None:
    header = "***** History for hand R5-78227816-62 *****\n"
    assert FORMAT.detect(header) and FORMAT.detect("text before\n" + header)
    assert not FORMAT.detect("x" + header)
