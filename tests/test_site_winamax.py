"""Winamax: real hands of the corpus, field by field (no FPDB expected files exist for them)."""

from __future__ import annotations

from collections import Counter
from decimal import Decimal as D
from pathlib import Path

import pytest

from studbook.events import Action, ActionKind, Collect, Deal, Half, Hand, PotSummary, Show, Variant
from studbook.parse import read_file
from studbook.sites import register
from studbook.sites.winamax import FORMAT
from samples import CORPUS

CORPUS = CORPUS / "Winamax"
NEGATIVE = CORPUS / "7-Stud-6max-EUR-25-50-201611._8games_.negative.bet.txt"
STUD = CORPUS / "7-Stud-6max-EUR-25-50-201611._8games_.txt"
PLAY = CORPUS / "7-Stud-6max-play-0.5-0.10-201606.export.txt"
HILO = CORPUS / "7-StudHL-6max-EUR-25-50-201611._8games_.txt"
RAZZ = CORPUS / "Razz-6max-EUR-25-50-201611._8games_.txt"
ALL = (NEGATIVE, STUD, PLAY, HILO, RAZZ)

pytestmark = pytest.mark.skipif(not CORPUS.is_dir(), reason="corpus ../shared/corpus/Winamax not present")


@pytest.fixture(scope="module", autouse=True)
def _registered() -> None:
    register(FORMAT)


def _hand(path: Path) -> Hand:
    result = read_file(path)
    assert result.site == "winamax", result.summary()
    assert result.ok and len(result.hands) == 1, result.details()
    return result.hands[0]


def _actions(hand: Hand) -> list[tuple[str, ActionKind, D | None, D | None, bool]]:
    return [(e.player, e.kind, e.amount, e.to, e.all_in) for e in hand.events if isinstance(e, Action)]


def test_negative_raise_is_normalised() -> None:
    hand = _hand(NEGATIVE)
    header = hand.header
    assert header.currency == "EUR" and header.variant is Variant.STUD
    assert (header.stakes.ante, header.stakes.small_bet, header.stakes.big_bet) == (D(5), D(25), D(50))
    assert [(s.seat, s.player, s.stack) for s in hand.seats] == [
        (2, "Player0", D("33.90")), (3, "Player1", D("2417.80")), (5, "Hero", D("802.07"))]
    assert _actions(hand) == [
        ("Player0", ActionKind.BRING_IN, D(10), None, False),
        ("Player1", ActionKind.COMPLETE, D(25), D(25), False),  # "raises 25€ to 25€"
        ("Hero", ActionKind.FOLD, None, None, False),
        # "raises -6.10€ to 18.90€": 18.90 are the chips added to the 10 bring-in, all-in
        ("Player0", ActionKind.RAISE, D("3.90"), D("28.90"), True),
        ("Player1", ActionKind.CALL, D("3.90"), None, False),
    ]
    third = [e for e in hand.events if isinstance(e, Deal)][:3]
    assert [(d.player, len(d.down), [str(c) for c in d.up]) for d in third] == [
        ("Player0", 0, ["8h"]), ("Player1", 0, ["Kc"]), ("Hero", 2, ["9h"])]
    total = next(e for e in hand.events if isinstance(e, PotSummary))
    # "Total pot 70.30€ | Rake 2.50€": Winamax's total is net of the rake
    assert (total.total, total.rake) == (D("72.80"), D("2.50"))


def test_play_money_without_deals() -> None:
    hand = _hand(PLAY)
    assert hand.header.play_money and hand.header.currency is None
    assert (hand.header.stakes.ante, hand.header.stakes.small_bet) == (D("0.01"), D("0.05"))
    assert hand.header.table == "Ceské Budejovice"
    assert not any(isinstance(e, Deal) for e in hand.events)
    shows = [(e.player, len(e.cards)) for e in hand.events if isinstance(e, Show)]
    assert shows == [("Player2", 7), ("Player0", 7)]
    assert [(e.player, e.amount) for e in hand.events if isinstance(e, Collect)] == [("Player0", D("0.65"))]


def test_hi_lo_halves_and_razz() -> None:
    hand = _hand(HILO)
    assert hand.header.variant is Variant.STUD8
    assert [(e.player, e.amount, e.half) for e in hand.events if isinstance(e, Collect)] == [
        ("Player0", D(114), Half.HIGH), ("Player0", D(114), Half.LOW)]
    assert _hand(RAZZ).header.variant is Variant.RAZZ


def test_check_results() -> None:
    check = pytest.importorskip("studbook.check")
    found = Counter((h.hand_id, v.rule) for h in map(_hand, ALL) for v in check.check_hand(h).violations)
    # Profile WINAMAX (tests/test_engine_profiles.py): 4th-7th street deals are listed from the
    # first to act (deals_in_order=False); the first bettor of the final round shows first
    # (show_order_bet="first_bettor"); no uncalled-bet line, the returned bet stays in the stated
    # pot and the collection (logs_uncalled=False, uncalled_in_pot=True).
    assert found == Counter()


def test_detects_a_hand_header_only_at_a_line_start() -> None:
    header = "Winamax Poker - CashGame - HandId: #9250793-470-1478990787 - 7-Card Stud fixed limit - 2016/11/12 22:46:27 UTC\n"
    assert FORMAT.detect(header) and FORMAT.detect("text before\n" + header)
    assert not FORMAT.detect("x" + header)
